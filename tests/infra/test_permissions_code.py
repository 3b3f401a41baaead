"""infra/permissions.py against the data layer's real calls (no synth).

Reads the source of the modules that talk to DynamoDB (shared/dynamo/*.py) and collects every
operation they send: `call("op", ...)` / `request("op", ...)` / `client.op(...)` / the Client's helpers
(`db.get(...)`...), and the kinds of
the items of their transactions (`{"Put": ...}`, `{"Update": ...}`, `{"Delete": ...}`,
`{"ConditionCheck": ...}`, which IAM checks as PutItem, UpdateItem, DeleteItem,
ConditionCheckItem), and every index they query.

What it proves: every action ACCESS grants is sent by the data layer somewhere, every operation
the data layer sends is granted to some function, and the indexes granted are exactly those
queried. What it does not prove: that each function's own code paths need exactly its list (that
needs a call graph; the per-function comments in infra/permissions.py name the calls, and the
template tests check the roles are exactly ACCESS).
"""

import re
from pathlib import Path

import pytest

from infra.permissions import ACCESS
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.table import INDEXES
from tests.fakes.fake_store import complete_official
from tests.infra.test_permissions_routes import role_denials

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_LAYER = sorted((REPO_ROOT / "shared" / "dynamo").glob("*.py"))
CODE = sorted(p for d in ("shared", "functions") for p in (REPO_ROOT / d).rglob("*.py"))

# boto3's snake_case operation -> IAM action
OPERATIONS = {
    "get_item": "GetItem",
    "batch_get_item": "BatchGetItem",
    "put_item": "PutItem",
    "update_item": "UpdateItem",
    "delete_item": "DeleteItem",
    "query": "Query",
    "scan": "Scan",
    "batch_write_item": "BatchWriteItem",
    "describe_table": "DescribeTable",
}
TRANSACTION_ITEMS = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
}


def _sent(text: str) -> set[str]:
    called = set(re.findall(r"\b(?:call|request)\(\s*\"([a-z_]+)\"", text))
    called |= set(re.findall(r"client\.([a-z_]+)\(", text))
    # the Client's helpers (shared/dynamo/client.py), which the parts call on `db`
    helpers = {
        "get": "get_item",
        "batch_get": "batch_get_item",
        "batch_delete": "batch_write_item",
        "query": "query",
        "query_page": "query",
    }
    called |= {op for helper, op in helpers.items() if re.search(rf"\bdb\.{helper}\(", text)}
    actions = {OPERATIONS[op] for op in called if op in OPERATIONS}
    if "transact_write_items" in called or re.search(r"\bdb\.transact\(", text):
        actions |= {
            TRANSACTION_ITEMS[kind]
            for kind in re.findall(r"\{\s*\"(Put|Update|Delete|ConditionCheck)\":", text)
        }
    return actions


def _queried_indexes(text: str) -> set[str]:
    return set(re.findall(r"IndexName\"?\s*[=:]\s*\"([A-Za-z0-9_-]+)\"", text))


def _declared() -> set[str]:
    return {
        a.removeprefix("dynamodb:")
        for access in ACCESS.values()
        if access.table
        for a in access.table.actions()
    }


def test_every_granted_table_action_is_sent_by_the_data_layer_and_every_sent_one_is_granted():
    assert DATA_LAYER, "no shared/dynamo*.py"
    sent = set().union(*(_sent(path.read_text()) for path in DATA_LAYER))
    assert {"GetItem", "PutItem", "Query"} <= sent  # the scan found the calls at all
    assert _declared() == sent


