"""A board's inbox: rows waiting for the next fold into its top item, in items written once and
never changed, spread over TOP_INBOXES partitions so that no partition takes every consumer's
write (docs/leaderboards.md, "The protocol")."""

import secrets
from collections import defaultdict
from typing import NamedTuple

from shared.dynamo import keys
from shared.dynamo.client import Client, Item
from shared.dynamo.codec import inbox_item, inbox_rows
from shared.game.boards import BoardEntry
from shared.game.scope import Scope


class Left(NamedTuple):
    """What a board's inbox holds: the rows left, by player, and the items that hold them."""

    rows: dict[str, list[BoardEntry]]
    items: list[Item]  # their keys


class Inbox:
    def __init__(self, db: Client):
        self.db = db

    def leave(self, scope: Scope, rows: list[BoardEntry]) -> Item:
        """One new inbox item of SCOPE holding ROWS (without names: the fold reads those);
        returns its key."""
        item = inbox_item(scope, rows, self.db.wall(), secrets.token_hex(8))
        self.db.call("put_item", Item=item)
        return keys.key_of(item)

    def holds(self, key: Item) -> bool:
        """Whether the inbox item at KEY is still there (read consistently): a fold deletes it
        only after the rows it held are in the top item."""
        return self.db.get(key, consistent=True) is not None

    def read(self, scope: Scope) -> Left:
        """Every row left in SCOPE's inbox, read consistently."""
        items: list[Item] = []
        for inbox in range(keys.TOP_INBOXES):
            items += self.db.query(
                KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": keys.inbox_partition(scope, inbox)}},
                ConsistentRead=True,
            )
        rows: dict[str, list[BoardEntry]] = defaultdict(list)
        for item in items:
            for row in inbox_rows(item):
                rows[row.player].append(row)
        return Left(dict(rows), [keys.key_of(item) for item in items])

    def clear(self, left: Left) -> None:
        """Delete the inbox items LEFT was read from: each was written once and never changed,
        so deleting it loses nothing left since."""
        self.db.batch_delete(left.items)
