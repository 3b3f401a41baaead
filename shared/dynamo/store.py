"""The Store on DynamoDB: one table (shared/dynamo/table.py), items and keys described in docs/data-model.md.

Requests per API call are kept small on purpose: an answer is one GetItem and one PutItem
(a TransactWriteItems instead when it completes the run), and a run item stays under 1 KB (it
references its puzzle instead of holding it, and keeps its history compact), so each write costs
one write unit. DynamoDB's errors become the domain's by one rule: a failed condition is a
conflict (StaleRun, ActiveRunExists, OfficialTaken, QuotaExceeded, NameTaken), throttling is
Throttled (429), a transaction collision is retried by shared/services/retry.py's policy, and anything
else is DataError, which the API logs and answers 500.
"""

import contextlib
import hashlib
import json
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any, Literal

import boto3
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.config import Config
from botocore.exceptions import ClientError

from shared.dynamo.boards import DynamoBoards, scope_key
from shared.dynamo.leagues import DynamoLeagues
from shared.dynamo.player_data import DynamoPlayerData
from shared.dynamo.renames import rename_item
from shared.game.boards import run_duration_ms
from shared.game.clock import iso, parse_iso
from shared.game.constants import GUEST_RUN_TTL_SECONDS, PRACTICE_RUN_TTL_SECONDS
from shared.game.errors import Throttled
from shared.game.names import name_skeleton
from shared.game.puzzles import Round
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import Attempt, Outcome, RoundRecord, Run
from shared.game.scope import Scope
from shared.game.scoring import speed_bonus
from shared.services.ports import (
    ActiveRunExists,
    DueRun,
    NameTaken,
    OfficialTaken,
    QuotaExceeded,
    Slot,
    StaleRun,
    StoredRun,
    Version,
)
from shared.services.retry import ATTEMPTS, Exhausted, pause, retry

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()
# Error codes of a throttled request, and the cancellation-reason codes of a throttled transaction.
_THROTTLING = {
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "ProvisionedThroughputExceeded",
    "ThrottlingError",
}
# The `due` index (players' active runs by deadline) is spread over this many partitions: at the
# rush every run starts and completes within minutes, and each start and completion writes the
# index once (docs/data-model.md has the writes/s per partition).
DUE_SHARDS = 64
# A player's slot in a scope matters only while the scope takes runs: a Daily date for a day, a
# challenge for 7 days after it is created. It is deleted a while after that.
SLOT_TTL_SECONDS = 8 * 24 * 3600
CHALLENGE_QUOTA_TTL_SECONDS = 2 * 24 * 3600
_WATERMARK_KEY = ("JOB#EXPIRY", "WATERMARK")


class ConditionFailed(Exception):
    """A conditional write's condition did not hold (DynamoDB's ConditionalCheckFailedException)."""


class DataError(RuntimeError):
    """DynamoDB refused a request for a reason that is neither a failed condition nor throttling
    (a malformed request, a transaction cancelled for a ValidationError or without reasons): a bug
    or an outage. Never retried; the API logs it and answers 500."""


def _item(**attributes: Any) -> dict[str, Any]:
    return {k: _serializer.serialize(v) for k, v in attributes.items() if v is not None}


def _plain(item: dict[str, Any]) -> dict[str, Any]:
    return {k: _deserializer.deserialize(v) for k, v in item.items()}


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _run_key(run_id: str) -> dict[str, Any]:
    return _key(f"RUN#{run_id}", "RUN")


def _slot_key(player: str, scope: Scope) -> dict[str, Any]:
    """The player's slot in one scope: their latest run of it and their official run of it."""
    return _key(f"PLAYER#{player}", f"SLOT#{scope_key(scope)}")


def _puzzle_key(scope: Scope) -> dict[str, Any]:
    if scope.kind == "challenge":
        return _challenge_key(scope.id)
    return _key(f"PUZZLE#{scope_key(scope)}", "PUZZLE")


def _challenge_key(challenge_id: str) -> dict[str, Any]:
    return _key(f"CHALLENGE#{challenge_id}", "CHALLENGE")


