"""Before `cdk deploy`: does this account's quota allow what the stage asks for? Reads the quotas
with the credentials in use and says what to raise (Service Quotas) before a deploy can work.

    python scripts/preflight.py --stage prod            # exit 0: nothing to raise; 1: raise first

What it checks, in the stage's region (infra/stages.json through infra.config):
- DynamoDB (DescribeLimits): the per-table maximum read and write units/s must cover the warm
  throughput the stage asks for, the table's and each GSI's (CreateTable is refused above it);
- Lambda (GetAccountSettings): the account's concurrency must hold the reserved concurrency of the
  jobs and the consumer plus the midnight provisioned concurrency, and still leave the 100
  unreserved executions Lambda insists on (else the deploy or the 23:50 scaling is refused);
- API Gateway (Service Quotas, "Throttle rate" and "Throttle burst rate"): the account's throttle
  must be at least the stage's, or the stage's own limit never applies;
- SES (sesv2): the stage's identity verified for sending (Cognito refuses to create a user pool
  on an unverified one) and the account out of the SES sandbox (else mail reaches verified
  addresses only); a stage without `ses` says that Cognito sends its own mail (50 a day);
- the rush the stage plans for (`rush_players`, scripts/rush_plan.py): at its top, the API
  requests/s against the stage's throttle and the account's, the busy Lambda environments against
  the account's concurrency and each function's midnight capacity, the table's and each index's
  write and read units/s against their warm throughput and the per-table quota, and the
  completions/s against what the board's shards and the `due` index's partitions take.

Before any of it, the stage's entry must hold no placeholder (an RFC 2606 name such as
example.com, left from the repository's sample stages): each is named by its field. Without
credentials it says so in one line. CloudFront's account verification has no API: it is printed
as a check to make by hand (docs/operations.md, "Deploy to a new account").
"""

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rush_plan import (  # noqa: E402
    DUE_COMPLETIONS_BOUND,
    INDEX_WRITE_UNITS,
    Peak,
    board_completions_bound,
    load_stage,
)

from infra.config import STAGES_FILE, StageConfig  # noqa: E402
from infra.functions import FUNCTIONS  # noqa: E402
from shared.dynamo.keys import DUE_SHARDS  # noqa: E402

# Lambda refuses to reserve (or provision) below this many unreserved executions.
UNRESERVED_MINIMUM = 100
API_QUOTAS = {"rate": "Throttle rate", "burst": "Throttle burst rate"}
# RFC 2606/6761 names, reserved for examples: an address or origin with one never works.
PLACEHOLDER = re.compile(r"(^|[.@/])(example\.(com|net|org)|[a-z0-9-]+\.(example|invalid|test))\b")
BY_HAND = (
    "CloudFront: a new account may be refused distributions until AWS verifies it ('Your account "
    "must be verified'); no API tells: if the deploy fails so, open a support case"
)


@dataclass(frozen=True)
class Check:
    what: str
    have: float
    need: float
    raise_: str  # where to ask

    @property
    def ok(self) -> bool:
        return self.have >= self.need

    def __str__(self) -> str:
        verdict = "ok   " if self.ok else "RAISE"
        line = f"{verdict} {self.what}: quota {self.have:,.0f}, stage needs {self.need:,.0f}"
        return line if self.ok else f"{line} -> {self.raise_}"


@dataclass(frozen=True)
class Requirement:
    """A yes-or-no condition of the account, with where to fix it."""

    what: str
    ok: bool
    fix: str

    def __str__(self) -> str:
        return f"ok    {self.what}" if self.ok else f"FIX   {self.what} -> {self.fix}"


def placeholders(entry: Any, where: str = "") -> list[str]:
    """Every field of a stage's entry (FIELD[.KEY|[i]]...) whose value is a placeholder name."""
    if isinstance(entry, dict):
        return [p for key, value in entry.items() for p in placeholders(value, f"{where}.{key}".lstrip("."))]
    if isinstance(entry, list):
        return [p for i, value in enumerate(entry) for p in placeholders(value, f"{where}[{i}]")]
    if isinstance(entry, str) and PLACEHOLDER.search(entry.lower()):
        return [f"{where} = {entry!r}"]
    return []


