"""infra/lambdas/wordsqd_ops/watch.py: the scheduled checks' pure logic, and their schedules and
alarms in the template. (Every check against the services, judged against its role:
test_role_calls.py. Lambda's provisioned concurrency, which moto does not implement, answers from
a Stubber.)"""

import json
from datetime import UTC, datetime, timedelta

import boto3
import pytest
from botocore.stub import Stubber
from moto import mock_aws

from infra.lambdas.wordsqd_ops import watch
from infra.lambdas.wordsqd_ops.window import CENTRAL


def test_a_deploy_running_at_the_freeze_counts_the_stack_and_codedeploy():
    assert watch.deploys_in_progress("UPDATE_COMPLETE", []) == 0
    assert watch.deploys_in_progress("UPDATE_IN_PROGRESS", ["d-1"]) == 2
    assert watch.deploys_in_progress("UPDATE_ROLLBACK_IN_PROGRESS", []) == 1


def test_capacity_not_raised_or_failed_is_missing():
    plan = {"daily": 1900, "leaderboard": 400}
    configs = {
        "daily": {"RequestedProvisionedConcurrentExecutions": 1, "Status": "READY"},  # the scaling failed
        "leaderboard": {"RequestedProvisionedConcurrentExecutions": 400, "Status": "IN_PROGRESS"},
    }
    assert watch.capacity_missing(configs, plan) == ["daily"]
    configs["daily"] = {"RequestedProvisionedConcurrentExecutions": 1900, "Status": "FAILED"}
    assert watch.capacity_missing(configs, plan) == ["daily"]
    configs["daily"] = None
    assert watch.capacity_missing(configs, plan) == ["daily"]
    configs["daily"] = {"RequestedProvisionedConcurrentExecutions": 1900, "Status": "IN_PROGRESS"}
    assert watch.capacity_missing(configs, plan) == []


def test_capacity_above_the_idle_floor_is_left_on():
    configs = {"daily": {"RequestedProvisionedConcurrentExecutions": 1900}, "leaderboard": None}
    assert watch.left_on(configs, 1) == ["daily"]
    assert watch.left_on({"daily": {"RequestedProvisionedConcurrentExecutions": 1}}, 1) == []


def test_code_storage_is_a_share_of_the_quota():
    settings = {
        "AccountUsage": {"TotalCodeSize": 7_500_000_000},
        "AccountLimit": {"TotalCodeSize": 75_000_000_000},
    }
    assert watch.storage_percent(settings) == 10.0


def test_no_successful_reset_since_midnight_is_missing():
    assert watch.reset_missing([], []) == 1  # the schedule did not fire
    assert watch.reset_missing([1, 1, 1], [1, 1, 1]) == 1  # every attempt failed
    assert watch.reset_missing([1, 1], [1, 0]) == 0  # the retry succeeded


def test_the_reset_check_reads_the_live_aliases_series_since_midnight():
    """Against moto's CloudWatch: a reset whose one attempt failed is missing; its retry's success
    (another function's, or the unaliased series, do not count) is not."""
    at = datetime(2026, 6, 2, 0, 10, tzinfo=CENTRAL).astimezone(UTC)
    env = {**ENV, "RESET_FUNCTION": "fn-reset"}

    def put(client, name, function, resource, minutes_ago):
        dimensions = [{"Name": "FunctionName", "Value": function}, {"Name": "Resource", "Value": resource}]
        client.put_metric_data(
            Namespace="AWS/Lambda",
            MetricData=[
                {
                    "MetricName": name,
                    "Dimensions": dimensions,
                    "Value": 1.0,
                    "Timestamp": at - timedelta(minutes=minutes_ago),
                }
            ],
        )

    with mock_aws():
        client = boto3.client("cloudwatch", region_name="us-east-1")
        put(client, "Invocations", "fn-reset", "fn-reset:live", 9)
        put(client, "Errors", "fn-reset", "fn-reset:live", 9)
        put(client, "Invocations", "fn-other", "fn-other:live", 5)
        put(client, "Invocations", "fn-reset", "fn-reset", 5)
        assert watch.measure("reset", env, {"cloudwatch": client}, at) == {"ResetMissing": 1}
        put(client, "Invocations", "fn-reset", "fn-reset:live", 5)
        assert watch.measure("reset", env, {"cloudwatch": client}, at) == {"ResetMissing": 0}


ENV = {
    "STAGE": "prod",
    "STACK_NAME": "WordSQD-prod",
    "APPLICATION": "WordSQD-prod",
    "FUNCTIONS": json.dumps({"daily": "fn-daily", "leaderboard": "fn-board", "validate": "fn-validate"}),
    "PLAN": json.dumps({"daily": 1900}),
    "ALIAS": "live",
    "IDLE": "1",
    "WINDOW_START": "23:50",
    "WINDOW_END": "00:20",
}


def _lambda_client(requested):
    client = boto3.client("lambda", region_name="us-east-1", aws_access_key_id="t", aws_secret_access_key="t")
    stub = Stubber(client)
    stub.add_response(
        "get_provisioned_concurrency_config",
        {"RequestedProvisionedConcurrentExecutions": requested, "Status": "READY"},
        {"FunctionName": "fn-daily", "Qualifier": "live"},
    )
    stub.activate()
    return client, stub


