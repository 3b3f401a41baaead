"""The whole cost of WordSQD on AWS: per million runs, per million monthly players, what each
month of history adds, and the fixed monthly part (figures, no assertions): `python
benchmarks/cost.py`, printed as docs/operations.md shows them. Every line prints its source.

Measured here, through the real handlers on in-process moto (benchmarks/meter.py), in a
warm container: a signed-in player's official run (a start, 10 accepted answers) and the two reads
after it (`GET /leaderboard/daily/me`, `GET /me`): each call's DynamoDB requests and units, its
CPU time, and the bytes the run leaves kept for ever. A call's billed Lambda duration is modelled
from them as docs/operations.md's "Memory sizes" does: CPU × 1,769 / the function's configured MB,
plus 5 ms a DynamoDB request, rounded up to the millisecond (this machine's CPU is not a Lambda
core; the deployed REPORT lines re-measure it). The rank counters' 4.5 write units a result are
benchmarks/boards.py's; the ~1.5 KB reply and ~1 KB of logs a request are estimates. Prices are
AWS's list prices for us-east-1 (arm64, on-demand), each with the page it comes from.
"""

import contextlib
import io
import json
import logging
import math
import os
import statistics
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from offline import use_offline_env

use_offline_env()

import boto3  # noqa: E402
from daily import player_id, word_for  # noqa: E402
from meter import Meter, item_size  # noqa: E402
from moto import mock_aws  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402

from functions.daily.handler import handler as daily_handler  # noqa: E402
from functions.leaderboard.handler import handler as leaderboard_handler  # noqa: E402
from infra.capacity import REQUESTS_PER_RUN, rush_concurrency  # noqa: E402
from infra.functions import FUNCTIONS  # noqa: E402
from local.events import LambdaContext, http_event  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402
from shared.game import clock  # noqa: E402
from shared.runtime import wiring  # noqa: E402

MILLION = 1_000_000
COUNTER_WRITE_UNITS = 4.5  # per official result: benchmarks/boards.py "The counters at the rush"
REPLY_KB = 1.5  # estimated per request
LOG_KB = 1.0  # estimated per request
DYNAMODB_MS = 5  # a DynamoDB request's wait inside a Lambda (docs/operations.md, "Memory sizes")
MEASURED_AT_MB = 1_769  # a full core: the CPU measured here is taken as one
ITEM_OVERHEAD = 100  # bytes DynamoDB adds to each item and index entry for storage
# X-Ray's default sampling rule: the first request each second, then 5% (at volume, 5%).
XRAY_SAMPLED = 0.05
# A monthly player: the page (index.html, its modules in web/js and styles in web/css, config.json,
# GET /daily) besides the run and the reads after it; the files are revalidated after a minute
# (infra/edge.py SITE_CACHE_CONTROL), so each day's visit asks for each of them again.
WEB = Path(__file__).parents[1] / "web"
PAGE_REQUESTS = 3 + len(list((WEB / "js").rglob("*.js"))) + len(list((WEB / "css").rglob("*.css")))
# Custom metrics (Powertools EMF, dimension `service`; shared/runtime/observability.py): RunsStarted,
# RunsCompleted, OfficialScores, ImplausibleRuns, ExpiryFailures, and Answers by `reason` (accepted,
# the 6 reasons of SPEC §2 and already_used).
CUSTOM_METRICS = 5 + 8
# Metrics read by the prod stage's alarms when no template is given: the count of `make
# synth STAGE=prod`'s three templates (`--templates cdk.out` counts the synthesized ones).
ALARM_METRICS_STATED = 73


class Call(NamedTuple):
    """One API call as measured: its function, DynamoDB requests and units, CPU milliseconds."""

    label: str
    function: str
    requests: int
    write_units: float
    read_units: float
    cpu_ms: float

    @property
    def billed_ms(self) -> int:
        memory = FUNCTIONS[self.function].memory_mb
        return math.ceil(self.cpu_ms * MEASURED_AT_MB / memory + DYNAMODB_MS * self.requests)

    @property
    def gb_seconds(self) -> float:
        return self.billed_ms / 1000 * FUNCTIONS[self.function].memory_mb / 1024


