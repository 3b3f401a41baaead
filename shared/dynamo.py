"""The Store on DynamoDB: one table (shared/table.py), items and keys described in docs/data-model.md.

Requests per API call are kept small on purpose: an answer is one GetItem and one PutItem
(a TransactWriteItems instead when it completes the run). DynamoDB's conditional-check
failures, transaction cancellations and throttling become the domain errors of shared/store.py.
"""

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import boto3
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.config import Config
from botocore.exceptions import ClientError

from shared.boards import BOARD_SHARDS, rank_key, shard_of
from shared.clock import parse_iso
from shared.constants import GUEST_RUN_TTL_SECONDS
from shared.errors import Throttled
from shared.profiles import name_skeleton
from shared.puzzles import Round
from shared.runs import Run
from shared.store import ActiveRunExists, Challenge, NameTaken, OfficialResult, OfficialTaken, StaleRun

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()
_TRANSACTION_TRIES = 4
# Error codes of a throttled request, and the cancellation-reason codes of a throttled transaction.
_THROTTLING = {
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "ProvisionedThroughputExceeded",
    "ThrottlingError",
}


def _item(**attributes: Any) -> dict[str, Any]:
    return {k: _serializer.serialize(v) for k, v in attributes.items() if v is not None}


def _plain(item: dict[str, Any]) -> dict[str, Any]:
    return {k: _deserializer.deserialize(v) for k, v in item.items()}


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _run_key(run_id: str) -> dict[str, Any]:
    return _key(f"RUN#{run_id}", "RUN")


def _active_slot(player: str) -> dict[str, Any]:
    """The player's one active-run slot: a player has at most one active run at a time."""
    return _key(f"PLAYER#{player}", "ACTIVE")


def _active_partition(date: str, shard: int) -> str:
    return f"ACTIVE#{date}#{shard}"


