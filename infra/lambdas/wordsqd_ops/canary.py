"""CodeDeploy's pre-traffic hook of a job (reset, expire, counters): before any traffic shifts to
the job's new version (TARGET, a version ARN), invoke it once with the dry-run event
(functions/dry_run.py) and tell CodeDeploy whether it answered one: a version that fails its
start, its reads or its answer fails the deployment, which rolls back. The jobs' own calls are
too rare for the canary's 5 minutes to judge (the reset runs at midnight, when no deploy may)."""

import json
import os
from collections.abc import Mapping
from typing import Any

DRY_RUN = {"dry_run": True}


def answered(reply: Mapping[str, Any]) -> str | None:
    """Why Lambda's REPLY to the dry run is not a dry run's answer, or None when it is."""
    body = reply["Payload"].read()
    if "FunctionError" in reply:
        return f"the version failed: {body[:500]!r}"
    try:
        answer = json.loads(body)
    except ValueError:
        return f"not JSON: {body[:500]!r}"
    if not isinstance(answer, dict) or answer.get("dry_run") is not True:
        return f"not a dry run's answer: {body[:500]!r}"
    return None


def handler(event: dict[str, Any], context: object, clients: Mapping[str, Any] | None = None) -> str:
    if clients is None:
        import boto3
        from botocore.config import Config

        once = Config(
            read_timeout=50, connect_timeout=5, retries={"total_max_attempts": 1, "mode": "standard"}
        )
        clients = {"lambda": boto3.client("lambda", config=once), "codedeploy": boto3.client("codedeploy")}
    target = os.environ["TARGET"]
    try:
        reply = clients["lambda"].invoke(FunctionName=target, Payload=json.dumps(DRY_RUN).encode())
        failure = answered(reply)
    except Exception as error:  # an answer is owed whatever happens
        failure = f"could not invoke: {error!r}"
    status = "Failed" if failure else "Succeeded"
    print(json.dumps({"target": target, "status": status, "failure": failure}))
    clients["codedeploy"].put_lifecycle_event_hook_execution_status(
        deploymentId=event["DeploymentId"],
        lifecycleEventHookExecutionId=event["LifecycleEventHookExecutionId"],
        status=status,
    )
    return status