def test_no_code_scans_the_table_and_batch_writes_only_delete():
    """A batch write has no condition: only deletes of items written once and never changed (the
    top's inbox items) or that go for good (an erased player's), never a put that could overwrite,
    but for one: the erasure's tombstone, whose purpose is to overwrite whatever the profile
    holds, put after every run of the player is gone (docs/players.md)."""
    for path in CODE:
        text = path.read_text()
        assert not _sent(text) & {"Scan", "DescribeTable"}, path
        if '"batch_write_item"' in text:  # (the Client's batch_delete: the parts' only batch write)
            assert "DeleteRequest" in text, path
            assert "PutRequest" not in text or path.name == "client.py", path
    putting = [path.relative_to(REPO_ROOT).as_posix() for path in CODE if "puts=" in path.read_text()]
    assert putting == ["shared/dynamo/player_data.py"]
    assert "puts=[tombstone_item(player, profile)]" in (REPO_ROOT / putting[0]).read_text()


def test_granted_indexes_are_the_queried_ones_and_exist_in_the_table():
    queried = set().union(*(_queried_indexes(path.read_text()) for path in DATA_LAYER))
    granted = {i for access in ACCESS.values() if access.table for i in access.table.indexes}
    assert queried and granted == queried
    assert granted <= set(INDEXES)


@pytest.mark.infra
def test_the_counters_are_granted_every_request_they_send_seeding_a_top_item_included(prod):
    """What the union check above cannot see: one function's own requests. The stream consumer
    counts a batch into a board that has rows but no top item yet (the first fold seeds it from
    the `board` index), then another batch; every request it sends must be in its own grant."""
    import os

    import boto3
    from moto import mock_aws

    from shared.dynamo.store import dynamo_ports
    from shared.dynamo.table import create_table_request
    from shared.game.scope import Scope
    from tests.fakes.fake_boards import official

    day = "2026-01-15"
    sent: set[tuple[str, str | None]] = set()
    requests: list[tuple[str, dict]] = []
    with mock_aws():
        boto3.client("dynamodb").create_table(**create_table_request(os.environ["TABLE_NAME"]))
        store = dynamo_ports(os.environ["TABLE_NAME"], sleep=lambda seconds: None, board_shards=BOARD_SHARDS)
        store.top.interval = 0
        earlier = [
            official(f"e{i}", 100 + 5 * i, completed_at=f"{day}T06:00:0{i}.000Z", day=day) for i in range(3)
        ]
        for result in earlier:
            complete_official(store, result)
        late = official("late", 500, completed_at=f"{day}T06:01:00.000Z", day=day)
        complete_official(store, late)

        def record(params: dict, model: object, **_: object) -> None:
            sent.add((model.name, params.get("IndexName")))  # type: ignore[attr-defined]
            requests.append((model.name, dict(params)))  # type: ignore[attr-defined]

        store.client.meta.events.register("provide-client-params.dynamodb", record)
        store.ranks.count_official(earlier)  # the first fold: no top item yet, seeded from the index
        store.ranks.count_official([late])
        assert [e.player for e in store.boards.board_page(Scope.daily(day), None, 10)][0] == late.player

    access = ACCESS["counters"].table
    assert access is not None
    granted = {a.removeprefix("dynamodb:") for a in access.actions()}
    for operation, index in sent:
        assert operation in granted | {"TransactWriteItems"}, operation  # a transaction: its items
        if operation == "Query":
            assert (index in access.indexes) if index else bool(access.own_partition_queries), index
    assert ("Query", "board") in sent  # the seeding was exercised
    assert role_denials(prod, "counters", requests) == []  # and the role as synthesized allows each


def test_only_the_moderation_functions_role_may_write_or_delete_the_audit_log():
    """SPEC §3e: the audit log is never changed through the API; IAM lets no other role touch it.
    Every other role that writes the table has its writes limited to partition keys none of which
    matches MODLOG (dynamodb:LeadingKeys), and BatchWriteItem (a delete) is never granted on it."""
    from fnmatch import fnmatchcase

    from infra.permissions import AUDIT_LOG

    writers = {
        name
        for name, access in ACCESS.items()
        if access.table
        and access.table.writes
        and (
            not access.table.write_leading_keys
            or any(fnmatchcase(AUDIT_LOG, key) for key in access.table.write_leading_keys)
        )
    }
    assert writers == {"moderation"}