def _made_key(challenge: Challenge) -> dict[str, Any]:
    """The creator's copy of a challenge they made, newest last in their partition."""
    return _key(f"PLAYER#{challenge.creator}", f"MADE#{challenge.created_at}#{challenge.challenge_id}")


def _shard(key: str, shards: int) -> int:
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") % shards


def _epoch(instant: str, seconds: int) -> int:
    return int(parse_iso(instant).timestamp()) + seconds


# The run item's compact form: the puzzle is referenced (by the run's scope), not copied; a round
# is [outcome, points, attempts] (its prompt is the puzzle's, its speed bonus follows from its
# accepted attempt); an accepted attempt is [word, elapsed ms], a rejected one [word, reason,
# elapsed ms], one cut for length [word, reason, digest, elapsed ms]. `w` is when the round in play
# was shown, in milliseconds after the start.
_KIND = {"daily": "d", "challenge": "c"}
_OUTCOME: dict[Outcome | None, str | None] = {"accepted": "a", "lost": "l", "skipped": "s", None: None}
_OUTCOME_OF = {code: outcome for outcome, code in _OUTCOME.items()}
_ENDED: dict[Literal["finished", "expired"] | None, str | None] = {
    "finished": "f",
    "expired": "x",
    None: None,
}
_ENDED_OF = {code: ended for ended, code in _ENDED.items()}
_REASON = {
    "empty": "e",
    "too_long": "l",
    "not_letters": "c",
    "letter_order": "o",
    "forbidden_letter": "f",
    "not_a_word": "w",
    "already_used": "u",
}  # a reason not listed here is stored as it is
_REASON_OF = {v: k for k, v in _REASON.items()}


def _encode_run(run: Run) -> str:
    body: dict[str, Any] = {
        "k": _KIND[run.kind],
        "d": run.date,
        "c": run.challenge_id,
        "p": run.player,
        "o": int(run.official),
        "a": 1 if run.archive else None,
        "s": [run.score, run.combo, run.best_combo, run.longest_word_length],
        "t": [run.started_at, run.deadline, run.completed_at],
        "w": run_duration_ms(run.started_at, run.round_shown_at) if run.round_shown_at else None,
        "e": _ENDED[run.ended_by],
        "h": [[_OUTCOME[r.outcome], r.points, [_encode_attempt(a) for a in r.attempts]] for r in run.history],
    }
    return json.dumps({k: v for k, v in body.items() if v is not None}, separators=(",", ":"))


def _encode_attempt(attempt: Attempt) -> list[Any]:
    reason = _REASON.get(attempt.reason, attempt.reason) if attempt.reason else None
    if attempt.digest:
        return [attempt.word, reason, attempt.digest, attempt.elapsed_ms]
    return [attempt.word, reason, attempt.elapsed_ms] if reason else [attempt.word, attempt.elapsed_ms]


def _decode_attempt(encoded: list[Any]) -> Attempt:
    # An attempt stored before the run kept times has no trailing number: it took 0 ms.
    elapsed_ms = encoded.pop() if isinstance(encoded[-1], int) else 0
    reason = _REASON_OF.get(encoded[1], encoded[1]) if len(encoded) > 1 else None
    digest = encoded[2] if len(encoded) > 2 else None
    return Attempt(
        word=encoded[0], accepted=reason is None, reason=reason, elapsed_ms=elapsed_ms, digest=digest
    )


def _decode_round(number: int, encoded: list[Any], puzzle: list[Round]) -> RoundRecord:
    outcome, points, attempts = encoded
    decoded = [_decode_attempt(a) for a in attempts]
    accepted = [a.elapsed_ms for a in decoded if a.accepted]
    return RoundRecord(
        round=number,
        prompt=puzzle[number - 1].prompt,
        forbidden=puzzle[number - 1].forbidden,
        attempts=decoded,
        outcome=_OUTCOME_OF[outcome],
        points=points,
        speed_bonus=speed_bonus(accepted[0]) if accepted else 0,
    )