def test_leftover_capacity_is_not_counted_inside_the_window_and_is_outside():
    client, stub = _lambda_client(1900)
    noon = datetime(2026, 6, 1, 12, 0, tzinfo=CENTRAL).astimezone(UTC)
    assert watch.measure("leftover", ENV, {"lambda": client}, noon) == {"CapacityLeftOn": 1}
    stub.assert_no_pending_responses()
    midnight = datetime(2026, 6, 2, 0, 5, tzinfo=CENTRAL)
    assert watch.measure("leftover", ENV, {"lambda": client}, midnight) == {"CapacityLeftOn": 0}


def test_the_capacity_check_reads_each_planned_alias():
    client, stub = _lambda_client(1)
    at = datetime(2026, 6, 1, 23, 51, tzinfo=CENTRAL)
    assert watch.measure("capacity", ENV, {"lambda": client}, at) == {"CapacityMissing": 1}
    stub.assert_no_pending_responses()


@pytest.mark.infra
def test_the_checks_run_at_the_freeze_a_minute_into_the_window_and_hourly(prod, dev):
    def schedules(template):
        found = {}
        for s in template.resources("AWS::Scheduler::Schedule").values():
            target = s["Properties"]["Target"]
            if "check" in target.get("Input", ""):
                found[json.loads(target["Input"])["check"]] = (
                    s["Properties"]["ScheduleExpression"],
                    s["Properties"].get("ScheduleExpressionTimezone"),
                )
        return found

    assert schedules(prod) == {
        "deploys": ("cron(45 23 * * ? *)", "America/Chicago"),
        "capacity": ("cron(51 23 * * ? *)", "America/Chicago"),
        "leftover": ("rate(1 hour)", "Etc/UTC"),
        "storage": ("rate(1 hour)", "Etc/UTC"),
        "reset": ("cron(10 0 * * ? *)", "America/Chicago"),
        "retention": ("rate(1 day)", "Etc/UTC"),
    }
    assert "capacity" not in schedules(dev) and schedules(dev)["deploys"][0] == "cron(40 23 * * ? *)"


@pytest.mark.infra
def test_the_checks_alarm_on_their_metrics(prod):
    alarms = {
        a["Properties"]["AlarmName"]: a["Properties"]
        for a in prod.resources("AWS::CloudWatch::Alarm").values()
    }
    for name, metric, period in [
        ("DeployInProgressAtFreeze", "DeployInProgress", 300),
        ("MidnightCapacityMissing", "CapacityMissing", 60),
        ("CapacityLeftOn", "CapacityLeftOn", 3600),
        ("CodeStorage", "CodeStoragePercent", 3600),
        ("ResetMissing", "ResetMissing", 300),
    ]:
        alarm = alarms[f"WordSQD-live-{name}"]
        assert (alarm["Namespace"], alarm["MetricName"], alarm["Period"]) == (watch.NAMESPACE, metric, period)
        assert alarm["Dimensions"] == [{"Name": "Stage", "Value": "live"}]


@pytest.mark.infra
def test_the_kill_switches_live_in_appconfig_all_on_and_the_api_functions_read_them(dev):
    from infra.switches import ALL_ON
    from shared.runtime.flags import APPCONFIG, SWITCHES

    app_id, _ = dev.only("AWS::AppConfig::Application")
    _, profile = dev.only("AWS::AppConfig::ConfigurationProfile")
    assert (profile["Properties"]["LocationUri"], profile["Properties"]["Type"]) == ("hosted", "AWS.Freeform")
    _, version = dev.only("AWS::AppConfig::HostedConfigurationVersion")
    assert json.loads(version["Properties"]["Content"]) == ALL_ON
    assert set(ALL_ON) == set(SWITCHES) and all(v == {"default": True} for v in ALL_ON.values())
    _, deployment = dev.only("AWS::AppConfig::Deployment")
    assert deployment["Properties"]["DeploymentStrategyId"] == "AppConfig.AllAtOnce"
    for name, (_, props) in dev.functions.items():
        variables = props.get("Environment", {}).get("Variables", {})
        reads = name in ("daily", "leaderboard", "moderation")
        assert all((v in variables) == reads for v in APPCONFIG), name
        if reads:
            assert variables[APPCONFIG[0]] == {"Ref": app_id}


@pytest.mark.infra
def test_a_failing_or_silent_checker_pages(prod, dev):
    alarms = {
        a["Properties"]["AlarmName"]: a["Properties"]
        for a in prod.resources("AWS::CloudWatch::Alarm").values()
    }
    failed = alarms["WordSQD-live-WatchFailed"]
    assert (failed["MetricName"], failed["Statistic"], failed["Threshold"]) == ("Errors", "Sum", 1)
    missing = alarms["WordSQD-live-DailyChecksMissing"]
    assert missing["TreatMissingData"] == "breaching"
    assert missing["ComparisonOperator"] == "LessThanThreshold" and missing["Threshold"] == 1
    assert missing["EvaluationWindow"] == {"WallClockWindow": {"Timezone": "America/Chicago"}}
    read = {
        q["MetricStat"]["Metric"]["MetricName"]: q["MetricStat"]
        for q in missing["Metrics"]
        if "MetricStat" in q
    }
    assert set(read) == {"DeployInProgress", "ResetMissing", "CapacityMissing"}
    assert all((s["Stat"], s["Period"]) == ("SampleCount", 86400) for s in read.values())
    dev_missing = next(
        a["Properties"]
        for a in dev.resources("AWS::CloudWatch::Alarm").values()
        if a["Properties"]["AlarmName"].endswith("-DailyChecksMissing")
    )
    names = {q["MetricStat"]["Metric"]["MetricName"] for q in dev_missing["Metrics"] if "MetricStat" in q}
    assert names == {"DeployInProgress", "ResetMissing"}  # dev plans no capacity: no such check
