"""The benchmarks' DynamoDB meter (benchmarks/meter.py) against figures worked out by hand from
DynamoDB's billing rules, on the game's own table definition: a meter that undercounts lets a
cost claim sit below its floor unnoticed (benchmarks/floors.py fails on that)."""

import boto3
import pytest
from moto import mock_aws

from benchmarks.meter import Meter, Unmetered
from shared.dynamo.table import create_table_request

TABLE = "meter-test"


def item(pk: str, sk: str, size: int, **more: str) -> dict:
    """An item of SIZE bytes by DynamoDB's count (attribute names and values) with MORE string
    attributes, padded by `pad`."""
    body = {"pk": {"S": pk}, "sk": {"S": sk}, **{k: {"S": v} for k, v in more.items()}}
    used = sum(len(k) + len(v["S"]) for k, v in body.items()) + len("pad")
    return {**body, "pad": {"S": "x" * (size - used)}}


@pytest.fixture
def metered():
    with mock_aws():
        client = boto3.client("dynamodb")
        client.create_table(**create_table_request(TABLE))
        yield client, Meter().attach(client)


def charged(meter: Meter) -> tuple[dict, float, float, float]:
    operations, _, writes, index, reads = meter.take()
    return dict(operations), writes, index, reads


def test_a_batch_write_is_charged_item_by_item_with_its_index_entries(metered):
    client, meter = metered
    big = item("P#1", "A", 1_500)  # 2 KB started: 2 units
    indexed = item("P#1", "B", 100, runs_pk="RUNS#p", runs_sk="2026")  # 1 unit, and its `runs` entry 1
    client.batch_write_item(RequestItems={TABLE: [{"PutRequest": {"Item": i}} for i in (big, indexed)]})
    assert charged(meter) == ({"BatchWriteItem": 1}, 4, 1, 0)
    keys = [{"DeleteRequest": {"Key": {"pk": i["pk"], "sk": i["sk"]}}} for i in (big, indexed)]
    client.batch_write_item(RequestItems={TABLE: keys})
    assert charged(meter) == ({"BatchWriteItem": 1}, 4, 1, 0)


def test_a_query_is_charged_on_the_whole_items_it_read_and_its_consistency(metered):
    client, meter = metered
    for sk in "ABC":
        client.put_item(TableName=TABLE, Item=item("P#2", sk, 2_000))
    meter.take()
    query = {
        "TableName": TABLE,
        "KeyConditionExpression": "pk = :p",
        "FilterExpression": "#pad = :none",  # filters every item out: they were read all the same
        "ProjectionExpression": "sk",
        "ExpressionAttributeNames": {"#pad": "pad"},
        "ExpressionAttributeValues": {":p": {"S": "P#2"}, ":none": {"S": "-"}},
    }
    assert client.query(**query, ConsistentRead=True)["Items"] == []
    assert charged(meter) == ({"Query": 1}, 0, 0, 2.0)  # 6,000 bytes: 2 blocks of 4 KB, a unit each
    client.query(**query)
    assert charged(meter) == ({"Query": 1}, 0, 0, 1.0)  # eventually consistent: half


def test_reads_are_charged_by_the_consistency_sent_and_a_missing_item_costs_the_minimum(metered):
    client, meter = metered
    client.put_item(TableName=TABLE, Item=item("P#3", "A", 5_000))
    meter.take()
    missing = {"pk": {"S": "P#3"}, "sk": {"S": "none"}}
    client.get_item(TableName=TABLE, Key=missing)
    assert charged(meter)[3] == 0.5
    client.get_item(TableName=TABLE, Key={"pk": {"S": "P#3"}, "sk": {"S": "A"}}, ProjectionExpression="pk")
    assert charged(meter)[3] == 1.0  # 5,000 bytes: 2 blocks at half a unit, whatever was returned
    keys = [{"pk": {"S": "P#3"}, "sk": {"S": "A"}}, missing]
    client.batch_get_item(RequestItems={TABLE: {"Keys": keys, "ConsistentRead": True}})
    assert charged(meter) == ({"BatchGetItem": 1}, 0, 0, 3.0)  # 2 + 1


def test_a_transaction_costs_twice_and_its_index_writes_once(metered):
    client, meter = metered
    client.put_item(TableName=TABLE, Item=item("P#4", "D", 100))
    client.put_item(TableName=TABLE, Item=item("P#4", "E", 100))
    meter.take()
    client.transact_write_items(
        TransactItems=[
            {"Put": {"TableName": TABLE, "Item": item("P#4", "C", 1_500)}},  # 2 x 2
            {
                "ConditionCheck": {  # 2 x 1
                    "TableName": TABLE,
                    "Key": {"pk": {"S": "P#4"}, "sk": {"S": "D"}},
                    "ConditionExpression": "attribute_exists(pk)",
                }
            },
            {
                "Update": {  # 2 x 1, and the item enters the `due` index: 1
                    "TableName": TABLE,
                    "Key": {"pk": {"S": "P#4"}, "sk": {"S": "E"}},
                    "UpdateExpression": "SET due_pk = :p, due_sk = :s",
                    "ExpressionAttributeValues": {":p": {"S": "DUE#1"}, ":s": {"S": "2026"}},
                }
            },
        ]
    )
    operations, transactions, writes, index, _ = meter.take()
    assert (transactions, writes, index) == ([3], 9, 1)


def test_an_index_key_changed_costs_the_old_entry_and_the_new(metered):
    client, meter = metered
    client.put_item(TableName=TABLE, Item=item("P#5", "F", 200, board_pk="BOARD#1", board_sk="1"))
    assert charged(meter) == ({"PutItem": 1}, 2, 1, 0)
    key = {"pk": {"S": "P#5"}, "sk": {"S": "F"}}
    update = {"UpdateExpression": "SET board_sk = :s", "ExpressionAttributeValues": {":s": {"S": "2"}}}
    client.update_item(TableName=TABLE, Key=key, **update)
    assert charged(meter) == ({"UpdateItem": 1}, 3, 2, 0)
    with pytest.raises(client.exceptions.ConditionalCheckFailedException):
        client.update_item(TableName=TABLE, Key=key, ConditionExpression="attribute_not_exists(pk)", **update)
    assert charged(meter) == ({"UpdateItem": 1}, 1, 0, 0)  # refused, and still charged


def test_an_operation_without_a_rule_is_refused_not_left_uncharged(metered):
    client, _ = metered
    with pytest.raises(Unmetered):
        client.execute_statement(Statement=f'SELECT * FROM "{TABLE}"')
