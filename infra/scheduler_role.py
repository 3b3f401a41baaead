"""The role EventBridge Scheduler assumes to start a stack's target (infra/schedule.py,
infra/reminders.py, infra/watch.py, infra/outside.py): only for schedules of this account."""

from aws_cdk import Aws
from aws_cdk import aws_iam as iam
from constructs import Construct


def scheduler_role(scope: Construct, id: str, description: str, account: str = Aws.ACCOUNT_ID) -> iam.Role:
    """A role Scheduler may assume only on behalf of ACCOUNT (the confused deputy's guard)."""
    return iam.Role(
        scope,
        id,
        assumed_by=iam.ServicePrincipal(
            "scheduler.amazonaws.com", conditions={"StringEquals": {"aws:SourceAccount": account}}
        ),
        description=description,
    )
