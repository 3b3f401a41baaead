"""Alarms an operator acts on, and one dashboard of the game and the machinery under it.

Every alarm treats missing data as fine: no traffic is not an outage. Thresholds are deliberately
low for a small game; raise them here once real traffic shows its normal noise.
"""

from collections.abc import Mapping

from aws_cdk import Duration
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from shared.observability import NAMESPACE, SERVICE

PERIOD = Duration.minutes(5)
API_5XX_THRESHOLD = 5  # server errors in 5 minutes
GAME_COUNTERS = ("RunsStarted", "RunsCompleted", "OfficialScores")
# The table operations the data layer may use; ThrottledRequests is published per operation.
TABLE_OPERATIONS = (
    dynamodb.Operation.GET_ITEM,
    dynamodb.Operation.PUT_ITEM,
    dynamodb.Operation.UPDATE_ITEM,
    dynamodb.Operation.DELETE_ITEM,
    dynamodb.Operation.QUERY,
    dynamodb.Operation.BATCH_GET_ITEM,
    dynamodb.Operation.BATCH_WRITE_ITEM,
    dynamodb.Operation.TRANSACT_GET_ITEMS,
    dynamodb.Operation.TRANSACT_WRITE_ITEMS,
)


def game_metric(name: str) -> cw.Metric:
    """A counter that the functions publish with Powertools (namespace WordSQD, service wordsqd)."""
    return cw.Metric(
        namespace=NAMESPACE,
        metric_name=name,
        dimensions_map={"service": SERVICE},
        statistic=cw.Stats.SUM,
        period=PERIOD,
    )


def sum_of(metrics: Mapping[str, cw.IMetric], label: str) -> cw.MathExpression:
    """The sum of several counters. Each is FILLed with 0 first: CloudWatch publishes throttle
    counts only where they happened, and `a + b` has no value where either series is missing."""
    return cw.MathExpression(
        expression=" + ".join(f"FILL({key}, 0)" for key in metrics),
        using_metrics=dict(metrics),
        label=label,
        period=PERIOD,
    )


