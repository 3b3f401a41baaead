"""Reminders (SPEC §4a; docs/players.md "Reminders"): the VAPID key's secret, the scan every minute, the
queue it fills and the sender that drains it.

- The scan (functions/reminders/scan.py), on EventBridge Scheduler every minute, reads the send
  minute's subscriptions, one query per shard (`REMIND#<minute>#<shard>` partitions only), and
  sends them to the queue in batches of 50.
- The sender (functions/reminders/send.py), on the queue, reads each player's slot of the day and
  official result of the last send's day (GetItem), marks the send (a conditional UpdateItem) or ends the
  subscription (DeleteItem), then pushes over HTTPS to the browser's push service. A message that
  fails is retried (partial batch response) and then kept in the dead-letter queue, as is a scan
  that fails after its retries; any message there alarms. The two functions are not behind the
  API functions' `live` aliases and canaries (infra/deploys.py): they deploy as they are.
- The VAPID key is made from a secret Secrets Manager generates (shared/runtime/push.py), read by
  the sender (to sign) and the leaderboard function (to give the page the public key).
"""

from collections.abc import Callable
from pathlib import Path

from aws_cdk import Aws, Duration, RemovalPolicy
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_destinations as destinations
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_logs as logs
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_scheduler_targets as targets
from aws_cdk import aws_secretsmanager as secretsmanager
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.checks import acknowledge
from infra.functions import ARCHITECTURE, COMMON_ENVIRONMENT, RUNTIME, lambda_handler
from shared.dynamo.keys import PLAYER, REMIND
from shared.http.routes import REMINDER_SCAN_HANDLER, REMINDER_SEND_HANDLER

SEND_TIMEOUT = Duration.seconds(60)  # 50 pushes of at most 5 s each, most far quicker
SEND_BATCH = 5  # messages per invocation: 250 reminders
# The sender's cap (the queue's event source), not a reservation: at P seconds a push, it drains
# SEND_CONCURRENCY / P reminders a second (docs/data-model.md, "Reminders").
SEND_CONCURRENCY = 100
SEND_RETRIES = 3  # receives before a message goes to the dead-letter queue
SCAN_MAX_EVENT_AGE = Duration.minutes(5)  # a scan later than this would remind at the wrong time


