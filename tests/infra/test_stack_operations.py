"""Alarms that fire: every alarm watches a series its service really publishes, notifies the
stack's topic, and the jobs alarm when they did not succeed (the dashboard and outputs:
test_stack_outputs.py)."""

import pytest

from infra.dashboard import GAME_COUNTERS
from infra.functions import API_FUNCTIONS, FUNCTIONS
from infra.operations import JOB_WINDOWS, P99_MS
from shared.dynamo.table import INDEXES
from tests.infra.metric_catalogue import catalogue
from tests.infra.test_stack_alarm_reach import composite_actions, stack_templates

pytestmark = pytest.mark.infra  # synthesizes the CDK app

# Series the CDK's generated catalogue (tests/infra/metric_catalogue.py) does not cover, each with
# why it exists: per namespace, metric -> the dimension sets it is published under.
NOT_CATALOGUED: dict[str, dict[str, list[frozenset[str]]]] = {
    # Event source mapping metrics (the mapping's MetricsConfig EventCount, 2024) are newer than the
    # catalogue's AWS/Lambda spec; Lambda publishes them per mapping only.
    "AWS/Lambda#mapping": {"PolledEventCount": [frozenset({"EventSourceMappingUUID"})]},
    # aws-cdk-lib has no WAFV2 catalogue. A CLOUDFRONT web ACL's series: WebACL and Rule, no Region.
    "AWS/WAFV2": {"BlockedRequests": [frozenset({"WebACL", "Rule"})]},
    # shared/runtime/observability.py: Powertools metrics with the service dimension; Answers adds reason.
    "WordSQD": {
        **{metric: [frozenset({"service"})] for metric in GAME_COUNTERS},
        "Answers": [frozenset({"service", "reason"})],
        "ExpiryFailures": [frozenset({"service"})],
        # the review queue (functions/daily/expire.py, functions/moderation/routes.py)
        "OldestOpenCaseHours": [frozenset({"service"})],
        "CasesOpened": [frozenset({"service"})],
    },
    # infra/operations.py: 403s counted from the API's access log, per stage (a metric filter).
    # infra/outside.py: answers' latency from the same access log (a metric filter), per stage.
    # infra/route_alarms.py: each API function's 5xx, from the same access log.
    **{
        f"WordSQD/{stage}": {
            "ApiForbidden": [frozenset()],
            "AnswerLatency": [frozenset()],
            **{f"Api5xx{name.capitalize()}": [frozenset()] for name in API_FUNCTIONS},
        }
        for stage in ("dev", "live")
    },
    # infra/guard.py: the emergency door's uses, counted from the guard's log, per stage.
    "WordSQD/Operations/dev": {"EmergencyDeploys": [frozenset()]},
    "WordSQD/Operations/live": {"EmergencyDeploys": [frozenset()]},
    # infra/lambdas/wordsqd_ops/watch.py: put by the scheduled checks, per stage.
    "WordSQD/Operations": {
        metric: [frozenset({"Stage"})]
        for metric in (
            "DeployInProgress",
            "CapacityMissing",
            "CapacityLeftOn",
            "CodeStoragePercent",
            "ResetMissing",
        )
    },
}
# CloudWatch's Operation values for DynamoDB (not the CDK's Python enum names).
DYNAMODB_OPERATIONS = {
    "GetItem", "BatchGetItem", "Query", "Scan", "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem",
    "TransactWriteItems", "TransactGetItems", "GetRecords", "ExecuteStatement", "BatchExecuteStatement",
    "ExecuteTransaction",
}  # fmt: skip


def _alarms(synth):
    return {
        a["Properties"]["AlarmName"]: a["Properties"]
        for a in synth.resources("AWS::CloudWatch::Alarm").values()
    }


def _watched(alarm):
    """(namespace, metric, {dimension: value}) of every series an alarm reads."""
    if "MetricName" in alarm:
        stats = [
            {
                "Namespace": alarm["Namespace"],
                "MetricName": alarm["MetricName"],
                "Dimensions": alarm.get("Dimensions", []),
            }
        ]
    else:
        stats = [q["MetricStat"]["Metric"] for q in alarm["Metrics"] if "MetricStat" in q]
        assert all("Expression" in q or "MetricStat" in q for q in alarm["Metrics"])
    return [
        (m["Namespace"], m["MetricName"], {d["Name"]: d["Value"] for d in m.get("Dimensions", [])})
        for m in stats
    ]


def _all_alarms(synth) -> dict[str, dict]:
    return {
        r["Properties"]["AlarmName"]: r["Properties"]
        for template in stack_templates(synth).values()
        for r in template["Resources"].values()
        if r["Type"] == "AWS::CloudWatch::Alarm"
    }


