"""CloudFront's alarms: its error rates, published in us-east-1 only (region `Global`), where an
alarm must live to watch them; so a stack of their own there, after the stage's stack (it needs
the distribution's id) and notifying the edge security stack's topic (the same addresses)."""

from aws_cdk import Duration, Stack, Tags
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_sns as sns
from constructs import Construct

from infra.alarm_parts import notify
from infra.config import MidnightCapacity
from infra.guard import guard_stack

# Percent of the viewer requests, each minute, 3 minutes out of 5.
EDGE_5XX_PERCENT = 1.0
# 4xx includes every player's 404 and 401 and WAF's 429s: a tenth of all requests is not that.
EDGE_4XX_PERCENT = 10.0


def edge_alarms_stack_name(stack_name: str) -> str:
    return f"{stack_name}-EdgeAlarms"


class EdgeAlarmsStack(Stack):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        stage: str,
        account: str,
        distribution_id: str,
        topic: sns.ITopic,
        production: bool,
        window: MidnightCapacity,
    ) -> None:
        super().__init__(
            scope,
            id,
            env={"account": account, "region": "us-east-1"},
            termination_protection=production,
            cross_region_references=True,  # the distribution's id, from the stage's region
            description=f"WordSQD edge alarms ({stage}): CloudFront's error rates",
        )
        Tags.of(self).add("app", "wordsqd")
        Tags.of(self).add("stage", stage)
        self.alarms = []
        for kind, threshold in (("5xx", EDGE_5XX_PERCENT), ("4xx", EDGE_4XX_PERCENT)):
            rate = cw.Metric(
                namespace="AWS/CloudFront",
                metric_name=f"{kind}ErrorRate",
                dimensions_map={"DistributionId": distribution_id, "Region": "Global"},
                statistic="Average",
                period=Duration.minutes(1),
            )
            alarm = cw.Alarm(
                self,
                f"Edge{kind}",
                alarm_name=f"WordSQD-{stage}-Edge{kind}",
                alarm_description=(
                    f"{threshold}%+ of the edge's requests answered {kind}, 3 minutes out of 5 "
                    "(CloudFront, WAF, or the origin). Runbook: docs/operations.md#alarms"
                ),
                metric=rate,
                threshold=threshold,
                comparison_operator=cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                evaluation_periods=5,
                datapoints_to_alarm=3,
                treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            )
            self.alarms.append(notify(alarm, topic))
        guard_stack(self, stage=stage, window=window, production=production, topic=topic)
