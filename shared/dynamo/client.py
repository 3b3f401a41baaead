"""The one DynamoDB client every part of the adapter talks through: requests on the game's table,
transactions, batches and query pages, with DynamoDB's errors made the domain's by one rule.

A failed condition is ConditionFailed (each part says which conflict it means: StaleRun,
ActiveRunExists, OfficialTaken, QuotaExceeded, NameTaken); throttling is Throttled (429); a
transaction that collides with another is tried again by shared/services/retry.py's policy (a
lasting collision is Throttled); a store that cannot be reached, or answers that it cannot serve
(after the SDK's own retries), is StoreUnavailable (503 `store_unavailable`); anything else is
DataError, which the API logs and answers 500.
"""

import time
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import botocore.session
from botocore.config import Config
from botocore.exceptions import ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BotocoreConnectionError

from shared.game.errors import StoreUnavailable, Throttled
from shared.services.retry import ATTEMPTS, Exhausted, pause, retry

# A DynamoDB item, key or request part in DynamoDB JSON, as botocore's client takes it.
Item = dict[str, Any]

# Error codes of a throttled request, and the cancellation-reason codes of a throttled transaction.
_THROTTLING = {
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "ProvisionedThroughputExceeded",
    "ThrottlingError",
}
# Error codes of a store that is up but cannot serve (make run's store once its disk is full).
_UNAVAILABLE = {"ServiceUnavailable", "ServiceUnavailableException"}
_BUSY = "The game is busy; try again shortly"
_DOWN = "The game's data store is unavailable; try again shortly"
BATCH_GET_KEYS = 100  # DynamoDB's limits per BatchGetItem and per BatchWriteItem
BATCH_WRITE_ITEMS = 25


class ConditionFailed(Exception):
    """A conditional write's condition did not hold (DynamoDB's ConditionalCheckFailedException)."""


class DataError(RuntimeError):
    """DynamoDB refused a request for a reason that is neither a failed condition nor throttling
    (a malformed request, a transaction cancelled for a ValidationError or without reasons): a bug
    or an outage. Never retried; the API logs it and answers 500."""


class _Collided(Exception):
    """A transaction was cancelled by TransactionConflict: tried again."""


def new_aws_client(service: str) -> Any:
    """A botocore client of SERVICE (DynamoDB here; Secrets Manager and Cognito for the runtime)
    with the SDK's standard retries (3 attempts). Every AWS client of the functions is made here,
    by botocore itself: boto3 is a layer over it (resources, S3 transfers) that the code does not
    use, and importing it (with s3transfer, concurrent.futures and multiprocessing) is ~5% of a
    stateful function's init (docs/operations.md, "Cold starts")."""
    config = Config(retries={"mode": "standard", "max_attempts": 3})
    return aws_session().create_client(service, config=config)


@cache
def aws_session() -> botocore.session.Session:
    """The process's one botocore session: its clients share what it reads once (the endpoint,
    partition and retry data, the credentials), as boto3's default session had them share."""
    return botocore.session.get_session()