def ses_checks(config: StageConfig, ses: Any) -> list[Requirement]:
    if config.ses is None:
        return [
            Requirement(
                "email: no `ses` in the stage: Cognito sends its own mail (50 a day; a test stage only)",
                True,
                "",
            )
        ]
    identity = ses.get_email_identity(EmailIdentity=config.ses.identity)
    account = ses.get_account()
    return [
        Requirement(
            f"SES identity {config.ses.identity} verified for sending",
            bool(identity.get("VerifiedForSendingStatus")),
            "SES > Identities: create it, add its DNS records (DKIM), wait for 'Verified'",
        ),
        Requirement(
            "SES out of the sandbox (mail to any player's address)",
            bool(account.get("ProductionAccessEnabled")),
            "SES > Account dashboard > Request production access (a day or so)",
        ),
    ]


def dynamodb_checks(config: StageConfig, limits: dict[str, Any]) -> list[Check]:
    warm = config.warm_throughput
    parts = [warm.table, *(warm.index(name) for name in ("board", "history", "due"))]
    return [
        Check(
            f"DynamoDB per-table {kind} units/s (the table's and each index's warm throughput)",
            limits[f"TableMax{kind.capitalize()}CapacityUnits"],
            max(getattr(p, f"{kind}_units_per_second") for p in parts),
            f"Service Quotas > Amazon DynamoDB > the table-level {kind} throughput quota",
        )
        for kind in ("read", "write")
    ]


def lambda_checks(config: StageConfig, limit: int) -> list[Check]:
    reserved = sum(spec.reserved or 0 for spec in FUNCTIONS.values())
    provisioned = sum(config.midnight_capacity.functions.values()) if config.midnight_capacity else 0
    return [
        Check(
            f"Lambda concurrent executions (reserved {reserved} + midnight provisioned {provisioned}"
            f" + {UNRESERVED_MINIMUM} unreserved)",
            limit,
            reserved + provisioned + UNRESERVED_MINIMUM,
            "Service Quotas > AWS Lambda > Concurrent executions (a new account starts at 10, not 1,000)",
        )
    ]


def _quota(quotas: Any, service: str, name: str) -> float | None:
    """The applied value of quota NAME, else its default (Service Quotas lists applied values only
    for quotas that have one)."""
    for operation in ("list_service_quotas", "list_aws_default_service_quotas"):
        for page in quotas.get_paginator(operation).paginate(ServiceCode=service):
            for quota in page["Quotas"]:
                if quota["QuotaName"] == name:
                    return float(quota["Value"])
    return None


def api_checks(config: StageConfig, api: dict[str, float | None]) -> list[Check]:
    checks = []
    for key, name in API_QUOTAS.items():
        have = api[key]
        checks.append(
            Check(
                f"API Gateway account {name.lower()} (requests/s)"
                + (" (not listed by Service Quotas: check it by hand)" if have is None else ""),
                0 if have is None else have,
                getattr(config.throttle, key),
                f"Service Quotas > Amazon API Gateway > {name}",
            )
        )
    return checks


