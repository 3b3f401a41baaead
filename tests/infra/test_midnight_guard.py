"""The midnight guard in every stack of a stage: a custom resource every other resource waits for,
which fails a stack update that starts in (or within a canary of) the freeze, and never a
rollback (told by the stack's status, which no operator sets); its emergency door is logged and
alarmed."""

import json
import re
from datetime import datetime

import pytest

from infra.guard import LOOKAHEAD
from infra.lambdas.wordsqd_ops import guard
from infra.lambdas.wordsqd_ops.window import CENTRAL

PROD = {"WindowStart": "23:50", "WindowEnd": "00:20", "LookaheadMinutes": int(LOOKAHEAD.to_minutes())}
DEFAULT = {"WindowStart": "23:45", "WindowEnd": "00:30", "LookaheadMinutes": int(LOOKAHEAD.to_minutes())}


def _event(kind="Update", properties=PROD, deployed="2026-06-01T04:00:00+00:00", old=None):
    event = {
        "RequestType": kind,
        "ResponseURL": "https://cloudformation-custom-resource-response.example/put",
        "StackId": "arn:aws:cloudformation:us-east-1:123456789012:stack/WordSQD-prod/x",
        "RequestId": "r-1",
        "LogicalResourceId": "MidnightGuard",
        "PhysicalResourceId": guard.PHYSICAL_ID,
        "ResourceProperties": {**properties, "Deployed": deployed},
    }
    if old is not None:
        event["OldResourceProperties"] = {**properties, "Deployed": old}
    return event


def UPDATING(stack_id):
    return "UPDATE_IN_PROGRESS"


def ROLLING_BACK(stack_id):
    return "UPDATE_ROLLBACK_IN_PROGRESS"


def _central(month, day, hour, minute):
    return datetime(2026, month, day, hour, minute, tzinfo=CENTRAL)


# Summer (CDT, UTC-5) and winter (CST, UTC-6): the same wall-clock answers either way.
@pytest.mark.parametrize("month, day", [(6, 1), (1, 12)])
@pytest.mark.parametrize(
    "hour, minute, day_after, refused",
    [
        (23, 39, 0, False),  # its 5-minute canary ends by 23:44, before the freeze
        (23, 44, 0, True),  # its canary would still weight the aliases at 23:45
        (23, 46, 0, True),  # inside the freeze (23:45-00:25 for the 23:50-00:20 window)
        (0, 24, 1, True),
        (0, 26, 1, False),  # the freeze is over
    ],
)
def test_the_guard_refuses_an_update_that_starts_in_the_freeze_or_runs_into_it(
    month, day, hour, minute, day_after, refused
):
    now = _central(month, day + day_after, hour, minute)
    reason = guard.refusal(_event(), now, UPDATING)
    assert (reason is not None) == refused, reason
    if refused:
        assert "00:25" in reason and "Deploy refused" in reason


@pytest.mark.parametrize(
    "hour, minute, refused", [(23, 34, False), (23, 36, True), (0, 34, True), (0, 36, False)]
)
def test_a_stage_without_capacity_is_guarded_around_the_default_window(hour, minute, refused):
    now = _central(6, 2 if hour == 0 else 1, hour, minute)
    assert (guard.refusal(_event(properties=DEFAULT), now, UPDATING) is not None) == refused


def test_a_first_create_inside_the_freeze_is_refused_too():
    assert guard.refusal(_event("Create"), _central(6, 1, 23, 50), UPDATING) is not None


@pytest.mark.parametrize("now", [_central(6, 1, 23, 50), _central(6, 2, 0, 10)])
def test_a_rollback_or_a_delete_is_never_blocked_and_no_stamp_passes_as_one(now):
    """Rolling back, CloudFormation calls the guard again while the stack is
    UPDATE_ROLLBACK_IN_PROGRESS; a failed create is cleaned up with a Delete. An operator's
    `Deployed` (older, "0", anything) is no rollback: only the stack's status says so."""
    rollback = _event(deployed="2026-06-01T04:00:00+00:00", old="2026-06-02T04:40:00+00:00")
    assert guard.refusal(rollback, now, ROLLING_BACK) is None
    assert guard.refusal(_event("Delete"), now, UPDATING) is None
    for stamp in ("2026-06-01T04:00:00+00:00", "0", ""):
        forged = _event(deployed=stamp, old="2026-06-02T04:40:00+00:00")
        assert guard.refusal(forged, now, UPDATING) is not None, stamp
    assert guard.refusal(_event("Create"), now, ROLLING_BACK) is not None  # a create is no rollback


def test_the_emergency_door_passes_the_freeze_and_is_logged(capsys):
    sent = []
    door = _event(properties={**PROD, "Emergency": "INC-42: the reset writes the wrong puzzle"})
    guard.on_event(
        door,
        None,
        clock=lambda: _central(6, 1, 23, 50),
        put=lambda url, body: sent.append(body),
        stack_status=UPDATING,
    )
    assert sent[0]["Status"] == "SUCCESS"
    logged = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert logged[0]["emergency"] == "INC-42: the reset writes the wrong puzzle"
    closed = _event(properties={**PROD, "Emergency": ""})
    assert guard.refusal(closed, _central(6, 1, 23, 50), UPDATING) is not None


def test_the_door_needs_a_reason(config_from):
    from aws_cdk import App

    from infra.guard import emergency_reason

    assert emergency_reason(App(context={"emergency": "INC-42 wrong puzzle"})) == "INC-42 wrong puzzle"
    assert emergency_reason(App()) == ""
    with pytest.raises(ValueError, match="reason"):
        emergency_reason(App(context={"emergency": "now"}))


