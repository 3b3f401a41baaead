"""The calls no single test owns, judged as IAM would (tests/infra/iam_eval.py): the kill
switches' AppConfig reads (shared/runtime/flags.py) against each reader's role, and the suite-wide
record of every function's calls (tests/aws_calls.py): its judging and its hook."""

import json
from typing import Any

import pytest
from botocore.stub import Stubber

from tests.infra.iam_eval import Call, Context, broken_role, denials, recording

pytestmark = pytest.mark.infra


@pytest.fixture(scope="module")
def context(prod: Any) -> Context:
    return Context.of(prod.json, prod.config.region, prod.config.stack_name)


def _switch_readers(prod: Any) -> list[str]:
    return sorted(
        name
        for name, (_, props) in prod.functions.items()
        if "FEATURE_FLAGS_PROFILE" in props["Environment"]["Variables"]
    )


def test_the_kill_switch_reads_are_allowed_by_each_readers_role(prod, context, monkeypatch):
    """shared/runtime/flags.py's reads (a session, then the configuration) with the profile the
    template tells each reader of; a read of another profile, or a role without the read, refused."""
    import io

    from botocore.response import StreamingBody

    from shared.runtime import flags

    readers = _switch_readers(prod)
    assert readers == ["daily", "leaderboard", "moderation"]
    for name in readers:
        logical, props = prod.functions[name]
        variables = props["Environment"]["Variables"]
        profile = tuple(str(context.resolve(variables[v])) for v in flags.APPCONFIG)
        for variable, value in zip(flags.APPCONFIG, profile, strict=True):
            monkeypatch.setenv(variable, value)
        flags.forget()
        client = flags._flags().store._conf_store.client  # type: ignore[union-attr]
        stub = Stubber(client)
        identifiers = dict(
            zip(
                ("ApplicationIdentifier", "EnvironmentIdentifier", "ConfigurationProfileIdentifier"),
                profile,
                strict=True,
            )
        )
        stub.add_response("start_configuration_session", {"InitialConfigurationToken": "t1"}, identifiers)
        body = json.dumps({"leagues": {"default": False}}).encode()
        stub.add_response(
            "get_latest_configuration",
            {
                "Configuration": StreamingBody(io.BytesIO(body), len(body)),
                "NextPollConfigurationToken": "t2",
                "ContentType": "application/json",
            },
            {"ConfigurationToken": "t1"},
        )
        stub.activate()
        with recording(client) as calls:
            assert flags.enabled("leagues") is False  # the stubbed profile read, not a fallback
        stub.assert_no_pending_responses()
        flags.forget()
        assert [c.operation for c in calls] == ["StartConfigurationSession", "GetLatestConfiguration"]
        reader = Context.of(context.template, context.region, context.stack_name)
        reader.appconfig = profile  # type: ignore[assignment]
        assert denials(reader, logical, calls) == [], name
    # A wrong ARN: another profile's reads.
    reader.appconfig = (profile[0], profile[1], "other")
    other = [
        Call(c.service, c.operation, {**c.params, "ConfigurationProfileIdentifier": "other"}) for c in calls
    ]
    assert [r.split(" on ")[0] for r in denials(reader, logical, other)] == [
        "appconfig:StartConfigurationSession",
        "appconfig:GetLatestConfiguration",
    ]
    # A missing action: the role without GetLatestConfiguration.
    reader.appconfig = profile  # type: ignore[assignment]

    def without_read(statement: dict[str, Any]) -> dict[str, Any]:
        actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        return {**statement, "Action": [a for a in actions if a != "appconfig:GetLatestConfiguration"]}

    broken = broken_role(reader, logical, without_read)
    broken.appconfig = profile  # type: ignore[assignment]
    assert [r.split(" on ")[0] for r in denials(broken, logical, calls)] == [
        "appconfig:GetLatestConfiguration"
    ]


def test_the_suite_wide_record_judges_each_call_and_fails_a_function_it_saw_too_little_of(
    prod, context, tmp_path, monkeypatch
):
    """tests/aws_calls.py's judging of a run's records: an allowed call passes, a write outside the
    role's partitions and a call the role lacks are refused, a function with too few calls fails,
    and without a template nothing passes. (The run's own records: judged when a whole run ends.)"""
    from tests import aws_calls

    assert aws_calls.judge(tmp_path) == [
        "no template to judge the calls by: the infra tests did not synthesize it"
    ]
    kept = {"template": prod.json, "region": prod.config.region, "stack_name": prod.config.stack_name}
    (tmp_path / aws_calls.TEMPLATE).write_text(json.dumps(kept))
    monkeypatch.setattr(aws_calls, "MIN_CALLS", {"functions.daily.reset": 1, "functions.reminders.scan": 1})

    def item(operation: str, pk: str) -> dict[str, Any]:
        key = "Item" if operation == "PutItem" else "Key"
        params = {"TableName": "${TABLE_NAME}", key: {"pk": {"S": pk}, "sk": {"S": "x"}}}
        return {"service": "dynamodb", "operation": operation, "params": params}

    calls = {
        "functions.daily.reset": [item("GetItem", "PUZZLE#daily#2026-11-29"), item("PutItem", "COUNT#x")],
        "functions.reminders.send": [item("DeleteItem", "TOP#x")],
    }
    (tmp_path / "calls-gw0.json").write_text(json.dumps(calls))
    problems = aws_calls.judge(tmp_path)
    assert [p.split(" on ")[0] for p in problems] == [
        "functions.daily.reset: dynamodb:PutItem",
        "functions.reminders.scan: 0 calls recorded, fewer than 1",
        "functions.reminders.send: dynamodb:DeleteItem",
    ]


def test_the_hook_records_a_handlers_calls_by_its_function(table):
    """A handler's calls are kept under its module, the table named by its variable."""
    from functions.reminders import scan
    from local.events import LambdaContext
    from tests import aws_calls

    scan.handler({"dry_run": True}, LambdaContext(aws_request_id="scan-dry-run"))
    [query] = [c for c in aws_calls.recorded()["functions.reminders.scan"] if c["operation"] == "Query"][:1]
    assert query["service"] == "dynamodb" and query["params"]["TableName"] == "${TABLE_NAME}"