class Measured(NamedTuple):
    run: list[Call]  # the start and the 10 answers
    after: list[Call]  # the reads after the run
    kept_bytes: int  # what an official run leaves for ever: items and index entries, with overhead


def _play(call, user: str) -> list:
    """USER's official run through CALL (label, method, path, body, user): the start, 10 answers,
    then the rank and `GET /me`; each call's measure."""
    start, run = call("start", "POST", "/daily/runs", None, user)
    calls = [start]
    for number in range(1, 11):
        clock.advance(2)  # a person's pace: fair play ranks the run
        body = {"round": number, "attempt": 1, "word": word_for(run)}
        answered, reply = call(f"answer {number}", "POST", f"/runs/{run['run_id']}/answers", body, user)
        calls.append(answered)
        run = reply["run"]
    calls.append(call("rank", "GET", "/leaderboard/daily/me", None, user)[0])
    return [*calls, call("GET /me", "GET", "/me", None, user)[0]]


def _handle(method: str, path: str, body, user: str) -> tuple[str, dict]:
    claims = {"sub": player_id(user), "cognito:username": user, "token_use": "id"}
    function = "daily" if path.startswith(("/daily", "/runs")) else "leaderboard"
    handler = daily_handler if function == "daily" else leaderboard_handler
    with contextlib.redirect_stdout(io.StringIO()):
        reply = handler(http_event(method, path, body, claims=claims), LambdaContext(aws_request_id="c"))
    return function, json.loads(reply["body"]) if reply.get("body") else {}


