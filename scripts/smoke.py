"""Smoke test a deployed stage (the pipeline runs it after each deploy): the public API answers
through the edge, and only there.

    python scripts/smoke.py --url https://d111111abcdef8.cloudfront.net/
    python scripts/smoke.py --outputs outputs.json --stack WordSQD-staging   # cdk deploy --outputs-file

Through the site's address (`SiteUrl`): GET /daily (today's Daily, SPEC §5), POST /validate with
the rules' own example (TMR: TIMER yes, METER no) and an unknown API route (404 in the error
envelope). With --outputs, also the HTTP API's own address (`ApiUrl`): it must refuse a request
that skipped CloudFront and WAF (403 `forbidden`, docs/edge.md). Exits 1 with what failed.
Standard library only, so it runs anywhere the repository is checked out.
"""

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def _body(raw: bytes) -> object:
    """The JSON body, or (CloudFront's and WAF's own error pages are HTML) its first 200 characters."""
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return {"not_json": raw[:200].decode("utf-8", "replace")}


def call(base: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """(status, body); status 0 when the site could not be reached. Never raises: every failure is
    a result the checks report, and the next attempt retries."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base.rstrip("/") + path, data=data, method=method, headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as reply:
            status, raw = reply.status, reply.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    except (urllib.error.URLError, OSError) as error:  # unreachable
        return 0, {"unreachable": str(error)}
    parsed = _body(raw)
    return status, parsed if isinstance(parsed, dict) else {"body": parsed}


def checks(base: str) -> list[str]:
    """The failures, in words; empty when the stage is healthy."""
    failures = []
    status, daily = call(base, "GET", "/daily")
    if status != 200 or not isinstance(daily, dict):
        failures.append(f"GET /daily: {status} {daily}")
    else:
        for key, expected in [("rounds", 10), ("time_limit_seconds", 180)]:
            if daily.get(key) != expected:
                failures.append(f"GET /daily: {key} is {daily.get(key)!r}, not {expected!r}")
        if not isinstance(daily.get("date"), str) or daily.get("status") not in ("live", "closed"):
            failures.append(f"GET /daily: unexpected body {daily}")
    examples = [
        ("Timer", {"valid": True, "word": "timer", "reason": None}),
        ("meter", {"valid": False, "word": "meter", "reason": "letter_order"}),
    ]
    for word, expected in examples:
        status, verdict = call(base, "POST", "/validate", {"prompt": "TMR", "word": word})
        if (status, verdict) != (200, expected):
            failures.append(f"POST /validate {word}: {status} {verdict}, expected 200 {expected}")
    # (under an API path of the edge, so CloudFront sends it to the API, not to the site's files)
    status, missing = call(base, "GET", "/runs/none/no-such-route")
    if status != 404 or not isinstance(missing, dict) or "error" not in missing:
        failures.append(
            f"GET /runs/none/no-such-route: {status} {missing}, expected 404 with an error envelope"
        )
    return failures


def direct_checks(api: str) -> list[str]:
    """The HTTP API's own address refuses what did not come through the edge."""
    status, body = call(api, "GET", "/daily")
    error = body.get("error")
    if (status, error.get("code") if isinstance(error, dict) else None) != (403, "forbidden"):
        return [f"GET {api}/daily without the edge: {status} {body}, expected 403 forbidden"]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--url", help="the site's base URL (CloudFront), or make run's")
    where.add_argument("--outputs", type=Path, help="cdk deploy --outputs-file JSON (with --stack)")
    parser.add_argument("--stack", help="the stack whose SiteUrl and ApiUrl outputs to test")
    parser.add_argument("--attempts", type=int, default=5, help="tries (a new stage warms up)")
    parser.add_argument("--interval", type=float, default=10.0, help="seconds between tries")
    args = parser.parse_args(argv)
    outputs = json.loads(args.outputs.read_text())[args.stack] if args.outputs else {}
    base = args.url or outputs["SiteUrl"]
    for attempt in range(1, args.attempts + 1):
        failures = checks(base) + (direct_checks(outputs["ApiUrl"]) if outputs else [])
        if not failures:
            print(f"smoke test passed: {base}")
            return 0
        print(f"attempt {attempt}: " + "; ".join(failures), file=sys.stderr)
        if attempt < args.attempts:
            time.sleep(args.interval)
    return 1


if __name__ == "__main__":
    sys.exit(main())
