"""The game seen from outside, and judged by its objectives:

- a CloudWatch Synthetics canary (infra/canary) through the site's address every 5 minutes, and a
  second one started by EventBridge Scheduler at 23:59 and 00:01 Central, either side of the reset
  (Synthetics' own cron is UTC only);
- SLOs for the API with multi-window burn-rate alarms (the SRE workbook's: a fast burn, 14.4 times
  the budget's rate over both 1 hour and 5 minutes; a slow burn, 6 times over 6 hours and 30
  minutes): availability (non-5xx answers) and the answers' latency (answered within ANSWER_MS);
- saved Logs Insights queries on the API's access log.
"""

from collections.abc import Callable
from pathlib import Path

from aws_cdk import ArnFormat, Duration, RemovalPolicy, Stack, TimeZone
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_scheduler_targets as targets
from aws_cdk import aws_synthetics as synthetics
from constructs import Construct

from infra.checks import acknowledge
from infra.scheduler_role import scheduler_role
from shared.runtime.observability import NAMESPACE

CANARY_CODE = Path(__file__).resolve().parent / "canary"
CANARY_RUNTIME = synthetics.Runtime.SYNTHETICS_PYTHON_SELENIUM_7_0
PROBE_EVERY = Duration.minutes(5)
MIDNIGHT_PROBES = ((23, 59), (0, 1))  # Central
AVAILABILITY_SLO = 99.9  # % of API requests answered without a 5xx, over 30 days
ANSWER_MS = 1_000  # an answer's objective: answered within this, end to end at the API
ANSWER_SLO = 99.0  # % of answers within ANSWER_MS (the answers' p99 under it)
# (name, burn rate, long window, short window)
BURNS = (
    ("Fast", 14.4, Duration.hours(1), Duration.minutes(5)),
    ("Slow", 6.0, Duration.hours(6), Duration.minutes(30)),
)
ANSWER_ROUTES = "*/answers"  # POST /runs/{run_id}/answers and POST /guest/runs/{run_id}/answers
AlarmFactory = Callable[..., cw.Alarm]


