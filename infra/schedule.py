"""The Daily reset at 00:00 America/Chicago, on EventBridge Scheduler.

Scheduler evaluates the cron in the named time zone, so the job follows daylight saving
(06:00 UTC in winter, 05:00 UTC in summer); a classic EventBridge rule is UTC-only and would
drift by an hour for half the year.

Failures end up in one dead-letter queue, from either of the two hops:
- Scheduler -> Lambda: Scheduler retries delivery, then sends the event to the queue;
- inside Lambda: Scheduler invokes asynchronously, so a function error is retried by Lambda's
  own async retries and, once those are spent, the invocation record goes to the same queue.
The reset is idempotent and safe late (SPEC §6), so every retry is harmless.
"""

from aws_cdk import Aws, Duration, Stack, TimeZone
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_destinations as destinations
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_scheduler_targets as targets
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.checks import acknowledge

DELIVERY_RETRIES = 5
FUNCTION_RETRIES = 2
# A reset an hour late is still useful (the puzzle is also made on first use), a day late is not.
MAX_EVENT_AGE = Duration.hours(1)


class ResetSchedule(Construct):
    def __init__(self, scope: Construct, id: str, *, reset: lambda_.Function) -> None:
        super().__init__(scope, id)

        self.dead_letters = sqs.Queue(
            self,
            "DeadLetters",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),  # SQS's maximum: time to notice and replay
        )
        acknowledge(
            self.dead_letters,
            "AwsSolutions-SQS3",
            "This queue is itself the dead-letter queue of the reset job.",
        )

        reset.configure_async_invoke(
            retry_attempts=FUNCTION_RETRIES,
            max_event_age=MAX_EVENT_AGE,
            on_failure=destinations.SqsDestination(self.dead_letters),
        )

        # Our own role (the target would otherwise make an anonymous one at stack level), assumable
        # only by Scheduler acting for this account.
        self.role = iam.Role(
            self,
            "InvokeRole",
            assumed_by=iam.ServicePrincipal(
                "scheduler.amazonaws.com",
                conditions={"StringEquals": {"aws:SourceAccount": Aws.ACCOUNT_ID}},
            ),
            description="EventBridge Scheduler: invoke the WordSQD reset function",
        )
        reset_id = Stack.of(self).resolve(reset.function_arn)["Fn::GetAtt"][0]
        acknowledge(
            self.role,
            f"AwsSolutions-IAM5[Resource::<{reset_id}.Arn>:*]",
            "grantInvoke's ARN:* covers the reset function's own versions and aliases only.",
        )

        self.schedule = scheduler.Schedule(
            self,
            "Midnight",
            description="WordSQD Daily reset at 00:00 America/Chicago",
            schedule=scheduler.ScheduleExpression.cron(
                minute="0", hour="0", time_zone=TimeZone.AMERICA_CHICAGO
            ),
            target=targets.LambdaInvoke(
                reset,
                # The intended instant travels with the event (the job logs its event), so a
                # retried or late run can be told from an on-time one.
                input=scheduler.ScheduleTargetInput.from_object(
                    {
                        "source": "wordsqd.schedule",
                        "scheduled_time": scheduler.ContextAttribute.scheduled_time,
                    }
                ),
                retry_attempts=DELIVERY_RETRIES,
                max_event_age=MAX_EVENT_AGE,
                dead_letter_queue=self.dead_letters,
                role=self.role,
            ),
        )
