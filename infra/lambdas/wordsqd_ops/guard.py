"""The midnight guard: a custom resource every other resource of the stack depends on, whose
`Deployed` property changes at every synth, so every stack update (make deploy, a bare cdk
deploy, a console update of the template) calls it first. Inside the freeze it answers FAILED
and CloudFormation rolls the update back before any other resource changed.

A rollback is never blocked: CloudFormation calls an updated resource again with the old
properties when it rolls back; the guard then reads its own stack's status (DescribeStacks:
UPDATE_ROLLBACK_IN_PROGRESS), which no operator sets, and lets it pass, as every Delete (a stack
deleted, or a failed create cleaned up).

The emergency door: an `Emergency` property (`-c emergency="<reason>"`, infra/guard.py) lets an
update through the freeze, and the guard logs it as `{"emergency": <reason>, ...}`, which a metric
filter turns into the `EmergencyDeploy` alarm on the stage's topic.
"""

import json
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from .window import CENTRAL, blocked_until

PHYSICAL_ID = "midnight-guard"


ROLLING_BACK = "UPDATE_ROLLBACK_IN_PROGRESS"


def refusal(event: dict[str, Any], now: datetime, stack_status: Callable[[str], str]) -> str | None:
    """Why the stack event EVENT may not go on at NOW, or None when it may (STACK_STATUS: a
    stack's status by its id, read only for an update inside the freeze)."""
    if event["RequestType"] == "Delete":
        return None
    new = event["ResourceProperties"]
    if new.get("Emergency"):
        return None  # the door, logged by on_event
    lookahead = timedelta(minutes=int(new.get("LookaheadMinutes", 0)))
    until = blocked_until(new["WindowStart"], new["WindowEnd"], now, lookahead)
    if until is None:
        return None
    if event["RequestType"] == "Update" and stack_status(event["StackId"]) == ROLLING_BACK:
        return None  # a rollback to the previous template
    return (
        f"Deploy refused: {now.astimezone(CENTRAL):%H:%M %Z} is in (or {lookahead.seconds // 60} minutes "
        f"before) the midnight freeze around {new['WindowStart']}-{new['WindowEnd']} Central; deploy from "
        f"{until:%Y-%m-%d %H:%M %Z} (docs/operations.md, Midnight capacity)."
    )


def respond(event: dict[str, Any], reason: str | None) -> dict[str, Any]:
    """The custom resource's answer for EVENT: SUCCESS, or FAILED with REASON."""
    return {
        "Status": "FAILED" if reason else "SUCCESS",
        "Reason": reason or "outside the midnight freeze",
        "PhysicalResourceId": event.get("PhysicalResourceId", PHYSICAL_ID),
        "StackId": event["StackId"],
        "RequestId": event["RequestId"],
        "LogicalResourceId": event["LogicalResourceId"],
    }


def _put(url: str, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="PUT", headers={"Content-Type": ""})
    with urllib.request.urlopen(request, timeout=30) as reply:  # noqa: S310 (CloudFormation's presigned S3 URL)
        reply.read()


def _stack_status(stack_id: str) -> str:
    import boto3

    [stack] = boto3.client("cloudformation").describe_stacks(StackName=stack_id)["Stacks"]
    return str(stack["StackStatus"])


def on_event(
    event: dict[str, Any],
    context: object,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    put: Callable[[str, dict[str, Any]], None] = _put,
    stack_status: Callable[[str], str] = _stack_status,
) -> None:
    emergency = (event.get("ResourceProperties") or {}).get("Emergency")
    if emergency and event["RequestType"] != "Delete":
        print(
            json.dumps({"emergency": str(emergency), "StackId": event["StackId"], "at": f"{clock():%FT%TZ}"})
        )
    try:
        reason = refusal(event, clock(), stack_status)
    except Exception as error:  # an answer is owed whatever happens: CloudFormation waits an hour
        reason = None if event["RequestType"] == "Delete" else f"midnight guard failed: {error!r}"
    answer = respond(event, reason)
    print(json.dumps({"RequestType": event["RequestType"], **answer}))
    put(event["ResponseURL"], answer)
