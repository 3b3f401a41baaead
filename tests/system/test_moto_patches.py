"""The embedded store's rollback (local/moto_patches.py): a cancelled transaction copies and puts
back only the items it touched, where moto's own copies the whole table and puts the copy back in
its place. The tests run on the patched backend (tests/conftest.py); moto's own is kept as
MOTO_TRANSACT_WRITE_ITEMS, to show what each test would catch."""

import boto3
import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.dynamodb.models import DynamoDBBackend, dynamodb_backends
from moto.dynamodb.models.dynamo_type import Item

from local.moto_patches import MOTO_TRANSACT_WRITE_ITEMS, transact_write_items

TABLE_ITEMS = 1_000


def _key(name: str) -> dict:
    return {"pk": {"S": f"K#{name}"}, "sk": {"S": "A"}}


def _cancelled(client, table: str) -> list[dict]:
    """A transaction that writes three items, deletes one, then fails its last condition."""
    return [
        {"Put": {"TableName": table, "Item": {**_key("new"), "n": {"N": "1"}}}},
        {
            "Update": {
                "TableName": table,
                "Key": _key("0"),
                "UpdateExpression": "SET n = :two",
                "ExpressionAttributeValues": {":two": {"N": "2"}},
            }
        },
        {"Delete": {"TableName": table, "Key": _key("1")}},
        {
            "ConditionCheck": {
                "TableName": table,
                "Key": _key("2"),
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        },
    ]


@pytest.fixture
def filled(table):
    """The table with TABLE_ITEMS items, put straight into moto's backend (quicker than requests)."""
    backend_table = dynamodb_backends[DEFAULT_ACCOUNT_ID]["us-east-1"].tables[table]
    for i in range(TABLE_ITEMS):
        backend_table.put_item({**_key(str(i)), "n": {"N": "0"}})
    return boto3.client("dynamodb"), table


def _items_copied_by_a_cancelled_transaction(client, table: str, monkeypatch) -> int:
    copies = 0
    copy_item = Item.__deepcopy__

    def counting(self, memo):
        nonlocal copies
        copies += 1
        return copy_item(self, memo)

    monkeypatch.setattr(Item, "__deepcopy__", counting)
    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.transact_write_items(TransactItems=_cancelled(client, table))
    return copies


def test_a_cancelled_transaction_copies_only_the_items_it_touched(filled, monkeypatch):
    client, table = filled
    assert _items_copied_by_a_cancelled_transaction(client, table, monkeypatch) <= 3


def test_moto_s_own_transaction_copies_the_whole_table(filled, monkeypatch):
    """What the test above catches: moto's own rollback is O(table)."""
    client, table = filled
    monkeypatch.setattr(DynamoDBBackend, "transact_write_items", MOTO_TRANSACT_WRITE_ITEMS)
    assert _items_copied_by_a_cancelled_transaction(client, table, monkeypatch) >= TABLE_ITEMS


@pytest.mark.parametrize(
    "rollback", [transact_write_items, MOTO_TRANSACT_WRITE_ITEMS], ids=["patched", "moto"]
)
def test_a_cancelled_transaction_puts_back_every_item_it_wrote_and_drops_its_stream_records(
    filled, monkeypatch, rollback
):
    client, table = filled
    monkeypatch.setattr(DynamoDBBackend, "transact_write_items", rollback)
    backend_table = dynamodb_backends[DEFAULT_ACCOUNT_ID]["us-east-1"].tables[table]
    records = len(backend_table.stream_shard.items)

    with pytest.raises(client.exceptions.TransactionCanceledException) as cancelled:
        client.transact_write_items(TransactItems=_cancelled(client, table))

    reasons = [r["Code"] for r in cancelled.value.response["CancellationReasons"]]
    assert reasons == ["None", "None", "None", "ConditionalCheckFailed"]
    assert "Item" not in client.get_item(TableName=table, Key=_key("new"))
    assert client.get_item(TableName=table, Key=_key("0"))["Item"]["n"] == {"N": "0"}
    assert client.get_item(TableName=table, Key=_key("1"))["Item"]["n"] == {"N": "0"}
    assert client.scan(TableName=table, Select="COUNT")["Count"] == TABLE_ITEMS
    table_now = dynamodb_backends[DEFAULT_ACCOUNT_ID]["us-east-1"].tables[table]
    assert len(table_now.stream_shard.items) == records


def test_a_cancelled_transaction_keeps_the_table_and_its_stream(filled):
    """moto's own puts a copy in the table's place, so a stream reader holding the table (moto's
    shard iterators do) reads a stream no longer written to."""
    client, table = filled
    backend = dynamodb_backends[DEFAULT_ACCOUNT_ID]["us-east-1"]
    before = backend.tables[table]
    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.transact_write_items(TransactItems=_cancelled(client, table))
    assert backend.tables[table] is before


def test_a_transaction_that_holds_writes_all_of_it_and_one_stream_record_each(filled):
    client, table = filled
    backend_table = dynamodb_backends[DEFAULT_ACCOUNT_ID]["us-east-1"].tables[table]
    records = len(backend_table.stream_shard.items)
    items = _cancelled(client, table)[:3]
    client.transact_write_items(TransactItems=items)
    assert client.get_item(TableName=table, Key=_key("new"))["Item"]["n"] == {"N": "1"}
    assert client.get_item(TableName=table, Key=_key("0"))["Item"]["n"] == {"N": "2"}
    assert "Item" not in client.get_item(TableName=table, Key=_key("1"))
    events = [r.record["eventName"] for r in backend_table.stream_shard.items[records:]]
    assert events == ["INSERT", "MODIFY", "REMOVE"]


def test_a_transaction_naming_one_item_twice_is_refused_and_leaves_nothing(filled):
    client, table = filled
    twice = [
        {"Put": {"TableName": table, "Item": {**_key("new"), "n": {"N": "1"}}}},
        {"Delete": {"TableName": table, "Key": _key("new")}},
    ]
    with pytest.raises(client.exceptions.ClientError, match="ValidationException"):
        client.transact_write_items(TransactItems=twice)
    assert "Item" not in client.get_item(TableName=table, Key=_key("new"))


EVERY_TYPE = {
    "s": {"S": "text"},
    "n": {"N": "12.5"},
    "b": {"B": b"\x00\xff"},
    "ss": {"SS": ["a", "b"]},
    "ns": {"NS": ["1", "2"]},
    "bs": {"BS": [b"\x01", b"\x02"]},
    "m": {"M": {"inner": {"L": [{"S": "x"}, {"N": "1"}, {"BOOL": True}, {"NULL": True}]}}},
}


def _replies(client, table: str) -> list:
    """Item replies of each kind the game uses, as boto3 decodes them (metadata left out)."""
    key = _key("typed")
    replies = [
        client.put_item(TableName=table, Item={**key, **EVERY_TYPE}, ReturnValues="ALL_OLD"),
        client.get_item(TableName=table, Key=key, ConsistentRead=True),
        client.query(
            TableName=table,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": key["pk"]},
        ),
        client.batch_get_item(RequestItems={table: {"Keys": [key, _key("0")]}}),
        client.update_item(
            TableName=table,
            Key=key,
            UpdateExpression="SET n = n + :one",
            ExpressionAttributeValues={":one": {"N": "1"}},
            ReturnValues="ALL_NEW",
        ),
        client.transact_get_items(TransactItems=[{"Get": {"TableName": table, "Key": key}}]),
        client.delete_item(TableName=table, Key=key, ReturnValues="ALL_OLD"),
        client.get_item(TableName=table, Key=key),
    ]
    for reply in replies:
        reply.pop("ResponseMetadata")
    return replies


def test_item_replies_dumped_as_json_read_back_as_moto_s_own_serializer_writes_them(filled, monkeypatch):
    from moto.dynamodb.responses import DynamoHandler

    from local.moto_patches import MOTO_SERIALIZED

    client, table = filled
    patched = _replies(client, table)
    monkeypatch.setattr(DynamoHandler, "serialized", MOTO_SERIALIZED)
    assert patched == _replies(client, table)
    assert patched[1]["Item"]["b"] == {"B": b"\x00\xff"}
