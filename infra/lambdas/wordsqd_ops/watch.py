"""Scheduled checks of what no service metric shows, each published as a metric of
NAMESPACE (dimension Stage) that an alarm of infra/watch.py watches:

- `deploys` (23:45 Central, the freeze's start): DeployInProgress, the stack's update or a
  CodeDeploy deployment of any of the stack's groups (DEPLOYMENT_GROUPS: ListDeployments takes an
  application only with a group) still running when no deploy may run;
- `capacity` (a minute after the capacity window opens): CapacityMissing, the planned aliases
  whose provisioned concurrency was not raised (a failed scheduled action: Application Auto
  Scaling sends no event for it);
- `leftover` (hourly): CapacityLeftOn, aliases holding more than the idle floor outside the window
  (billed by the hour whether used or not);
- `storage` (hourly): CodeStoragePercent, the account's Lambda code storage against its quota;
- `reset` (00:10 Central): ResetMissing, no successful reset invocation since 00:00 (the schedule
  did not fire, or every attempt failed);
- `retention` (daily): CanaryLogsKept, the Synthetics canaries (CANARIES) whose log group now has
  the stage's retention (CANARY_LOG_DAYS). Synthetics makes each canary's group itself, on its
  first run, under a name with the canary's id, which no template can name.
"""

import json
import os
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from .window import blocked_until

NAMESPACE = "WordSQD/Operations"
RESET_LOOKBACK = timedelta(minutes=11)  # the check runs at 00:10: the reset's whole first ten minutes
ACTIVE_DEPLOYMENTS = ["Created", "Queued", "InProgress", "Baking", "Ready"]


def deploys_in_progress(stack_status: str, deployments: list[str]) -> int:
    """Deploys still running: the stack's update (any *_IN_PROGRESS) and CodeDeploy's."""
    return int(stack_status.endswith("_IN_PROGRESS")) + len(deployments)


def capacity_missing(configs: Mapping[str, dict[str, Any] | None], plan: Mapping[str, int]) -> list[str]:
    """The functions whose alias was not asked for its planned provisioned concurrency, or whose
    allocation failed (CONFIGS: GetProvisionedConcurrencyConfig's answer, None when there is none)."""
    return sorted(
        name
        for name, count in plan.items()
        if (config := configs.get(name)) is None
        or config.get("RequestedProvisionedConcurrentExecutions", 0) < count
        or config.get("Status") == "FAILED"
    )


def left_on(configs: Mapping[str, dict[str, Any] | None], idle: int) -> list[str]:
    """The functions whose alias holds more than IDLE environments."""
    return sorted(
        name
        for name, config in configs.items()
        if config and config.get("RequestedProvisionedConcurrentExecutions", 0) > idle
    )


def storage_percent(settings: Mapping[str, Any]) -> float:
    """The account's code storage used, in percent of its quota (GetAccountSettings)."""
    return 100 * settings["AccountUsage"]["TotalCodeSize"] / settings["AccountLimit"]["TotalCodeSize"]


def reset_missing(invocations: list[float], errors: list[float]) -> int:
    """1 when the reset's invocations since midnight, less its errors, are not one success."""
    return int(sum(invocations) - sum(errors) < 1)


def _reset_series(
    cloudwatch: Any, function: str, alias: str, now: datetime
) -> tuple[list[float], list[float]]:
    dimensions = [
        {"Name": "FunctionName", "Value": function},
        {"Name": "Resource", "Value": f"{function}:{alias}"},
    ]
    queries = [
        {
            "Id": name.lower(),
            "MetricStat": {
                "Metric": {"Namespace": "AWS/Lambda", "MetricName": name, "Dimensions": dimensions},
                "Period": 60,
                "Stat": "Sum",
            },
        }
        for name in ("Invocations", "Errors")
    ]
    found = cloudwatch.get_metric_data(
        MetricDataQueries=queries, StartTime=now - RESET_LOOKBACK, EndTime=now
    )["MetricDataResults"]
    values = {r["Id"]: [float(v) for v in r["Values"]] for r in found}
    return values.get("invocations", []), values.get("errors", [])


