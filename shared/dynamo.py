"""The Store on DynamoDB: one table (shared/table.py), items and keys described in docs/data-model.md.

Requests per API call are kept small on purpose: an answer is one GetItem and one PutItem
(a TransactWriteItems instead when it completes the run). DynamoDB's conditional-check
failures, transaction cancellations and throttling become the domain errors of shared/store.py.
"""

import json
import random
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import boto3
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.config import Config
from botocore.exceptions import ClientError

from shared.clock import iso, parse_iso
from shared.constants import GUEST_RUN_TTL_SECONDS
from shared.dynamo_boards import BOARD_SHARDS, DynamoBoards, shard_of
from shared.errors import Throttled
from shared.puzzles import Round
from shared.runs import Run
from shared.store import ActiveRunExists, Challenge, NameTaken, OfficialResult, OfficialTaken, StaleRun

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()
_TRANSACTION_TRIES = 4
_WATERMARK_KEY = ("JOB#EXPIRY", "WATERMARK")
# Error codes of a throttled request, and the cancellation-reason codes of a throttled transaction.
_THROTTLING = {
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "ProvisionedThroughputExceeded",
    "ThrottlingError",
}


def _item(**attributes: Any) -> dict:
    return {k: _serializer.serialize(v) for k, v in attributes.items() if v is not None}


def _plain(item: dict) -> dict:
    return {k: _deserializer.deserialize(v) for k, v in item.items()}


def _key(pk: str, sk: str) -> dict:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _run_key(run_id: str) -> dict:
    return _key(f"RUN#{run_id}", "RUN")


def _active_slot(player: str) -> dict:
    """The player's one active-run slot: a player has at most one active run at a time."""
    return _key(f"PLAYER#{player}", "ACTIVE")


def _active_partition(date: str, shard: int) -> str:
    return f"ACTIVE#{date}#{shard}"


