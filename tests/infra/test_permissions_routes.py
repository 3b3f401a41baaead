"""Each function's real requests against its own grant (infra/permissions.py ACCESS), as IAM would
judge them: the action, the index a Query names, and for a grant with `dynamodb:LeadingKeys` the
partition key of every item written (a transaction's items and a batch's one by one) and of every
base-table Query.

The functions run their routes through their real handlers on in-process moto with the real
store (tests/conftest.py `table`): `daily` a guest Daily, a player's Daily to its completion and a
challenge; `expire` the completion of runs left to time out; `leaderboard` boards, ranks, the
profile and a rename; `reset` the midnight job. (The stream consumer has its own test in
test_permissions_code.py.) So a guest route's function (`daily`) is shown to write only runs,
puzzles, challenges and players' items, never the rank counters, the top of a board or the name
claims. Each test also judges the same requests against the function's role in the synthesized
template as IAM would (tests/infra/iam_eval.py): the grant as deployed, not only as declared.
"""

import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fnmatch import fnmatchcase
from typing import Any

import pytest

from functions.daily import expire, reset
from functions.daily.handler import handler as daily_handler
from functions.leaderboard.handler import handler as leaderboard_handler
from infra.permissions import ACCESS, CLOSING_ACCESS, TableAccess
from local.events import LambdaContext
from shared.game import clock
from shared.runtime import wiring
from tests.conftest import Api
from tests.infra.iam_eval import Call, Context, denials
from tests.play import play_out

daily = Api(daily_handler)
leaderboard = Api(leaderboard_handler)

KEY = {"Idempotency-Key": "retry-key-0001"}  # a creation's, for safe retries
WRITES = ("PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem")


def _written(operation: str, params: dict[str, Any]) -> list[tuple[str, str]]:
    """(IAM action, partition key) of every item the request writes."""
    if operation == "PutItem":
        return [("PutItem", params["Item"]["pk"]["S"])]
    if operation in ("UpdateItem", "DeleteItem"):
        return [(operation, params["Key"]["pk"]["S"])]
    if operation == "TransactWriteItems":
        found = []
        for item in params["TransactItems"]:
            [(kind, body)] = item.items()
            key = body["Item"] if kind == "Put" else body["Key"]
            found.append(({"ConditionCheck": "ConditionCheckItem"}.get(kind, f"{kind}Item"), key["pk"]["S"]))
        return found
    if operation == "BatchWriteItem":
        found = []
        for requests in params["RequestItems"].values():
            for request in requests:
                key = (
                    request["DeleteRequest"]["Key"]
                    if "DeleteRequest" in request
                    else request["PutRequest"]["Item"]
                )
                found.append(("BatchWriteItem", key["pk"]["S"]))
        return found
    return []


def _queried(params: dict[str, Any]) -> str:
    [name] = re.findall(r"\bpk\s*=\s*(:\w+)", params["KeyConditionExpression"])
    return params["ExpressionAttributeValues"][name]["S"]


@contextmanager
def recording() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    sent: list[tuple[str, dict[str, Any]]] = []

    def hook(params: dict[str, Any], model: Any, **_: Any) -> None:
        sent.append((model.name, params))

    client = wiring.ports().client
    client.meta.events.register("provide-client-params.dynamodb", hook)
    try:
        yield sent
    finally:
        client.meta.events.unregister("provide-client-params.dynamodb", hook)


