"""The shape of WordSQD's one DynamoDB table, shared by the data layer, `make run`, tests and CDK.

Item layout (see docs/data-model.md):
- every item has `pk` and `sk`; `expires_at` (epoch seconds) is the TTL attribute;
- GSI `board`:   official results of one board shard, in rank order, with only what a row shows;
- GSI `history`: a player's official results, newest first;
- GSI `due`:     players' runs still in play, by deadline, so the expiry job finds those due;
- GSI `runs`:    each player's runs, by start, so an export or an erasure finds them all.
"""

from typing import Any

PARTITION_KEY = "pk"
SORT_KEY = "sk"
TTL_ATTRIBUTE = "expires_at"

# GSI name -> (partition key attribute, sort key attribute, projection type)
INDEXES: dict[str, tuple[str, str, str]] = {
    "board": ("board_pk", "board_sk", "INCLUDE"),
    "history": ("history_pk", "history_sk", "INCLUDE"),
    "due": ("due_pk", "due_sk", "KEYS_ONLY"),
    "runs": ("runs_pk", "runs_sk", "KEYS_ONLY"),
}

# The non-key attributes an INCLUDE index carries: a board row's words and the name its player had
# at completion (the keys hold the rest), and a history item's result.
PROJECTED: dict[str, tuple[str, ...]] = {
    "board": ("words", "name"),
    "history": ("data",),
}
# The table's stream feeds the rank counters (functions/leaderboard/counters.py).
STREAM_VIEW_TYPE = "NEW_IMAGE"


def _projection(index: str, projection: str) -> dict[str, Any]:
    if projection == "INCLUDE":
        return {"ProjectionType": projection, "NonKeyAttributes": list(PROJECTED[index])}
    return {"ProjectionType": projection}


def create_table_request(table_name: str) -> dict[str, Any]:
    """The `create_table` arguments for the table (on-demand billing), as botocore takes them."""
    attributes = {PARTITION_KEY, SORT_KEY}
    for pk, sk, _ in INDEXES.values():
        attributes.update((pk, sk))
    return {
        "TableName": table_name,
        "BillingMode": "PAY_PER_REQUEST",
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": STREAM_VIEW_TYPE},
        "KeySchema": [
            {"AttributeName": PARTITION_KEY, "KeyType": "HASH"},
            {"AttributeName": SORT_KEY, "KeyType": "RANGE"},
        ],
        "AttributeDefinitions": [
            {"AttributeName": name, "AttributeType": "S"} for name in sorted(attributes)
        ],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": name,
                "KeySchema": [
                    {"AttributeName": pk, "KeyType": "HASH"},
                    {"AttributeName": sk, "KeyType": "RANGE"},
                ],
                "Projection": _projection(name, projection),
            }
            for name, (pk, sk, projection) in INDEXES.items()
        ],
    }
