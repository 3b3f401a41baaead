"""Alarms, the dashboard and the stack's outputs."""

import json

import pytest

from infra.operations import GAME_COUNTERS

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def _alarms(synth):
    return {
        a["Properties"]["AlarmName"]: a["Properties"]
        for a in synth.resources("AWS::CloudWatch::Alarm").values()
    }


def _metric_names(alarm):
    """The CloudWatch metric names an alarm watches, directly or through metric math."""
    if "MetricName" in alarm:
        return {(alarm["Namespace"], alarm["MetricName"])}
    return {
        (q["MetricStat"]["Metric"]["Namespace"], q["MetricStat"]["Metric"]["MetricName"])
        for q in alarm["Metrics"]
        if "MetricStat" in q
    }


@pytest.mark.parametrize(
    "name, metric",
    [
        ("Api5xx", ("AWS/ApiGateway", "5xx")),
        ("LambdaThrottles", ("AWS/Lambda", "Throttles")),
        ("TableThrottles", ("AWS/DynamoDB", "ThrottledRequests")),
        ("ResetErrors", ("AWS/Lambda", "Errors")),
        ("ResetDeadLetters", ("AWS/SQS", "ApproximateNumberOfMessagesVisible")),
    ],
)
def test_alarm_exists(dev, name, metric):
    alarm = _alarms(dev)[f"WordSQD-dev-{name}"]
    assert _metric_names(alarm) == {metric}
    assert alarm["TreatMissingData"] == "notBreaching"
    assert "docs/operations.md" in alarm["AlarmDescription"]


def test_reset_error_alarm_watches_the_reset_function(dev):
    reset_id, _ = dev.functions["reset"]
    alarm = _alarms(dev)["WordSQD-dev-ResetErrors"]
    assert alarm["Dimensions"] == [{"Name": "FunctionName", "Value": {"Ref": reset_id}}]


def test_throttle_alarm_counts_every_function(dev):
    alarm = _alarms(dev)["WordSQD-dev-LambdaThrottles"]
    watched = {
        q["MetricStat"]["Metric"]["Dimensions"][0]["Value"]["Ref"]
        for q in alarm["Metrics"]
        if "MetricStat" in q
    }
    assert watched == {logical_id for logical_id, _ in dev.functions.values()}


def test_alarms_notify_the_topic_given_as_context(dev, prod):
    assert all("AlarmActions" not in a for a in _alarms(dev).values())
    topic = "arn:aws:sns:us-east-1:123456789012:wordsqd-alarms"
    assert all(a["AlarmActions"] == [topic] for a in _alarms(prod).values())


def test_dashboard_shows_the_game_metrics(dev):
    _, dashboard = dev.only("AWS::CloudWatch::Dashboard")
    assert dashboard["Properties"]["DashboardName"] == "WordSQD-dev"
    body = json.dumps(dashboard["Properties"]["DashboardBody"])
    for counter in GAME_COUNTERS:
        assert f'\\"WordSQD\\",\\"{counter}\\",\\"service\\",\\"wordsqd\\"' in body
    assert "MetricName=" in body and "Answers" in body


@pytest.mark.parametrize(
    "name",
    [
        "ApiUrl",
        "UserPoolId",
        "UserPoolClientId",
        "TableName",
        "ResetFunctionName",
        "ResetDeadLetterQueueUrl",
        "DashboardName",
    ],
)
def test_outputs(dev, name):
    assert name in dev.json["Outputs"]


def test_api_url_is_the_default_stage(dev):
    api_id, _ = dev.only("AWS::ApiGatewayV2::Api")
    url = json.dumps(dev.json["Outputs"]["ApiUrl"]["Value"])
    assert '"https://"' in url and json.dumps({"Ref": api_id}) in url and url.endswith('"/"]]}')
