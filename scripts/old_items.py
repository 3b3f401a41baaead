"""What the one-off moves of older layouts share (scripts/move_old_*.py): the table their command
line names, and the items of one sort key, read by a Scan of the whole table. Scripts only: the
game's data layer never scans the table (tests/infra/test_permissions_code.py)."""

import argparse
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import boto3

from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import DynamoPorts, dynamo_ports


class Table(NamedTuple):
    """The table a move runs on, from its command line: its client, its name and its ports."""

    client: Any
    name: str
    store: DynamoPorts


def table_of(description: str, argv: Sequence[str] | None) -> Table:
    """The move's command line (`--table`, `--endpoint-url`) read, and the table it names."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--table", required=True)
    parser.add_argument("--endpoint-url", help="a DynamoDB endpoint other than AWS's (make run)")
    args = parser.parse_args(argv)
    client = boto3.client("dynamodb", endpoint_url=args.endpoint_url)
    # The moves write and read no board row: the board's shard count is never used here.
    return Table(client, args.table, dynamo_ports(args.table, client, board_shards=BOARD_SHARDS))


def items_with_sort_key(client: Any, table: str, sort_key: str) -> Iterator[dict[str, Any]]:
    """Every item of TABLE whose sort key is SORT_KEY: one Scan of the whole table, page by page
    (what the one-off moves in scripts/ read; run them off peak)."""
    kwargs: dict[str, Any] = {
        "TableName": table,
        "FilterExpression": "sk = :sk",
        "ExpressionAttributeValues": {":sk": {"S": sort_key}},
    }
    while True:
        page = client.scan(**kwargs)
        yield from page["Items"]
        if "LastEvaluatedKey" not in page:
            return
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
