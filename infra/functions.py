"""The four Lambda functions, all on the one asset that `make build` writes (no Docker).

Each function gets its own role with only what it needs: its log group, X-Ray, and then
- validate: nothing else (it is pure: rules + the shipped word list);
- daily, reset: the table (items and indexes) and the deployment secret (the puzzle seed);
- leaderboard: the table (it writes profiles and display-name items) and the deployment secret,
  because board cursors are signed with a key derived from it (shared/secrets.py).
"""

from dataclasses import dataclass
from pathlib import Path

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.checks import acknowledge
from infra.data import Data
from shared.observability import NAMESPACE, SERVICE
from shared.routes import HANDLERS, RESET_HANDLER

# Must be the interpreter that infra.build_asset installs wheels for (a test checks they agree).
RUNTIME = lambda_.Runtime.PYTHON_3_12
ARCHITECTURE = lambda_.Architecture.ARM_64


@dataclass(frozen=True)
class FunctionSpec:
    handler: str  # "module:function" from the repository root, as in shared.routes
    description: str
    memory_mb: int
    timeout: Duration
    uses_table: bool
    uses_seed: bool


FUNCTIONS: dict[str, FunctionSpec] = {
    "validate": FunctionSpec(
        HANDLERS["validate"],
        "WordSQD: judge a word (stateless)",
        512,
        Duration.seconds(10),
        uses_table=False,
        uses_seed=False,
    ),
    "daily": FunctionSpec(
        HANDLERS["daily"],
        "WordSQD: the Daily, runs and challenges",
        1024,
        Duration.seconds(10),
        uses_table=True,
        uses_seed=True,
    ),
    "leaderboard": FunctionSpec(
        HANDLERS["leaderboard"],
        "WordSQD: boards, profile and history",
        1024,
        Duration.seconds(10),
        uses_table=True,
        uses_seed=True,  # signs board cursors (shared.secrets.cursor_key)
    ),
    # The midnight job stores the new puzzle, waits out the last runs' time limit (up to 180 s)
    # and then closes them one by one: Lambda's full 15 minutes, not an API's seconds.
    "reset": FunctionSpec(
        RESET_HANDLER,
        "WordSQD: the Central-midnight Daily reset",
        1024,
        Duration.minutes(15),
        uses_table=True,
        uses_seed=True,
    ),
}


def lambda_handler(entry: str) -> str:
    """`functions.daily.handler:handler` -> `functions.daily.handler.handler`: the Python runtime
    imports the dotted module path from the asset root, so packages need no path tricks."""
    module, function = entry.split(":")
    return f"{module}.{function}"


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

        for name, spec in FUNCTIONS.items():
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

            environment = {
                "POWERTOOLS_SERVICE_NAME": SERVICE,
                "POWERTOOLS_METRICS_NAMESPACE": NAMESPACE,
            }
            if spec.uses_table:
                environment["TABLE_NAME"] = data.table.table_name
            if spec.uses_seed:
                environment["PUZZLE_SEED_SECRET_ARN"] = data.puzzle_seed.secret_arn

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
                system_log_level_v2=lambda_.SystemLogLevel.WARN,
                tracing=lambda_.Tracing.ACTIVE,
            )
            if spec.uses_table:
                data.table.grant_read_write_data(role)
            if spec.uses_seed:
                data.puzzle_seed.grant_read(role)
            acknowledge(
                function,
                "AwsSolutions-L1",
                "Pinned to the Python the asset's wheels are built for; bump with build_asset.",
            )
            self.by_name[name] = function

    @property
    def reset(self) -> lambda_.Function:
        return self.by_name["reset"]