def _running(codedeploy: Any, application: str, groups: list[str]) -> list[str]:
    """The deployments of APPLICATION's GROUPS not yet ended."""
    found: list[str] = []
    for group in groups:
        pages = codedeploy.get_paginator("list_deployments").paginate(
            applicationName=application, deploymentGroupName=group, includeOnlyStatuses=ACTIVE_DEPLOYMENTS
        )
        found += [d for page in pages for d in page["deployments"]]
    return found


def _keep_canary_logs(clients: Mapping[str, Any], canaries: list[str], days: int) -> int:
    """Set DAYS of retention on each canary's log group (`/aws/lambda/<its engine function>`);
    how many were set (a canary that never ran has no group yet)."""
    kept = 0
    for name in canaries:
        engine = clients["synthetics"].get_canary(Name=name)["Canary"].get("EngineArn")
        if not engine:
            continue
        group = f"/aws/lambda/{engine.split(':')[6]}"
        try:
            clients["logs"].put_retention_policy(logGroupName=group, retentionInDays=days)
        except clients["logs"].exceptions.ResourceNotFoundException:
            continue
        kept += 1
    return kept


def _configs(lambda_: Any, functions: Mapping[str, str], alias: str) -> dict[str, dict[str, Any] | None]:
    found: dict[str, dict[str, Any] | None] = {}
    for name, function in functions.items():
        try:
            found[name] = lambda_.get_provisioned_concurrency_config(FunctionName=function, Qualifier=alias)
        except lambda_.exceptions.ProvisionedConcurrencyConfigNotFoundException:
            found[name] = None
    return found


def measure(
    check: str, env: Mapping[str, str], clients: Mapping[str, Any], now: datetime
) -> dict[str, float]:
    """The metrics CHECK publishes at NOW, read with CLIENTS (boto3 clients by service name)."""
    functions: dict[str, str] = json.loads(env["FUNCTIONS"])
    plan: dict[str, int] = json.loads(env["PLAN"])
    if check == "deploys":
        [stack] = clients["cloudformation"].describe_stacks(StackName=env["STACK_NAME"])["Stacks"]
        running = _running(clients["codedeploy"], env["APPLICATION"], json.loads(env["DEPLOYMENT_GROUPS"]))
        return {"DeployInProgress": deploys_in_progress(stack["StackStatus"], running)}
    if check == "capacity":
        configs = _configs(clients["lambda"], {n: functions[n] for n in plan}, env["ALIAS"])
        return {"CapacityMissing": len(capacity_missing(configs, plan))}
    if check == "leftover":
        if blocked_until(env["WINDOW_START"], env["WINDOW_END"], now, timedelta(0)):
            return {"CapacityLeftOn": 0}  # inside the window (and its margins) capacity is meant to be on
        configs = _configs(clients["lambda"], {n: functions[n] for n in plan}, env["ALIAS"])
        return {"CapacityLeftOn": len(left_on(configs, int(env["IDLE"])))}
    if check == "reset":
        invocations, errors = _reset_series(clients["cloudwatch"], env["RESET_FUNCTION"], env["ALIAS"], now)
        return {"ResetMissing": reset_missing(invocations, errors)}
    if check == "retention":
        return {
            "CanaryLogsKept": _keep_canary_logs(
                clients, json.loads(env["CANARIES"]), int(env["CANARY_LOG_DAYS"])
            )
        }
    if check == "storage":
        return {"CodeStoragePercent": storage_percent(clients["lambda"].get_account_settings())}
    raise ValueError(f"no such check {check!r}")


def handler(
    event: dict[str, Any], context: object, clients: Mapping[str, Any] | None = None
) -> dict[str, float]:
    if clients is None:
        import boto3

        services = ("cloudformation", "codedeploy", "lambda", "cloudwatch", "synthetics", "logs")
        clients = {s: boto3.client(s) for s in services}
    values = measure(event["check"], os.environ, clients, datetime.now(UTC))
    clients["cloudwatch"].put_metric_data(
        Namespace=NAMESPACE,
        MetricData=[
            {
                "MetricName": name,
                "Dimensions": [{"Name": "Stage", "Value": os.environ["STAGE"]}],
                "Value": value,
            }
            for name, value in values.items()
        ],
    )
    print(json.dumps({"check": event["check"], **values}))
    return values
