"""The background jobs: the Daily reset at 00:00 America/Chicago and the one-minute expiry job, on
EventBridge Scheduler, and the rank counters on the table's stream.

Scheduler evaluates the cron in the named time zone, so the reset follows daylight saving (06:00
UTC in winter, 05:00 UTC in summer); a classic EventBridge rule is UTC-only and would drift by an
hour for half the year.

Failures of either schedule end up in one dead-letter queue, from either of the two hops:
- Scheduler -> Lambda: Scheduler retries delivery, then sends the event to the queue;
- inside Lambda: Scheduler invokes asynchronously, so a function error is retried by Lambda's
  own async retries and, once those are spent, the invocation record goes to the same queue.
Both jobs are idempotent and safe late (SPEC §6), so every retry is harmless.

The stream consumer's failed batches (after bisecting down to the failing record and its retries)
go to a queue of their own, as stream records: they point at the shard and sequence numbers to
replay, not at an event.
"""

from aws_cdk import Duration, RemovalPolicy, TimeZone
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_destinations as destinations
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_scheduler_targets as targets
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.checks import acknowledge
from infra.scheduler_role import scheduler_role
from shared.dynamo.keys import OFFICIAL, RENAME_SK

DELIVERY_RETRIES = 5
FUNCTION_RETRIES = 2
# A reset an hour late is still useful (the puzzle is also made on first use), a day late is not.
RESET_MAX_EVENT_AGE = Duration.hours(1)
# An expiry run two minutes late is superseded by the next one anyway.
EXPIRE_MAX_EVENT_AGE = Duration.minutes(2)
EXPIRE_RETRIES = 1

# Only new official results count (COMMON.md contract): INSERTs whose sort key starts OFFICIAL#.
COUNTERS_FILTER = {
    "eventName": lambda_.FilterRule.is_equal("INSERT"),
    "dynamodb": {"NewImage": {"sk": {"S": lambda_.FilterRule.begins_with(OFFICIAL)}}},
}
# Renames: each write of a player's RENAME item (shared/dynamo/codec.py), which the consumer
# follows onto the player's live boards.
RENAMES_FILTER = {
    "eventName": lambda_.FilterRule.or_("INSERT", "MODIFY"),
    "dynamodb": {"Keys": {"sk": {"S": lambda_.FilterRule.is_equal(RENAME_SK)}}},
}
COUNTERS_BATCH_SIZE = 100
COUNTERS_BATCHING_WINDOW = Duration.seconds(1)
COUNTERS_RETRIES = 5


def _queue(scope: Construct, id: str, removal: RemovalPolicy, what: str) -> sqs.Queue:
    queue = sqs.Queue(
        scope,
        id,
        encryption=sqs.QueueEncryption.SQS_MANAGED,
        enforce_ssl=True,
        retention_period=Duration.days(14),  # SQS's maximum: time to notice and replay
        removal_policy=removal,
    )
    acknowledge(queue, "AwsSolutions-SQS3", f"This queue is itself the dead-letter queue of {what}.")
    return queue


class Jobs(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        reset: lambda_.IFunction,
        expire: lambda_.IFunction,
        counters: lambda_.IFunction,
        table: dynamodb.ITable,
        production: bool,
    ) -> None:
        super().__init__(scope, id)
        removal = RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY

        self.dead_letters = _queue(self, "DeadLetters", removal, "the reset and expiry jobs")
        self.counter_failures = _queue(self, "CounterFailures", removal, "the rank-counter stream")

        # Our own role (the target would otherwise make an anonymous one at stack level), assumable
        # only by Scheduler acting for this account.
        self.role = scheduler_role(
            self, "InvokeRole", "EventBridge Scheduler: invoke the WordSQD reset and expiry jobs"
        )

        for job, retries, max_age in [
            (reset, FUNCTION_RETRIES, RESET_MAX_EVENT_AGE),
            (expire, EXPIRE_RETRIES, EXPIRE_MAX_EVENT_AGE),
        ]:
            job.configure_async_invoke(
                retry_attempts=retries,
                max_event_age=max_age,
                on_failure=destinations.SqsDestination(self.dead_letters),
            )

        self.reset_schedule = scheduler.Schedule(
            self,
            "Midnight",
            description="WordSQD Daily reset at 00:00 America/Chicago",
            schedule=scheduler.ScheduleExpression.cron(
                minute="0", hour="0", time_zone=TimeZone.AMERICA_CHICAGO
            ),
            target=self._target(reset, "reset", RESET_MAX_EVENT_AGE),
        )
        self.expire_schedule = scheduler.Schedule(
            self,
            "EveryMinute",
            description="WordSQD: complete expired runs and close boards, every minute",
            schedule=scheduler.ScheduleExpression.rate(Duration.minutes(1)),
            target=self._target(expire, "expire", EXPIRE_MAX_EVENT_AGE),
        )

        self.stream_source = sources.DynamoEventSource(
            table,
            starting_position=lambda_.StartingPosition.TRIM_HORIZON,
            batch_size=COUNTERS_BATCH_SIZE,
            max_batching_window=COUNTERS_BATCHING_WINDOW,
            bisect_batch_on_error=True,
            retry_attempts=COUNTERS_RETRIES,
            report_batch_item_failures=True,  # the handler returns Powertools' partial batch response
            on_failure=sources.SqsDlq(self.counter_failures),
            filters=[
                lambda_.FilterCriteria.filter(COUNTERS_FILTER),
                lambda_.FilterCriteria.filter(RENAMES_FILTER),
            ],
            # PolledEventCount and friends: the heartbeat that shows the mapping is polling.
            metrics_config=lambda_.MetricsConfig(metrics=[lambda_.MetricType.EVENT_COUNT]),
        )
        counters.add_event_source(self.stream_source)

    def _target(self, job: lambda_.IFunction, name: str, max_age: Duration) -> targets.LambdaInvoke:
        return targets.LambdaInvoke(
            job,
            # The intended instant travels with the event (the jobs log their event), so a retried
            # or late run can be told from an on-time one.
            input=scheduler.ScheduleTargetInput.from_object(
                {
                    "source": "wordsqd.schedule",
                    "job": name,
                    "scheduled_time": scheduler.ContextAttribute.scheduled_time,
                }
            ),
            retry_attempts=DELIVERY_RETRIES,
            max_event_age=max_age,
            dead_letter_queue=self.dead_letters,
            role=self.role,
        )