class DynamoStore(DynamoBoards):
    """The Store on one DynamoDB table (its board side in shared/dynamo_boards.py)."""

    def __init__(self, table_name: str, client: Any = None):
        self.table = table_name
        self.client = client or boto3.client(
            "dynamodb", config=Config(retries={"mode": "standard", "max_attempts": 3})
        )

    def _request(self, operation: str, **kwargs: Any) -> dict:
        """One DynamoDB request; throttling becomes Throttled (429), other errors pass through."""
        try:
            return getattr(self.client, operation)(**kwargs)
        except ClientError as error:
            if error.response["Error"]["Code"] in _THROTTLING:
                raise Throttled("The game is busy; try again shortly") from error
            raise

    def _call(self, operation: str, **kwargs: Any) -> dict:
        """A request on the game's table."""
        return self._request(operation, TableName=self.table, **kwargs)

    def _transact(self, items: list[dict]) -> list[str]:
        """Run a transaction; returns [] on success, else each item's cancellation code.

        A transaction that collides with another on the same item (the rank counters at the
        midnight rush) is cancelled with TransactionConflict: it is tried again after a short
        random pause, and only a lasting conflict becomes Throttled (429)."""
        for entry in items:
            next(iter(entry.values()))["TableName"] = self.table
        for attempt in range(_TRANSACTION_TRIES):
            try:
                self._request("transact_write_items", TransactItems=items)
                return []
            except ClientError as error:
                if error.response["Error"]["Code"] != "TransactionCanceledException":
                    raise
                codes = [r.get("Code", "None") for r in error.response.get("CancellationReasons") or []]
                if "ConditionalCheckFailed" in codes or not codes:
                    return codes or ["ConditionalCheckFailed"]
                if any(c in _THROTTLING for c in codes) or attempt == _TRANSACTION_TRIES - 1:
                    raise Throttled("The game is busy; try again shortly") from error
                time.sleep(random.uniform(0.01, 0.04) * 2**attempt)
        raise AssertionError("unreachable")

    # Puzzles and challenges ---------------------------------------------------------------

    def get_puzzle(self, scope: str) -> list[Round] | None:
        item = self._call("get_item", Key=_key(f"PUZZLE#{scope}", "PUZZLE")).get("Item")
        return [Round(*r) for r in json.loads(item["rounds"]["S"])] if item else None

    def put_puzzle(self, scope: str, puzzle: list[Round]) -> list[Round]:
        """Store the puzzle unless one is there already; either way return the stored one."""
        try:
            self._call(
                "put_item",
                Item={**_key(f"PUZZLE#{scope}", "PUZZLE"), **_item(rounds=json.dumps(puzzle))},
                ConditionExpression="attribute_not_exists(pk)",
            )
            return puzzle
        except ClientError as error:
            if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            return self.get_puzzle(scope) or puzzle

    def get_challenge(self, challenge_id: str) -> Challenge | None:
        item = self._call("get_item", Key=_key(f"CHALLENGE#{challenge_id}", "CHALLENGE")).get("Item")
        return Challenge.model_validate_json(item["data"]["S"]) if item else None

    def put_challenge(self, challenge: Challenge) -> None:
        self._call(
            "put_item",
            Item={
                **_key(f"CHALLENGE#{challenge.challenge_id}", "CHALLENGE"),
                **_item(data=challenge.model_dump_json()),
            },
            ConditionExpression="attribute_not_exists(pk)",
        )

    # Runs ----------------------------------------------------------------------------------

    def get_run(self, run_id: str) -> Run | None:
        item = self._call("get_item", Key=_run_key(run_id), ConsistentRead=True).get("Item")
        return Run.model_validate_json(item["data"]["S"]) if item else None

    def player_status(self, player: str, scope: str) -> tuple[str | None, bool]:
        """(the player's active run id or None, whether they have an official result for SCOPE)."""
        keys = [_active_slot(player), _key(f"PLAYER#{player}", f"OFFICIAL#{scope}")]
        found = self._batch_get(keys, consistent=True)
        active = next((i["run_id"]["S"] for i in found if i["sk"]["S"] == "ACTIVE"), None)
        official = any(i["sk"]["S"].startswith("OFFICIAL#") for i in found)
        return active, official

    def _run_item(self, run: Run) -> dict:
        attributes: dict[str, Any] = {"data": run.model_dump_json(), "version": run.version}
        # Only a player's run needs the reset job (its completion may be an official score); a
        # guest run that expired untouched completes when next read, or is deleted by TTL.
        if run.player is not None and not run.completed:
            attributes["active_pk"] = _active_partition(run.date, shard_of(run.run_id))
            attributes["active_sk"] = f"{run.deadline}#{run.run_id}"
        if run.player is None:
            started = int(parse_iso(run.started_at).timestamp())
            attributes["expires_at"] = started + GUEST_RUN_TTL_SECONDS
        return {**_run_key(run.run_id), **_item(**attributes)}

    def create_run(self, run: Run) -> None:
        """Store a new run; a player's run also takes the player's one active-run slot."""
        run_put = {"Put": {"Item": self._run_item(run), "ConditionExpression": "attribute_not_exists(pk)"}}
        if run.player is None:
            self._call("put_item", **run_put["Put"])
            return
        slot = _active_slot(run.player)
        slot_put = {
            "Put": {
                "Item": {**slot, **_item(run_id=run.run_id)},
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
        if self._transact([run_put, slot_put]):
            active, _ = self.player_status(run.player, run.scope)
            raise ActiveRunExists(active or "")

    def _versioned_put(self, run: Run) -> dict:
        """A put of RUN (its version moved on by one) that holds only if the stored run still has
        the version that was read: the optimistic lock every run write goes through."""
        expected = run.version
        run.version += 1
        return {
            "Item": self._run_item(run),
            "ConditionExpression": "version = :v",
            "ExpressionAttributeValues": {":v": {"N": str(expected)}},
        }

    def save_run(self, run: Run) -> None:
        """Write the run if nobody else changed it since it was read. Raises StaleRun."""
        put = self._versioned_put(run)
        try:
            self._call("put_item", **put)
        except ClientError as error:
            run.version -= 1
            if error.response["Error"]["Code"] == "ConditionalCheckFailedException":
                raise StaleRun(run.run_id) from error
            raise

    def complete_run(self, run: Run, official: OfficialResult | None) -> None:
        """Write a completed run, free the player's active slot and, if OFFICIAL is given, record
        it and count it for ranks, all in one transaction. Raises StaleRun or OfficialTaken."""
        if run.player is None:  # a guest run has no slot and no score to record: one put
            self.save_run(run)
            return
        items: list[dict] = [
            {"Put": self._versioned_put(run)},
            {
                "Delete": {
                    "Key": _active_slot(run.player),
                    "ConditionExpression": "attribute_not_exists(pk) OR run_id = :r",
                    "ExpressionAttributeValues": {":r": {"S": run.run_id}},
                }
            },
        ]
        if official is not None:
            items.extend(self._official_writes(official))
        codes = self._transact(items)
        if not codes:
            return
        run.version -= 1
        if codes[0] == "ConditionalCheckFailed":
            raise StaleRun(run.run_id)
        if official is not None and codes[2] == "ConditionalCheckFailed":
            raise OfficialTaken(run.run_id)
        raise StaleRun(run.run_id)

    def active_run_ids(self, date: str) -> Iterator[str]:
        """Ids of runs started on DATE that are still marked active, shard by shard."""
        for shard in range(BOARD_SHARDS):
            kwargs: dict[str, Any] = {
                "IndexName": "active",
                "KeyConditionExpression": "active_pk = :p",
                "ExpressionAttributeValues": {":p": {"S": _active_partition(date, shard)}},
            }
            while True:
                page = self._call("query", **kwargs)
                for item in page["Items"]:
                    yield item["pk"]["S"].removeprefix("RUN#")
                if "LastEvaluatedKey" not in page:
                    break
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    # The expiry job's watermark (core's; the same item as on core's branch) -------------------

    def completed_through(self) -> datetime | None:
        item = self._call("get_item", Key=_key(*_WATERMARK_KEY), ConsistentRead=True).get("Item")
        return parse_iso(item["completed_through"]["S"]) if item else None

    def mark_completed_through(self, instant: datetime) -> None:
        try:
            self._call(
                "put_item",
                Item={**_key(*_WATERMARK_KEY), **_item(completed_through=iso(instant))},
                ConditionExpression="attribute_not_exists(pk) OR completed_through < :t",
                ExpressionAttributeValues={":t": {"S": iso(instant)}},
            )
        except ClientError as error:
            if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise

    # Profiles ------------------------------------------------------------------------------

    def set_display_name(self, player: str, name: str) -> None:
        """Claim NAME (case-insensitively unique), release the old one and update the profile, in
        one transaction that holds only if the profile still shows the name read first (a
        concurrent rename by the same player makes it read again)."""
        profile_key = _key(f"PLAYER#{player}", "PROFILE")
        for _ in range(3):
            old = self._call("get_item", Key=profile_key, ConsistentRead=True).get("Item", {})
            old_name = old.get("display_name", {}).get("S")
            profile_put: dict = {"Item": {**profile_key, **_item(display_name=name)}}
            if old_name:
                profile_put["ConditionExpression"] = "display_name = :old"
                profile_put["ExpressionAttributeValues"] = {":old": {"S": old_name}}
            else:
                profile_put["ConditionExpression"] = "attribute_not_exists(display_name)"
            items: list[dict] = [
                {
                    "Put": {
                        "Item": {**_key(f"NAME#{name.lower()}", "NAME"), **_item(player=player)},
                        "ConditionExpression": "attribute_not_exists(pk) OR player = :me",
                        "ExpressionAttributeValues": {":me": {"S": player}},
                    }
                },
                {"Put": profile_put},
            ]
            if old_name and old_name.lower() != name.lower():
                items.append(
                    {
                        "Delete": {
                            "Key": _key(f"NAME#{old_name.lower()}", "NAME"),
                            "ConditionExpression": "player = :me",
                            "ExpressionAttributeValues": {":me": {"S": player}},
                        }
                    }
                )
            codes = self._transact(items)
            if not codes:
                return
            if codes[0] == "ConditionalCheckFailed":
                raise NameTaken(name)
        raise Throttled("Your profile is busy; try again")

    def _batch_get(self, keys: list[dict], consistent: bool = False) -> list[dict]:
        """BatchGetItem in chunks of 100, retrying unprocessed keys with a short backoff; keys
        still unprocessed after that are Throttled, never silently missing."""
        found: list[dict] = []
        for start in range(0, len(keys), 100):
            pending = {self.table: {"Keys": keys[start : start + 100], "ConsistentRead": consistent}}
            for attempt in range(5):
                reply = self._request("batch_get_item", RequestItems=pending)
                found.extend(reply["Responses"].get(self.table, []))
                pending = reply.get("UnprocessedKeys") or {}
                if not pending:
                    break
                time.sleep(0.05 * 2**attempt)
            if pending:
                raise Throttled("The game is busy; try again shortly")
        return found
