"""A board's lease: who folds its inbox into its top item for the next interval (one small item
per board, `TOP#<scope>#CLAIM`), so the top item is written at most once an interval however many
stream consumers bring rows (docs/leaderboards.md, "The protocol"). When a lease is free to take
is the ranking engine's (shared/game/ranking.py `lease_wait`).
"""

import secrets
from typing import NamedTuple

from shared.dynamo import keys
from shared.dynamo.client import Client, ConditionFailed, Item
from shared.game.scope import Scope


class Holder(NamedTuple):
    """Who holds a board's lease (a token; None: never taken) and until when (epoch seconds)."""

    token: str | None
    until: float


class Lease:
    def __init__(self, db: Client):
        self.db = db

    def holder(self, scope: Scope) -> Holder:
        """Who holds SCOPE's lease, read consistently: a read, so the many consumers waiting at
        the rush write nothing."""
        item = self.db.get(keys.top_claim_key(scope), consistent=True)
        return Holder(item["token"]["S"], float(item["until"]["N"])) if item else Holder(None, 0.0)

    def take(self, scope: Scope, holder: str | None, until: float) -> bool:
        """Take SCOPE's lease until UNTIL, if it is still HOLDER's (as read): of the consumers
        that read the same holder, one gets it."""
        put: Item = {
            "Item": {
                **keys.top_claim_key(scope),
                "until": {"N": f"{until:.3f}"},
                "token": {"S": secrets.token_hex(8)},
            }
        }
        if holder is None:
            put["ConditionExpression"] = "attribute_not_exists(pk)"
        else:
            put["ConditionExpression"] = "#token = :holder"
            put["ExpressionAttributeNames"] = {"#token": "token"}
            put["ExpressionAttributeValues"] = {":holder": {"S": holder}}
        try:
            self.db.call("put_item", **put)
            return True
        except ConditionFailed:
            return False
