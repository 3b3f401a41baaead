"""Scheduled checks of what no service metric shows (infra/lambdas/wordsqd_ops/watch.py), and
their alarms: a deploy still running when the freeze starts, the midnight capacity not raised a
minute after its scheduled action (Application Auto Scaling sends no event for a failed one),
provisioned concurrency left on outside the window, the account's Lambda code storage, and the
reset at 00:10. A checker that crashes pages too (`WatchFailed`, the function's own errors), and a
daily check that did not report in a Central day is missing data treated as breaching
(`DailyChecksMissing`)."""

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta

from aws_cdk import ArnFormat, Aws, Duration, Stack, TimeZone
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_codedeploy as codedeploy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_scheduler_targets as targets
from aws_cdk import aws_synthetics as synthetics
from constructs import Construct

from infra.alarm_parts import PERIOD, wall_clock
from infra.capacity import IDLE
from infra.checks import acknowledge
from infra.config import MidnightCapacity
from infra.functions import ALIAS
from infra.lambdas.wordsqd_ops.watch import NAMESPACE
from infra.lambdas.wordsqd_ops.window import FREEZE_MARGIN
from infra.ops_functions import LogPolicy, ops_function
from infra.scheduler_role import scheduler_role

# The checks that run once a Central day, and the metric each publishes.
DAILY_METRICS = {"deploys": "DeployInProgress", "reset": "ResetMissing", "capacity": "CapacityMissing"}
CENTRAL = "America/Chicago"
RETENTION_DAYS = {logs.RetentionDays.ONE_WEEK: 7, logs.RetentionDays.ONE_YEAR: 365}  # the stack's two
CODE_STORAGE_PERCENT = 50.0  # of the account's 75 GB: prune (scripts/prune_versions.py) well before
AlarmFactory = Callable[..., cw.Alarm]


def _minus(hhmm: str, delta: timedelta) -> tuple[int, int]:
    moment = datetime(2000, 1, 2, *(int(p) for p in hhmm.split(":"))) - delta
    return moment.hour, moment.minute


def _central(hour: int, minute: int) -> scheduler.ScheduleExpression:
    return scheduler.ScheduleExpression.cron(
        minute=str(minute), hour=str(hour), time_zone=TimeZone.AMERICA_CHICAGO
    )