def test_the_app_refuses_a_fixed_guard_stamp():
    from infra.app import main

    with pytest.raises(SystemExit, match="emergency"):
        main(["-c", "stage=dev", "-c", "deployed_at=0"])


def test_the_answer_goes_to_cloudformation_with_the_reason():
    sent = []
    guard.on_event(
        _event(),
        None,
        clock=lambda: _central(6, 1, 23, 50),
        put=lambda url, body: sent.append((url, body)),
        stack_status=UPDATING,
    )
    [(url, body)] = sent
    assert url.endswith("/put") and body["Status"] == "FAILED" and "Deploy refused" in body["Reason"]
    assert (body["PhysicalResourceId"], body["RequestId"]) == (guard.PHYSICAL_ID, "r-1")
    sent.clear()
    guard.on_event(
        _event(), None, clock=lambda: _central(6, 1, 12, 0), put=lambda url, body: sent.append(body)
    )
    assert sent[0]["Status"] == "SUCCESS"


def test_a_broken_event_still_gets_an_answer_and_a_delete_still_succeeds():
    """CloudFormation waits an hour for an answer that never comes."""
    sent = []
    broken = _event(properties={})
    guard.on_event(broken, None, clock=lambda: _central(6, 1, 12, 0), put=lambda url, body: sent.append(body))
    guard.on_event({**broken, "RequestType": "Delete"}, None, put=lambda url, body: sent.append(body))
    assert [b["Status"] for b in sent] == ["FAILED", "SUCCESS"]


def _closure(resources, logical_id):
    """Everything LOGICAL_ID waits for: its DependsOn and what it references, transitively."""
    seen, todo = set(), [logical_id]
    while todo:
        resource = resources[todo.pop()]
        depends = resource.get("DependsOn", [])
        found = {depends} if isinstance(depends, str) else set(depends)
        found |= set(
            re.findall(
                r'"(?:Ref|Fn::GetAtt)": \["?([A-Za-z0-9]+)', json.dumps(resource.get("Properties", {}))
            )
        )
        for other in found & set(resources) - seen:
            seen.add(other)
            todo.append(other)
    return seen


@pytest.mark.infra
@pytest.mark.parametrize("stage", ["dev", "prod"])
def test_every_other_resource_waits_for_the_guard(synth, stage):
    template = synth.stacks[stage]
    resources = template.json["Resources"]
    guard_id, props = template.only("Custom::MidnightGuard")
    window = template.config.midnight_capacity
    expected = (window.start, window.end) if window else ("23:45", "00:30")
    assert (props["Properties"]["WindowStart"], props["Properties"]["WindowEnd"]) == expected
    assert props["Properties"]["LookaheadMinutes"] == 5 and props["Properties"]["Deployed"]
    own = _closure(resources, guard_id)  # the guard's function, role and log group
    assert all(resources[k]["Type"].startswith(("AWS::Lambda::", "AWS::IAM::", "AWS::Logs::")) for k in own)
    unguarded = [
        k for k in resources if k != guard_id and k not in own and guard_id not in _closure(resources, k)
    ]
    assert unguarded == []


@pytest.mark.infra
@pytest.mark.parametrize(
    "stack", ["WordSQD-live-EdgeSecurity", "WordSQD-live-EdgeAlarms", "WordSQD-dev-EdgeSecurity"]
)
def test_the_edge_stacks_are_guarded_too_and_tell_their_topic_of_the_door(synth, stack):
    """`cdk deploy --all` updates the WAF first: the freeze must hold it as well."""
    resources = json.loads((synth.outdir / f"{stack}.template.json").read_text())["Resources"]
    [(guard_id, props)] = [(k, r) for k, r in resources.items() if r["Type"] == "Custom::MidnightGuard"]
    assert props["Properties"]["ServiceTimeout"] == "300" and props["Properties"]["Emergency"] == ""
    own = _closure(resources, guard_id)
    unguarded = [
        k
        for k, r in resources.items()
        if k != guard_id
        and k not in own
        and guard_id not in _closure(resources, k)
        and r["Type"] != "Custom::CrossRegionExportWriter"  # CDK's, added after the stack is built
    ]
    assert unguarded == []
    [alarm] = [
        r["Properties"]
        for r in resources.values()
        if r["Type"] == "AWS::CloudWatch::Alarm" and r["Properties"]["AlarmName"].endswith("EmergencyDeploy")
    ]
    assert alarm["MetricName"] == "EmergencyDeploys" and alarm["AlarmActions"]


@pytest.mark.infra
def test_the_main_stacks_guard_answers_within_its_timeout_and_the_door_pages(prod):
    _, props = prod.only("Custom::MidnightGuard")
    assert props["Properties"]["ServiceTimeout"] == "300" and props["Properties"]["Emergency"] == ""
    [pattern] = [
        r["Properties"]["FilterPattern"]
        for r in prod.resources("AWS::Logs::MetricFilter").values()
        if r["Properties"]["MetricTransformations"][0]["MetricName"] == "EmergencyDeploys"
    ]
    assert "$.emergency" in pattern
    alarms = {a["Properties"]["AlarmName"] for a in prod.resources("AWS::CloudWatch::Alarm").values()}
    assert "WordSQD-live-EmergencyDeploy" in alarms
