"""The stage's one dashboard: first the row an on-call reads in ten seconds, then the detail
(infra/operations.py makes it and its alarms; docs/operations.md reads it)."""

from collections.abc import Mapping, Sequence

from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs

from infra.alarm_parts import PERIOD, game_metric
from shared.runtime.observability import NAMESPACE

# What the dashboard draws: the API, the functions' aliases by name, the table, the table's and
# the functions' throttles, the stream's dead letters.
Parts = tuple[
    apigwv2.HttpApi, Mapping[str, lambda_.Alias], dynamodb.ITable, cw.IMetric, cw.IMetric, sqs.IQueue
]
GAME_COUNTERS = ("RunsStarted", "RunsCompleted", "OfficialScores", "ImplausibleRuns")


def fill(
    dashboard: cw.Dashboard,
    alarms: Sequence[cw.IAlarm],
    parts: tuple[
        apigwv2.HttpApi, Mapping[str, lambda_.Alias], dynamodb.ITable, cw.IMetric, cw.IMetric, sqs.IQueue
    ],
    answer_p99: cw.IMetric,
    probe: cw.IMetric,
) -> None:
    """The dashboard, once every alarm exists: first the row an on-call reads in ten seconds
    (runs/s, answer p99, 5xx, throttles, provisioned concurrency in use, the outside probe),
    then the detail."""
    api, aliases, table, table_throttles, lambda_throttles, dead_letters = parts
    runs = cw.MathExpression(
        expression="FILL(started, 0) / PERIOD(started)",
        using_metrics={"started": game_metric("RunsStarted")},
        label="runs started/s",
        period=PERIOD,
    )
    provisioned = [
        alias.metric(
            "ProvisionedConcurrencyUtilization", period=PERIOD, statistic=cw.Stats.MAXIMUM, label=name
        )
        for name, alias in aliases.items()
        if name in ("daily", "leaderboard")
    ]
    row = {
        "Runs/s": [runs],
        "Answer p99 (ms)": [answer_p99],
        "API 5xx": [api.metric_server_error(period=PERIOD, statistic=cw.Stats.SUM, label="5xx")],
        "Throttles": [lambda_throttles, table_throttles],
        "Provisioned concurrency used": provisioned,
        "Outside probe (% ok)": [probe],
    }
    dashboard.add_widgets(
        *(cw.GraphWidget(title=title, left=metrics, width=4, height=5) for title, metrics in row.items())
    )
    _detail(dashboard, alarms, api, aliases, table, table_throttles, lambda_throttles, dead_letters)


def _detail(
    dashboard: cw.Dashboard,
    alarms: Sequence[cw.IAlarm],
    api: apigwv2.HttpApi,
    aliases: Mapping[str, lambda_.Alias],
    table: dynamodb.ITable,
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
    dashboard.add_widgets(
        cw.TextWidget(
            markdown="## WordSQD\nGame counters per 5 minutes; see docs/operations.md.",
            width=24,
            height=2,
        )
    )
    dashboard.add_widgets(
        graph("Runs and official scores", [game_metric(m) for m in GAME_COUNTERS], 12),
        graph("Answers by reason", [answers], 12),
    )
    dashboard.add_widgets(
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
    dashboard.add_widgets(
        graph(
            "Table capacity units (what DynamoDB bills)",
            [
                table.metric_consumed_read_capacity_units(period=PERIOD, label="read"),
                table.metric_consumed_write_capacity_units(period=PERIOD, label="write"),
            ],
            24,
        ),
    )
    dashboard.add_widgets(
        graph(
            "Function errors",
            [alias.metric_errors(period=PERIOD, label=name) for name, alias in aliases.items()],
        ),
        graph(
            "Function duration p99 (ms)",
            [
                alias.metric_duration(period=PERIOD, statistic=cw.Stats.p(99), label=name)
                for name, alias in aliases.items()
            ],
        ),
        graph(
            "Jobs",
            [
                aliases["reset"].metric_invocations(period=PERIOD, label="reset invocations"),
                aliases["expire"].metric_invocations(period=PERIOD, label="expire invocations"),
                aliases["counters"].metric(
                    "IteratorAge", period=PERIOD, statistic="Maximum", label="counters lag"
                ),
                dead_letters.metric_approximate_number_of_messages_visible(
                    period=PERIOD, label="dead letters"
                ),
            ],
        ),
    )
    dashboard.add_widgets(cw.AlarmStatusWidget(title="Alarms", alarms=list(alarms), width=24, height=6))
