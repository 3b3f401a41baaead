"""The midnight guard: a custom resource every other resource of the stack depends on, whose
`Deployed` property changes at every synth, so every stack update (make deploy, a bare cdk
deploy, a console update of the template) calls it first. Inside the freeze it answers FAILED
and CloudFormation rolls the update back before any other resource changed.

A rollback is never blocked: CloudFormation calls an updated resource again with the old
properties when it rolls back, so an Update whose `Deployed` is older than the one it replaces is
a rollback and succeeds, as does every Delete (a stack deleted, or a failed create cleaned up).
"""

import json
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from .window import CENTRAL, blocked_until

PHYSICAL_ID = "midnight-guard"


def refusal(event: dict[str, Any], now: datetime) -> str | None:
    """Why the stack event EVENT may not go on at NOW, or None when it may."""
    if event["RequestType"] == "Delete":
        return None
    new = event["ResourceProperties"]
    old = event.get("OldResourceProperties") or {}
    if event["RequestType"] == "Update" and str(new.get("Deployed", "")) < str(old.get("Deployed", "")):
        return None  # a rollback to the previous template
    lookahead = timedelta(minutes=int(new.get("LookaheadMinutes", 0)))
    until = blocked_until(new["WindowStart"], new["WindowEnd"], now, lookahead)
    if until is None:
        return None
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


def on_event(
    event: dict[str, Any],
    context: object,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    put: Callable[[str, dict[str, Any]], None] = _put,
) -> None:
    try:
        reason = refusal(event, clock())
    except Exception as error:  # an answer is owed whatever happens: CloudFormation waits an hour
        reason = None if event["RequestType"] == "Delete" else f"midnight guard failed: {error!r}"
    answer = respond(event, reason)
    print(json.dumps({"RequestType": event["RequestType"], **answer}))
    put(event["ResponseURL"], answer)
