"""Midnight capacity: provisioned concurrency on the API functions' `live` aliases, scheduled
around 00:00 America/Chicago by Application Auto Scaling (docs/operations.md has the choice
against SnapStart and the cost).

Outside the window each alias keeps one warm environment (Application Auto Scaling's floor for a
Lambda alias target is what we set; one keeps a canary-free path warm for the odd player). At
`start` the floor rises to the configured count; at `end` it drops back. The schedule's time zone
is Chicago's, so it follows daylight saving like the reset.
"""

from aws_cdk import TimeZone
from aws_cdk import aws_applicationautoscaling as autoscaling
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra.config import MidnightCapacity

IDLE = 1


def _cron(hhmm: str) -> autoscaling.Schedule:
    hour, minute = hhmm.split(":")
    return autoscaling.Schedule.cron(hour=str(int(hour)), minute=str(int(minute)))


class MidnightCapacityPlan(Construct):
    def __init__(
        self, scope: Construct, id: str, *, aliases: dict[str, lambda_.Alias], plan: MidnightCapacity
    ) -> None:
        super().__init__(scope, id)
        self.targets = {}
        for name, count in plan.functions.items():
            scaling = aliases[name].add_auto_scaling(min_capacity=IDLE, max_capacity=count)
            scaling.scale_on_schedule(
                "RushStarts",
                schedule=_cron(plan.start),
                min_capacity=count,
                max_capacity=count,
                time_zone=TimeZone.AMERICA_CHICAGO,
            )
            scaling.scale_on_schedule(
                "RushEnds",
                schedule=_cron(plan.end),
                min_capacity=IDLE,
                max_capacity=IDLE,
                time_zone=TimeZone.AMERICA_CHICAGO,
            )
            self.targets[name] = scaling
