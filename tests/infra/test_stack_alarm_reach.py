"""Every alarm reaches a person: in every stack of a stage (the stage's, and its us-east-1 edge
security and edge alarms stacks), each alarm has an action on a topic whose policy lets CloudWatch
publish, and the topic has the stage's addresses subscribed. CodeDeploy's failures reach the same
topic. Plus the capacity the rush cannot take away (reserved concurrency) and the versions a
rollback needs."""

import json
import re

import pytest

from infra.capacity import REQUESTS_PER_RUN, rush_concurrency
from infra.config import STAGES_FILE
from infra.deploys import TRIGGER_EVENTS
from infra.functions import FUNCTIONS
from infra.money import COST_PUBLISHERS

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def stack_templates(synth) -> dict[str, dict]:
    """Every stack's template (the stage stacks and their us-east-1 stacks), by stack name."""
    manifest = json.loads((synth.outdir / "manifest.json").read_text())
    return {
        name: json.loads((synth.outdir / a["properties"]["templateFile"]).read_text())
        for name, a in manifest["artifacts"].items()
        if a["type"] == "aws:cloudformation:stack"
    }


def _resolve(templates, stack, value):
    """(stack, logical id) that VALUE (a Ref, or another stack's output of one) names."""
    if "Ref" in value:
        return stack, value["Ref"]
    if "Fn::GetStackOutput" in value:
        output = value["Fn::GetStackOutput"]
        other = output["StackName"]
        return _resolve(templates, other, templates[other]["Outputs"][output["OutputName"]]["Value"])
    raise AssertionError(f"not a reference: {value}")


def _publishers(templates, stack, topic_id) -> set[str]:
    """The service principals a topic's policy allows to sns:Publish (no condition on TLS)."""
    allowed = set()
    for resource in templates[stack]["Resources"].values():
        if resource["Type"] != "AWS::SNS::TopicPolicy":
            continue
        if {"Ref": topic_id} not in resource["Properties"]["Topics"]:
            continue
        for statement in resource["Properties"]["PolicyDocument"]["Statement"]:
            actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
            if statement["Effect"] == "Allow" and "sns:Publish" in actions:
                services = statement["Principal"].get("Service", [])
                allowed |= set(services if isinstance(services, list) else [services])
    return allowed


def _emails(templates, stack, topic_id) -> set[str]:
    return {
        r["Properties"]["Endpoint"]
        for r in templates[stack]["Resources"].values()
        if r["Type"] == "AWS::SNS::Subscription"
        and r["Properties"]["TopicArn"] == {"Ref": topic_id}
        and r["Properties"]["Protocol"] == "email"
    }


def composite_actions(template) -> dict[str, list]:
    """Each alarm that is a window of a composite alarm -> the composite's actions (it notifies
    for its windows, which notify no one themselves)."""
    found = {}
    for alarm in template["Resources"].values():
        if alarm["Type"] == "AWS::CloudWatch::CompositeAlarm":
            rule = json.dumps(alarm["Properties"]["AlarmRule"])
            for window in re.findall(r'"Fn::GetAtt": \["([A-Za-z0-9]+)", "Arn"\]', rule):
                found[window] = alarm["Properties"].get("AlarmActions", [])
    return found


def reachable(templates) -> tuple[int, int]:
    """(alarms with an action, or a composite's, on a topic CloudWatch may publish to, all alarms)."""
    total = reached = 0
    for stack, template in templates.items():
        composites = composite_actions(template)
        for logical_id, alarm in template["Resources"].items():
            if alarm["Type"] != "AWS::CloudWatch::Alarm":
                continue
            total += 1
            actions = alarm["Properties"].get("AlarmActions") or composites.get(logical_id, [])
            topics = [_resolve(templates, stack, a) for a in actions]
            if any("cloudwatch.amazonaws.com" in _publishers(templates, *t) for t in topics):
                reached += 1
    return reached, total


def test_every_alarm_of_every_stack_has_an_action_its_topic_lets_cloudwatch_publish(synth):
    templates = stack_templates(synth)
    reached, total = reachable(templates)
    assert total >= 2 * 30 and reached == total


def test_the_check_sees_a_topic_policy_that_shuts_cloudwatch_out(synth):
    """The check above could fail: with the publishers' statement removed, no alarm is reached
    (the TLS-only deny alone replaces SNS's default policy)."""
    templates = json.loads(json.dumps(stack_templates(synth)))
    for template in templates.values():
        for resource in template["Resources"].values():
            if resource["Type"] == "AWS::SNS::TopicPolicy":
                statements = resource["Properties"]["PolicyDocument"]["Statement"]
                statements[:] = [s for s in statements if s["Effect"] == "Deny"]
    assert reachable(templates)[0] == 0


