"""Seen from outside: the probes and their schedules, the SLOs' burn-rate alarms, the dashboard's
first row and the saved Logs Insights queries."""

import json

import pytest

from infra.outside import ANSWER_MS, ANSWER_SLO, AVAILABILITY_SLO, BURNS, MIDNIGHT_PROBES

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def _canaries(template):
    return {
        r["Properties"]["Code"]["Handler"]: r["Properties"]
        for r in template.resources("AWS::Synthetics::Canary").values()
    }


def test_the_probe_runs_every_five_minutes_through_the_site(dev):
    canaries = list(dev.resources("AWS::Synthetics::Canary").values())
    assert len(canaries) == 2
    expressions = sorted(c["Properties"]["Schedule"]["Expression"] for c in canaries)
    assert expressions == ["rate(0 minutes)", "rate(5 minutes)"]  # the midnight one runs when started
    distribution_id, _ = dev.only("AWS::CloudFront::Distribution")
    for canary in canaries:
        props = canary["Properties"]
        assert props["Code"]["Handler"] == "wordsqd_probe.handler"
        assert props["RuntimeVersion"].startswith("syn-python-selenium-")
        site = json.dumps(props["RunConfig"]["EnvironmentVariables"]["SITE_URL"])
        assert distribution_id in site and "DomainName" in site


def test_the_midnight_probe_is_started_at_23_59_and_00_01_central(dev):
    [(canary_id, _)] = [
        (k, r)
        for k, r in dev.resources("AWS::Synthetics::Canary").items()
        if r["Properties"]["Schedule"]["Expression"] == "rate(0 minutes)"
    ]
    starts = [
        s["Properties"]
        for s in dev.resources("AWS::Scheduler::Schedule").values()
        if ":scheduler:::aws-sdk:synthetics:startCanary" in json.dumps(s["Properties"]["Target"]["Arn"])
    ]
    assert sorted(s["ScheduleExpression"] for s in starts) == sorted(
        f"cron({minute} {hour} * * ? *)" for hour, minute in MIDNIGHT_PROBES
    )
    for start in starts:
        assert start["ScheduleExpressionTimezone"] == "America/Chicago"
        assert start["Target"]["Input"] == {"Fn::Join": ["", ['{"Name":"', {"Ref": canary_id}, '"}']]}
        assert start["Target"]["RetryPolicy"]["MaximumEventAgeInSeconds"] == 60  # a late probe is no probe


def _alarms(template):
    return {
        a["Properties"]["AlarmName"]: a["Properties"]
        for a in template.resources("AWS::CloudWatch::Alarm").values()
    }


@pytest.mark.parametrize(
    "slo, budget", [("Availability", 100 - AVAILABILITY_SLO), ("AnswerLatency", 100 - ANSWER_SLO)]
)
def test_each_slo_has_a_fast_and_a_slow_multi_window_burn_alarm(dev, slo, budget):
    alarms = _alarms(dev)
    ids = {r["Properties"]["AlarmName"]: k for k, r in dev.resources("AWS::CloudWatch::Alarm").items()}
    composites = {
        c["Properties"]["AlarmName"]: c["Properties"]
        for c in dev.resources("AWS::CloudWatch::CompositeAlarm").values()
    }
    for speed, rate, long, short in BURNS:
        composite = composites[f"WordSQD-dev-{slo}Burn{speed}"]
        rule = json.dumps(composite["AlarmRule"])
        for window in (long, short):
            name = f"WordSQD-dev-{slo}Burn{speed}{int(window.to_minutes())}m"
            alarm = alarms[name]
            assert alarm["Threshold"] == pytest.approx(rate * budget)
            assert {q["MetricStat"]["Period"] for q in alarm["Metrics"] if "MetricStat" in q} == {
                int(window.to_seconds())
            }
            assert ids[name] in rule
        assert rule.count("ALARM(") == 2 and " AND " in rule


def test_the_answers_slo_reads_their_latency_from_the_access_log(dev):
    [flt] = [
        f["Properties"]
        for f in dev.resources("AWS::Logs::MetricFilter").values()
        if f["Properties"]["MetricTransformations"][0]["MetricName"] == "AnswerLatency"
    ]
    assert flt["FilterPattern"] == '{ $.routeKey = "*/answers" }'
    assert flt["MetricTransformations"][0]["MetricValue"] == "$.responseLatency"
    alarm = _alarms(dev)["WordSQD-dev-AnswerLatencyBurnFast5m"]
    [stat] = [q["MetricStat"]["Stat"] for q in alarm["Metrics"] if "MetricStat" in q]
    assert stat == f"PR(0:{ANSWER_MS})"


def test_the_dashboard_opens_with_the_row_an_on_call_reads_first(dev):
    _, dashboard = dev.only("AWS::CloudWatch::Dashboard")
    body = json.dumps(dashboard["Properties"]["DashboardBody"])
    titles = [
        "Runs/s",
        "Answer p99 (ms)",
        "API 5xx",
        "Throttles",
        "Provisioned concurrency used",
        "Outside probe (% ok)",
    ]
    positions = [body.find(f'\\"title\\":\\"{t}\\"') for t in titles]
    assert all(p > 0 for p in positions) and positions == sorted(positions)
    assert positions[-1] < body.find('\\"title\\":\\"Runs and official scores\\"')


def test_saved_queries_read_the_access_log(dev):
    queries = {
        q["Properties"]["Name"]: q["Properties"] for q in dev.resources("AWS::Logs::QueryDefinition").values()
    }
    assert set(queries) == {
        "WordSQD-dev/errors-by-route",
        "WordSQD-dev/slow-requests",
        "WordSQD-dev/one-players-requests",
    }
    assert "status >= 500" in queries["WordSQD-dev/errors-by-route"]["QueryString"]
    assert f"responseLatency > {ANSWER_MS}" in queries["WordSQD-dev/slow-requests"]["QueryString"]
    for query in queries.values():
        [group] = query["LogGroupNames"]
        assert dev.json["Resources"][group["Ref"]]["Type"] == "AWS::Logs::LogGroup"