def _published(namespace: str, metric: str) -> set[frozenset[str]]:
    listed = {*NOT_CATALOGUED.get(namespace, {}).get(metric, [])}
    return catalogue().get(namespace, {}).get(metric, set()) | listed


def test_every_alarm_of_every_stack_watches_a_series_cloudwatch_publishes(synth):
    """Each series an alarm reads is one the CDK's generated catalogue lists (namespace, metric and
    dimension set), or one NOT_CATALOGUED names with its reason: an alarm on anything else watches
    a series that never exists and never fires."""
    alarms = _all_alarms(synth)
    assert len(alarms) > 2 * len(_alarms(synth.stacks["dev"]))  # the us-east-1 stacks' too
    for name, alarm in alarms.items():
        for namespace, metric, dimensions in _watched(alarm):
            if "EventSourceMappingUUID" in dimensions:
                namespace = "AWS/Lambda#mapping"
            series = (name, namespace, metric, sorted(dimensions))
            assert frozenset(dimensions) in _published(namespace, metric), series
            if "Operation" in dimensions:
                assert dimensions["Operation"] in DYNAMODB_OPERATIONS, (name, dimensions["Operation"])


def test_the_catalogue_is_aws_cdk_libs_own_and_knows_lambdas_version_series():
    """The catalogue is read from the installed package: ExecutedVersion only beside Resource."""
    lambda_errors = catalogue()["AWS/Lambda"]["Errors"]
    assert frozenset({"FunctionName", "Resource", "ExecutedVersion"}) in lambda_errors
    assert frozenset({"FunctionName", "ExecutedVersion"}) not in lambda_errors
    assert catalogue()["AWS/DynamoDB"]["ThrottledRequests"] == {frozenset({"TableName", "Operation"})}


def test_the_published_table_catches_the_old_enum_bug():
    """The check above would have caught #13's bug: the Python enum value as a dimension."""
    assert "GET_ITEM" not in DYNAMODB_OPERATIONS and "GetItem" in DYNAMODB_OPERATIONS


@pytest.mark.parametrize("stage", ["dev", "prod"])
def test_sums_fill_missing_series_so_one_throttled_operation_fires(synth, stage):
    """CloudWatch publishes a throttle or error count only where one happened, and `a + b` has no
    value where either series is missing: every term of a sum must be FILLed."""
    for name, alarm in _alarms(synth.stacks[stage]).items():
        for query in alarm.get("Metrics", []):
            expression = query.get("Expression", "")
            if "+" in expression:
                terms = [t.strip() for t in expression.split("+")]
                assert all(t.startswith("FILL(") and t.endswith(", 0)") for t in terms), (name, expression)


def test_table_throttle_alarm_counts_every_operation_the_functions_make(dev):
    alarm = _alarms(dev)["WordSQD-dev-TableThrottles"]
    operations = {d["Operation"] for _, _, d in _watched(alarm)}
    assert operations == {
        "GetItem",
        "BatchGetItem",
        "Query",
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "TransactWriteItems",
        "BatchWriteItem",
        "GetRecords",
    }


def test_partly_throttled_batches_and_every_index_are_watched(dev):
    """ThrottledRequests counts a batch only when all of it was throttled; the throttle events
    count each item, and an index's own events show GSI back-pressure on the table's writes."""
    alarms = _alarms(dev)
    events = {m for _, m, d in _watched(alarms["WordSQD-dev-TableThrottleEvents"]) if set(d) == {"TableName"}}
    assert events == {"ReadThrottleEvents", "WriteThrottleEvents"}
    for index in INDEXES:
        watched = _watched(alarms[f"WordSQD-dev-IndexThrottles{index.capitalize()}"])
        assert {m for _, m, _ in watched} == {"ReadThrottleEvents", "WriteThrottleEvents"}
        assert {d["GlobalSecondaryIndexName"] for _, _, d in watched} == {index}


def test_lambda_alarms_watch_the_live_aliases_or_the_new_version_through_them(dev):
    """Traffic alarms watch the `live` alias; a canary's alarms the version it is shifting to
    (ExecutedVersion), so a new version failing under a tenth of the calls still trips them."""
    names = {logical_id for logical_id, _ in dev.functions.values()}
    for name, alarm in _alarms(dev).items():
        if name.endswith("-WatchFailed"):  # the scheduled checks' own function: no alias
            continue
        for namespace, _, dimensions in _watched(alarm):
            if namespace == "AWS/Lambda" and "FunctionName" in dimensions:
                function = dimensions["FunctionName"]["Ref"]
                assert function in names, name
                if "ExecutedVersion" in dimensions:
                    [version, attribute] = dimensions["ExecutedVersion"]["Fn::GetAtt"]
                    assert dev.json["Resources"][version]["Type"] == "AWS::Lambda::Version", name
                    assert dev.json["Resources"][version]["Properties"]["FunctionName"] == {"Ref": function}
                    assert attribute == "Version"
                assert dimensions["Resource"] == {"Fn::Join": ["", [{"Ref": function}, ":live"]]}, name