def denied(access: TableAccess, sent: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """What IAM would refuse of SENT under ACCESS, in words (empty: every request allowed)."""
    refused = []
    actions = {a.removeprefix("dynamodb:") for a in access.actions()}

    def leading(pk: str, patterns: tuple[str, ...]) -> bool:
        return not patterns or any(fnmatchcase(pk, p) for p in patterns)

    for operation, params in sent:
        index = params.get("IndexName")
        if operation == "Query":
            if index:
                if index not in access.indexes:
                    refused.append(f"Query on index {index}")
            elif not access.own_partition_queries or not leading(
                _queried(params), access.own_partition_queries
            ):
                refused.append(f"Query on the table's partition {_queried(params)}")
            continue
        if operation in WRITES:
            items = _written(operation, params)
        else:
            if operation not in actions:
                refused.append(operation)
            continue
        for action, pk in items:
            if action not in actions:
                refused.append(f"{action} ({pk})")
            elif not leading(pk, access.write_leading_keys):
                refused.append(f"{action} on {pk}, outside {access.write_leading_keys}")
    return refused


def role_denials(template: Any, function: str, sent: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """What IAM would refuse of SENT under FUNCTION's role in TEMPLATE (a synthesized stage)."""
    table, _ = template.only("AWS::DynamoDB::Table")
    context = Context.of(
        template.json, template.config.region, template.config.stack_name, **{table: os.environ["TABLE_NAME"]}
    )
    return denials(context, template.functions[function][0], [Call("dynamodb", op, p) for op, p in sent])


def _partitions(sent: list[tuple[str, dict[str, Any]]]) -> set[str]:
    return {pk.split("#", 1)[0] + "#" for op, params in sent for _, pk in _written(op, params)}


@pytest.fixture
def game(table: str) -> Iterator[Callable[[], None]]:
    clock.travel_to(clock.parse_iso("2026-11-29T18:00:00.000Z"))
    yield lambda: None


@pytest.mark.infra
def test_daily_guest_and_player_routes_stay_inside_the_daily_grant(game, prod):
    access = ACCESS["daily"].table
    assert access is not None and access.write_leading_keys
    with recording() as sent:
        guest = daily("POST", "/guest/daily/runs")[1]
        play_out(daily, guest)
        assert daily("GET", f"/guest/runs/{guest['run_id']}")[0] == 200
        guest_writes = _partitions(sent)
        player = daily("POST", "/daily/runs", user="ann")[1]
        assert play_out(daily, player, "ann")["official"] is True
        keyed = {"body": {"rounds": 5, "forbidden_rounds": 1}, "user": "ann", "headers": KEY}
        challenge = daily("POST", "/challenges", **keyed)[1]
        assert daily("POST", "/challenges", **keyed)[1] == challenge  # a resend: the record read
        assert daily("POST", "/challenges", **{**keyed, "body": {}})[0] == 422
        run = daily("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")[1]
        play_out(daily, run, "bob")
        assert daily("GET", f"/challenges/{challenge['challenge_id']}")[0] == 200
    assert denied(access, sent) == [] and role_denials(prod, "daily", sent) == []
    # A guest writes its run (and the day's puzzle the first time), nothing of anyone else's.
    assert guest_writes <= {"RUN#", "PUZZLE#"}
    assert {"COUNT#", "TOP#", "NAME#"}.isdisjoint(_partitions(sent))


@pytest.mark.infra
def test_expire_completes_timed_out_runs_inside_its_grant(game, prod, monkeypatch):
    access = ACCESS["expire"].table
    assert access is not None and access.write_leading_keys
    daily("POST", "/daily/runs", user="ann")
    challenge = daily("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 1}, user="ann")[1]
    daily("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")
    clock.advance(400)
    monkeypatch.setattr(expire, "run_pieces_here", lambda service: 0)  # the closing pass's workers'
    with recording() as sent:
        summary = expire.handler({"source": "aws.scheduler"}, LambdaContext(aws_request_id="expire"))
    assert summary["runs_completed"] >= 2, summary
    assert denied(access, sent) == [] and role_denials(prod, "expire", sent) == []
    assert {"COUNT#", "TOP#", "NAME#"}.isdisjoint(_partitions(sent))


@pytest.mark.infra
def test_a_challenges_closing_pass_and_its_final_board_stay_inside_their_grants(game, prod, monkeypatch):
    challenge = daily("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 1}, user="ann")[1]
    play_out(daily, daily("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")[1], "bob")
    expire.handler({"source": "aws.scheduler"}, LambdaContext(aws_request_id="expire"))
    clock.advance(8 * 24 * 3600 + 3600)  # the challenge closed over a day ago: its pass; then final
    monkeypatch.setattr(expire, "run_pieces_here", lambda service: 0)  # the closing pass's workers'
    with recording() as sent:
        expire.handler({"source": "aws.scheduler"}, LambdaContext(aws_request_id="expire"))
    queried = {
        _queried(params).split("#", 1)[0] + "#"
        for op, params in sent
        if op == "Query" and "IndexName" not in params
    }
    assert "CLOSING#" in queried  # the index read
    assert denied(ACCESS["expire"].table, sent) == [] and role_denials(prod, "expire", sent) == []
    closing = expire.closing_pass()
    with recording() as sent:
        closing.queue.drain(closing.run)
    assert "MODPASS#" in _partitions(sent) and denied(CLOSING_ACCESS, sent) == []  # the pass run
    with recording() as sent:
        status, view = daily("GET", f"/challenges/{challenge['challenge_id']}")[:2]
    assert status == 200 and view["status"] == "final"
    assert "MODFINAL#" in _partitions(sent) and denied(ACCESS["daily"].table, sent) == []
    assert role_denials(prod, "daily", sent) == []


@pytest.mark.infra
def test_leaderboard_and_reset_routes_stay_inside_their_grants(game, prod):
    player = daily("POST", "/daily/runs", user="ann")[1]
    play_out(daily, player, "ann")
    with recording() as sent:
        for path in ("/leaderboard/daily", "/leaderboard/daily/me", "/me", "/me/history"):
            assert leaderboard("GET", path, user="ann")[0] in (200, 404), path
        assert leaderboard("PUT", "/me", {"display_name": "Annie"}, user="ann")[0] == 200
        for name in ("Sh1t Crew", "Office", "Office"):  # refused (the key freed), made, replayed
            leaderboard("POST", "/leagues", {"name": name}, user="ann", headers=KEY)
    assert "IDEMPOTENCY#" in _partitions(sent)
    assert denied(ACCESS["leaderboard"].table, sent) == [] and role_denials(prod, "leaderboard", sent) == []
    clock.advance(13 * 3600)  # past Central midnight: a new Daily to store
    with recording() as sent:
        reset.handler({"source": "aws.scheduler"}, LambdaContext(aws_request_id="reset"))
    assert sent and denied(ACCESS["reset"].table, sent) == [] and role_denials(prod, "reset", sent) == []


def test_the_check_refuses_a_write_outside_the_leading_keys():
    access = TableAccess(writes=("PutItem",), write_leading_keys=("RUN#*",))
    put = ("PutItem", {"Item": {"pk": {"S": "COUNT#daily#2026-11-29"}, "sk": {"S": "X"}}})
    assert denied(access, [put]) == ["PutItem on COUNT#daily#2026-11-29, outside ('RUN#*',)"]


@pytest.mark.infra
def test_the_role_refuses_a_write_outside_its_leading_keys_and_an_index_not_granted(prod):
    table = os.environ["TABLE_NAME"]
    put = ("PutItem", {"TableName": table, "Item": {"pk": {"S": "COUNT#daily#2026-11-29"}, "sk": {"S": "X"}}})
    query = ("Query", {"TableName": table, "IndexName": "due", "KeyConditionExpression": "x = :x"})
    own = ("PutItem", {"TableName": table, "Item": {"pk": {"S": "RUN#1"}, "sk": {"S": "X"}}})
    refused = role_denials(prod, "daily", [put, query, own])
    assert len(refused) == 2 and refused[0].startswith("dynamodb:PutItem") and "index/due" in refused[1]