class Watch(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        stage: str,
        application: str,
        groups: Mapping[str, codedeploy.ILambdaDeploymentGroup],
        functions: Mapping[str, lambda_.IFunction],
        reset: lambda_.IFunction,
        window: MidnightCapacity,
        plan: Mapping[str, int],
        alarm: AlarmFactory,
        logs_: LogPolicy,
    ) -> None:
        super().__init__(scope, id)
        stack = Stack.of(self)
        self.function = ops_function(
            self,
            "Function",
            handler="wordsqd_ops.watch.handler",
            description="WordSQD scheduled checks",
            logs_=logs_,
        )
        for key, value in {
            "STAGE": stage,
            "STACK_NAME": Aws.STACK_NAME,
            "APPLICATION": application,
            "DEPLOYMENT_GROUPS": stack.to_json_string([g.deployment_group_name for g in groups.values()]),
            "FUNCTIONS": stack.to_json_string({n: f.function_name for n, f in functions.items()}),
            "PLAN": stack.to_json_string(dict(plan)),
            "ALIAS": ALIAS,
            "RESET_FUNCTION": reset.function_name,
            "IDLE": str(IDLE),
            "WINDOW_START": window.start,
            "WINDOW_END": window.end,
        }.items():
            self.function.add_environment(key, value)
        self._grant(groups, functions, stack)

        role = scheduler_role(
            self, "InvokeRole", "EventBridge Scheduler: invoke the WordSQD scheduled checks"
        )
        self._invoke_role = role
        function_id = stack.get_logical_id(self.function.node.default_child)  # type: ignore[arg-type]
        acknowledge(
            role,
            f"AwsSolutions-IAM5[Resource::<{function_id}.Arn>:*]",
            "Scheduler's grant covers the function's versions: this one function only.",
        )
        schedules = {
            "deploys": _central(*_minus(window.start, FREEZE_MARGIN)),
            "leftover": scheduler.ScheduleExpression.rate(Duration.hours(1)),
            "storage": scheduler.ScheduleExpression.rate(Duration.hours(1)),
            "reset": _central(0, 10),
        }
        if plan:
            schedules["capacity"] = _central(*_minus(window.start, -timedelta(minutes=1)))
        self.schedules = {
            check: scheduler.Schedule(
                self,
                f"{check.capitalize()}Check",
                description=f"WordSQD scheduled check: {check}",
                schedule=expression,
                target=targets.LambdaInvoke(
                    self.function,
                    input=scheduler.ScheduleTargetInput.from_object({"check": check}),
                    retry_attempts=2,
                    role=role,
                ),
            )
            for check, expression in schedules.items()
        }

        def metric(name: str, period: Duration) -> cw.Metric:
            return cw.Metric(
                namespace=NAMESPACE,
                metric_name=name,
                dimensions_map={"Stage": stage},
                statistic=cw.Stats.MAXIMUM,
                period=period,
            )

        freeze = f"{_minus(window.start, FREEZE_MARGIN)[0]:02}:{_minus(window.start, FREEZE_MARGIN)[1]:02}"
        # Each alarm: its name, the metric the checks publish and its period, the threshold, the runbook.
        checks: list[tuple[str, str, Duration, float, str]] = [
            (
                "DeployInProgressAtFreeze", "DeployInProgress", Duration.minutes(5), 1,
                f"A stack update or CodeDeploy deployment was still running at {freeze} Central, the "
                "midnight freeze's start: stop it (aws deploy stop-deployment) or watch the capacity.",
            ),
            (
                "CapacityLeftOn", "CapacityLeftOn", Duration.hours(1), 1,
                f"An alias holds more than {IDLE} provisioned environment outside the midnight window "
                "(a failed scale-down, or one set by hand): it bills every hour.",
            ),
            (
                "CodeStorage", "CodeStoragePercent", Duration.hours(1), CODE_STORAGE_PERCENT,
                f"Lambda code storage is over {CODE_STORAGE_PERCENT:.0f}% of the account's quota: "
                "prune old versions (scripts/prune_versions.py).",
            ),
            (
                "ResetMissing", "ResetMissing", Duration.minutes(5), 1,
                "No successful reset by 00:10 Central: the schedule did not fire or every attempt "
                "failed. Replay it (docs/operations.md, The jobs).",
            ),
        ]  # fmt: skip
        if plan:
            checks.append(
                (
                    "MidnightCapacityMissing", "CapacityMissing", Duration.minutes(1), 1,
                    f"A minute after {window.start} Central an alias was not asked for its midnight "
                    "provisioned concurrency, or its allocation failed (a weighted alias: a deploy "
                    "in the window?): the rush will be served cold.",
                )
            )  # fmt: skip
        self.alarms = [
            alarm(name, metric(metric_name, period), threshold, description, scope=self)
            for name, metric_name, period, threshold, description in checks
        ]
        self._alarm_on_itself(stage, alarm, ["deploys", "reset", *(["capacity"] if plan else [])])

    def keep_canary_logs(
        self, canaries: Mapping[str, synthetics.Canary], retention: logs.RetentionDays
    ) -> None:
        """Daily, RETENTION on the log groups Synthetics makes for CANARIES (check `retention`)."""
        stack = Stack.of(self)
        self.function.add_environment(
            "CANARIES", stack.to_json_string([c.canary_name for c in canaries.values()])
        )
        self.function.add_environment("CANARY_LOG_DAYS", str(RETENTION_DAYS[retention]))
        # What it reads (each canary) and what it sets (the retention of their log groups).
        for action, service, resource, names in (
            ("synthetics:GetCanary", "synthetics", "canary", [c.canary_name for c in canaries.values()]),
            ("logs:PutRetentionPolicy", "logs", "log-group", ["/aws/lambda/cwsyn-*"]),
        ):
            colon = ArnFormat.COLON_RESOURCE_NAME
            arns = [
                stack.format_arn(service=service, resource=resource, resource_name=name, arn_format=colon)
                for name in names
            ]
            self.function.add_to_role_policy(iam.PolicyStatement(actions=[action], resources=arns))
        role = self.function.role
        assert role is not None
        for partition in ("aws", "<AWS::Partition>"):
            acknowledge(
                role,
                f"AwsSolutions-IAM5[Resource::arn:{partition}:logs:{stack.region}:{stack.account}"
                ":log-group:/aws/lambda/cwsyn-*]",
                "The canaries' log groups: named by Synthetics with the canary's id, known only at run time.",
            )
        self.schedules["retention"] = scheduler.Schedule(
            self,
            "RetentionCheck",
            description="WordSQD scheduled check: retention",
            schedule=scheduler.ScheduleExpression.rate(Duration.days(1)),
            target=targets.LambdaInvoke(
                self.function,
                input=scheduler.ScheduleTargetInput.from_object({"check": "retention"}),
                retry_attempts=2,
                role=self._invoke_role,
            ),
        )

    def _alarm_on_itself(self, stage: str, alarm: AlarmFactory, daily: list[str]) -> None:
        """A checker that fails pages at once; a daily check that did not report over a Central
        day (the schedule off, every attempt failed) pages at the day's end."""
        self.alarms.append(
            alarm(
                "WatchFailed",
                self.function.metric_errors(period=PERIOD, statistic=cw.Stats.SUM),
                1,
                "A scheduled check failed (its logs say why): until it runs, the alarm it feeds cannot fire.",
                scope=self,
            )
        )
        reported = cw.MathExpression(
            expression="MIN([" + ", ".join(f"FILL({c}, 0)" for c in daily) + "])",
            using_metrics={
                c: cw.Metric(
                    namespace=NAMESPACE,
                    metric_name=DAILY_METRICS[c],
                    dimensions_map={"Stage": stage},
                    statistic=cw.Stats.SAMPLE_COUNT,
                    period=Duration.days(1),
                )
                for c in daily
            },
            label="reports of the least reported daily check",
            period=Duration.days(1),
        )
        missing = alarm(
            "DailyChecksMissing",
            reported,
            1,
            f"A daily check ({', '.join(daily)}) did not report in the Central day: its alarm "
            "could not fire. Is its schedule enabled? WatchFailed's logs?",
            comparison=cw.ComparisonOperator.LESS_THAN_THRESHOLD,
            missing=cw.TreatMissingData.BREACHING,
            scope=self,
        )
        wall_clock(missing, CENTRAL)
        self.alarms.append(missing)

    def _grant(
        self,
        groups: Mapping[str, codedeploy.ILambdaDeploymentGroup],
        functions: Mapping[str, lambda_.IFunction],
        stack: Stack,
    ) -> None:
        role = self.function.role
        assert role is not None
        role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["lambda:GetProvisionedConcurrencyConfig"],
                resources=[f"{f.function_arn}:{ALIAS}" for f in functions.values()],
            )
        )
        role.add_to_principal_policy(
            iam.PolicyStatement(actions=["cloudformation:DescribeStacks"], resources=[Aws.STACK_ID])
        )
        role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["codedeploy:ListDeployments"],
                resources=[g.deployment_group_arn for g in groups.values()],
            )
        )
        # None takes a resource: GetAccountSettings is the account's, GetMetricData reads any
        # metric, PutMetricData is limited to this namespace by its condition.
        role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["lambda:GetAccountSettings", "cloudwatch:GetMetricData"], resources=["*"]
            )
        )
        role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["cloudwatch:PutMetricData"],
                resources=["*"],
                conditions={"StringEquals": {"cloudwatch:namespace": NAMESPACE}},
            )
        )
        acknowledge(
            role,
            "AwsSolutions-IAM5[Resource::*]",
            "GetAccountSettings, Get/PutMetricData take no resource (Put bound to one namespace).",
        )
