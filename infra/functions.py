"""The ten Lambda functions, all on the one asset that `make build` writes (no Docker), each behind
a `live` alias that CodeDeploy shifts to a new version by canary (infra/deploys.py): the API's,
the jobs, the stream consumer, and the workers of the two queues (infra/queue_worker.py).

Each function gets its own role with only what infra/permissions.py `ACCESS` declares: its log
group, X-Ray, the table actions its code makes (explicit lists, `Query` on named indexes only,
`dynamodb:LeadingKeys` on every function's writes) and the secrets it reads.
"""

from dataclasses import dataclass
from pathlib import Path

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.aws_roots import AWS_ROOTS_FILE
from infra.checks import acknowledge
from infra.data import Data
from infra.permissions import ACCESS, TableAccess
from shared.http.routes import (
    CLOSING_PIECE_HANDLER,
    HANDLERS,
    REMINDER_SCAN_HANDLER,
    REMINDER_SEND_HANDLER,
    RESET_HANDLER,
)
from shared.runtime.observability import NAMESPACE, SERVICE

# Must be the interpreter that infra.build_asset installs wheels for (a test checks they agree).
RUNTIME = lambda_.Runtime.PYTHON_3_12
ARCHITECTURE = lambda_.Architecture.ARM_64
ALIAS = "live"

# The contract's entry points (COMMON.md); shared/http/routes.py names them EXPIRE_HANDLER and
# COUNTERS_HANDLER once core and boards land.
EXPIRE_HANDLER = "functions.daily.expire:handler"
COUNTERS_HANDLER = "functions.leaderboard.counters:handler"


@dataclass(frozen=True)
class FunctionSpec:
    handler: str  # "module:function" from the repository root, as in shared.http.routes
    description: str
    memory_mb: int
    timeout: Duration
    # Concurrency kept for this function alone (and its cap), so the rush cannot starve it.
    reserved: int | None = None


# Memory sizes from measurement (docs/operations.md, "Memory sizes": `benchmarks/memory.py`): CPU
# is in proportion to memory up to one vCPU at 1,769 MB, so CPU-bound work costs the same at any
# size below it and only time waiting on DynamoDB costs more with more memory. A full core where a
# person waits or the rush depends on it, less where the work is a little and mostly waiting.
FULL_CORE_MB = 1769
FUNCTIONS: dict[str, FunctionSpec] = {
    "validate": FunctionSpec(
        HANDLERS["validate"], "WordSQD: judge a word (stateless)", FULL_CORE_MB, Duration.seconds(10)
    ),
    "daily": FunctionSpec(
        HANDLERS["daily"], "WordSQD: the Daily, runs and challenges", FULL_CORE_MB, Duration.seconds(10)
    ),
    "leaderboard": FunctionSpec(
        HANDLERS["leaderboard"], "WordSQD: boards, profile and history", FULL_CORE_MB, Duration.seconds(10)
    ),
    # Reports, the review queue, decisions and appeals (SPEC §3e): its role alone writes the audit
    # log. A few requests a minute; the same size as the other API functions.
    "moderation": FunctionSpec(
        HANDLERS["moderation"], "WordSQD: reports, moderation and appeals", FULL_CORE_MB, Duration.seconds(10)
    ),
    # The midnight job stores the new puzzle; Lambda's full 15 minutes leave room for retries.
    "reset": FunctionSpec(
        RESET_HANDLER, "WordSQD: the Central-midnight Daily reset", 512, Duration.minutes(15), reserved=2
    ),
    # Every minute: completes expired runs and closes boards; it must finish before the next one.
    "expire": FunctionSpec(
        EXPIRE_HANDLER,
        "WordSQD: complete expired runs, close boards (every minute)",
        FULL_CORE_MB,
        Duration.seconds(55),
        reserved=2,  # one a minute; a second while a slow one finishes
    ),
    # The table's stream: rank counters from new official results.
    # One invocation per stream shard at a time (parallelization factor 1): up to 100 shards.
    "counters": FunctionSpec(
        COUNTERS_HANDLER,
        "WordSQD: rank counters from new official results",
        1024,
        Duration.seconds(30),
        reserved=100,
    ),
    # The closing pass's pieces, one a message of the piece queue (infra/closing.py): a piece reads
    # at most PAGE_RUNS (2,000) runs: seconds; the merge of ten million runs' 5,024 partials about
    # a minute and a half (docs/moderation.md, "The closing pass"). Capped by its queue's source.
    "closing": FunctionSpec(
        CLOSING_PIECE_HANDLER,
        "WordSQD: the closing pass, one piece a message",
        FULL_CORE_MB,
        Duration.minutes(5),
    ),
    # Every minute: queues the minute's reminders (infra/reminders.py).
    "remind": FunctionSpec(
        REMINDER_SCAN_HANDLER, "WordSQD: queue the minute's reminders", 512, Duration.seconds(55), reserved=2
    ),
    # On the reminder queue: 50 pushes of at most 5 s each, most far quicker.
    "push": FunctionSpec(
        REMINDER_SEND_HANDLER, "WordSQD: push reminders (Web Push)", 512, Duration.seconds(60)
    ),
}
# Versions stay when an update replaces them (CloudFormation would delete the old one), so the
# runbook's rollback (`update-alias --function-version <previous>`) has a version to point at.
VERSION_REMOVAL = RemovalPolicy.RETAIN
API_FUNCTIONS = ("validate", "daily", "leaderboard", "moderation")

