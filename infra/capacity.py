"""Midnight capacity: provisioned concurrency on the API functions' `live` aliases, scheduled
around 00:00 America/Chicago by Application Auto Scaling (docs/operations.md has the choice
against SnapStart and the cost), and the alarm that says when the rush was served cold anyway.

Outside the window each alias keeps one warm environment; at `start` the floor rises to the
configured count, at `end` it drops back, in Chicago's time zone (it follows daylight saving like
the reset). Lambda refuses provisioned concurrency on a weighted alias, so a CodeDeploy canary
running at `start` would leave the rush cold: no deploy runs across the window
(scripts/deploy_window.py), and `MidnightCold<Function>` alarms on what the capacity did not serve.

The counts come from `rush_concurrency`: the measured requests of a run (benchmarks/daily.py),
the rush's runs per second and a warm request's duration; a test checks the prod stage against it.
"""

import math
from collections.abc import Callable, Mapping

from aws_cdk import Duration, TimeZone
from aws_cdk import aws_applicationautoscaling as autoscaling
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra.config import MidnightCapacity

IDLE = 1

# The rush (SPEC §4): a million runs in the ten minutes after 00:00 Central.
RUSH_RUNS_PER_SECOND = 1_000_000 / 600
# API requests per run, by function: `make bench` (benchmarks/daily.py) measures a run as 1 start
# and 10 answers on `daily`; after it the web client reads the player's rank and profile (`GET
# /leaderboard/daily/me`, `GET /me`) on `leaderboard` (the board page itself is an edge-cached read).
REQUESTS_PER_RUN = {"daily": 11, "leaderboard": 2}
WARM_REQUEST_SECONDS = 0.05  # a warm API request, as the functions' p50 REPORT durations show
# The top of the rush runs at about twice its ten-minute average; above the count, requests spill
# over to on-demand environments (and MidnightCold counts them).
PEAK_FACTOR = 2
# Spilled or unprovisioned invocations, as a share of a minute's invocations, that page someone;
# only minutes with at least a tenth of the rush's per-minute traffic count (see `_cold_alarm`).
COLD_PERCENT = 10.0


def rush_concurrency(requests_per_run: float) -> int:
    """Environments that serve REQUESTS_PER_RUN requests of every run of the rush at its peak,
    rounded up to a hundred: runs/s x requests x seconds each x PEAK_FACTOR."""
    needed = RUSH_RUNS_PER_SECOND * requests_per_run * WARM_REQUEST_SECONDS * PEAK_FACTOR
    return math.ceil(needed / 100) * 100


def _cron(hhmm: str) -> autoscaling.Schedule:
    hour, minute = hhmm.split(":")
    return autoscaling.Schedule.cron(hour=str(int(hour)), minute=str(int(minute)))


AlarmFactory = Callable[..., cw.Alarm]


class MidnightCapacityPlan(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        aliases: Mapping[str, lambda_.Alias],
        plan: MidnightCapacity,
        alarm: AlarmFactory,
    ) -> None:
        super().__init__(scope, id)
        self.targets = {}
        for name, count in plan.functions.items():
            scaling = aliases[name].add_auto_scaling(min_capacity=IDLE, max_capacity=count)
            for action, at, capacity in (("RushStarts", plan.start, count), ("RushEnds", plan.end, IDLE)):
                scaling.scale_on_schedule(
                    action,
                    schedule=_cron(at),
                    min_capacity=capacity,
                    max_capacity=capacity,
                    time_zone=TimeZone.AMERICA_CHICAGO,
                )
            self.targets[name] = scaling
            self._cold_alarm(name, aliases[name], count, alarm)

    def _cold_alarm(self, name: str, alias: lambda_.Alias, count: int, alarm: AlarmFactory) -> None:
        """Invocations the provisioned environments did not serve: spillover, or every
        invocation of a minute in which none was served provisioned (a failed scheduled action, or an
        alias a canary left weighted). Counted in minutes with at least `count` x 60 invocations:
        a tenth of the rush the count is sized for, which no ordinary minute reaches, so the idle
        floor of one environment outside the window never pages anyone."""
        minute = Duration.minutes(1)
        floor = count * 60
        cold = cw.MathExpression(
            expression=(
                f"IF(FILL(inv, 0) >= {floor}, "
                "100 * IF(FILL(warm, 0) == 0, FILL(inv, 0), FILL(spill, 0)) / inv, 0)"
            ),
            using_metrics={
                "inv": alias.metric_invocations(period=minute, statistic=cw.Stats.SUM),
                "spill": alias.metric(
                    "ProvisionedConcurrencySpilloverInvocations", period=minute, statistic=cw.Stats.SUM
                ),
                "warm": alias.metric(
                    "ProvisionedConcurrencyInvocations", period=minute, statistic=cw.Stats.SUM
                ),
            },
            label=f"{name} invocations not on provisioned concurrency (%)",
            period=minute,
        )
        alarm(
            f"MidnightCold{name.capitalize()}",
            cold,
            COLD_PERCENT,
            f"{COLD_PERCENT}%+ of {name}'s rush invocations were not served by provisioned concurrency "
            "(spillover, or the scheduled scaling did not happen), 2 minutes out of 3.",
            evaluation_periods=3,
            datapoints_to_alarm=2,
            scope=self,
        )
