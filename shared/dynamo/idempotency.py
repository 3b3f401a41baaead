"""The creations' idempotency records (shared/services/idempotency.py RequestStore): one item per
request key (keys.py `request_key`), with `status` `started` or `done`, the body's fingerprint, the
id of what it made once done, the started one's lease and, in the table's TTL attribute, when
DynamoDB may delete it. Started by a conditional put, so of two racing requests with one key one
records it and the other reads what it recorded."""

import contextlib

from shared.dynamo.client import Client, ConditionFailed
from shared.dynamo.keys import request_key
from shared.dynamo.table import TTL_ATTRIBUTE
from shared.game.errors import Throttled
from shared.services.idempotency import StoredRequest

STARTED, DONE = "started", "done"
# A key is free when no request holds it, when its record has expired (DynamoDB's TTL deletes
# within days, not at once), or when a started request's lease has ended.
_FREE = "attribute_not_exists(pk) OR #expires <= :now OR (#status = :started AND lease_until <= :now)"
BEGIN_ATTEMPTS = 3  # a record forgotten between our put and our read: the put is tried again


class Requests:
    def __init__(self, db: Client):
        self.db = db

    def begin(self, key: str, body: str, now: int, lease_until: int, expires_at: int) -> StoredRequest | None:
        item = {
            **request_key(key),
            "status": {"S": STARTED},
            "body": {"S": body},
            "lease_until": {"N": str(lease_until)},
            TTL_ATTRIBUTE: {"N": str(expires_at)},
        }
        for _ in range(BEGIN_ATTEMPTS):
            try:
                self.db.call(
                    "put_item",
                    Item=item,
                    ConditionExpression=_FREE,
                    ExpressionAttributeNames={"#status": "status", "#expires": TTL_ATTRIBUTE},
                    ExpressionAttributeValues={":now": {"N": str(now)}, ":started": {"S": STARTED}},
                )
                return None
            except ConditionFailed:
                held = self.db.get(request_key(key), consistent=True)
                if held is not None:
                    made = held["made"]["S"] if held["status"]["S"] == DONE else None
                    return StoredRequest(held["body"]["S"], made)
        raise Throttled("The game is busy; try again shortly")

    def finish(self, key: str, body: str, made: str, expires_at: int) -> None:
        item = {
            **request_key(key),
            "status": {"S": DONE},
            "body": {"S": body},
            "made": {"S": made},
            TTL_ATTRIBUTE: {"N": str(expires_at)},
        }
        self.db.call("put_item", Item=item)

    def forget(self, key: str) -> None:
        with contextlib.suppress(ConditionFailed):  # done meanwhile (a lease ended): kept
            self.db.call(
                "delete_item",
                Key=request_key(key),
                ConditionExpression="#status = :started",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={":started": {"S": STARTED}},
            )
