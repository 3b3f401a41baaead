"""The stack's dashboard and its outputs: what an operator reads after a deploy."""

import json

import pytest

from infra.dashboard import GAME_COUNTERS

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def test_dashboard_shows_the_game_metrics(dev):
    _, dashboard = dev.only("AWS::CloudWatch::Dashboard")
    assert dashboard["Properties"]["DashboardName"] == "WordSQD-dev"
    body = json.dumps(dashboard["Properties"]["DashboardBody"])
    for counter in GAME_COUNTERS:
        assert f'\\"WordSQD\\",\\"{counter}\\",\\"service\\",\\"wordsqd\\"' in body
    assert "MetricName=" in body and "Answers" in body
    assert "GET_ITEM" not in body and "GetItem" in body


@pytest.mark.parametrize(
    "name",
    [
        "SiteUrl", "DistributionId", "SiteBucketName",
        "ApiUrl", "UserPoolId", "UserPoolClientId", "TableName", "PuzzleSeedSecretArn", "CursorKeySecretArn",
        "ResetFunctionName", "ExpireFunctionName", "JobDeadLetterQueueUrl", "CounterFailureQueueUrl",
        "AlarmTopicArn", "DashboardName",
    ],
)  # fmt: skip
def test_outputs(dev, name):
    assert name in dev.json["Outputs"]


def test_site_url_is_the_distribution(dev):
    distribution_id, _ = dev.only("AWS::CloudFront::Distribution")
    assert dev.json["Outputs"]["SiteUrl"]["Value"] == {
        "Fn::Join": ["", ["https://", {"Fn::GetAtt": [distribution_id, "DomainName"]}]]
    }
    assert dev.json["Outputs"]["DistributionId"]["Value"] == {"Ref": distribution_id}


def test_api_url_is_the_default_stage(dev):
    api_id, _ = dev.only("AWS::ApiGatewayV2::Api")
    url = json.dumps(dev.json["Outputs"]["ApiUrl"]["Value"])
    assert '"https://"' in url and json.dumps({"Ref": api_id}) in url and url.endswith('"/"]]}')