def test_an_alias_shifts_only_after_its_canary_alarms_watch_the_new_version(dev):
    alarm_ids = {r["Properties"]["AlarmName"]: k for k, r in dev.resources("AWS::CloudWatch::Alarm").items()}
    aliases = dev.resources("AWS::Lambda::Alias")
    for name, (logical_id, _) in dev.functions.items():
        [alias] = [a for a in aliases.values() if a["Properties"]["FunctionName"] == {"Ref": logical_id}]
        title = name.capitalize()
        for kind in ("ErrorRate", "LatencyP99"):
            assert alarm_ids[f"WordSQD-dev-{title}{kind}"] in alias["DependsOn"], (name, kind)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_has_a_p99_latency_and_an_error_rate_alarm(dev, name):
    logical_id, _ = dev.functions[name]
    alarms = _alarms(dev)
    title = name.capitalize()
    latency = alarms[f"WordSQD-dev-{title}LatencyP99"]
    assert (latency["MetricName"], latency["ExtendedStatistic"], latency["Threshold"]) == (
        "Duration",
        "p99",
        P99_MS[name],
    )
    dimensions = {d["Name"]: d["Value"] for d in latency["Dimensions"]}
    assert dimensions["FunctionName"] == {"Ref": logical_id} and "ExecutedVersion" in dimensions
    rate = alarms[f"WordSQD-dev-{title}ErrorRate"]
    [expression] = [q["Expression"] for q in rate["Metrics"] if "Expression" in q]
    assert expression == "100 * FILL(errors, 0) / invocations"
    assert {m for _, m, _ in _watched(rate)} == {"Errors", "Invocations"}


@pytest.mark.parametrize("job", sorted(JOB_WINDOWS))
def test_a_job_that_did_not_succeed_in_its_window_alarms(dev, job):
    """Missing data breaches: a job that never ran is an outage, not a quiet night."""
    logical_id, _ = dev.functions[job]
    alarm = _alarms(dev)[f"WordSQD-dev-{job.capitalize()}NotSucceeded"]
    assert alarm["TreatMissingData"] == "breaching"
    assert alarm["ComparisonOperator"] == "LessThanThreshold" and alarm["Threshold"] == 1
    [expression] = [q["Expression"] for q in alarm["Metrics"] if "Expression" in q]
    assert expression == "FILL(invocations, 0) - FILL(errors, 0)"
    periods = {q["MetricStat"]["Period"] for q in alarm["Metrics"] if "MetricStat" in q}
    assert periods == {int(JOB_WINDOWS[job].period.to_seconds())}
    assert all(d["FunctionName"] == {"Ref": logical_id} for _, _, d in _watched(alarm))


def test_a_failed_reset_attempt_alarms_within_a_minute(dev):
    """The day's verdict comes at its end; each failed attempt is seen in the next minute."""
    logical_id, _ = dev.functions["reset"]
    alarm = _alarms(dev)["WordSQD-dev-ResetFailed"]
    assert (alarm["MetricName"], alarm["Period"], alarm["Threshold"], alarm["EvaluationPeriods"]) == (
        "Errors",
        60,
        1,
        1,
    )
    dimensions = {d["Name"]: d["Value"] for d in alarm["Dimensions"]}
    assert dimensions["FunctionName"] == {"Ref": logical_id} and "Resource" in dimensions


def test_the_reset_is_judged_over_the_central_day_on_the_wall_clock(dev):
    """A sliding 24 hours misses the reset for an hour of the 25-hour November day (two resets
    25 h apart); a wall-clock day in America/Chicago is one day, 23, 24 or 25 hours long."""
    alarm = _alarms(dev)["WordSQD-dev-ResetNotSucceeded"]
    assert alarm["EvaluationWindow"] == {"WallClockWindow": {"Timezone": "America/Chicago"}}
    assert {q["MetricStat"]["Period"] for q in alarm["Metrics"] if "MetricStat" in q} == {86_400}
    assert alarm["EvaluationPeriods"] == 1


def test_a_stalled_stream_mapping_alarms(dev):
    """IteratorAge has no data when nothing is consumed, so the lag alarm cannot see a disabled or
    stalled mapping: the mapping's own PolledEventCount (the expiry job's watermark writes a
    record every minute) with missing data breaching can."""
    [(mapping_id, mapping)] = [  # the stream's (the closing pass's queue has its own)
        (k, m)
        for k, m in dev.resources("AWS::Lambda::EventSourceMapping").items()
        if "StartingPosition" in m["Properties"]
    ]
    assert mapping["Properties"]["MetricsConfig"] == {"Metrics": ["EventCount"]}
    alarm = _alarms(dev)["WordSQD-dev-CountersStalled"]
    assert (alarm["MetricName"], alarm["ComparisonOperator"], alarm["Threshold"]) == (
        "PolledEventCount",
        "LessThanThreshold",
        1,
    )
    assert alarm["TreatMissingData"] == "breaching"
    assert alarm["Dimensions"] == [{"Name": "EventSourceMappingUUID", "Value": {"Ref": mapping_id}}]


