"""Safe deploys and midnight capacity: every alias shifts by a CodeDeploy canary that rolls back
on that function's alarms; provisioned concurrency is scheduled around 00:00 Central."""

import pytest

from infra.deploys import DRY_RUN_JOBS
from infra.functions import FUNCTIONS

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def _alias_of(synth, name):
    logical_id, _ = synth.functions[name]
    [(alias_id, alias)] = [
        (k, a)
        for k, a in synth.resources("AWS::Lambda::Alias").items()
        if a["Properties"]["FunctionName"] == {"Ref": logical_id}
    ]
    return alias_id, alias


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_each_alias_deploys_by_canary_and_rolls_back_on_its_alarms(dev, name):
    alias_id, alias = _alias_of(dev, name)
    policy = alias["UpdatePolicy"]["CodeDeployLambdaAliasUpdate"]
    group = dev.json["Resources"][policy["DeploymentGroupName"]["Ref"]]["Properties"]
    assert group["DeploymentConfigName"] == "CodeDeployDefault.LambdaCanary10Percent5Minutes"
    assert set(group["AutoRollbackConfiguration"]["Events"]) == {
        "DEPLOYMENT_FAILURE",
        "DEPLOYMENT_STOP_ON_ALARM",
        "DEPLOYMENT_STOP_ON_REQUEST",
    }
    assert group["AutoRollbackConfiguration"]["Enabled"] is True
    watched = {a["Name"]["Ref"] for a in group["AlarmConfiguration"]["Alarms"]}
    alarm_names = {dev.json["Resources"][a]["Properties"]["AlarmName"] for a in watched}
    title = name.capitalize()
    assert alarm_names == {f"WordSQD-dev-{title}{kind}" for kind in ("ErrorRate", "LatencyP99", "Throttles")}
    assert group["AlarmConfiguration"]["Enabled"] is True


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_each_jobs_new_version_answers_a_dry_run_before_any_traffic(dev, name):
    """The pre-traffic hook (infra/lambdas/wordsqd_ops/canary.py) invokes the alias's new version,
    the one the alias's update shifts to, and may invoke that version only."""
    _, alias = _alias_of(dev, name)
    hook = alias["UpdatePolicy"]["CodeDeployLambdaAliasUpdate"].get("BeforeAllowTrafficHook")
    if name not in DRY_RUN_JOBS:
        assert hook is None
        return
    [hook_id] = [
        k
        for k, r in dev.resources("AWS::Lambda::Function").items()
        if {"Ref": k} == hook and r["Properties"]["Handler"] == "wordsqd_ops.canary.handler"
    ]
    target = dev.json["Resources"][hook_id]["Properties"]["Environment"]["Variables"]["TARGET"]
    version = alias["Properties"]["FunctionVersion"]["Fn::GetAtt"][0]
    function = dev.json["Resources"][version]["Properties"]["FunctionName"]["Ref"]
    assert target == {
        "Fn::Join": ["", [{"Fn::GetAtt": [function, "Arn"]}, ":", {"Fn::GetAtt": [version, "Version"]}]]
    }
    invokes = [
        s
        for p in dev.resources("AWS::IAM::Policy").values()
        for s in p["Properties"]["PolicyDocument"]["Statement"]
        if s["Action"] == "lambda:InvokeFunction" and s["Resource"] == target
    ]
    assert invokes


def test_midnight_capacity_is_scheduled_on_the_aliases_in_chicago_time(prod, dev):
    assert dev.resources("AWS::ApplicationAutoScaling::ScalableTarget") == {}
    plan = prod.config.midnight_capacity
    targets = prod.resources("AWS::ApplicationAutoScaling::ScalableTarget")
    assert len(targets) == len(plan.functions)
    for name, count in plan.functions.items():
        alias_id, _ = _alias_of(prod, name)
        [target] = [
            t["Properties"] for t in targets.values() if alias_id in str(t["Properties"]["ResourceId"])
        ]
        assert target["ScalableDimension"] == "lambda:function:ProvisionedConcurrency"
        assert target["ResourceId"]["Fn::Join"][1][-1] == ":live"
        actions = {a["ScheduledActionName"]: a for a in target["ScheduledActions"]}
        start_h, start_m = plan.start.split(":")
        end_h, end_m = plan.end.split(":")
        assert actions["RushStarts"]["Schedule"] == f"cron({int(start_m)} {int(start_h)} * * ? *)"
        assert actions["RushStarts"]["ScalableTargetAction"] == {"MinCapacity": count, "MaxCapacity": count}
        assert actions["RushEnds"]["Schedule"] == f"cron({int(end_m)} {int(end_h)} * * ? *)"
        assert actions["RushEnds"]["ScalableTargetAction"] == {"MinCapacity": 1, "MaxCapacity": 1}
        assert {a["Timezone"] for a in actions.values()} == {"America/Chicago"}
