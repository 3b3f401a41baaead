"""The whole cost of WordSQD on AWS: per million runs, per million monthly players, and the fixed
monthly part (figures, no assertions): `python benchmarks/cost.py`, printed as docs/operations.md
shows them.

Quantities per run are measured: 11 API requests (1 start, 10 answers), 24 write and 13 read
request units, and 4.5 write units of the rank counters per official result (2.5 counter, 2.0
marker), from `make bench` (benchmarks/daily.py, benchmarks/boards.py "The counters at the
rush"); the warm request's 50 ms at daily's memory and the ~1.5 KB reply and ~1 KB of logs per
request are estimates (the deployed REPORT lines and the dashboard's bytes re-measure them).
Prices are AWS's list prices for us-east-1 (arm64, on-demand), each with the page it comes from;
check them there before relying on a figure.
"""

from dataclasses import dataclass

from offline import use_offline_env

use_offline_env()

from infra.capacity import REQUESTS_PER_RUN, WARM_REQUEST_SECONDS, rush_concurrency  # noqa: E402
from infra.functions import FUNCTIONS  # noqa: E402

MILLION = 1_000_000

# Measured per run (make bench).
API_REQUESTS = 11
WRITE_UNITS = 24
READ_UNITS = 13
COUNTER_WRITE_UNITS = 4.5
# Estimated per request.
GB_SECONDS = WARM_REQUEST_SECONDS * FUNCTIONS["daily"].memory_mb / 1024
REPLY_KB = 1.5
LOG_KB = 1.0
# A monthly player: the page (index.html, app.js, style.css, config.json, GET /daily) and the
# reads after a run (rank, profile) besides the run itself.
PAGE_REQUESTS = 5


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
}
# Cognito user pools: monthly active users above the first 10,000 (free in both plans), by tier.
# https://aws.amazon.com/cognito/pricing/
COGNITO_FREE = 10_000
COGNITO_ESSENTIALS = 0.015
COGNITO_LITE = ((100_000, 0.0055), (1_000_000, 0.0046), (10_000_000, 0.00325), (float("inf"), 0.0025))
WAF_RULES = 5  # three rate rules, two AWS managed groups (no charge of their own)
# Metrics read by the 32 alarms of the prod stage's three stacks (a metric-math alarm pays for each),
# counted in `make synth STAGE=prod`'s templates.
ALARM_METRICS = 70


def per_run() -> dict[str, float]:
    """Dollars per run, by line."""
    p = {k: v.per for k, v in PRICES.items()}
    return {
        "CloudFront requests": API_REQUESTS * p["cloudfront_request"],
        "CloudFront data out": API_REQUESTS * REPLY_KB / MILLION * p["cloudfront_gb"],
        "WAF requests": API_REQUESTS * p["waf_request"],
        "API Gateway requests": API_REQUESTS * p["api"],
        "Lambda requests": API_REQUESTS * p["lambda_requests"],
        "Lambda compute": API_REQUESTS * GB_SECONDS * p["lambda_gb_s"],
        "DynamoDB writes": (WRITE_UNITS + COUNTER_WRITE_UNITS) * p["write_unit"],
        "DynamoDB reads": READ_UNITS * p["read_unit"],
        "CloudWatch Logs": API_REQUESTS * LOG_KB / MILLION * p["logs_gb"],
    }


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


def visit_requests_cost() -> float:
    """A player's page load and after-run reads, through the edge (cached: no API or Lambda)."""
    p = {k: v.per for k, v in PRICES.items()}
    edge = (PAGE_REQUESTS + REQUESTS_PER_RUN["leaderboard"]) * (p["cloudfront_request"] + p["waf_request"])
    reads = REQUESTS_PER_RUN["leaderboard"] * (
        p["api"] + p["lambda_requests"] + GB_SECONDS * p["lambda_gb_s"]
    )
    return edge + reads


def midnight_capacity_per_month() -> float:
    """The prod stage's provisioned concurrency for a month: the window's environments 30 minutes
    a night, one each the rest of the day, less what the rush's compute saves on them (a million
    runs a night served at the provisioned rate instead of on-demand's)."""
    gb = FUNCTIONS["daily"].memory_mb / 1024
    counts = {name: rush_concurrency(n) for name, n in REQUESTS_PER_RUN.items()}
    window = sum(counts.values()) * gb * 30 * 60 * PRICES["provisioned_gb_s"].per
    idle = len(counts) * gb * (86_400 - 1_800) * PRICES["provisioned_gb_s"].per
    rush = MILLION * API_REQUESTS * GB_SECONDS
    saved = rush * (PRICES["lambda_gb_s"].per - PRICES["provisioned_use_gb_s"].per)
    return 30 * (window + idle - saved)


def fixed_per_month() -> dict[str, float]:
    return {
        "WAF web ACL and rules": PRICES["waf_acl"].per + WAF_RULES * PRICES["waf_rule"].per,
        "alarms": ALARM_METRICS * PRICES["alarm_metric"].per,
        "dashboard": PRICES["dashboard"].per,
        "secrets (3)": 3 * PRICES["secret"].per,
        "midnight provisioned concurrency, net": midnight_capacity_per_month(),
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


def main() -> None:
    lines = per_run()
    run = sum(lines.values())
    print("Per million runs (11 API requests each):")
    for name, cost in lines.items():
        print(f"  {name:<22} ${cost * MILLION:>9,.2f}")
    edge = lines["CloudFront requests"] + lines["CloudFront data out"] + lines["WAF requests"]
    share = edge / (run - edge)
    total = f"${run * MILLION:>9,.2f}"
    print(f"  {'total':<22} {total}  (the edge: ${edge * MILLION:,.2f}, {share:.0%} on the rest)")
    print()
    print("Per million monthly players, each signed in and playing 30 Dailies a month:")
    runs = 30 * run * MILLION
    visits = 30 * visit_requests_cost() * MILLION
    for plan in ("lite", "essentials"):
        users = cognito(MILLION, plan)
        print(
            f"  Cognito {plan:<10} ${users:>10,.2f} + runs ${runs:,.2f} + page and board reads ${visits:,.2f}"
            f" = ${users + runs + visits:,.2f}"
        )
    print("  (guests: no Cognito; 10,000 signed-in players are free in both plans)")
    print()
    print("Fixed, per month:")
    for name, cost in fixed_per_month().items():
        print(f"  {name:<38} ${cost:>8,.2f}")
    for name, cost in operations_per_month().items():
        print(f"  {name:<38} ${cost:>8,.2f}")
    print()
    print("Prices (us-east-1):")
    for price in (*PRICES.values(), *OPERATIONS_PRICES.values()):
        print(f"  ${price.per:.10g} per {price.unit}: {price.source}")
    print(
        f"  Cognito: Essentials ${COGNITO_ESSENTIALS} per MAU, Lite from ${COGNITO_LITE[0][1]}: https://aws.amazon.com/cognito/pricing/"
    )


if __name__ == "__main__":
    main()