def rush_checks(
    config: StageConfig, limits: dict[str, Any], concurrency: int, api: dict[str, float | None]
) -> list[Check]:
    """The stage's planned rush (`rush_players`) at its top against what serves it."""
    if config.rush_players is None:
        return []
    peak, warm = Peak(config.rush_players), config.warm_throughput
    top = f"rush of {peak.players:,} ({peak.runs:,.0f} runs/s at its top):"
    plan = "infra/stages.json"
    provisioned = config.midnight_capacity.functions if config.midnight_capacity else {}
    reserved = sum(spec.reserved or 0 for spec in FUNCTIONS.values())
    found = [
        Check(
            f"{top} API requests/s, under the stage's throttle and the account's",
            min(config.throttle.rate, api["rate"] or 0),
            peak.api_requests,
            f"`throttle` in {plan}, then Service Quotas > Amazon API Gateway > Throttle rate",
        ),
        Check(
            f"{top} Lambda environments busy, besides the reserved and the 100 unreserved",
            concurrency - reserved - UNRESERVED_MINIMUM,
            sum(peak.concurrency.values()),
            "Service Quotas > AWS Lambda > Concurrent executions",
        ),
        *[
            Check(
                f"{top} {name}'s midnight provisioned concurrency (else Lambda ramps at 1,000 a 10 s)",
                provisioned.get(name, 0),
                need,
                f"`midnight_capacity` in {plan}",
            )
            for name, need in peak.concurrency.items()
        ],
    ]
    for kind, need in (("write", peak.table_writes), ("read", peak.table_reads)):
        found.append(
            Check(
                f"{top} the table's {kind} units/s (its warm throughput, within the per-table quota)",
                min(
                    getattr(warm.table, f"{kind}_units_per_second"),
                    limits[f"TableMax{kind.capitalize()}CapacityUnits"],
                ),
                need,
                f"`warm_throughput` in {plan}, then the per-table {kind} quota",
            )
        )
    for index in INDEX_WRITE_UNITS:
        found.append(
            Check(
                f"{top} the `{index}` index's write units/s (its warm throughput)",
                warm.index(index).write_units_per_second,
                peak.index_writes(index),
                f"`warm_throughput.indexes.{index}` in {plan}",
            )
        )
    found.append(
        Check(
            f"{top} board completions/s ({config.board_shards} board shards)",
            board_completions_bound(config.board_shards),
            peak.runs,
            f'`board_shards` in {plan} (docs/operations.md, "The ten-million night")',
        )
    )
    found.append(
        Check(
            f"{top} completions/s the `due` index's partitions take ({DUE_SHARDS}, two entries a run)",
            DUE_COMPLETIONS_BOUND,
            peak.runs,
            'more due shards (keys.DUE_SHARDS; docs/operations.md, "The ten-million night")',
        )
    )
    return found


def checks(
    config: StageConfig, dynamodb: Any, lambda_: Any, quotas: Any, ses: Any
) -> list[Check | Requirement]:
    limits = dynamodb.describe_limits()
    concurrency = lambda_.get_account_settings()["AccountLimit"]["ConcurrentExecutions"]
    api = {key: _quota(quotas, "apigateway", name) for key, name in API_QUOTAS.items()}
    return [
        *dynamodb_checks(config, limits),
        *lambda_checks(config, concurrency),
        *api_checks(config, api),
        *ses_checks(config, ses),
        *rush_checks(config, limits, concurrency, api),
    ]


def _clients(config: StageConfig) -> tuple[Any, ...]:
    import boto3

    session = boto3.session.Session(region_name=config.region)
    ses_region = config.ses.region if config.ses and config.ses.region else config.region
    return (
        session.client("dynamodb"),
        session.client("lambda"),
        session.client("service-quotas"),
        session.client("sesv2", region_name=ses_region),
    )


def main(argv: Sequence[str] | None = None, clients: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stage", default="dev", help="the stage of infra/stages.json")
    parser.add_argument("--stages-file", type=Path, default=STAGES_FILE)
    args = parser.parse_args(argv)
    entry = json.loads(args.stages_file.read_text()).get(args.stage, {})
    if found_placeholders := placeholders(entry):
        print(
            f"stage {args.stage}: placeholder values in {args.stages_file.name}, replace them with your own: "
            + "; ".join(found_placeholders),
            file=sys.stderr,
        )
        return 1
    config = load_stage(args.stage, args.stages_file)
    from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError

    try:
        found = checks(config, *(clients or _clients(config)))
    except NoCredentialsError:
        print(
            f"preflight: no AWS credentials for {config.region}; sign in (aws sso login, AWS_PROFILE) first",
            file=sys.stderr,
        )
        return 2
    except (BotoCoreError, ClientError) as error:
        print(f"preflight: AWS refused the checks: {error}", file=sys.stderr)
        return 2
    print(f"Quotas and account settings for stage {config.stage} in {config.region}:")
    for check in found:
        print(f"  {check}")
    print(f"  by hand: {BY_HAND}")
    missing = [c for c in found if not c.ok]
    if missing:
        print(f"{len(missing)} to raise or fix before `make deploy STAGE={config.stage}`.")
        return 1
    print("Nothing to raise.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