class DynamoStore:
    """The Store on one DynamoDB table."""

    def __init__(self, table_name: str, client: Any = None):
        self.table = table_name
        self.client = client or boto3.client(
            "dynamodb", config=Config(retries={"mode": "standard", "max_attempts": 3})
        )

    def _request(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        """One DynamoDB request; throttling becomes Throttled (429), other errors pass through."""
        try:
            reply: dict[str, Any] = getattr(self.client, operation)(**kwargs)
            return reply
        except ClientError as error:
            if error.response["Error"]["Code"] in _THROTTLING:
                raise Throttled("The game is busy; try again shortly") from error
            raise

    def _call(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        """A request on the game's table."""
        return self._request(operation, TableName=self.table, **kwargs)

    def _transact(self, items: list[dict[str, Any]]) -> list[str]:
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

    def _run_item(self, run: Run) -> dict[str, Any]:
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

    def _versioned_put(self, run: Run) -> dict[str, Any]:
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
        items: list[dict[str, Any]] = [
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
        if official is not None and "ConditionalCheckFailed" in codes[2:]:
            raise OfficialTaken(run.run_id)
        raise StaleRun(run.run_id)

    def _official_writes(self, result: OfficialResult) -> list[dict[str, Any]]:
        shard = shard_of(result.player)
        counters = f"COUNT#{result.scope}#{shard}"
        item = {
            **_key(f"PLAYER#{result.player}", f"OFFICIAL#{result.scope}"),
            **_item(
                data=result.model_dump_json(),
                board_pk=f"BOARD#{result.scope}#{shard}",
                board_sk=rank_key(
                    result.score,
                    result.best_combo,
                    result.longest_word_length,
                    result.completed_at,
                    result.run_id,
                ),
                history_pk=f"HISTORY#{result.player}",
                history_sk=f"{result.completed_at}#{result.scope}",
            ),
        }
        return [
            {"Put": {"Item": item, "ConditionExpression": "attribute_not_exists(pk)"}},
            {
                "Update": {
                    "Key": _key(counters, "SCORES"),
                    "UpdateExpression": "ADD #s :one",
                    "ExpressionAttributeNames": {"#s": f"s{result.score}"},
                    "ExpressionAttributeValues": {":one": {"N": "1"}},
                }
            },
            {
                "Update": {
                    "Key": _key(counters, f"SCORE#{result.score}"),
                    "UpdateExpression": "ADD #t :one",
                    "ExpressionAttributeNames": {"#t": f"t{result.best_combo}_{result.longest_word_length}"},
                    "ExpressionAttributeValues": {":one": {"N": "1"}},
                }
            },
        ]

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

    # Boards and history --------------------------------------------------------------------

    def board_page(self, scope: str, after: str | None, limit: int) -> list[OfficialResult]:
        """The best LIMIT official results after rank key AFTER: the top of each shard, merged."""
        rows: list[tuple[str, OfficialResult]] = []
        for shard in range(BOARD_SHARDS):
            condition = "board_pk = :p" + (" AND board_sk > :a" if after else "")
            values = {":p": {"S": f"BOARD#{scope}#{shard}"}}
            if after:
                values[":a"] = {"S": after}
            page = self._call(
                "query",
                IndexName="board",
                KeyConditionExpression=condition,
                ExpressionAttributeValues=values,
                Limit=limit,
            )
            rows.extend(
                (i["board_sk"]["S"], OfficialResult.model_validate_json(i["data"]["S"]))
                for i in page["Items"]
            )
        rows.sort(key=lambda row: row[0])
        return [result for _, result in rows[:limit]]

    def count_better(self, scope: str, score: int, best_combo: int, longest: int) -> int:
        """How many official results of SCOPE rank strictly better than (score, combo, longest):
        one BatchGetItem of 2 counter items per shard, whatever the number of players."""
        keys = []
        for shard in range(BOARD_SHARDS):
            keys.append(_key(f"COUNT#{scope}#{shard}", "SCORES"))
            keys.append(_key(f"COUNT#{scope}#{shard}", f"SCORE#{score}"))
        better = 0
        for item in self._batch_get(keys):
            for name, value in item.items():
                if item["sk"]["S"] == "SCORES" and name.startswith("s") and name != "sk":
                    if int(name[1:]) > score:
                        better += int(value["N"])
                elif item["sk"]["S"] != "SCORES" and name.startswith("t"):
                    combo, length = (int(x) for x in name[1:].split("_"))
                    if (combo, length) > (best_combo, longest):
                        better += int(value["N"])
        return better

    def official_result(self, player: str, scope: str) -> OfficialResult | None:
        item = self._call("get_item", Key=_key(f"PLAYER#{player}", f"OFFICIAL#{scope}")).get("Item")
        return OfficialResult.model_validate_json(item["data"]["S"]) if item else None

    def history(self, player: str, after: str | None, limit: int) -> list[OfficialResult]:
        """The player's official results, newest first, after history key AFTER."""
        condition = "history_pk = :p" + (" AND history_sk < :a" if after else "")
        values = {":p": {"S": f"HISTORY#{player}"}}
        if after:
            values[":a"] = {"S": after}
        page = self._call(
            "query",
            IndexName="history",
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            ScanIndexForward=False,
            Limit=limit,
        )
        return [OfficialResult.model_validate_json(i["data"]["S"]) for i in page["Items"]]

    # Profiles ------------------------------------------------------------------------------

    def display_names(self, players: list[str]) -> dict[str, str]:
        """The chosen display name of each player who has set one."""
        unique = list(dict.fromkeys(players))
        keys = [_key(f"PLAYER#{p}", "PROFILE") for p in unique]
        return {
            item["pk"]["S"].removeprefix("PLAYER#"): item["display_name"]["S"]
            for item in self._batch_get(keys)
            if "display_name" in item
        }

    def set_display_name(self, player: str, name: str) -> None:
        """Claim NAME (unique by its look-alike skeleton), release the old one and update the profile, in
        one transaction that holds only if the profile still shows the name read first (a
        concurrent rename by the same player makes it read again)."""
        profile_key = _key(f"PLAYER#{player}", "PROFILE")
        for _ in range(3):
            old = self._call("get_item", Key=profile_key, ConsistentRead=True).get("Item", {})
            old_name = old.get("display_name", {}).get("S")
            profile_put: dict[str, Any] = {"Item": {**profile_key, **_item(display_name=name)}}
            if old_name:
                profile_put["ConditionExpression"] = "display_name = :old"
                profile_put["ExpressionAttributeValues"] = {":old": {"S": old_name}}
            else:
                profile_put["ConditionExpression"] = "attribute_not_exists(display_name)"
            # The claim is keyed by the name's look-alike skeleton; names claimed before skeletons
            # were keyed by name.lower(): that key is still checked and released (docs/game.md).
            claim, legacy = name_skeleton(name), name.lower()
            mine = {":me": {"S": player}}
            items: list[dict[str, Any]] = [
                {
                    "Put": {
                        "Item": {**_key(f"NAME#{claim}", "NAME"), **_item(player=player)},
                        "ConditionExpression": "attribute_not_exists(pk) OR player = :me",
                        "ExpressionAttributeValues": mine,
                    }
                },
            ]
            if legacy != claim:
                items.append(
                    {
                        "ConditionCheck": {
                            "Key": _key(f"NAME#{legacy}", "NAME"),
                            "ConditionExpression": "attribute_not_exists(pk) OR player = :me",
                            "ExpressionAttributeValues": mine,
                        }
                    }
                )
            claims = len(items)
            items.append({"Put": profile_put})
            released = {name_skeleton(old_name), old_name.lower()} - {claim, legacy} if old_name else set()
            for old_key in sorted(released):
                # Of two look-alike names taken before skeletons, only one holds the skeleton.
                old_claim = _key(f"NAME#{old_key}", "NAME")
                holder = self._call("get_item", Key=old_claim, ConsistentRead=True).get("Item", {})
                if holder.get("player", {}).get("S") == player:
                    items.append(
                        {
                            "Delete": {
                                "Key": old_claim,
                                "ConditionExpression": "player = :me",
                                "ExpressionAttributeValues": mine,
                            }
                        }
                    )
            codes = self._transact(items)
            if not codes:
                return
            if "ConditionalCheckFailed" in codes[:claims]:
                raise NameTaken(name)
        raise Throttled("Your profile is busy; try again")

    def _batch_get(self, keys: list[dict[str, Any]], consistent: bool = False) -> list[dict[str, Any]]:
        """BatchGetItem in chunks of 100, retrying unprocessed keys with a short backoff; keys
        still unprocessed after that are Throttled, never silently missing."""
        found: list[dict[str, Any]] = []
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
