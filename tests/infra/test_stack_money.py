"""Money: the budget and the anomaly monitor notify the alarm topic (whose policy lets them),
prod is protected from deletion, and old versions are pruned to the newest few."""

import json
import sys
from pathlib import Path

import boto3
import pytest
from botocore.stub import Stubber

from infra.money import ANOMALY_DOLLARS, BUDGET_ALERTS, COST_PUBLISHERS, COST_TAG

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import prune_versions  # noqa: E402


@pytest.mark.infra
@pytest.mark.parametrize("stage", ["dev", "prod"])
def test_the_budget_alerts_the_alarm_topic_on_spend_and_forecast(synth, stage):
    template = synth.stacks[stage]
    topic_id, _ = template.only("AWS::SNS::Topic")
    _, budget = template.only("AWS::Budgets::Budget")
    data = budget["Properties"]["Budget"]
    assert (data["BudgetType"], data["TimeUnit"]) == ("COST", "MONTHLY")
    assert data["BudgetLimit"] == {"Amount": template.config.monthly_budget, "Unit": "USD"}
    notifications = budget["Properties"]["NotificationsWithSubscribers"]
    kinds = {(n["Notification"]["NotificationType"], n["Notification"]["Threshold"]) for n in notifications}
    assert kinds == set(BUDGET_ALERTS)
    for n in notifications:
        assert n["Subscribers"] == [{"SubscriptionType": "SNS", "Address": {"Ref": topic_id}}]


@pytest.mark.infra
def test_cost_anomalies_of_the_apps_resources_reach_the_topic(dev):
    topic_id, _ = dev.only("AWS::SNS::Topic")
    monitor_id, monitor = dev.only("AWS::CE::AnomalyMonitor")
    assert monitor["Properties"]["MonitorType"] == "CUSTOM"
    key, value = COST_TAG
    assert json.loads(monitor["Properties"]["MonitorSpecification"])["Tags"] == {
        "Key": key,
        "Values": [value],
        "MatchOptions": ["EQUALS"],
    }
    _, subscription = dev.only("AWS::CE::AnomalySubscription")
    props = subscription["Properties"]
    assert props["MonitorArnList"] == [{"Fn::GetAtt": [monitor_id, "MonitorArn"]}]
    assert props["Subscribers"] == [{"Type": "SNS", "Address": {"Ref": topic_id}}]
    assert props["Frequency"] == "IMMEDIATE"
    assert json.loads(props["ThresholdExpression"])["Dimensions"]["Values"] == [str(ANOMALY_DOLLARS)]


@pytest.mark.infra
def test_the_topic_policy_lets_budgets_and_cost_alerts_publish_for_this_account_only(dev):
    [(_, policy)] = dev.resources("AWS::SNS::TopicPolicy").items()
    statements = policy["Properties"]["PolicyDocument"]["Statement"]
    [cost] = [s for s in statements if s.get("Sid") == "CostPublishers"]
    assert sorted(cost["Principal"]["Service"]) == sorted(COST_PUBLISHERS)
    assert cost["Action"] == "sns:Publish"
    assert cost["Condition"] == {"StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}}


@pytest.mark.infra
def test_every_prod_stack_is_protected_from_deletion_and_no_dev_one(synth):
    manifest = json.loads((synth.outdir / "manifest.json").read_text())
    protection = {
        name: a["properties"].get("terminationProtection", False)
        for name, a in manifest["artifacts"].items()
        if a["type"] == "aws:cloudformation:stack"
    }
    assert protection == {
        f"WordSQD-{stage}{part}": stage == "live"
        for stage in ("dev", "live")
        for part in ("", "-EdgeSecurity", "-EdgeAlarms")
    }


def test_pruning_keeps_the_newest_versions_and_every_one_an_alias_serves():
    versions = ["$LATEST", *(str(v) for v in range(1, 13))]
    # `live` on 12, a canary's weight on 11; a rollback left 3 aliased long ago.
    assert prune_versions.to_delete(versions, {"12", "11", "3"}, keep=5) == ["1", "2", "4", "5", "6", "7"]
    assert prune_versions.to_delete(["$LATEST", "1", "2"], {"2"}, keep=5) == []
    # Numbers, not strings: version 10 is newer than 9.
    assert prune_versions.to_delete([str(v) for v in range(1, 11)], set(), keep=1) == [
        str(v) for v in range(1, 10)
    ]


def test_the_versions_a_weighted_alias_serves_are_protected():
    aliases = [{"FunctionVersion": "12", "RoutingConfig": {"AdditionalVersionWeights": {"13": 0.1}}}]
    assert prune_versions.served(aliases) == {"12", "13"}


def test_pruning_deletes_through_lambda_and_only_the_stacks_functions():
    session = boto3.session.Session(region_name="us-east-1", aws_access_key_id="t", aws_secret_access_key="t")
    cloudformation, lambda_ = session.client("cloudformation"), session.client("lambda")
    cfn_stub, lambda_stub = Stubber(cloudformation), Stubber(lambda_)
    summary = {
        "LogicalResourceId": "x",
        "ResourceStatus": "UPDATE_COMPLETE",
        "LastUpdatedTimestamp": "2026-01-01",
    }
    cfn_stub.add_response(
        "list_stack_resources",
        {
            "StackResourceSummaries": [
                {**summary, "PhysicalResourceId": "fn-daily", "ResourceType": "AWS::Lambda::Function"},
                {**summary, "PhysicalResourceId": "table", "ResourceType": "AWS::DynamoDB::Table"},
            ]
        },
        {"StackName": "WordSQD-prod"},
    )
    lambda_stub.add_response(
        "list_versions_by_function",
        {"Versions": [{"Version": v} for v in ("$LATEST", "1", "2", "3")]},
        {"FunctionName": "fn-daily"},
    )
    lambda_stub.add_response(
        "list_aliases", {"Aliases": [{"Name": "live", "FunctionVersion": "3"}]}, {"FunctionName": "fn-daily"}
    )
    lambda_stub.add_response("delete_function", {}, {"FunctionName": "fn-daily", "Qualifier": "1"})
    for stub in (cfn_stub, lambda_stub):
        stub.activate()
    assert prune_versions.main(["--stage", "prod", "--keep", "2"], (cloudformation, lambda_)) == 0
    lambda_stub.assert_no_pending_responses()