# Environment every function gets. The tracer records neither replies (guest run ids are a run's
# only credential; runs hold live words) nor exceptions (a message may quote a word or an id).
# Pydantic looks for plugins through every installed distribution's entry points when it builds
# its first model (tens of ms of a cold start); the asset ships none, so the lookup is switched off.
# botocore trusts only the roots of Amazon Trust Services, which every AWS endpoint chains to
# (infra/build_asset.py writes them into the asset; Lambda's code folder is LAMBDA_TASK_ROOT).
LAMBDA_TASK_ROOT = "/var/task"
COMMON_ENVIRONMENT = {
    "POWERTOOLS_SERVICE_NAME": SERVICE,
    "POWERTOOLS_METRICS_NAMESPACE": NAMESPACE,
    "POWERTOOLS_TRACER_CAPTURE_RESPONSE": "false",
    "POWERTOOLS_TRACER_CAPTURE_ERROR": "false",
    "PYDANTIC_DISABLE_PLUGINS": "__all__",
    "AWS_CA_BUNDLE": f"{LAMBDA_TASK_ROOT}/{AWS_ROOTS_FILE}",
    # Where the code runs: on AWS a missing pool, seed or cursor key stops a function's init
    # (shared/runtime/settings.py), never a local stand-in.
    "WORDSQD_ENV": "aws",
}


def lambda_handler(entry: str) -> str:
    """`functions.daily.handler:handler` -> `functions.daily.handler.handler`: the Python runtime
    imports the dotted module path from the asset root, so packages need no path tricks."""
    module, function = entry.split(":")
    return f"{module}.{function}"


def table_statements(data: Data, access: TableAccess) -> list[iam.PolicyStatement]:
    """The table part of a role's policy, exactly as ACCESS declares it."""
    table_arn = data.table.table_arn
    statements = []
    if access.reads:
        statements.append(
            iam.PolicyStatement(actions=[f"dynamodb:{a}" for a in access.reads], resources=[table_arn])
        )
    if access.writes:
        conditions = (
            {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": list(access.write_leading_keys)}}
            if access.write_leading_keys
            else None
        )
        statements.append(
            iam.PolicyStatement(
                actions=[f"dynamodb:{a}" for a in access.writes], resources=[table_arn], conditions=conditions
            )
        )
    if access.own_partition_queries:
        statements.append(
            iam.PolicyStatement(
                actions=["dynamodb:Query"],
                resources=[table_arn],
                conditions={
                    "ForAllValues:StringLike": {"dynamodb:LeadingKeys": list(access.own_partition_queries)}
                },
            )
        )
    if access.indexes:
        statements.append(
            iam.PolicyStatement(
                actions=["dynamodb:Query"], resources=[f"{table_arn}/index/{name}" for name in access.indexes]
            )
        )
    return statements


class Functions(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        data: Data,
        asset_dir: Path,
        log_retention: logs.RetentionDays,
        log_removal: RemovalPolicy,
    ) -> None:
        super().__init__(scope, id)
        code = lambda_.Code.from_asset(str(asset_dir))  # one asset, shared by every function
        self.by_name: dict[str, lambda_.Function] = {}
        self.aliases: dict[str, lambda_.Alias] = {}
        secrets = {"seed": data.puzzle_seed, "cursor": data.cursor_key}
        secret_variables = {"seed": "PUZZLE_SEED_SECRET_ARN", "cursor": "CURSOR_KEY_SECRET_ARN"}

        for name, spec in FUNCTIONS.items():
            access = ACCESS[name]
            title = name.capitalize()
            # Explicit log group: retention and removal are ours, not a custom resource's.
            log_group = logs.LogGroup(
                self, f"{title}Logs", retention=log_retention, removal_policy=log_removal
            )
            # An explicit role instead of the default one, which would carry the managed
            # AWSLambdaBasicExecutionRole (logs:* on every log group).
            role = iam.Role(
                self,
                f"{title}Role",
                assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
                description=f"WordSQD {name} function",
            )
            log_group.grant_write(role)

            environment = dict(COMMON_ENVIRONMENT)
            if access.table:
                environment["TABLE_NAME"] = data.table.table_name
                for statement in table_statements(data, access.table):
                    role.add_to_policy(statement)
            for secret in access.secrets:
                environment[secret_variables[secret]] = secrets[secret].secret_arn
                secrets[secret].grant_read(role)

            function = lambda_.Function(
                self,
                title,
                description=spec.description,
                code=code,
                handler=lambda_handler(spec.handler),
                runtime=RUNTIME,
                architecture=ARCHITECTURE,
                memory_size=spec.memory_mb,
                timeout=spec.timeout,
                role=role,
                environment=environment,
                log_group=log_group,
                logging_format=lambda_.LoggingFormat.JSON,
                application_log_level_v2=lambda_.ApplicationLogLevel.INFO,
                # INFO keeps the platform's START/REPORT lines (duration, init duration, memory).
                system_log_level_v2=lambda_.SystemLogLevel.INFO,
                tracing=lambda_.Tracing.ACTIVE,
                reserved_concurrent_executions=spec.reserved,
                current_version_options=lambda_.VersionOptions(removal_policy=VERSION_REMOVAL),
            )
            acknowledge(
                function,
                "AwsSolutions-L1",
                "Pinned to the Python the asset's wheels are built for; bump with build_asset.",
            )
            self.by_name[name] = function
            # Everything that invokes a function (API, schedules, the stream) goes through `live`.
            self.aliases[name] = lambda_.Alias(
                self, f"{title}Live", alias_name=ALIAS, version=function.current_version
            )

        for function in self.by_name.values():
            acknowledge(
                function.role,
                "AwsSolutions-IAM5[Resource::*]",
                "X-Ray PutTraceSegments/PutTelemetryRecords and stream listing take no resource.",
            )

    @property
    def reset(self) -> lambda_.Function:
        return self.by_name["reset"]
