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
  must be at least the stage's, or the stage's own limit never applies.
"""

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infra.config import REPO_ROOT, STAGES_FILE, StageConfig  # noqa: E402
from infra.functions import FUNCTIONS  # noqa: E402

# Lambda refuses to reserve (or provision) below this many unreserved executions.
UNRESERVED_MINIMUM = 100
API_QUOTAS = {"rate": "Throttle rate", "burst": "Throttle burst rate"}


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


def dynamodb_checks(config: StageConfig, dynamodb: Any) -> list[Check]:
    limits = dynamodb.describe_limits()
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


def lambda_checks(config: StageConfig, lambda_: Any) -> list[Check]:
    limit = lambda_.get_account_settings()["AccountLimit"]["ConcurrentExecutions"]
    reserved = sum(spec.reserved or 0 for spec in FUNCTIONS.values())
    provisioned = sum(config.midnight_capacity.functions.values()) if config.midnight_capacity else 0
    return [
        Check(
            f"Lambda concurrent executions (reserved {reserved} + midnight provisioned {provisioned}"
            f" + {UNRESERVED_MINIMUM} unreserved)",
            limit,
            reserved + provisioned + UNRESERVED_MINIMUM,
            "Service Quotas > AWS Lambda > Concurrent executions",
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


def api_checks(config: StageConfig, quotas: Any) -> list[Check]:
    checks = []
    for key, name in API_QUOTAS.items():
        have = _quota(quotas, "apigateway", name)
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


def checks(config: StageConfig, dynamodb: Any, lambda_: Any, quotas: Any) -> list[Check]:
    return [*dynamodb_checks(config, dynamodb), *lambda_checks(config, lambda_), *api_checks(config, quotas)]


def load_stage(stage: str, stages_file: Path = STAGES_FILE) -> StageConfig:
    # The asset plays no part in quotas: the repository root stands in for it.
    return StageConfig.load(stage, json.loads(stages_file.read_text()), REPO_ROOT)


def main(argv: Sequence[str] | None = None, clients: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stage", default="dev", help="the stage of infra/stages.json")
    parser.add_argument("--stages-file", type=Path, default=STAGES_FILE)
    args = parser.parse_args(argv)
    config = load_stage(args.stage, args.stages_file)
    if clients is None:
        import boto3

        session = boto3.session.Session(region_name=config.region)
        clients = (session.client("dynamodb"), session.client("lambda"), session.client("service-quotas"))
    found = checks(config, *clients)
    print(f"Quotas for stage {config.stage} in {config.region}:")
    for check in found:
        print(f"  {check}")
    missing = [c for c in found if not c.ok]
    if missing:
        print(f"{len(missing)} quota(s) to raise before `make deploy STAGE={config.stage}`.")
        return 1
    print("Nothing to raise.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
