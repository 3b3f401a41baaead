"""The midnight guard in the stack itself: a custom resource (infra/lambdas/wordsqd_ops/guard.py)
that every other resource of the stack depends on, so CloudFormation runs it first on every
update, whoever starts it (`make deploy`, a bare `cdk deploy`, the console). Inside the freeze
(the stage's capacity window, 5 minutes each side) or within LOOKAHEAD of it, it fails and the
update rolls back before anything else changed. Rollbacks and deletes always pass (guard.py)."""

from datetime import UTC, datetime

from aws_cdk import CfnResource, CustomResource, Duration, Stack
from constructs import Construct

from infra.config import MidnightCapacity
from infra.deploys import DEPLOYMENT_CONFIG_MINUTES
from infra.ops_functions import LogPolicy, ops_function

# A deploy starting now keeps an alias weighted for at least its canary: one that could not even
# finish its canary before the freeze is refused too.
LOOKAHEAD = Duration.minutes(DEPLOYMENT_CONFIG_MINUTES)


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
        self.resource = CustomResource(
            self,
            "Guard",
            service_token=self.function.function_arn,
            resource_type="Custom::MidnightGuard",
            properties={
                "WindowStart": window.start,
                "WindowEnd": window.end,
                "LookaheadMinutes": int(LOOKAHEAD.to_minutes()),
                # New at every synth: every update calls the guard, and a rollback (older) is told apart.
                # (Context `deployed_at` fixes it: the template tests synthesize the same bytes.)
                "Deployed": self.node.try_get_context("deployed_at")
                or datetime.now(UTC).isoformat(timespec="seconds"),
            },
        )

    def guard_everything_else(self, stack: Stack) -> None:
        """Make every other resource of STACK wait for the guard's answer."""
        for child in stack.node.children:
            if child is self or child.node.id == "CDKMetadata":
                continue
            if any(isinstance(c, CfnResource) for c in child.node.find_all()):
                child.node.add_dependency(self.resource)
