"""A job's watermark: one item holding an instant that only ever moves forward (the expiry job's
`completed_through`, shared/dynamo/runs.py; the closing job's `reviewed_through`,
shared/dynamo/closing.py)."""

import contextlib
from datetime import datetime

from shared.dynamo.client import Client, ConditionFailed, Item
from shared.dynamo.codec import attributes
from shared.game.clock import iso, parse_iso


def read_watermark(db: Client, key: Item, name: str) -> datetime | None:
    """The instant attribute NAME of the item at KEY holds, read consistently; None before any."""
    item = db.get(key, consistent=True)
    return parse_iso(item[name]["S"]) if item else None


def move_watermark(db: Client, key: Item, name: str, instant: datetime) -> None:
    """Move NAME of the item at KEY forward to INSTANT; never back (a later pass got there first)."""
    with contextlib.suppress(ConditionFailed):
        db.call(
            "put_item",
            Item={**key, **attributes(**{name: iso(instant)})},
            ConditionExpression=f"attribute_not_exists(pk) OR {name} < :t",
            ExpressionAttributeValues={":t": {"S": iso(instant)}},
        )
