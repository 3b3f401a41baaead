"""Alarms an operator acts on, the topic they notify, and one dashboard of the game and the
machinery under it.

Every alarm notifies a topic whose policy lets its publishers in (`alarm_topic`: CloudWatch for
alarms, CodeDeploy for deployment events), with the stage's `alarm_emails` subscribed; a template
test checks every alarm of every stack for an action such a topic.

Every metric comes from the CDK's own helpers (`alias.metric_errors()`,
`table.metric_throttled_requests_for_operations()`, `api.metric_server_error()`, ...), which
write the dimensions CloudWatch really publishes; a template test checks every alarm against the
CDK's own generated metric catalogue (aws-cdk-lib's `*-canned-metrics.generated`). Traffic alarms
treat missing data as fine (no traffic is not an outage); the job alarms treat it as breaching (a
job that did not run is an outage). Thresholds are in this file's constants: tune them here once
real traffic shows its noise.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aws_cdk import Duration
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra import dashboard
from infra.alarm_parts import (
    FAST_PERIOD,
    PERIOD,
    alarm_topic,
    game_metric,
    notify,
    sum_of,
    version_metric,
    wall_clock,
)
from shared.dynamo.table import INDEXES
from shared.runtime.observability import NAMESPACE

API_5XX_THRESHOLD = 5  # server errors in 5 minutes
ERROR_RATE_PERCENT = 1.0  # of a function's invocations, per minute, 2 minutes out of 3
# p99 duration (ms) per function: API functions well under API Gateway's 30 s; jobs before
# their timeouts (reset 15 min, expire 55 s: it must finish before the next minute's run).
P99_MS = {
    "validate": 1_000,
    "daily": 2_000,
    "leaderboard": 2_000,
    "moderation": 2_000,
    "reset": 600_000,
    "expire": 45_000,
    "counters": 10_000,
    "closing": 240_000,  # a merge of ten million runs: about a minute and a half
    "remind": 45_000,
    "push": 50_000,
}
STREAM_LAG_MS = 60_000  # counters more than a minute behind: ranks lag behind scores
# The expiry job moves its watermark item every minute, so the stream always has records for the
# consumer's mapping to poll (most filtered out): none polled in 5 minutes is a stalled mapping.
STREAM_HEARTBEAT_PERIOD = Duration.minutes(5)
# 403s at the origin (API Gateway's access log): a wrong origin secret turns every call into one.
ORIGIN_403_MIN = 50  # in 5 minutes, and
ORIGIN_403_PERCENT = 10.0  # of the API's requests
# The reset's window: the Central day, 23 or 25 hours long across daylight saving.
CENTRAL = "America/Chicago"
# Due runs an expiry pass could not complete are tried again by the next pass (each minute): one
# pass with failures is no page; failures in every 5-minute period for this long are.
EXPIRY_FAILURE_PERIODS = 3
# The table operations the functions make (infra/permissions.py) plus the stream's GetRecords.
TABLE_OPERATIONS = (
    dynamodb.Operation.GET_ITEM,
    dynamodb.Operation.BATCH_GET_ITEM,
    dynamodb.Operation.QUERY,
    dynamodb.Operation.PUT_ITEM,
    dynamodb.Operation.UPDATE_ITEM,
    dynamodb.Operation.DELETE_ITEM,
    dynamodb.Operation.TRANSACT_WRITE_ITEMS,
    dynamodb.Operation.BATCH_WRITE_ITEM,
    dynamodb.Operation.GET_RECORDS,
)


def per_operation(metric_for_operations: Callable[..., Any], label: str) -> cw.MathExpression:
    """A table metric summed over TABLE_OPERATIONS. The CDK's helpers name each series right
    (Operation=GetItem, ...) but add them with a bare `a + b`, which has no value unless every
    operation has data: re-summed with FILL (sum_of)."""
    summed = metric_for_operations(operations=list(TABLE_OPERATIONS), period=PERIOD, statistic=cw.Stats.SUM)
    return sum_of(summed.using_metrics, label)


@dataclass(frozen=True)
class JobWindow:
    """A job must succeed at least once in every `period`: successes = invocations - errors."""

    period: Duration
    meaning: str


JOB_WINDOWS = {
    # One Central day on the wall clock (23 or 25 hours across daylight saving), not a sliding
    # 24 hours, which a 25-hour November day would leave without a reset for an hour.
    "reset": JobWindow(Duration.days(1), "The midnight reset did not succeed in the last Central day."),
    "expire": JobWindow(Duration.minutes(5), "The one-minute expiry job did not succeed in 5 minutes."),
}


class Operations(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        stage: str,
        api: apigwv2.HttpApi,
        access_logs: logs.ILogGroup,
        functions: Mapping[str, lambda_.Function],
        aliases: Mapping[str, lambda_.Alias],
        table: dynamodb.ITable,
        stream_mapping_id: str,
        dead_letters: sqs.IQueue,
        counter_failures: sqs.IQueue,
        alarm_emails: Sequence[str],
    ) -> None:
        super().__init__(scope, id)
        self._prefix = f"WordSQD-{stage}"
        self.alarms: list[cw.Alarm] = []
        # name -> the alarms CodeDeploy watches while it shifts that function's alias.
        self.function_alarms: dict[str, list[cw.Alarm]] = {}

        self.topic = alarm_topic(self, "AlarmTopic", f"{self._prefix} alarms", alarm_emails)

        lambda_throttles = sum_of(
            {
                f"t_{name}": alias.metric_throttles(period=PERIOD, statistic=cw.Stats.SUM)
                for name, alias in aliases.items()
            },
            "Lambda throttles (all functions)",
        )
        throttled = table.metric_throttled_requests_for_operations
        table_throttles = per_operation(throttled, "DynamoDB throttled requests")
        # ThrottledRequests counts a batch only when every item of it was throttled: the table's
        # Read/WriteThrottleEvents count each throttled item (and request).
        table_throttle_events = sum_of(
            {f"{kind.lower()}": self._dynamodb(f"{kind}ThrottleEvents", table) for kind in ("Read", "Write")},
            "DynamoDB throttle events (the table)",
        )
        table_errors = per_operation(table.metric_system_errors_for_operations, "DynamoDB system errors")

        self.alarm(
            "Api5xx",
            api.metric_server_error(period=PERIOD, statistic=cw.Stats.SUM),
            API_5XX_THRESHOLD,
            f"The API answered {API_5XX_THRESHOLD}+ server errors (5xx) in 5 minutes.",
        )
        self._origin_forbidden(stage, api, access_logs)
        self.alarm("LambdaThrottles", lambda_throttles, 1, "A function was throttled (concurrency reached).")
        self.alarm("TableThrottles", table_throttles, 1, "DynamoDB throttled requests (hot key or burst).")
        self.alarm(
            "TableThrottleEvents",
            table_throttle_events,
            1,
            "DynamoDB throttled items of the table (a batch partly throttled included).",
        )
        for index in INDEXES:
            # An index that cannot keep up throttles the table's writes (back-pressure).
            self.alarm(
                f"IndexThrottles{index.capitalize()}",
                sum_of(
                    {
                        f"{kind.lower()}": self._dynamodb(f"{kind}ThrottleEvents", table, index)
                        for kind in ("Read", "Write")
                    },
                    f"{index} index throttle events",
                ),
                1,
                f"DynamoDB throttled the {index} index (its warm throughput is too low for the rush).",
            )
        self.alarm("TableSystemErrors", table_errors, 1, "DynamoDB answered 500s (service side).")
        self.alarm(
            "JobDeadLetters",
            dead_letters.metric_approximate_number_of_messages_visible(
                period=PERIOD, statistic=cw.Stats.MAXIMUM
            ),
            1,
            "A reset or expiry invocation was given up on and parked in the dead-letter queue.",
        )
        self.alarm(
            "CounterFailures",
            counter_failures.metric_approximate_number_of_messages_visible(
                period=PERIOD, statistic=cw.Stats.MAXIMUM
            ),
            1,
            "A stream batch of official results failed: rank counters miss those results.",
        )
        self.alarm(
            "CountersLag",
            aliases["counters"].metric("IteratorAge", period=FAST_PERIOD, statistic=cw.Stats.MAXIMUM),
            STREAM_LAG_MS,
            "The rank-counter consumer is over a minute behind the table's stream.",
            evaluation_periods=5,
            datapoints_to_alarm=3,
        )
        self.alarm(
            "CountersStalled",
            cw.Metric(
                namespace="AWS/Lambda",
                metric_name="PolledEventCount",
                dimensions_map={"EventSourceMappingUUID": stream_mapping_id},
                statistic=cw.Stats.SUM,
                period=STREAM_HEARTBEAT_PERIOD,
            ),
            1,
            "The stream's mapping polled nothing in 5 minutes (disabled, or stalled): ranks stop.",
            comparison=cw.ComparisonOperator.LESS_THAN_THRESHOLD,
            missing=cw.TreatMissingData.BREACHING,
        )
        self.alarm(
            "ExpiryFailures",
            game_metric("ExpiryFailures"),
            1,
            f"Expiry passes failed to complete due runs in each of {EXPIRY_FAILURE_PERIODS} 5-minute "
            "periods: those runs stay in play past their deadline (their players' next start waits).",
            evaluation_periods=EXPIRY_FAILURE_PERIODS,
            datapoints_to_alarm=EXPIRY_FAILURE_PERIODS,
        )
        for job, window in JOB_WINDOWS.items():
            alias = aliases[job]
            successes = cw.MathExpression(
                expression="FILL(invocations, 0) - FILL(errors, 0)",
                using_metrics={
                    "invocations": alias.metric_invocations(period=window.period, statistic=cw.Stats.SUM),
                    "errors": alias.metric_errors(period=window.period, statistic=cw.Stats.SUM),
                },
                label=f"{job} successes",
                period=window.period,
            )
            alarm = self.alarm(
                f"{job.capitalize()}NotSucceeded",
                successes,
                1,
                window.meaning,
                comparison=cw.ComparisonOperator.LESS_THAN_THRESHOLD,
                missing=cw.TreatMissingData.BREACHING,
            )
            if job == "reset":
                wall_clock(alarm, CENTRAL)
        # Each failed attempt of the reset, within a minute (the day's verdict above comes at its end).
        self.alarm(
            "ResetFailed",
            aliases["reset"].metric_errors(period=FAST_PERIOD, statistic=cw.Stats.SUM),
            1,
            "A reset attempt failed (Lambda retries it twice, then parks it in the dead-letter queue).",
        )

        for name in aliases:
            title = name.capitalize()
            alias, version = aliases[name], functions[name].current_version
            # The new version's own series (ExecutedVersion): what CodeDeploy's canary judges.
            error_rate = cw.MathExpression(
                expression="100 * FILL(errors, 0) / invocations",
                using_metrics={
                    "errors": version_metric(alias, version, "Errors", cw.Stats.SUM),
                    "invocations": version_metric(alias, version, "Invocations", cw.Stats.SUM),
                },
                label=f"{name} error rate (%), this version",
                period=FAST_PERIOD,
            )
            self.function_alarms[name] = [
                self.alarm(
                    f"{title}ErrorRate",
                    error_rate,
                    ERROR_RATE_PERCENT,
                    f"{ERROR_RATE_PERCENT}%+ of the invocations of {name}'s current version failed, "
                    "2 minutes out of 3.",
                    evaluation_periods=3,
                    datapoints_to_alarm=2,
                ),
                # Throttled calls never reach a version: the alias's own series.
                self.alarm(
                    f"{title}Throttles",
                    alias.metric_throttles(period=FAST_PERIOD, statistic=cw.Stats.SUM),
                    1,
                    f"{name}'s calls were throttled (its concurrency reached), 2 minutes out of 3.",
                    evaluation_periods=3,
                    datapoints_to_alarm=2,
                ),
                self.alarm(
                    f"{title}LatencyP99",
                    version_metric(alias, version, "Duration", cw.Stats.p(99)),
                    P99_MS[name],
                    f"The p99 duration of {name}'s current version is over {P99_MS[name]} ms, "
                    "2 minutes out of 3.",
                    evaluation_periods=3,
                    datapoints_to_alarm=2,
                ),
            ]

        self.dashboard = cw.Dashboard(self, "Dashboard", dashboard_name=self._prefix)
        self._dashboard_parts = (api, aliases, table, table_throttles, lambda_throttles, dead_letters)

    def fill_dashboard(self, answer_p99: cw.IMetric, probe: cw.IMetric) -> None:
        """The dashboard, once every alarm exists (infra/dashboard.py)."""
        dashboard.fill(self.dashboard, self.alarms, self._dashboard_parts, answer_p99, probe)

    def _dynamodb(self, name: str, table: dynamodb.ITable, index: str | None = None) -> cw.Metric:
        dimensions = {"TableName": table.table_name}
        if index:
            dimensions["GlobalSecondaryIndexName"] = index
        return cw.Metric(
            namespace="AWS/DynamoDB",
            metric_name=name,
            dimensions_map=dimensions,
            statistic="Sum",
            period=PERIOD,
        )

    def _origin_forbidden(self, stage: str, api: apigwv2.HttpApi, access_logs: logs.ILogGroup) -> None:
        """403s the API answered, counted from its access log: an origin-secret mismatch between
        CloudFront and the functions (docs/edge.md) turns every call into one, and API Gateway's
        own metrics lump them with every other 4xx."""
        forbidden = logs.MetricFilter(
            self,
            "ForbiddenFilter",
            log_group=access_logs,
            filter_pattern=logs.FilterPattern.number_value("$.status", "=", 403),
            metric_namespace=f"{NAMESPACE}/{stage}",
            metric_name="ApiForbidden",
            metric_value="1",
        ).metric(period=PERIOD, statistic=cw.Stats.SUM)
        share = cw.MathExpression(
            expression=f"IF(FILL(forbidden, 0) >= {ORIGIN_403_MIN}, 100 * FILL(forbidden, 0) / requests, 0)",
            using_metrics={
                "forbidden": forbidden,
                "requests": api.metric_count(period=PERIOD, statistic=cw.Stats.SUM),
            },
            label="403s at the origin (% of requests)",
            period=PERIOD,
        )
        self.alarm(
            "OriginForbidden",
            share,
            ORIGIN_403_PERCENT,
            f"{ORIGIN_403_MIN}+ 403s at the API in 5 minutes, {ORIGIN_403_PERCENT}%+ of its requests: "
            "is the origin secret CloudFront sends the one the functions hold?",
        )

    def alarm(
        self,
        name: str,
        metric: cw.IMetric,
        threshold: float,
        description: str,
        *,
        comparison: cw.ComparisonOperator = cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        missing: cw.TreatMissingData = cw.TreatMissingData.NOT_BREACHING,
        evaluation_periods: int = 1,
        datapoints_to_alarm: int | None = None,
        scope: Construct | None = None,
        notifying: bool = True,
    ) -> cw.Alarm:
        """An alarm named WordSQD-<stage>-NAME that notifies the stage's topic (ALARM and OK);
        not NOTIFYING, a window of a composite alarm, which notifies instead."""
        alarm = cw.Alarm(
            scope or self,
            name,
            alarm_name=f"{self._prefix}-{name}",
            alarm_description=f"{description} Runbook: docs/operations.md#alarms",
            metric=metric,
            threshold=threshold,
            evaluation_periods=evaluation_periods,
            datapoints_to_alarm=datapoints_to_alarm,
            comparison_operator=comparison,
            treat_missing_data=missing,
        )
        if notifying:
            notify(alarm, self.topic)
        self.alarms.append(alarm)
        return alarm

    def notify_composite(self, alarm: cw.CompositeAlarm) -> None:
        """ALARM and OK of a composite alarm both go to the stage's topic."""
        action = cw_actions.SnsAction(self.topic)
        alarm.add_alarm_action(action)
        alarm.add_ok_action(action)