def cpu_per_call() -> list[float]:
    """Each call's CPU milliseconds on its own thread (time.thread_time), against moto's server
    on threads of its own, so that moto's work is not counted: the median of 3 warm runs."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        os.environ["AWS_ENDPOINT_URL_DYNAMODB"] = f"http://{host}:{port}"
        wiring.reset()
        client = boto3.client("dynamodb", endpoint_url=os.environ["AWS_ENDPOINT_URL_DYNAMODB"])
        client.create_table(**create_table_request(wiring.settings().table_name))

        def call(label: str, method: str, path: str, body, user: str) -> tuple[float, dict]:
            started = time.thread_time()
            _, reply = _handle(method, path, body, user)
            return (time.thread_time() - started) * 1000, reply

        runs = [_play(call, f"cpu-{n}") for n in range(5)][2:]  # the first two warm the container
        return [statistics.median(values) for values in zip(*runs, strict=True)]
    finally:
        os.environ.pop("AWS_ENDPOINT_URL_DYNAMODB", None)
        wiring.reset()
        server.stop()
        clock.reset()


def measure() -> Measured:
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    cpu = cpu_per_call()
    with mock_aws():
        table = wiring.settings().table_name
        boto3.client("dynamodb").create_table(**create_table_request(table))
        meter = Meter().attach(wiring.ports().client)

        def call(label: str, method: str, path: str, body, user: str) -> tuple[Call, dict]:
            meter.take()
            function, reply = _handle(method, path, body, user)
            operations, _, writes, _, reads = meter.take()
            return Call(label, function, sum(operations.values()), writes, reads, 0.0), reply

        _play(call, "warm")  # a warm container: the puzzle stored and cached
        calls = [c._replace(cpu_ms=ms) for c, ms in zip(_play(call, "cost"), cpu, strict=True)]
        kept = 0
        for item in boto3.client("dynamodb").scan(TableName=table)["Items"]:
            is_official_run = item["pk"]["S"].startswith("RUN#") and "expires_at" not in item
            if (
                player_id("cost") in item["pk"]["S"]
                and item["sk"]["S"].startswith("OFFICIAL#")
                or (is_official_run and json.loads(item["run"]["S"]).get("p") == player_id("cost"))
            ):
                kept += item_size(item) + ITEM_OVERHEAD
                table_def = meter.table(table)
                entries = [table_def.entry(item, index) for index in table_def.indexes]
                kept += sum(item_size(entry) + ITEM_OVERHEAD for entry in entries if entry)
        clock.reset()
    return Measured(calls[:11], calls[11:], kept)


@dataclass(frozen=True)
class Price:
    per: float  # dollars per unit
    unit: str
    source: str


PRICES = {
    "api": Price(1.00 / MILLION, "HTTP API request", "https://aws.amazon.com/api-gateway/pricing/"),
    "lambda_requests": Price(0.20 / MILLION, "Lambda request", "https://aws.amazon.com/lambda/pricing/"),
    "lambda_gb_s": Price(0.0000133334, "GB-s (arm64)", "https://aws.amazon.com/lambda/pricing/"),
    "provisioned_gb_s": Price(
        0.0000033334, "GB-s provisioned (arm64)", "https://aws.amazon.com/lambda/pricing/"
    ),
    "provisioned_use_gb_s": Price(
        0.0000077778, "GB-s run on provisioned (arm64)", "https://aws.amazon.com/lambda/pricing/"
    ),
    "write_unit": Price(
        0.625 / MILLION, "write request unit", "https://aws.amazon.com/dynamodb/pricing/on-demand/"
    ),
    "read_unit": Price(
        0.125 / MILLION, "read request unit", "https://aws.amazon.com/dynamodb/pricing/on-demand/"
    ),
    "cloudfront_request": Price(
        0.0100 / 10_000, "HTTPS request (US, Europe)", "https://aws.amazon.com/cloudfront/pricing/"
    ),
    "cloudfront_gb": Price(0.085, "GB out (first 10 TB, US)", "https://aws.amazon.com/cloudfront/pricing/"),
    "waf_request": Price(0.60 / MILLION, "request inspected", "https://aws.amazon.com/waf/pricing/"),
    "waf_acl": Price(5.00, "web ACL a month", "https://aws.amazon.com/waf/pricing/"),
    "waf_rule": Price(1.00, "rule a month", "https://aws.amazon.com/waf/pricing/"),
    "logs_gb": Price(0.50, "GB ingested", "https://aws.amazon.com/cloudwatch/pricing/"),
    "alarm_metric": Price(0.10, "alarm metric a month", "https://aws.amazon.com/cloudwatch/pricing/"),
    "dashboard": Price(3.00, "dashboard a month", "https://aws.amazon.com/cloudwatch/pricing/"),
    "secret": Price(0.40, "secret a month", "https://aws.amazon.com/secrets-manager/pricing/"),
    "xray_trace": Price(5.00 / MILLION, "trace recorded", "https://aws.amazon.com/xray/pricing/"),
    "custom_metric": Price(0.30, "custom metric a month", "https://aws.amazon.com/cloudwatch/pricing/"),
    "storage_gb": Price(0.25, "GB-month stored", "https://aws.amazon.com/dynamodb/pricing/on-demand/"),
    "pitr_gb": Price(0.20, "GB-month of PITR", "https://aws.amazon.com/dynamodb/pricing/on-demand/"),
}
# Cognito user pools: monthly active users above the first 10,000 (free in both plans), by tier.
# https://aws.amazon.com/cognito/pricing/
COGNITO_FREE = 10_000
COGNITO_ESSENTIALS = 0.015
COGNITO_LITE = ((100_000, 0.0055), (1_000_000, 0.0046), (10_000_000, 0.00325), (float("inf"), 0.0025))
WAF_RULES = 5  # three rate rules, two AWS managed groups (no charge of their own)


def _through_the_api(requests: int) -> dict[str, float]:
    """What REQUESTS API requests cost before Lambda's compute and DynamoDB."""
    p = {k: v.per for k, v in PRICES.items()}
    return {
        "CloudFront requests": requests * p["cloudfront_request"],
        "CloudFront data out": requests * REPLY_KB / MILLION * p["cloudfront_gb"],
        "WAF requests": requests * p["waf_request"],
        "API Gateway requests": requests * p["api"],
        "Lambda requests": requests * p["lambda_requests"],
        "X-Ray traces": requests * XRAY_SAMPLED * p["xray_trace"],
        "CloudWatch Logs": requests * LOG_KB / MILLION * p["logs_gb"],
    }


