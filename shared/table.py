"""The shape of WordSQD's one DynamoDB table, shared by the data layer, `make run`, tests and CDK.

Item layout (see docs/data-model.md):
- every item has `pk` and `sk`; `expires_at` (epoch seconds) is the TTL attribute;
- GSI `board`:   official results of one board shard, in rank order;
- GSI `history`: a player's official results, newest first;
- GSI `due`:     players' runs still in play, by deadline, so the expiry job finds those due.
"""

from typing import Any

PARTITION_KEY = "pk"
SORT_KEY = "sk"
TTL_ATTRIBUTE = "expires_at"

# GSI name -> (partition key attribute, sort key attribute, projection type)
INDEXES: dict[str, tuple[str, str, str]] = {
    "board": ("board_pk", "board_sk", "ALL"),
    "history": ("history_pk", "history_sk", "ALL"),
    "due": ("due_pk", "due_sk", "KEYS_ONLY"),
}


def create_table_request(table_name: str) -> dict[str, Any]:
    """The boto3 `create_table` arguments for the table (on-demand billing)."""
    attributes = {PARTITION_KEY, SORT_KEY}
    for pk, sk, _ in INDEXES.values():
        attributes.update((pk, sk))
    return {
        "TableName": table_name,
        "BillingMode": "PAY_PER_REQUEST",
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
                "Projection": {"ProjectionType": projection},
            }
            for name, (pk, sk, projection) in INDEXES.items()
        ],
    }