class Client:
    """The game's table through botocore's DynamoDB client (`boto`).

    `sleep` makes the retry policy's pauses (and a consumer's wait for a top item's claim); `wall`
    is the wall clock (epoch seconds) shared by every consumer, unlike the game clock, that top
    claims and the rank cache are measured in. Tests hand in clocks of their own."""

    def __init__(
        self,
        table: str,
        boto: Any = None,
        sleep: Callable[[float], None] = time.sleep,
        wall: Callable[[], float] = time.time,
    ):
        self.table = table
        self.boto = boto if boto is not None else new_aws_client("dynamodb")
        self.sleep = sleep
        self.wall = wall

    def request(self, operation: str, **kwargs: Any) -> Item:
        """One DynamoDB request. A failed condition raises ConditionFailed, throttling Throttled
        (429); a cancelled transaction passes through to `transact`; anything else is DataError."""
        try:
            reply: Item = getattr(self.boto, operation)(**kwargs)
            return reply
        except (BotocoreConnectionError, HTTPClientError) as error:  # refused, reset, timed out
            raise StoreUnavailable(_DOWN) from error
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code in _THROTTLING:
                raise Throttled(_BUSY) from error
            if code in _UNAVAILABLE:
                raise StoreUnavailable(_DOWN) from error
            if code == "ConditionalCheckFailedException":
                raise ConditionFailed(operation) from error
            if code == "TransactionCanceledException":
                raise
            raise DataError(f"DynamoDB {operation} failed: {code}") from error

    def call(self, operation: str, **kwargs: Any) -> Item:
        """A request on the game's table."""
        return self.request(operation, TableName=self.table, **kwargs)

    def get(self, key: Item, consistent: bool = False) -> Item | None:
        """The item at KEY (GetItem), None when there is none."""
        item: Item | None = self.call("get_item", Key=key, ConsistentRead=consistent).get("Item")
        return item

    def transact(self, items: list[Item]) -> list[str]:
        """Run a transaction; returns [] on success, else each item's cancellation code when a
        condition failed ("ConditionalCheckFailed" at the items whose condition did not hold).

        A transaction that collides with another on the same item is cancelled with
        TransactionConflict: it is tried again by the retry policy, and a lasting conflict is
        Throttled (429), as is throttling. A cancellation for any other reason (ValidationError,
        or no reasons at all) is DataError: retrying would not help, and it is no conflict."""
        for entry in items:
            next(iter(entry.values()))["TableName"] = self.table

        def once() -> list[str]:
            try:
                self.request("transact_write_items", TransactItems=items)
                return []
            except ClientError as error:
                reasons = error.response.get("CancellationReasons") or []
                codes = [reason.get("Code") or "None" for reason in reasons]
                if any(code in _THROTTLING for code in codes):
                    raise Throttled(_BUSY) from error
                understood = {"None", "ConditionalCheckFailed", "TransactionConflict"}
                if "ConditionalCheckFailed" in codes and set(codes) <= understood:
                    return codes
                if "TransactionConflict" in codes and set(codes) <= understood:
                    raise _Collided() from error
                raise DataError(f"Transaction cancelled: {codes or 'no reasons given'}") from error

        try:
            return retry(once, _Collided, sleep=self.sleep)
        except Exhausted as error:
            raise Throttled(_BUSY) from error

    def batch_get(self, keys: list[Item], consistent: bool = False) -> list[Item]:
        """BatchGetItem in chunks of 100, retrying unprocessed keys by the retry policy; keys
        still unprocessed after that are Throttled, never silently missing."""
        found: list[Item] = []
        for start in range(0, len(keys), BATCH_GET_KEYS):
            chunk = keys[start : start + BATCH_GET_KEYS]
            self._batch("batch_get_item", {self.table: {"Keys": chunk, "ConsistentRead": consistent}}, found)
        return found

    def batch_delete(self, keys: list[Item], puts: list[Item] | None = None) -> None:
        """BatchWriteItem deletes of KEYS (and PUTS of whole items, unconditional) in chunks of
        25, retrying unprocessed ones by the retry policy; any still unprocessed after that are
        Throttled."""
        requests = [{"DeleteRequest": {"Key": key}} for key in keys]
        requests += [{"PutRequest": {"Item": item}} for item in puts or []]
        for start in range(0, len(requests), BATCH_WRITE_ITEMS):
            self._batch("batch_write_item", {self.table: requests[start : start + BATCH_WRITE_ITEMS]})

    def _batch(self, operation: str, pending: Item, found: list[Item] | None = None) -> None:
        """OPERATION (BatchGetItem or BatchWriteItem) on PENDING, then again on what it left
        unprocessed, by the retry policy; Throttled if anything is left after that. The items
        it returns go to FOUND."""
        for attempt in range(ATTEMPTS):
            reply = self.request(operation, RequestItems=pending)
            if found is not None:
                found.extend(reply["Responses"].get(self.table, []))
            pending = reply.get("UnprocessedKeys") or reply.get("UnprocessedItems") or {}
            if not pending:
                return
            if attempt < ATTEMPTS - 1:
                self.sleep(pause(attempt))
        raise Throttled(_BUSY)

    def query(self, **query: Any) -> Iterator[Item]:
        """Every item a Query on the table returns, page after page, read as they are needed."""
        while True:
            page = self.call("query", **query)
            yield from page["Items"]
            if "LastEvaluatedKey" not in page:
                return
            query["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def query_page(self, **query: Any) -> tuple[list[Item], Item | None]:
        """One page of a Query: its items and where the next page starts (None: no more)."""
        page = self.call("query", **query)
        return page["Items"], page.get("LastEvaluatedKey")

    def newest(self, partition: str, prefix: str, limit: int) -> list[Item]:
        """Up to LIMIT items of PARTITION whose sort key begins with PREFIX, the last sort key
        first (newest first where the sort key begins with a time after the prefix)."""
        items, _ = self.query_page(
            KeyConditionExpression="pk = :p AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":p": {"S": partition}, ":prefix": {"S": prefix}},
            ScanIndexForward=False,
            Limit=limit,
        )
        return items
