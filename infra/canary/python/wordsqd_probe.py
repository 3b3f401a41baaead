"""The outside probe (a CloudWatch Synthetics canary, Python runtime): through the site's address
(CloudFront and WAF), today's Daily answers, and a guest run starts, skips its first round and
reads back. Standard library only; a failed step raises, and the canary run fails with it."""

import json
import os
import urllib.error
import urllib.request
from typing import Any


def call(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base.rstrip("/") + path,
        data=data,
        method=method,
        headers={"content-type": "application/json", "user-agent": "wordsqd-canary"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:  # noqa: S310 (our own https URL)
            return reply.status, json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.read()[:200]


def expect(what: str, status: int, wanted: int, body: Any) -> None:
    if status != wanted:
        raise AssertionError(f"{what}: {status}, expected {wanted}: {body!r}")


def probe(base: str) -> str:
    """The guest run's id, after every step answered as it should."""
    status, daily = call(base, "GET", "/daily")
    expect("GET /daily", status, 200, daily)
    if daily.get("rounds") != 10:
        raise AssertionError(f"GET /daily: {daily!r}")
    status, run = call(base, "POST", "/guest/daily/runs")
    expect("POST /guest/daily/runs", status, 201, run)
    run_id = run["run_id"]
    status, skipped = call(base, "POST", f"/guest/runs/{run_id}/skip", {"round": 1})
    expect("POST /guest/runs/{run_id}/skip", status, 200, skipped)
    status, again = call(base, "GET", f"/guest/runs/{run_id}")
    expect("GET /guest/runs/{run_id}", status, 200, again)
    return str(run_id)


def handler(event: object, context: object) -> str:
    return probe(os.environ["SITE_URL"])