def _in_lambda_and_dynamodb(calls: list[Call], counters: float = 0.0) -> dict[str, float]:
    p = {k: v.per for k, v in PRICES.items()}
    return {
        "Lambda compute": sum(c.gb_seconds for c in calls) * p["lambda_gb_s"],
        "DynamoDB writes": (sum(c.write_units for c in calls) + counters) * p["write_unit"],
        "DynamoDB reads": sum(c.read_units for c in calls) * p["read_unit"],
    }


def per_run(measured: Measured) -> dict[str, float]:
    """Dollars per official run (a start and 10 answers), by line."""
    return {
        **_through_the_api(len(measured.run)),
        **_in_lambda_and_dynamodb(measured.run, COUNTER_WRITE_UNITS),
    }


def after_run(measured: Measured) -> dict[str, float]:
    """Dollars of a signed-in player's reads after a run (their rank, `GET /me`), by line."""
    return {**_through_the_api(len(measured.after)), **_in_lambda_and_dynamodb(measured.after)}


def history_per_month(measured: Measured, runs_a_day: int = MILLION) -> float:
    """Dollars a month that each month of official runs adds for ever (storage and PITR), at
    RUNS_A_DAY official runs a day: what they keep is never deleted."""
    gigabytes = measured.kept_bytes * runs_a_day * 30 / 1024**3
    return gigabytes * (PRICES["storage_gb"].per + PRICES["pitr_gb"].per)


def alarm_metrics(templates: Path | None) -> tuple[int, str]:
    """The metrics the alarms read (a metric-math alarm pays for each metric it reads), counted in
    the synthesized templates of TEMPLATES, or the stated count."""
    if templates is None:
        return ALARM_METRICS_STATED, "stated (the count of `make synth STAGE=prod`)"
    count, alarms = 0, 0
    for path in sorted(templates.glob("*.template.json")):
        for resource in json.loads(path.read_text())["Resources"].values():
            if resource["Type"] == "AWS::CloudWatch::Alarm":
                alarms += 1
                queries = resource["Properties"].get("Metrics")
                count += sum(1 for q in queries if "MetricStat" in q) if queries else 1
    if not alarms:
        raise SystemExit(f"No alarm in {templates}/*.template.json: synthesize first (make synth STAGE=prod)")
    return count, f"counted: {alarms} alarms in {templates}/*.template.json"


def cognito(players: int, plan: str) -> float:
    billed = max(0, players - COGNITO_FREE)
    if plan == "essentials":
        return billed * COGNITO_ESSENTIALS
    total, floor = 0.0, COGNITO_FREE
    for ceiling, price in COGNITO_LITE:
        total += max(0, min(players, ceiling) - floor) * price
        floor = ceiling
        if players <= ceiling:
            break
    return total


def page_requests_cost() -> float:
    """A player's page load, through the edge (cached: no API or Lambda)."""
    p = {k: v.per for k, v in PRICES.items()}
    return PAGE_REQUESTS * (p["cloudfront_request"] + p["waf_request"])


def midnight_capacity_per_month(measured: Measured) -> float:
    """The prod stage's provisioned concurrency for a month: the window's environments 30 minutes
    a night, one each the rest of the day, less what the rush's compute saves on them (a million
    runs a night served at the provisioned rate instead of on-demand's)."""
    gb = FUNCTIONS["daily"].memory_mb / 1024
    counts = {name: rush_concurrency(n) for name, n in REQUESTS_PER_RUN.items()}
    window = sum(counts.values()) * gb * 30 * 60 * PRICES["provisioned_gb_s"].per
    idle = len(counts) * gb * (86_400 - 1_800) * PRICES["provisioned_gb_s"].per
    rush = MILLION * sum(c.gb_seconds for c in measured.run + measured.after)
    saved = rush * (PRICES["lambda_gb_s"].per - PRICES["provisioned_use_gb_s"].per)
    return 30 * (window + idle - saved)


