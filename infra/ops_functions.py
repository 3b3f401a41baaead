"""The stack's own operations functions (infra/lambdas/wordsqd_ops: stdlib and boto3, no game
code, a small asset of their own): one function each, with its own log group and role."""

from dataclasses import dataclass
from pathlib import Path

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.checks import acknowledge

OPS_CODE = Path(__file__).resolve().parent / "lambdas"


@dataclass(frozen=True)
class LogPolicy:
    """The stack's log retention and removal (production keeps its logs)."""

    retention: logs.RetentionDays
    removal: RemovalPolicy


def ops_function(
    scope: Construct, id: str, *, handler: str, description: str, logs_: LogPolicy
) -> lambda_.Function:
    """A Python function of OPS_CODE (HANDLER: `wordsqd_ops.<module>.<function>`)."""
    log_group = logs.LogGroup(scope, f"{id}Logs", retention=logs_.retention, removal_policy=logs_.removal)
    role = iam.Role(
        scope, f"{id}Role", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"), description=description
    )
    log_group.grant_write(role)
    function = lambda_.Function(
        scope,
        id,
        description=description,
        code=lambda_.Code.from_asset(str(OPS_CODE), exclude=["**/__pycache__", "**/*.pyc"]),
        handler=handler,
        runtime=lambda_.Runtime.PYTHON_3_12,
        architecture=lambda_.Architecture.ARM_64,
        memory_size=256,
        timeout=Duration.minutes(1),
        role=role,
        log_group=log_group,
    )
    acknowledge(function, "AwsSolutions-L1", "The same Python as the game's functions (infra/functions.py).")
    return function
