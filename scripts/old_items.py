"""What the one-off moves of older layouts read (scripts/move_old_*.py): the items of one sort key,
by a Scan of the whole table. Scripts only: the game's data layer never scans the table
(tests/infra/test_permissions_code.py)."""

from collections.abc import Iterator
from typing import Any


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