def fixed_per_month(measured: Measured, templates: Path | None) -> dict[str, tuple[float, str]]:
    metrics, counted = alarm_metrics(templates)
    return {
        "WAF web ACL and rules": (
            PRICES["waf_acl"].per + WAF_RULES * PRICES["waf_rule"].per,
            "infra/edge_waf.py",
        ),
        "alarms": (metrics * PRICES["alarm_metric"].per, f"{metrics} metrics, {counted}"),
        "custom metrics": (
            CUSTOM_METRICS * PRICES["custom_metric"].per,
            f"{CUSTOM_METRICS}, shared/runtime/observability.py",
        ),
        "dashboard": (PRICES["dashboard"].per, "infra/dashboard.py"),
        "secrets (3)": (3 * PRICES["secret"].per, "infra/"),
        "midnight provisioned concurrency, net": (midnight_capacity_per_month(measured), "infra/capacity.py"),
    }


# --- Operations (#40): what watching the game and its money costs a month -------------------------
# The probes (infra/outside.py): every 5 minutes, and twice around midnight.
PROBE_RUNS_PER_MONTH = 30 * (24 * 60 // 5 + 2)
# Alarms infra/watch.py, infra/outside.py and ResetFailed add, by the metrics they read: five
# scheduled-check metrics, ResetFailed's one, the two probes' one each, the SLO windows (the
# availability windows read 5xx and Count, the answer windows one series each, four windows each).
OPERATIONS_ALARM_METRICS = 5 + 1 + 2 + 4 * 2 + 4 * 1
COMPOSITE_ALARMS = 4  # the SLOs' fast and slow burns
CUSTOM_METRICS = 5 + 1  # WordSQD/Operations (infra/lambdas/wordsqd_ops/watch.py) and AnswerLatency
# AppConfig (the kill switches): each warm API environment asks at most once a minute (CACHE_SECONDS);
# outside the rush, the two idle environments.
SWITCH_REQUESTS_PER_MONTH = 2 * 60 * 24 * 30
OPERATIONS_PRICES = {
    "canary_run": Price(0.0012, "canary run", "https://aws.amazon.com/cloudwatch/pricing/"),
    "composite_alarm": Price(0.50, "composite alarm a month", "https://aws.amazon.com/cloudwatch/pricing/"),
    "custom_metric": Price(0.30, "custom metric a month", "https://aws.amazon.com/cloudwatch/pricing/"),
    "appconfig_request": Price(
        0.2 / MILLION, "AppConfig configuration request", "https://aws.amazon.com/systems-manager/pricing/"
    ),
    # Budgets without actions and Cost Anomaly Detection are free.
    "budget": Price(
        0.0, "budget without actions", "https://aws.amazon.com/aws-cost-management/aws-budgets/pricing/"
    ),
    "anomaly_monitor": Price(
        0.0,
        "cost anomaly monitor",
        "https://aws.amazon.com/aws-cost-management/aws-cost-anomaly-detection/pricing/",
    ),
}


def operations_per_month() -> dict[str, float]:
    """The monthly lines of the probes, the SLO alarms, the scheduled checks, the kill switches and
    the budget (the checks' own invocations, a few thousand a month, are inside Lambda's free tier)."""
    p = {k: v.per for k, v in OPERATIONS_PRICES.items()}
    return {
        "outside probes (Synthetics)": PROBE_RUNS_PER_MONTH * p["canary_run"],
        "operations alarms": OPERATIONS_ALARM_METRICS * PRICES["alarm_metric"].per
        + COMPOSITE_ALARMS * p["composite_alarm"],
        "operations metrics": CUSTOM_METRICS * p["custom_metric"],
        "kill switches (AppConfig)": SWITCH_REQUESTS_PER_MONTH * p["appconfig_request"],
        "budget and anomaly monitor": p["budget"] + p["anomaly_monitor"],
    }


# --- end of the operations lines ------------------------------------------------------------------


def print_lines(title: str, lines: dict[str, float], source: dict[str, str]) -> float:
    total = sum(lines.values())
    print(title)
    for name, cost in lines.items():
        print(f"  {name:<22} ${cost * MILLION:>9,.2f}  {source.get(name, '')}")
    print(f"  {'total':<22} ${total * MILLION:>9,.2f}")
    return total


def main() -> None:
    templates = Path(sys.argv[sys.argv.index("--templates") + 1]) if "--templates" in sys.argv else None
    measured = measure()
    billed = " + ".join(f"{c.billed_ms}" for c in measured.run)
    cpu = sum(c.cpu_ms for c in measured.run)
    requests = sum(c.requests for c in measured.run)
    source = {
        "CloudFront requests": f"{len(measured.run)} API requests, measured",
        "CloudFront data out": f"{REPLY_KB} KB a reply, estimated",
        "X-Ray traces": f"{XRAY_SAMPLED:.0%} of requests sampled (the default rule at volume)",
        "CloudWatch Logs": f"{LOG_KB} KB a request, estimated",
        "Lambda compute": f"billed ms {billed}, from {cpu:.1f} ms CPU measured and {requests} DynamoDB "
        f"requests at daily's {FUNCTIONS['daily'].memory_mb} MB",
        "DynamoDB writes": f"{sum(c.write_units for c in measured.run):g} units measured + "
        f"{COUNTER_WRITE_UNITS} of the counters (benchmarks/boards.py)",
        "DynamoDB reads": f"{sum(c.read_units for c in measured.run):g} units measured",
    }
    run = print_lines("Per million official runs (a start and 10 answers):", per_run(measured), source)
    print()
    after_source = {
        "Lambda compute": "billed ms "
        + " + ".join(f"{c.billed_ms}" for c in measured.after)
        + f" at leaderboard's {FUNCTIONS['leaderboard'].memory_mb} MB",
        "DynamoDB reads": " + ".join(f"{c.read_units:g}" for c in measured.after) + " units measured",
        "CloudFront requests": f"{len(measured.after)} API requests (rank, GET /me)",
    }
    after = print_lines(
        "Per million runs of signed-in players, the reads after it:", after_run(measured), after_source
    )
    print()
    growth = history_per_month(measured)
    print(
        f"Each month of history adds ${growth:,.2f} a month for ever at a million official runs a day: "
        f"{measured.kept_bytes:,} bytes kept a run (the run and official items, their index entries, "
        f"{ITEM_OVERHEAD} B overhead each), ${PRICES['storage_gb'].per} storage + "
        f"${PRICES['pitr_gb'].per} PITR per GB-month; practice runs (30 days) and guest runs (2 days) expire"
    )
    print()
    print("Per million monthly players, each signed in and playing 30 Dailies a month:")
    runs = 30 * (run + after) * MILLION
    visits = 30 * page_requests_cost() * MILLION
    for plan in ("lite", "essentials"):
        users = cognito(MILLION, plan)
        print(
            f"  Cognito {plan:<10} ${users:>10,.2f} + runs and the reads after ${runs:,.2f}"
            f" + pages ${visits:,.2f} = ${users + runs + visits:,.2f}"
        )
    print("  (guests: no Cognito; 10,000 signed-in players are free in both plans)")
    print()
    print("Fixed, per month:")
    for name, (cost, where) in fixed_per_month(measured, templates).items():
        print(f"  {name:<38} ${cost:>8,.2f}  {where}")
    for name, cost in operations_per_month().items():
        print(f"  {name:<38} ${cost:>8,.2f}  operations_per_month(): infra/watch.py, infra/outside.py")
    print()
    print("Prices (us-east-1):")
    for price in (*PRICES.values(), *OPERATIONS_PRICES.values()):
        print(f"  ${price.per:.10g} per {price.unit}: {price.source}")
    print(
        f"  Cognito: Essentials ${COGNITO_ESSENTIALS} per MAU, Lite from ${COGNITO_LITE[0][1]}: https://aws.amazon.com/cognito/pricing/"
    )


if __name__ == "__main__":
    main()