def _decode_run(run_id: str, text: str, puzzle: list[Round]) -> Run:
    body = json.loads(text)
    score, combo, best_combo, longest = body["s"]
    started_at, deadline, completed_at = body["t"]
    shown = body.get("w")
    history = [_decode_round(number, r, puzzle) for number, r in enumerate(body["h"], start=1)]
    return Run(
        run_id=run_id,
        kind="daily" if body["k"] == "d" else "challenge",
        date=body["d"],
        challenge_id=body.get("c"),
        player=body.get("p"),
        official=bool(body["o"]),
        archive=bool(body.get("a")),
        puzzle=puzzle,
        history=history,
        score=score,
        combo=combo,
        best_combo=best_combo,
        longest_word_length=longest,
        started_at=started_at,
        deadline=deadline,
        completed_at=completed_at,
        ended_by=_ENDED_OF[body.get("e")],
        round_shown_at=iso(parse_iso(started_at) + timedelta(milliseconds=shown))
        if shown is not None
        else None,
    )


class DynamoStore(DynamoBoards, DynamoLeagues, DynamoPlayerData):
    """The Store on one DynamoDB table (its board side in shared/dynamo/boards.py, its leagues in
    shared/dynamo/leagues.py, a player's export and erasure in shared/dynamo/player_data.py)."""

    def __init__(self, table_name: str, client: Any = None, sleep: Callable[[float], None] = time.sleep):
        self.table = table_name
        self.client = client or boto3.client(
            "dynamodb", config=Config(retries={"mode": "standard", "max_attempts": 3})
        )
        self.sleep = sleep  # the retry policy's pauses
        self._puzzles: dict[Scope, list[Round]] = {}  # a stored puzzle never changes

    # Requests and DynamoDB's errors --------------------------------------------------------

    def _request(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        """One DynamoDB request. A failed condition raises ConditionFailed, throttling Throttled
        (429); a cancelled transaction passes through to `_transact`; anything else is DataError."""
        try:
            reply: dict[str, Any] = getattr(self.client, operation)(**kwargs)
            return reply
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code in _THROTTLING:
                raise Throttled("The game is busy; try again shortly") from error
            if code == "ConditionalCheckFailedException":
                raise ConditionFailed(operation) from error
            if code == "TransactionCanceledException":
                raise
            raise DataError(f"DynamoDB {operation} failed: {code}") from error

    def _call(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        """A request on the game's table."""
        return self._request(operation, TableName=self.table, **kwargs)

    def _transact(self, items: list[dict[str, Any]]) -> list[str]:
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
                self._request("transact_write_items", TransactItems=items)
                return []
            except ClientError as error:
                reasons = error.response.get("CancellationReasons") or []
                codes = [reason.get("Code") or "None" for reason in reasons]
                if any(code in _THROTTLING for code in codes):
                    raise Throttled("The game is busy; try again shortly") from error
                understood = {"None", "ConditionalCheckFailed", "TransactionConflict"}
                if "ConditionalCheckFailed" in codes and set(codes) <= understood:
                    return codes
                if "TransactionConflict" in codes and set(codes) <= understood:
                    raise _Collided() from error
                raise DataError(f"Transaction cancelled: {codes or 'no reasons given'}") from error

        try:
            return retry(once, _Collided, sleep=self.sleep)
        except Exhausted as error:
            raise Throttled("The game is busy; try again shortly") from error

    # Puzzles and challenges ---------------------------------------------------------------

    def get_puzzle(self, scope: Scope) -> list[Round] | None:
        if scope not in self._puzzles:
            item = self._call("get_item", Key=_puzzle_key(scope)).get("Item")
            if item is None:
                return None
            if scope.kind == "challenge":
                self._puzzles[scope] = Challenge.model_validate_json(item["data"]["S"]).puzzle
            else:
                self._puzzles[scope] = [Round(*r) for r in json.loads(item["rounds"]["S"])]
        return self._puzzles[scope]

    def put_puzzle(self, scope: Scope, puzzle: list[Round]) -> list[Round]:
        """Store the puzzle unless one is there already; either way return the stored one."""
        try:
            self._call(
                "put_item",
                Item={**_puzzle_key(scope), **_item(rounds=json.dumps(puzzle))},
                ConditionExpression="attribute_not_exists(pk)",
            )
            return puzzle
        except ConditionFailed:
            return self.get_puzzle(scope) or puzzle

    def get_challenge(self, challenge_id: str) -> Challenge | None:
        item = self._call("get_item", Key=_challenge_key(challenge_id)).get("Item")
        return Challenge.model_validate_json(item["data"]["S"]) if item else None

    def create_challenge(self, challenge: Challenge, day: str, quota: int) -> None:
        """Put the challenge and add one to its creator's count for DAY (a per-player-per-date item
        deleted two days on), conditional on the count being under QUOTA, and put the creator's
        copy of it (their list of challenges), in one transaction."""
        counter = _key(f"PLAYER#{challenge.creator}", f"CHALLENGES#{day}")
        expires = int(
            (datetime.fromisoformat(day) + timedelta(seconds=CHALLENGE_QUOTA_TTL_SECONDS)).timestamp()
        )
        codes = self._transact(
            [
                {
                    "Put": {
                        "Item": {
                            **_challenge_key(challenge.challenge_id),
                            **_item(data=challenge.model_dump_json()),
                        },
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                },
                {"Put": {"Item": {**_made_key(challenge), **_item(data=challenge.model_dump_json())}}},
                {
                    "Update": {
                        "Key": counter,
                        "UpdateExpression": "ADD created :one SET expires_at = :ttl",
                        "ConditionExpression": "attribute_not_exists(created) OR created < :quota",
                        "ExpressionAttributeValues": {
                            ":one": {"N": "1"},
                            ":quota": {"N": str(quota)},
                            ":ttl": {"N": str(expires)},
                        },
                    }
                },
            ]
        )
        if codes[2:3] == ["ConditionalCheckFailed"]:
            raise QuotaExceeded(challenge.creator)
        if codes:
            raise DataError("A challenge id was drawn twice")

    def created_challenges(self, creator: str, limit: int) -> list[Challenge]:
        """The challenges CREATOR made, newest first (one Query of their own partition)."""
        reply = self._call(
            "query",
            KeyConditionExpression="pk = :p AND begins_with(sk, :made)",
            ExpressionAttributeValues={":p": {"S": f"PLAYER#{creator}"}, ":made": {"S": "MADE#"}},
            ScanIndexForward=False,
            Limit=limit,
        )
        return [Challenge.model_validate_json(item["data"]["S"]) for item in reply.get("Items", [])]

    # Runs ----------------------------------------------------------------------------------

    def get_run(self, run_id: str) -> StoredRun | None:
        item = self._call("get_item", Key=_run_key(run_id), ConsistentRead=True).get("Item")
        if item is None:
            return None
        if "run" not in item:  # written before the compact form: the whole run as JSON, puzzle included
            return StoredRun(Run.model_validate_json(item["data"]["S"]), Version(int(item["version"]["N"])))
        text = item["run"]["S"]
        body = json.loads(text)
        scope = Scope.of(body["d"], body.get("c"))
        puzzle = self.get_puzzle(scope)
        if puzzle is None:
            raise DataError(f"The puzzle of run {run_id} is missing")
        return StoredRun(_decode_run(run_id, text, puzzle), Version(int(item["version"]["N"])))

    def slot(self, player: str, scope: Scope) -> Slot:
        item = self._call("get_item", Key=_slot_key(player, scope), ConsistentRead=True).get("Item", {})
        return Slot(item.get("run_id", {}).get("S"), item.get("official_run_id", {}).get("S"))

    def _run_item(self, run: Run, version: int) -> dict[str, Any]:
        """The run's item: its compact form and version; a player's run carries the `runs` index
        keys (the player's runs, for `GET /me/export` and `DELETE /me`), and while active the `due`
        index keys (so the expiry job finds it by deadline); practice and guest runs
        carry their deletion time (official runs are kept)."""
        attributes: dict[str, Any] = {"run": _encode_run(run), "version": version}
        if run.player is not None:  # never changes: only the run's first write reaches the index
            attributes["runs_pk"] = f"RUNS#{run.player}"
            attributes["runs_sk"] = run.started_at  # short: the run item stays under 1 KB
        if run.player is not None and not run.completed:
            attributes["due_pk"] = f"DUE#{_shard(run.run_id, DUE_SHARDS)}"
            attributes["due_sk"] = f"{run.deadline}#{run.run_id}"
        if run.player is None:
            attributes["expires_at"] = _epoch(run.started_at, GUEST_RUN_TTL_SECONDS)
        elif not run.official:
            attributes["expires_at"] = _epoch(run.started_at, PRACTICE_RUN_TTL_SECONDS)
        return {**_run_key(run.run_id), **_item(**attributes)}

    def create_run(self, run: Run, replacing: str | None = None) -> Version:
        """Store a new run. A player's run also takes the player's slot in its scope in the same
        transaction, on the conditions the port describes (shared/services/ports.py)."""
        run_put = {"Put": {"Item": self._run_item(run, 0), "ConditionExpression": "attribute_not_exists(pk)"}}
        if run.player is None:
            self._call("put_item", **run_put["Put"])
            return Version(0)
        values = {
            ":r": {"S": run.run_id},
            ":ttl": {"N": str(_epoch(run.started_at, SLOT_TTL_SECONDS))},
        }
        free = "attribute_not_exists(run_id)"
        if replacing:
            free = "(attribute_not_exists(run_id) OR run_id = :replacing)"
            values[":replacing"] = {"S": replacing}
        decided: str | None
        if run.official:
            update = "SET run_id = :r, official_run_id = :r, expires_at = :ttl"
            decided = "attribute_not_exists(official_run_id)"
            if replacing:
                decided = "(attribute_not_exists(official_run_id) OR official_run_id = :replacing)"
        elif run.archive:  # a past Daily: no official run is decided any more
            update = "SET run_id = :r, expires_at = :ttl"
            decided = None
        else:
            update = "SET run_id = :r, expires_at = :ttl"
            decided = "attribute_exists(official_run_id)"
        slot_update = {
            "Update": {
                "Key": _slot_key(run.player, run.scope),
                "UpdateExpression": update,
                "ConditionExpression": f"{free} AND {decided}" if decided else free,
                "ExpressionAttributeValues": values,
            }
        }
        if self._transact([run_put, slot_update]):
            raise ActiveRunExists(run.run_id)
        return Version(0)

    def _versioned_put(self, run: Run, version: Version) -> dict[str, Any]:
        """A put of RUN at the next version that holds only if the stored run is still at VERSION:
        the optimistic lock every run write goes through."""
        return {
            "Item": self._run_item(run, version + 1),
            "ConditionExpression": "version = :v",
            "ExpressionAttributeValues": {":v": {"N": str(version)}},
        }

    def save_run(self, run: Run, version: Version) -> Version:
        try:
            self._call("put_item", **self._versioned_put(run, version))
        except ConditionFailed as error:
            raise StaleRun(run.run_id) from error
        return Version(version + 1)

    def complete_run(self, run: Run, version: Version) -> None:
        """Write the completed run and, if it is official, record its official result, in one
        transaction; any other run is one conditional put (its slot needs no write)."""
        if run.player is None or not run.official:
            self.save_run(run, version)
            return
        items = [
            {"Put": self._versioned_put(run, version)},
            *self._official_writes(OfficialResult.of_run(run)),
        ]
        codes = self._transact(items)
        if not codes:
            return
        if codes[0] == "ConditionalCheckFailed":
            raise StaleRun(run.run_id)  # read again: the run may have completed meanwhile
        if codes[1] == "ConditionalCheckFailed":
            raise OfficialTaken(run.run_id)
        # The player's profile (name or stats) changed since _official_writes read it: read again.
        raise StaleRun(run.run_id)

    # The expiry job ------------------------------------------------------------------------

    def due_runs(self, now: datetime) -> Iterator[DueRun]:
        """Players' active runs with a deadline at or before NOW, shard by shard, from the sparse
        `due` index (a run leaves it when it completes). The index is eventually consistent: a
        run that has just completed may still be listed (its consistent read then shows it
        completed), and one just started is not yet due."""
        # `<deadline>#<run id>` sorts before `<now>$` exactly when the deadline is at or before now.
        bound = iso(now) + "$"
        for shard in range(DUE_SHARDS):
            for item in self._query_items(
                IndexName="due",
                KeyConditionExpression="due_pk = :p AND due_sk < :b",
                ExpressionAttributeValues={":p": {"S": f"DUE#{shard}"}, ":b": {"S": bound}},
            ):
                deadline, _, run_id = item["due_sk"]["S"].partition("#")
                yield DueRun(run_id, deadline)

    def completed_through(self) -> datetime | None:
        item = self._call("get_item", Key=_key(*_WATERMARK_KEY), ConsistentRead=True).get("Item")
        return parse_iso(item["completed_through"]["S"]) if item else None

    def mark_completed_through(self, instant: datetime) -> None:
        with contextlib.suppress(ConditionFailed):  # a later pass got there first
            self._call(
                "put_item",
                Item={**_key(*_WATERMARK_KEY), **_item(completed_through=iso(instant))},
                ConditionExpression="attribute_not_exists(pk) OR completed_through < :t",
                ExpressionAttributeValues={":t": {"S": iso(instant)}},
            )

    # Profiles ------------------------------------------------------------------------------

    def set_display_name(self, player: str, name: str) -> None:
        """Claim NAME (unique by its look-alike skeleton), release the old one and set the profile's
        name (an update: the profile keeps the stats too), in one transaction that holds only if
        the profile still shows the name read first (a concurrent rename by the same player makes
        it read again; a completion writing the stats meanwhile does not: it leaves the name)."""
        profile_key = _key(f"PLAYER#{player}", "PROFILE")
        for _ in range(3):
            old = self._call("get_item", Key=profile_key, ConsistentRead=True).get("Item", {})
            old_name = old.get("display_name", {}).get("S")
            # An update of the name alone: the profile also keeps the player's stats.
            profile_update: dict[str, Any] = {
                "Key": profile_key,
                "UpdateExpression": "SET display_name = :new",
                "ExpressionAttributeValues": {":new": {"S": name}},
            }
            if old_name:
                profile_update["ConditionExpression"] = "display_name = :old"
                profile_update["ExpressionAttributeValues"][":old"] = {"S": old_name}
            else:
                profile_update["ConditionExpression"] = "attribute_not_exists(display_name)"
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
            items.append({"Update": profile_update})
            # The rename's record for the boards: the table's stream hands it to the consumer,
            # which shows the profile's name on the live boards (shared/dynamo/renames.py).
            items.append({"Put": {"Item": rename_item(player, name)}})
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
        """BatchGetItem in chunks of 100, retrying unprocessed keys by the retry policy; keys
        still unprocessed after that are Throttled, never silently missing."""
        found: list[dict[str, Any]] = []
        for start in range(0, len(keys), 100):
            pending = {self.table: {"Keys": keys[start : start + 100], "ConsistentRead": consistent}}
            for attempt in range(ATTEMPTS):
                reply = self._request("batch_get_item", RequestItems=pending)
                found.extend(reply["Responses"].get(self.table, []))
                pending = reply.get("UnprocessedKeys") or {}
                if not pending:
                    break
                if attempt < ATTEMPTS - 1:
                    self.sleep(pause(attempt))
            if pending:
                raise Throttled("The game is busy; try again shortly")
        return found

    def _batch_delete(self, keys: list[dict[str, Any]]) -> None:
        """BatchWriteItem deletes of KEYS (at most 25), retrying unprocessed ones by the retry
        policy; any still unprocessed after that are Throttled."""
        pending = {self.table: [{"DeleteRequest": {"Key": key}} for key in keys]}
        for attempt in range(ATTEMPTS):
            pending = self._request("batch_write_item", RequestItems=pending).get("UnprocessedItems") or {}
            if not pending:
                return
            if attempt < ATTEMPTS - 1:
                self.sleep(pause(attempt))
        raise Throttled("The game is busy; try again shortly")


class _Collided(Exception):
    """A transaction was cancelled by TransactionConflict: tried again."""