class Reminders(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        table: dynamodb.ITable,
        asset_dir: Path,
        readers: list[lambda_.Function],
        alarm: Callable[..., cw.Alarm],
        production: bool,
        log_retention: logs.RetentionDays,
        log_removal: RemovalPolicy,
    ) -> None:
        super().__init__(scope, id)
        removal = RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY
        self.vapid_key = secretsmanager.Secret(
            self,
            "VapidKey",
            description="WordSQD reminders: the secret the VAPID (Web Push) key is made from",
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=64, exclude_punctuation=True
            ),
            removal_policy=removal,
        )
        acknowledge(
            self.vapid_key,
            "AwsSolutions-SMG4",
            "Rotating it changes the VAPID key: every browser must subscribe again (docs/players.md).",
        )
        self.dead_letters = sqs.Queue(
            self,
            "Undelivered",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
            removal_policy=removal,
        )
        acknowledge(
            self.dead_letters, "AwsSolutions-SQS3", "This queue is the reminder queue's dead-letter queue."
        )
        self.queue = sqs.Queue(
            self,
            "Queue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            visibility_timeout=Duration.seconds(SEND_TIMEOUT.to_seconds() * 6),  # Lambda's advice
            retention_period=Duration.hours(1),  # a reminder an hour late is no reminder
            dead_letter_queue=sqs.DeadLetterQueue(max_receive_count=SEND_RETRIES, queue=self.dead_letters),
            removal_policy=removal,
        )

        code = lambda_.Code.from_asset(str(asset_dir))  # the one asset (same hash: one upload)
        self.scan = self._function(
            "Scan", REMINDER_SCAN_HANDLER, "WordSQD: queue the minute's reminders", 512,
            Duration.seconds(55), 2, code, log_retention, log_removal,
        )  # fmt: skip
        self.send = self._function(
            "Send", REMINDER_SEND_HANDLER, "WordSQD: push reminders (Web Push)", 512,
            SEND_TIMEOUT, None, code, log_retention, log_removal,
        )  # fmt: skip
        for function in (self.scan, self.send):
            function.add_environment("TABLE_NAME", table.table_name)

        # The scan: Query of its minute's partitions alone; SendMessage to the queue.
        self.scan.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:Query"],
                resources=[table.table_arn],
                conditions={"ForAllValues:StringLike": {"dynamodb:LeadingKeys": [f"{REMIND}*"]}},
            )
        )
        self.queue.grant_send_messages(self.scan)
        self.scan.add_environment("REMINDER_QUEUE_URL", self.queue.queue_url)

        # The sender: GetItem (a slot, an official result, the player's REMINDER item), UpdateItem and
        # DeleteItem of subscriptions (REMIND#) and of the player's REMINDER item (PLAYER#).
        self.send.add_to_role_policy(
            iam.PolicyStatement(actions=["dynamodb:GetItem"], resources=[table.table_arn])
        )
        self.send.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:UpdateItem", "dynamodb:DeleteItem"],
                resources=[table.table_arn],
                conditions={
                    "ForAllValues:StringLike": {"dynamodb:LeadingKeys": [f"{REMIND}*", f"{PLAYER}*"]}
                },
            )
        )
        for function in (self.send, *readers):
            self.vapid_key.grant_read(function)
            function.add_environment("VAPID_KEY_SECRET_ARN", self.vapid_key.secret_arn)
        self.send.add_event_source(
            sources.SqsEventSource(
                self.queue,
                batch_size=SEND_BATCH,
                report_batch_item_failures=True,
                max_concurrency=SEND_CONCURRENCY,
            )
        )

        # Invoked through an alias (of $LATEST: no canary here), so the schedule's role names it
        # alone, not every version.
        self.scan_alias = lambda_.Alias(self, "ScanLive", alias_name="live", version=self.scan.latest_version)
        # A scan that fails after Lambda's retries lands in the dead-letter queue too (it alarms).
        self.scan_alias.configure_async_invoke(
            retry_attempts=1,
            max_event_age=SCAN_MAX_EVENT_AGE,
            on_failure=destinations.SqsDestination(self.dead_letters),
        )
        role = iam.Role(
            self,
            "InvokeRole",
            assumed_by=iam.ServicePrincipal(
                "scheduler.amazonaws.com", conditions={"StringEquals": {"aws:SourceAccount": Aws.ACCOUNT_ID}}
            ),
            description="EventBridge Scheduler: invoke the WordSQD reminder scan",
        )
        self.schedule = scheduler.Schedule(
            self,
            "EveryMinute",
            description="WordSQD: queue the reminders of this minute (America/Chicago)",
            schedule=scheduler.ScheduleExpression.rate(Duration.minutes(1)),
            target=targets.LambdaInvoke(
                self.scan_alias,
                input=scheduler.ScheduleTargetInput.from_object(
                    {
                        "source": "wordsqd.reminders",
                        "scheduled_time": scheduler.ContextAttribute.scheduled_time,
                    }
                ),
                retry_attempts=2,
                max_event_age=SCAN_MAX_EVENT_AGE,
                dead_letter_queue=self.dead_letters,
                role=role,
            ),
        )

        alarm(
            "ReminderDeadLetters",
            self.dead_letters.metric_approximate_number_of_messages_visible(period=Duration.minutes(5)),
            1,
            "Reminder scans or batches failed after their retries: reminders were not sent.",
        )

    def _function(
        self,
        title: str,
        entry: str,
        description: str,
        memory_mb: int,
        timeout: Duration,
        reserved: int | None,
        code: lambda_.Code,
        log_retention: logs.RetentionDays,
        log_removal: RemovalPolicy,
    ) -> lambda_.Function:
        log_group = logs.LogGroup(self, f"{title}Logs", retention=log_retention, removal_policy=log_removal)
        role = iam.Role(
            self,
            f"{title}Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"WordSQD reminder {title.lower()} function",
        )
        log_group.grant_write(role)
        function = lambda_.Function(
            self,
            title,
            description=description,
            code=code,
            handler=lambda_handler(entry),
            runtime=RUNTIME,
            architecture=ARCHITECTURE,
            memory_size=memory_mb,
            timeout=timeout,
            role=role,
            environment=dict(COMMON_ENVIRONMENT),
            log_group=log_group,
            logging_format=lambda_.LoggingFormat.JSON,
            application_log_level_v2=lambda_.ApplicationLogLevel.INFO,
            system_log_level_v2=lambda_.SystemLogLevel.INFO,
            tracing=lambda_.Tracing.ACTIVE,
            reserved_concurrent_executions=reserved,
        )
        acknowledge(function, "AwsSolutions-L1", "Pinned to the Python the asset's wheels are built for.")
        acknowledge(
            role,
            "AwsSolutions-IAM5[Resource::*]",
            "X-Ray PutTraceSegments/PutTelemetryRecords take no resource.",
        )
        return function
