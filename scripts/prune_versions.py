"""Delete a stage's old Lambda versions, keeping the newest KEEP of each function and every
version an alias serves (its version, and the one a canary's weight points at).

    python scripts/prune_versions.py --stage prod [--keep 5] [--dry-run]

Every deploy publishes a version of each function (about 54 MB of code each time, counted
against the account's 75 GB code storage) and the stack retains the old ones for rollbacks;
`make deploy` and the pipeline run this after the deploy. The CodeStorage alarm fires at half the
quota if it is skipped.
"""

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

STAGES_FILE = Path(__file__).resolve().parents[1] / "infra" / "stages.json"

KEEP = 5  # rollback reaches back this many deploys


def to_delete(versions: Iterable[str], aliased: Iterable[str], keep: int = KEEP) -> list[str]:
    """The numbered VERSIONS older than the newest KEEP, except any an alias serves (ALIASED)."""
    numbered = sorted((int(v) for v in versions if v.isdigit()), reverse=True)
    protected = {int(v) for v in aliased if v.isdigit()}
    return [str(v) for v in sorted(numbered[keep:]) if v not in protected]


def served(aliases: Iterable[dict[str, Any]]) -> set[str]:
    """Versions the aliases serve: each alias's version and its routing config's extra weights."""
    found = set()
    for alias in aliases:
        found.add(alias["FunctionVersion"])
        found.update((alias.get("RoutingConfig") or {}).get("AdditionalVersionWeights", {}))
    return found


def stack_functions(cloudformation: Any, stack: str) -> list[str]:
    pages = cloudformation.get_paginator("list_stack_resources").paginate(StackName=stack)
    return [
        r["PhysicalResourceId"]
        for page in pages
        for r in page["StackResourceSummaries"]
        if r["ResourceType"] == "AWS::Lambda::Function"
    ]


def prune(lambda_: Any, function: str, keep: int, dry_run: bool) -> list[str]:
    versions = [
        v["Version"]
        for page in lambda_.get_paginator("list_versions_by_function").paginate(FunctionName=function)
        for v in page["Versions"]
    ]
    aliases = [
        a
        for page in lambda_.get_paginator("list_aliases").paginate(FunctionName=function)
        for a in page["Aliases"]
    ]
    doomed = to_delete(versions, served(aliases), keep)
    if not dry_run:
        for version in doomed:
            lambda_.delete_function(FunctionName=function, Qualifier=version)
    return doomed


def main(argv: Sequence[str] | None = None, clients: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stage", default="dev")
    parser.add_argument("--keep", type=int, default=KEEP)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    if clients is None:
        import boto3

        region = json.loads(STAGES_FILE.read_text())[args.stage].get("region", "us-east-1")
        session = boto3.session.Session(region_name=region)
        clients = (session.client("cloudformation"), session.client("lambda"))
    cloudformation, lambda_ = clients
    for function in stack_functions(cloudformation, f"WordSQD-{args.stage}"):
        doomed = prune(lambda_, function, args.keep, args.dry_run)
        verb = "would delete" if args.dry_run else "deleted"
        print(f"{function}: {verb} {len(doomed)} version(s) {', '.join(doomed)}".rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
