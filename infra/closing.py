"""The closing pass's engine (SPEC §6; shared/services/closing_pass.py): an SQS queue of pieces, a
worker function that Lambda's event source mapping runs one message at a time, and a dead-letter
queue for the pieces given up on (an alarm: infra/stack.py hands it to Operations).

The expiry job sends the first pieces (CLOSING_QUEUE_URL); each worker sends the pieces after its
own (the next page of its shard, the merge, the judging). A piece that fails is delivered again
after the visibility timeout, MAX_RECEIVES times, then parked; a redrive runs it again (every
piece may run more than once). The worker's grant is infra/permissions.py CLOSING_ACCESS, checked like
the other functions' (tests/infra/test_moderation_infra.py).
"""

from pathlib import Path

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.checks import acknowledge
from infra.data import Data
from infra.functions import (
    ARCHITECTURE,
    COMMON_ENVIRONMENT,
    FULL_CORE_MB,
    RUNTIME,
    lambda_handler,
    table_statements,
)
from infra.permissions import CLOSING_ACCESS
from shared.http.routes import CLOSING_PIECE_HANDLER
from shared.runtime.piece_queue import MAX_RECEIVES

# A piece reads at most PAGE_RUNS (2,000) runs: seconds; the merge of ten million runs' 5,024
# partials about a minute and a half (docs/moderation.md, "The closing pass").
PIECE_TIMEOUT = Duration.minutes(5)
# At most this many pieces at once: 32 shards' first pages, and a margin for challenges.
PIECE_CONCURRENCY = 40


class ClosingPieces(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        data: Data,
        asset_dir: Path,
        expire: lambda_.Function,
        log_retention: logs.RetentionDays,
        log_removal: RemovalPolicy,
    ) -> None:
        super().__init__(scope, id)
        self.dead_letters = sqs.Queue(
            self,
            "DeadPieces",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
            removal_policy=log_removal,
        )
        acknowledge(
            self.dead_letters, "AwsSolutions-SQS3", "This queue is itself the pieces' dead-letter queue."
        )
        self.queue = sqs.Queue(
            self,
            "Pieces",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            visibility_timeout=PIECE_TIMEOUT.plus(Duration.seconds(30)),
            dead_letter_queue=sqs.DeadLetterQueue(max_receive_count=MAX_RECEIVES, queue=self.dead_letters),
            removal_policy=log_removal,
        )
        log_group = logs.LogGroup(self, "Logs", retention=log_retention, removal_policy=log_removal)
        role = iam.Role(
            self,
            "Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description="WordSQD closing pass pieces",
        )
        log_group.grant_write(role)
        for statement in table_statements(data, CLOSING_ACCESS):
            role.add_to_policy(statement)
        environment = {
            **COMMON_ENVIRONMENT,
            "TABLE_NAME": data.table.table_name,
            "CLOSING_QUEUE_URL": self.queue.queue_url,
        }
        self.function = lambda_.Function(
            self,
            "Worker",
            description="WordSQD: the closing pass, one piece a message",
            code=lambda_.Code.from_asset(str(asset_dir)),
            handler=lambda_handler(CLOSING_PIECE_HANDLER),
            runtime=RUNTIME,
            architecture=ARCHITECTURE,
            memory_size=FULL_CORE_MB,
            timeout=PIECE_TIMEOUT,
            role=role,
            environment=environment,
            log_group=log_group,
            logging_format=lambda_.LoggingFormat.JSON,
            application_log_level_v2=lambda_.ApplicationLogLevel.INFO,
            system_log_level_v2=lambda_.SystemLogLevel.INFO,
            tracing=lambda_.Tracing.ACTIVE,
        )
        acknowledge(
            self.function, "AwsSolutions-L1", "Pinned to the Python the asset's wheels are built for."
        )
        acknowledge(
            role,
            "AwsSolutions-IAM5[Resource::*]",
            "X-Ray PutTraceSegments/PutTelemetryRecords take no resource.",
        )
        self.function.add_event_source(
            sources.SqsEventSource(
                self.queue,
                batch_size=1,
                report_batch_item_failures=True,
                max_concurrency=PIECE_CONCURRENCY,
            )
        )
        self.queue.grant_send_messages(self.function)  # its successors, the merge, the judging
        self.queue.grant_send_messages(expire)  # the first pieces
        expire.add_environment("CLOSING_QUEUE_URL", self.queue.queue_url)
