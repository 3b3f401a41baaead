"""The midnight guard in the stack: a custom resource every other resource waits for, which
fails a stack update that starts in (or within a canary of) the freeze, and never a rollback."""

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
    reason = guard.refusal(_event(), now)
    assert (reason is not None) == refused, reason
    if refused:
        assert "00:25" in reason and "Deploy refused" in reason


@pytest.mark.parametrize(
    "hour, minute, refused", [(23, 34, False), (23, 36, True), (0, 34, True), (0, 36, False)]
)
def test_a_stage_without_capacity_is_guarded_around_the_default_window(hour, minute, refused):
    now = _central(6, 2 if hour == 0 else 1, hour, minute)
    assert (guard.refusal(_event(properties=DEFAULT), now) is not None) == refused


def test_a_first_create_inside_the_freeze_is_refused_too():
    assert guard.refusal(_event("Create"), _central(6, 1, 23, 50)) is not None


@pytest.mark.parametrize("now", [_central(6, 1, 23, 50), _central(6, 2, 0, 10)])
def test_a_rollback_or_a_delete_is_never_blocked(now):
    """Rolling back, CloudFormation sends the previous (older) properties as the new ones; a
    failed create is cleaned up with a Delete."""
    rollback = _event(deployed="2026-06-01T04:00:00+00:00", old="2026-06-02T04:40:00+00:00")
    assert guard.refusal(rollback, now) is None
    assert guard.refusal(_event("Delete"), now) is None
    update = _event(deployed="2026-06-02T04:40:00+00:00", old="2026-06-01T04:00:00+00:00")
    assert guard.refusal(update, now) is not None


def test_the_answer_goes_to_cloudformation_with_the_reason():
    sent = []
    guard.on_event(
        _event(), None, clock=lambda: _central(6, 1, 23, 50), put=lambda url, body: sent.append((url, body))
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
