"""The midnight guard in every stack of a stage: a custom resource (infra/lambdas/wordsqd_ops/guard.py)
that every other resource of its stack depends on, so CloudFormation runs it first on every
update, whoever starts it (`make deploy`, a bare `cdk deploy --all`, the console). Inside the
freeze (the stage's capacity window, 5 minutes each side) or within LOOKAHEAD of it, it fails and
the update rolls back before anything else changed. Rollbacks and deletes always pass (guard.py).

The emergency door: `-c emergency="<reason>"` (at least EMERGENCY_MIN characters) lets an update
through the freeze; the guard logs the reason and `EmergencyDeploy` tells the stage's topic.
"""

from collections.abc import Callable
from datetime import UTC, datetime

from aws_cdk import Aws, CfnResource, CustomResource, Duration, RemovalPolicy, Stack
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sns as sns
from constructs import Construct

from infra.alarm_parts import notify
from infra.config import MidnightCapacity
from infra.deploys import DEPLOYMENT_CONFIG_MINUTES
from infra.lambdas.wordsqd_ops.watch import NAMESPACE
from infra.ops_functions import LogPolicy, ops_function

# A deploy starting now keeps an alias weighted for at least its canary: one that could not even
# finish its canary before the freeze is refused too.
LOOKAHEAD = Duration.minutes(DEPLOYMENT_CONFIG_MINUTES)
# How long CloudFormation waits for the guard's answer (its own default: an hour of a held deploy).
SERVICE_TIMEOUT = Duration.minutes(5)
EMERGENCY = "emergency"  # the context key of the door
EMERGENCY_MIN = 10


def emergency_reason(scope: Construct) -> str:
    """The reason given with `-c emergency=...`, or "" without one."""
    reason = str(scope.node.try_get_context(EMERGENCY) or "").strip()
    if reason and len(reason) < EMERGENCY_MIN:
        raise ValueError(f"-c {EMERGENCY}=... needs a reason of {EMERGENCY_MIN}+ characters, not {reason!r}")
    return reason


class MidnightGuard(Construct):
    def __init__(self, scope: Construct, id: str, *, window: MidnightCapacity, logs_: LogPolicy) -> None:
        super().__init__(scope, id)
        self.function = ops_function(
            self,
            "Function",
            handler="wordsqd_ops.guard.on_event",
            description="WordSQD midnight deploy guard",
            logs_=logs_,
        )
        # A rollback is told apart by the stack's own status, which no operator sets.
        self.function.add_to_role_policy(
            iam.PolicyStatement(actions=["cloudformation:DescribeStacks"], resources=[Aws.STACK_ID])
        )
        self.resource = CustomResource(
            self,
            "Guard",
            service_token=self.function.function_arn,
            resource_type="Custom::MidnightGuard",
            service_timeout=SERVICE_TIMEOUT,
            properties={
                "WindowStart": window.start,
                "WindowEnd": window.end,
                "LookaheadMinutes": int(LOOKAHEAD.to_minutes()),
                # New at every synth: every update calls the guard. (Context `deployed_at`, which
                # infra/app.py refuses, fixes it for the template tests: the same bytes each time.)
                "Deployed": self.node.try_get_context("deployed_at")
                or datetime.now(UTC).isoformat(timespec="seconds"),
                "Emergency": emergency_reason(self),
            },
        )

    def watch_emergencies(
        self, scope: Construct, stage: str, alarm: Callable[[cw.IMetric], cw.Alarm]
    ) -> None:
        """Every use of the door, counted from the guard's log (in SCOPE, which the guard guards),
        and ALARM made of the count."""
        count = logs.MetricFilter(
            scope,
            "EmergencyFilter",
            log_group=self.function.log_group,
            filter_pattern=logs.FilterPattern.exists("$.emergency"),
            metric_namespace=f"{NAMESPACE}/{stage}",
            metric_name="EmergencyDeploys",
            metric_value="1",
        ).metric(period=Duration.minutes(5), statistic=cw.Stats.SUM)
        alarm(count)

    def guard_everything_else(self, stack: Stack) -> None:
        """Make every other resource of STACK wait for the guard's answer."""
        for child in stack.node.children:
            if child is self or child.node.id == "CDKMetadata":
                continue
            if any(isinstance(c, CfnResource) for c in child.node.find_all()):
                child.node.add_dependency(self.resource)


EMERGENCY_MEANING = (
    "A deploy went through the midnight freeze by the emergency door (-c emergency=<reason>): "
    "the guard's log names the reason and the stack."
)


def guard_stack(
    stack: Stack, *, stage: str, window: MidnightCapacity, production: bool, topic: sns.ITopic
) -> None:
    """A guard for one of the stage's other stacks (the edge's, in us-east-1), called once every
    other resource of STACK exists: the same freeze, the same door, told to TOPIC."""
    policy = LogPolicy(
        logs.RetentionDays.ONE_YEAR if production else logs.RetentionDays.ONE_WEEK,
        RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY,
    )
    guard = MidnightGuard(stack, "MidnightGuard", window=window, logs_=policy)
    scope = Construct(stack, "Emergencies")
    name = f"{stack.stack_name.removeprefix(f'WordSQD-{stage}-')}EmergencyDeploy"

    def alarm(metric: cw.IMetric) -> cw.Alarm:
        made = cw.Alarm(
            scope,
            "EmergencyDeploy",
            alarm_name=f"WordSQD-{stage}-{name}",
            alarm_description=f"{EMERGENCY_MEANING} Runbook: docs/operations.md#alarms",
            metric=metric,
            threshold=1,
            evaluation_periods=1,
            comparison_operator=cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
        )
        return notify(made, topic)

    guard.watch_emergencies(scope, stage, alarm)
    guard.guard_everything_else(stack)