def test_expiry_failures_that_persist_over_passes_alarm(dev):
    """One expiry pass that could not complete a due run is no page (the next pass, a minute later,
    tries again); failures in every period for 15 minutes are."""
    alarm = _alarms(dev)["WordSQD-dev-ExpiryFailures"]
    assert _watched(alarm) == [("WordSQD", "ExpiryFailures", {"service": "wordsqd"})]
    assert (alarm["Threshold"], alarm["EvaluationPeriods"], alarm["DatapointsToAlarm"]) == (1, 3, 3)
    assert (alarm["Period"], alarm["Statistic"], alarm["TreatMissingData"]) == (300, "Sum", "notBreaching")


def test_403s_at_the_origin_are_counted_from_the_access_log(dev):
    [flt] = [
        f
        for f in dev.resources("AWS::Logs::MetricFilter").values()
        if f["Properties"]["MetricTransformations"][0]["MetricName"] == "ApiForbidden"
    ]
    api_logs = dev.json["Resources"][flt["Properties"]["LogGroupName"]["Ref"]]
    assert api_logs["Type"] == "AWS::Logs::LogGroup"
    assert flt["Properties"]["FilterPattern"] == "{ $.status = 403 }"
    [transformation] = flt["Properties"]["MetricTransformations"]
    assert (transformation["MetricNamespace"], transformation["MetricName"]) == (
        "WordSQD/dev",
        "ApiForbidden",
    )
    alarm = _alarms(dev)["WordSQD-dev-OriginForbidden"]
    assert {m for _, m, _ in _watched(alarm)} == {"ApiForbidden", "Count"}


def test_traffic_alarms_treat_missing_data_as_ok(dev):
    for name, alarm in _alarms(dev).items():
        # The jobs, the stream's heartbeat, the outside probe, the daily checks: no data is an outage.
        if not name.endswith(("NotSucceeded", "CountersStalled", "-ProbeFailed", "-DailyChecksMissing")):
            assert alarm["TreatMissingData"] == "notBreaching", name


@pytest.mark.parametrize("stage", ["dev", "prod"])
def test_every_alarm_notifies_the_stacks_topic_and_links_the_runbook(synth, stage):
    template = synth.stacks[stage]
    topic_id, _ = template.only("AWS::SNS::Topic")
    windows = {
        template.json["Resources"][k]["Properties"]["AlarmName"] for k in composite_actions(template.json)
    }
    for composite in template.resources("AWS::CloudWatch::CompositeAlarm").values():
        assert composite["Properties"]["AlarmActions"] == [{"Ref": topic_id}]
        assert composite["Properties"]["OKActions"] == [{"Ref": topic_id}]
        assert "docs/operations.md#alarms" in composite["Properties"]["AlarmDescription"]
    for name, alarm in _alarms(template).items():
        if name in windows:  # its composite notifies
            assert "AlarmActions" not in alarm, name
            continue
        assert alarm["AlarmActions"] == [{"Ref": topic_id}], name
        assert alarm["OKActions"] == [{"Ref": topic_id}], name
        assert "docs/operations.md#alarms" in alarm["AlarmDescription"], name


def test_alarm_emails_come_from_stage_config(prod, dev):
    topic_id, _ = prod.only("AWS::SNS::Topic")
    emails = {
        s["Properties"]["Endpoint"]
        for s in prod.resources("AWS::SNS::Subscription").values()
        if s["Properties"]["TopicArn"] == {"Ref": topic_id} and s["Properties"]["Protocol"] == "email"
    }
    assert emails == set(prod.config.alarm_emails) == {"oncall@example.com", "lead@example.com"}
    assert dev.resources("AWS::SNS::Subscription") == {}


def test_dead_letter_and_stream_failure_alarms(dev):
    alarms = _alarms(dev)
    queues = {k for k in dev.resources("AWS::SQS::Queue")}
    for name in ("JobDeadLetters", "CounterFailures"):
        [(namespace, metric, dims)] = _watched(alarms[f"WordSQD-dev-{name}"])
        assert (namespace, metric) == ("AWS/SQS", "ApproximateNumberOfMessagesVisible")
        assert dims["QueueName"]["Fn::GetAtt"][0] in queues
    [(_, metric, _)] = _watched(alarms["WordSQD-dev-CountersLag"])
    assert metric == "IteratorAge"
