"""The jobs' new versions answer a dry run before any traffic shifts to them: each job answers
the dry-run event (functions/dry_run.py) from the real handler on moto, writing nothing; the
pre-traffic hook (infra/lambdas/wordsqd_ops/canary.py) tells CodeDeploy Succeeded only for a
dry run's answer, Failed for an error, a timeout or any other answer, and every call it makes is
allowed by its role in the synthesized template (tests/infra/iam_eval.py)."""

import io
import json
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from functions.daily import closing_piece, expire, reset
from functions.dry_run import KEY, is_dry_run
from functions.leaderboard import counters
from functions.reminders import scan, send
from infra.deploys import DRY_RUN_JOBS
from infra.lambdas.wordsqd_ops import canary
from local.events import LambdaContext
from shared.game import clock
from shared.runtime import wiring
from tests.infra.iam_eval import Context, denials, recording

WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}
HANDLERS = {
    "reset": reset.handler,
    "expire": expire.handler,
    "counters": counters.handler,
    "closing": closing_piece.handler,
    "remind": scan.handler,
    "push": send.handler,
}


def test_the_hook_sends_the_event_the_jobs_read_as_a_dry_run():
    assert canary.DRY_RUN == {KEY: True} and is_dry_run(canary.DRY_RUN)
    assert not is_dry_run({"source": "aws.scheduler"}) and not is_dry_run({KEY: "yes"})
    assert set(HANDLERS) == set(DRY_RUN_JOBS)


@pytest.mark.parametrize("job", sorted(HANDLERS))
def test_each_job_answers_a_dry_run_and_writes_nothing(table, job):
    clock.travel_to(clock.parse_iso("2026-11-29T18:00:00.000Z"))
    with recording(wiring.ports().client) as calls:
        answer = HANDLERS[job]({KEY: True}, LambdaContext(aws_request_id=f"{job}-dry-run"))
    assert answer["dry_run"] is True, answer
    assert not {c.operation for c in calls} & WRITES, calls
    if job != "counters":  # it only starts: its reads need records
        assert calls


def _clients(reply: dict[str, Any] | Exception) -> tuple[dict[str, Any], list[Stubber]]:
    """Stubbed Lambda and CodeDeploy (moto has neither a Lambda runtime without Docker nor
    CodeDeploy's hook status)."""
    lambda_ = boto3.client("lambda", region_name="eu-west-1")
    codedeploy = boto3.client("codedeploy", region_name="eu-west-1")
    stubs = [Stubber(lambda_), Stubber(codedeploy)]
    if isinstance(reply, Exception):
        stubs[0].add_client_error("invoke", "TooManyRequestsException")
    else:
        stubs[0].add_response("invoke", reply)
    return {"lambda": lambda_, "codedeploy": codedeploy}, stubs


def _answer(body: Any, failed: bool = False) -> dict[str, Any]:
    reply = {"StatusCode": 200, "Payload": io.BytesIO(json.dumps(body).encode())}
    return {**reply, "FunctionError": "Unhandled"} if failed else reply


@pytest.mark.parametrize(
    "reply, status",
    [
        (_answer({"dry_run": True, "date": "2026-11-29"}), "Succeeded"),
        (_answer({"errorMessage": "Unable to import module"}, failed=True), "Failed"),
        (_answer({"date": "2026-11-29"}), "Failed"),  # an old handler ran the job itself
        (RuntimeError("throttled"), "Failed"),
    ],
)
def test_the_hook_tells_codedeploy_only_a_dry_runs_answer_succeeded(monkeypatch, reply, status):
    monkeypatch.setenv("TARGET", "arn:aws:lambda:eu-west-1:111111111111:function:reset:7")
    clients, stubs = _clients(reply)
    expected = {"deploymentId": "d-1", "lifecycleEventHookExecutionId": "h-1", "status": status}
    stubs[1].add_response("put_lifecycle_event_hook_execution_status", {}, expected)
    for stub in stubs:
        stub.activate()
    event = {"DeploymentId": "d-1", "LifecycleEventHookExecutionId": "h-1"}
    assert canary.handler(event, None, clients) == status
    for stub in stubs:
        stub.assert_no_pending_responses()


@pytest.mark.infra
@pytest.mark.parametrize("job", DRY_RUN_JOBS)
def test_the_hooks_role_allows_each_call_it_makes(prod, monkeypatch, job):
    context = Context.of(prod.json, prod.config.region, prod.config.stack_name)
    resources = prod.json["Resources"]
    [hook] = [
        k
        for k, r in resources.items()
        if r["Type"] == "AWS::Lambda::Function"
        and r["Properties"].get("Handler") == "wordsqd_ops.canary.handler"
        and k.startswith(f"Deploys{job.capitalize()}")
    ]
    target = resources[hook]["Properties"]["Environment"]["Variables"]["TARGET"]
    monkeypatch.setenv("TARGET", context.resolve(target))
    [group] = [
        k
        for k, r in resources.items()
        if r["Type"] == "AWS::CodeDeploy::DeploymentGroup" and k.startswith(f"Deploys{job.capitalize()}")
    ]
    application = resources[group]["Properties"]["ApplicationName"]
    context.deployments["d-1"] = f"{context.resolve(application)}/{context.physical(group)}"
    clients, stubs = _clients(_answer({"dry_run": True}))
    stubs[1].add_response("put_lifecycle_event_hook_execution_status", {})
    for stub in stubs:
        stub.activate()
    with recording(*clients.values()) as calls:
        assert canary.handler({"DeploymentId": "d-1", "LifecycleEventHookExecutionId": "h"}, None, clients)
    assert len(calls) == 2 and denials(context, hook, calls) == []