class Operations(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        stage: str,
        api: apigwv2.HttpApi,
        functions: Mapping[str, lambda_.Function],
        table: dynamodb.Table,
        dead_letters: sqs.IQueue,
        alarm_topic_arn: str | None,
    ) -> None:
        super().__init__(scope, id)
        prefix = f"WordSQD-{stage}"
        reset = functions["reset"]

        lambda_throttles = sum_of(
            {
                f"t_{name}": fn.metric_throttles(period=PERIOD, statistic=cw.Stats.SUM)
                for name, fn in functions.items()
            },
            "Lambda throttles (all functions)",
        )
        table_throttles = sum_of(
            {
                f"d_{op.value.lower()}": table.metric(
                    "ThrottledRequests",
                    dimensions_map={"TableName": table.table_name, "Operation": op.value},
                    period=PERIOD,
                    statistic=cw.Stats.SUM,
                )
                for op in TABLE_OPERATIONS
            },
            "DynamoDB throttled requests",
        )

        def alarm(name: str, metric: cw.IMetric, threshold: float, description: str) -> cw.Alarm:
            return cw.Alarm(
                self,
                name,
                alarm_name=f"{prefix}-{name}",
                alarm_description=f"{description} Runbook: docs/operations.md#alarms",
                metric=metric,
                threshold=threshold,
                evaluation_periods=1,
                comparison_operator=cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            )

        self.alarms = [
            alarm(
                "Api5xx",
                api.metric_server_error(period=PERIOD, statistic=cw.Stats.SUM),
                API_5XX_THRESHOLD,
                f"The API answered {API_5XX_THRESHOLD}+ server errors (5xx) in 5 minutes.",
            ),
            alarm(
                "LambdaThrottles",
                lambda_throttles,
                1,
                "A function was throttled (account or reserved concurrency reached).",
            ),
            alarm(
                "TableThrottles",
                table_throttles,
                1,
                "DynamoDB throttled requests (a hot partition or an on-demand burst limit).",
            ),
            alarm(
                "ResetErrors",
                reset.metric_errors(period=PERIOD, statistic=cw.Stats.SUM),
                1,
                "The midnight reset job failed (Lambda retries it; see its logs).",
            ),
            alarm(
                "ResetDeadLetters",
                dead_letters.metric_approximate_number_of_messages_visible(
                    period=PERIOD, statistic=cw.Stats.MAXIMUM
                ),
                1,
                "A reset invocation was given up on and parked in the dead-letter queue.",
            ),
        ]
        if alarm_topic_arn:
            topic = sns.Topic.from_topic_arn(self, "AlarmTopic", alarm_topic_arn)
            for each in self.alarms:
                each.add_alarm_action(cw_actions.SnsAction(topic))

        self.dashboard = cw.Dashboard(self, "Dashboard", dashboard_name=prefix)
        self._fill_dashboard(api, functions, table, table_throttles, lambda_throttles, dead_letters)

    def _fill_dashboard(
        self,
        api: apigwv2.HttpApi,
        functions: Mapping[str, lambda_.Function],
        table: dynamodb.Table,
        table_throttles: cw.IMetric,
        lambda_throttles: cw.IMetric,
        dead_letters: sqs.IQueue,
    ) -> None:
        def graph(title: str, metrics: list[cw.IMetric], width: int = 8) -> cw.GraphWidget:
            return cw.GraphWidget(title=title, left=metrics, width=width, height=6)

        # Answers carries a `reason` dimension (accepted or a rejection code): a search draws one
        # line per reason without listing the codes here.
        answers = cw.MathExpression(
            expression=f"SEARCH('Namespace=\"{NAMESPACE}\" MetricName=\"Answers\"', 'Sum', 300)",
            using_metrics={},
            label="${PROP('Dim.reason')}",  # CloudWatch's dynamic label: one line per reason
            period=PERIOD,
        )
        self.dashboard.add_widgets(
            cw.TextWidget(
                markdown="## WordSQD\nGame counters per 5 minutes; see docs/operations.md.",
                width=24,
                height=2,
            )
        )
        self.dashboard.add_widgets(
            graph("Runs and official scores", [game_metric(m) for m in GAME_COUNTERS], 12),
            graph("Answers by reason", [answers], 12),
        )
        self.dashboard.add_widgets(
            graph(
                "API requests and errors",
                [
                    api.metric_count(period=PERIOD, statistic=cw.Stats.SUM, label="requests"),
                    api.metric_client_error(period=PERIOD, statistic=cw.Stats.SUM, label="4xx"),
                    api.metric_server_error(period=PERIOD, statistic=cw.Stats.SUM, label="5xx"),
                ],
            ),
            graph(
                "API latency (ms)",
                [
                    api.metric_latency(period=PERIOD, statistic=stat, label=stat)
                    for stat in (cw.Stats.p(50), cw.Stats.p(90), cw.Stats.p(99))
                ],
            ),
            graph("Throttles", [lambda_throttles, table_throttles]),
        )
        self.dashboard.add_widgets(
            graph(
                "Table capacity units (what DynamoDB bills)",
                [
                    table.metric_consumed_read_capacity_units(period=PERIOD, label="read"),
                    table.metric_consumed_write_capacity_units(period=PERIOD, label="write"),
                ],
                24,
            ),
        )
        self.dashboard.add_widgets(
            graph(
                "Function errors",
                [fn.metric_errors(period=PERIOD, label=name) for name, fn in functions.items()],
            ),
            graph(
                "Function duration p90 (ms)",
                [
                    fn.metric_duration(period=PERIOD, statistic=cw.Stats.p(90), label=name)
                    for name, fn in functions.items()
                ],
            ),
            graph(
                "Reset job",
                [
                    functions["reset"].metric_invocations(period=PERIOD, label="invocations"),
                    functions["reset"].metric_errors(period=PERIOD, label="errors"),
                    dead_letters.metric_approximate_number_of_messages_visible(
                        period=PERIOD, label="dead letters"
                    ),
                ],
            ),
        )
        self.dashboard.add_widgets(
            cw.AlarmStatusWidget(title="Alarms", alarms=self.alarms, width=24, height=3)
        )