class Outside(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        stage: str,
        site_url: str,
        api: apigwv2.HttpApi,
        access_logs: logs.ILogGroup,
        alarm: AlarmFactory,
        topic_action: Callable[[cw.CompositeAlarm], None],
    ) -> None:
        super().__init__(scope, id)
        self._alarm = alarm
        self._topic_action = topic_action
        self.composites: list[cw.CompositeAlarm] = []
        artifacts = s3.Bucket(
            self,
            "CanaryArtifacts",
            encryption=s3.BucketEncryption.S3_MANAGED,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            enforce_ssl=True,
            lifecycle_rules=[s3.LifecycleRule(expiration=Duration.days(14))],
            removal_policy=RemovalPolicy.RETAIN,
        )
        acknowledge(
            artifacts, "AwsSolutions-S1", "The canaries' screenshots and logs, kept 14 days: no access log."
        )
        self.probe = self._canary("Probe", site_url, artifacts, synthetics.Schedule.rate(PROBE_EVERY))
        self.midnight_probe = self._canary("MidnightProbe", site_url, artifacts, synthetics.Schedule.once())
        self._start_at_midnight(self.midnight_probe)

        self.alarms = [
            alarm(
                "ProbeFailed",
                self.probe.metric_success_percent(period=PROBE_EVERY, statistic=cw.Stats.MINIMUM),
                100,
                "The outside probe (GET /daily and a guest run through CloudFront) failed twice in a row.",
                comparison=cw.ComparisonOperator.LESS_THAN_THRESHOLD,
                missing=cw.TreatMissingData.BREACHING,
                evaluation_periods=2,
                datapoints_to_alarm=2,
                scope=self,
            ),
            alarm(
                "MidnightProbeFailed",
                self.midnight_probe.metric_failed(period=Duration.minutes(1), statistic=cw.Stats.SUM),
                1,
                "The probe at 23:59 or 00:01 Central failed: the game is down at the reset.",
                scope=self,
            ),
        ]

        answers = logs.MetricFilter(
            self,
            "AnswerLatencyFilter",
            log_group=access_logs,
            filter_pattern=logs.FilterPattern.string_value("$.routeKey", "=", ANSWER_ROUTES),
            metric_namespace=f"{NAMESPACE}/{stage}",
            metric_name="AnswerLatency",
            metric_value="$.responseLatency",
            unit=cw.Unit.MILLISECONDS,
        )
        self.answer_latency = answers.metric(statistic=cw.Stats.p(99), period=Duration.minutes(5))

        def availability(window: Duration) -> cw.IMetric:
            return cw.MathExpression(
                expression="100 * FILL(errors, 0) / requests",
                using_metrics={
                    "errors": api.metric_server_error(period=window, statistic=cw.Stats.SUM),
                    "requests": api.metric_count(period=window, statistic=cw.Stats.SUM),
                },
                label="API 5xx (% of requests)",
                period=window,
            )

        def slow_answers(window: Duration) -> cw.IMetric:
            return cw.MathExpression(
                expression="100 - within",
                using_metrics={"within": answers.metric(statistic=f"PR(0:{ANSWER_MS})", period=window)},
                label=f"answers over {ANSWER_MS} ms (%)",
                period=window,
            )

        self._slo("Availability", availability, 100 - AVAILABILITY_SLO, "of API requests answered 5xx")
        self._slo("AnswerLatency", slow_answers, 100 - ANSWER_SLO, f"of answers slower than {ANSWER_MS} ms")
        self._queries(access_logs, stage)

    def _canary(
        self, id: str, site_url: str, artifacts: s3.IBucket, schedule: synthetics.Schedule
    ) -> synthetics.Canary:
        canary = synthetics.Canary(
            self,
            id,
            runtime=CANARY_RUNTIME,
            test=synthetics.Test.custom(
                code=synthetics.Code.from_asset(str(CANARY_CODE), exclude=["**/__pycache__"]),
                handler="wordsqd_probe.handler",
            ),
            schedule=schedule,
            environment_variables={"SITE_URL": site_url},
            artifacts_bucket_location=synthetics.ArtifactsBucketLocation(bucket=artifacts, prefix=id.lower()),
            timeout=Duration.minutes(1),
            success_retention_period=Duration.days(7),
            failure_retention_period=Duration.days(14),
        )
        stack = Stack.of(self)
        bucket_id = stack.get_logical_id(artifacts.node.default_child)  # type: ignore[arg-type]
        for finding in (
            "Resource::*",
            f"Resource::<{bucket_id}.Arn>/{id.lower()}/*",
            f"Resource::arn:aws:logs:{stack.region}:{stack.account}:log-group:/aws/lambda/cwsyn-*",
            f"Resource::arn:<AWS::Partition>:logs:{stack.region}:{stack.account}:log-group:/aws/lambda/cwsyn-*",
        ):
            acknowledge(
                canary,
                f"AwsSolutions-IAM5[{finding}]",
                "Synthetics' canary role: its artifacts, its cwsyn-* logs, calls that take no resource.",
            )
        return canary

    def _start_at_midnight(self, canary: synthetics.Canary) -> None:
        """EventBridge Scheduler starts CANARY at each of MIDNIGHT_PROBES, Chicago's wall clock."""
        stack = Stack.of(self)
        role = scheduler_role(
            self, "StartRole", "EventBridge Scheduler: start the WordSQD midnight probe", stack.account
        )
        arn = stack.format_arn(
            service="synthetics",
            resource="canary",
            resource_name=canary.canary_name,
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        for hour, minute in MIDNIGHT_PROBES:
            scheduler.Schedule(
                self,
                f"Probe{hour:02}{minute:02}",
                description=f"WordSQD: the midnight probe at {hour:02}:{minute:02} Central",
                schedule=scheduler.ScheduleExpression.cron(
                    minute=str(minute), hour=str(hour), time_zone=TimeZone.AMERICA_CHICAGO
                ),
                target=targets.Universal(
                    service="synthetics",
                    action="startCanary",
                    input=scheduler.ScheduleTargetInput.from_object({"Name": canary.canary_name}),
                    policy_statements=[
                        iam.PolicyStatement(actions=["synthetics:StartCanary"], resources=[arn])
                    ],
                    role=role,
                    retry_attempts=2,
                    max_event_age=Duration.minutes(1),  # a probe late for midnight is no probe
                ),
            )

    def _slo(
        self, name: str, bad_percent: Callable[[Duration], cw.IMetric], budget: float, what: str
    ) -> None:
        """Multi-window burn-rate alarms: each BURN is a composite of its long and short window."""
        for speed, rate, long, short in BURNS:
            threshold = rate * budget
            windows = [
                self._alarm(
                    f"{name}Burn{speed}{int(window.to_minutes())}m",
                    bad_percent(window),
                    threshold,
                    f"{threshold:g}%+ {what} over {int(window.to_minutes())} minutes "
                    f"({rate}x the error budget's rate); part of {name}Burn{speed}.",
                    scope=self,
                    notifying=False,
                )
                for window in (long, short)
            ]
            composite = cw.CompositeAlarm(
                self,
                f"{name}Burn{speed}",
                composite_alarm_name=f"{Stack.of(self).stack_name}-{name}Burn{speed}",
                alarm_description=(
                    f"The {name} SLO's budget burns {rate}x too fast: {threshold:g}%+ {what} over both "
                    f"{int(long.to_minutes())} and {int(short.to_minutes())} minutes. "
                    "Runbook: docs/operations.md#alarms"
                ),
                alarm_rule=cw.AlarmRule.all_of(
                    *(cw.AlarmRule.from_alarm(w, cw.AlarmState.ALARM) for w in windows)
                ),
            )
            self._topic_action(composite)
            self.composites.append(composite)

    def _queries(self, access_logs: logs.ILogGroup, stage: str) -> None:
        queries = {
            "errors-by-route": logs.QueryString(
                fields=["routeKey", "status"],
                filter_statements=["status >= 500"],
                stats_statements=["count(*) as errors by routeKey, status"],
                sort="errors desc",
            ),
            "slow-requests": logs.QueryString(
                fields=[
                    "@timestamp",
                    "routeKey",
                    "status",
                    "responseLatency",
                    "integrationLatency",
                    "requestId",
                ],
                filter_statements=[f"responseLatency > {ANSWER_MS}"],
                sort="responseLatency desc",
                limit=100,
            ),
            # The access log holds no player id (docs/edge.md): a player is their address and browser.
            "one-players-requests": logs.QueryString(
                fields=["@timestamp", "routeKey", "status", "responseLatency", "userAgent", "requestId"],
                filter_statements=['ip = "203.0.113.7"'],
                sort="@timestamp desc",
                limit=1000,
            ),
        }
        self.queries = [
            logs.QueryDefinition(
                self,
                f"Query{name.title().replace('-', '')}",
                query_definition_name=f"WordSQD-{stage}/{name}",
                query_string=query,
                log_groups=[access_logs],
            )
            for name, query in queries.items()
        ]