def test_every_alarm_topic_mails_the_stage_addresses_and_lets_only_this_account_publish(synth):
    templates = stack_templates(synth)
    for stage, config in (("dev", synth.stacks["dev"].config), ("live", synth.stacks["prod"].config)):
        for stack in (f"WordSQD-{stage}", f"WordSQD-{stage}-EdgeSecurity"):
            [(topic_id, _)] = [
                (k, r) for k, r in templates[stack]["Resources"].items() if r["Type"] == "AWS::SNS::Topic"
            ]
            assert _emails(templates, stack, topic_id) == set(config.alarm_emails), stack
            # The stage's topic also hears from Budgets and Cost Anomaly Detection (infra/money.py).
            costs = set(COST_PUBLISHERS) if stack == f"WordSQD-{stage}" else set()
            assert _publishers(templates, stack, topic_id) == {
                "cloudwatch.amazonaws.com",
                "codedeploy.amazonaws.com",
                *costs,
            }
            [policy] = [
                r for r in templates[stack]["Resources"].values() if r["Type"] == "AWS::SNS::TopicPolicy"
            ]
            allows = [
                s for s in policy["Properties"]["PolicyDocument"]["Statement"] if s["Effect"] == "Allow"
            ]
            for allow in allows:
                assert allow["Condition"] == {
                    "StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}
                }


def test_codedeploy_tells_the_topic_when_a_deployment_fails_stops_or_rolls_back(dev):
    [(topic_id, _)] = dev.resources("AWS::SNS::Topic").items()
    groups = dev.resources("AWS::CodeDeploy::DeploymentGroup")
    assert len(groups) == len(FUNCTIONS)
    for group in groups.values():
        [trigger] = group["Properties"]["TriggerConfigurations"]
        assert trigger["TriggerTargetArn"] == {"Ref": topic_id}
        assert set(trigger["TriggerEvents"]) == set(TRIGGER_EVENTS)
        role = group["Properties"]["ServiceRoleArn"]["Fn::GetAtt"][0]
        grants = [
            s
            for p in dev.resources("AWS::IAM::Policy").values()
            if {"Ref": role} in p["Properties"]["Roles"]
            for s in p["Properties"]["PolicyDocument"]["Statement"]
        ]
        assert any(s["Action"] == "sns:Publish" and s["Resource"] == {"Ref": topic_id} for s in grants)


def test_edge_alarms_watch_cloudfronts_error_rates_of_the_stage_distribution(synth):
    templates = stack_templates(synth)
    alarms = {
        r["Properties"]["AlarmName"]: r["Properties"]
        for r in templates["WordSQD-dev-EdgeAlarms"]["Resources"].values()
        if r["Type"] == "AWS::CloudWatch::Alarm"
    }
    assert alarms.pop("WordSQD-dev-EdgeAlarmsEmergencyDeploy")  # the guard's door (test_midnight_guard.py)
    assert set(alarms) == {"WordSQD-dev-Edge5xx", "WordSQD-dev-Edge4xx"}
    distribution = [
        k
        for k, r in templates["WordSQD-dev"]["Resources"].items()
        if r["Type"] == "AWS::CloudFront::Distribution"
    ]
    for name, alarm in alarms.items():
        dimensions = {d["Name"]: d["Value"] for d in alarm["Dimensions"]}
        assert dimensions["Region"] == "Global"
        assert _resolve(templates, "WordSQD-dev-EdgeAlarms", dimensions["DistributionId"]) == (
            "WordSQD-dev",
            distribution[0],
        )
        assert alarm["MetricName"] == name.removeprefix("WordSQD-dev-Edge") + "ErrorRate"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_the_jobs_and_the_consumer_have_reserved_concurrency_and_the_api_functions_share(dev, name):
    _, function = dev.functions[name]
    reserved = function.get("ReservedConcurrentExecutions")
    if name in ("reset", "expire", "counters", "remind"):
        assert reserved == FUNCTIONS[name].reserved and reserved >= 1
    else:
        assert reserved is None


def test_versions_are_retained_so_a_rollback_has_one_to_point_at(dev):
    """CloudFormation deletes a replaced AWS::Lambda::Version in the update's cleanup; the
    runbook's `update-alias --function-version <previous>` needs it to stay."""
    versions = dev.resources("AWS::Lambda::Version")
    assert len(versions) == len(FUNCTIONS)
    for version in versions.values():
        assert version["DeletionPolicy"] == version["UpdateReplacePolicy"] == "Retain"


def test_the_rush_served_cold_alarms_per_function_with_capacity(prod, dev):
    alarms = {
        a["Properties"]["AlarmName"]: a["Properties"]
        for a in prod.resources("AWS::CloudWatch::Alarm").values()
    }
    for name in prod.config.midnight_capacity.functions:
        alarm = alarms[f"WordSQD-live-MidnightCold{name.capitalize()}"]
        metrics = {q["MetricStat"]["Metric"]["MetricName"] for q in alarm["Metrics"] if "MetricStat" in q}
        assert metrics == {
            "Invocations",
            "ProvisionedConcurrencySpilloverInvocations",
            "ProvisionedConcurrencyInvocations",
        }
        assert alarm["AlarmActions"]
    assert not [
        a
        for a in dev.resources("AWS::CloudWatch::Alarm").values()
        if "MidnightCold" in a["Properties"]["AlarmName"]
    ]


def test_the_prod_stage_provisions_what_the_measured_requests_per_run_need():
    """1e6 runs in ten minutes x requests per run (benchmarks/daily.py) x 50 ms x the peak factor."""
    prod = json.loads(STAGES_FILE.read_text())["prod"]["midnight_capacity"]["functions"]
    assert prod == {name: rush_concurrency(count) for name, count in REQUESTS_PER_RUN.items()}
    assert prod == {"daily": 1900, "leaderboard": 400}
