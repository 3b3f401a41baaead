"""Runs and slots on DynamoDB, with what they need: puzzles, challenges, the expiry job's due runs
and its watermark (the run side of the RunStore port, shared/services/ports.py; the completing
transaction is shared/dynamo/completion.py's).

Requests per API call are kept small on purpose: an answer is one conditional UpdateItem that
appends it without reading the run (a read, then a whole write, when that write refuses it, and
for the answer that completes the run), and a run item stays under 1 KB (it references its puzzle
instead of holding it, and keeps its history compact), so each write costs one write unit.
"""

import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from shared.dynamo import keys
from shared.dynamo.client import Client, ConditionFailed, DataError, Item
from shared.dynamo.codec import (
    attributes,
    encode_run,
    encode_tail_attempt,
    encode_tail_skip,
    stored_profile,
)
from shared.dynamo.puzzle_reads import PuzzleReads
from shared.dynamo.run_conditions import condition_of
from shared.dynamo.tombstone import (
    admission_of,
    admitted,
    not_erased,
    refuse_if_erased,
    refuse_unadmitted,
)
from shared.dynamo.watermark import move_watermark, read_watermark
from shared.game.clock import iso, parse_iso
from shared.game.constants import ATTEMPTS_PER_ROUND, GUEST_RUN_TTL_SECONDS, PRACTICE_RUN_TTL_SECONDS
from shared.game.errors import AccountErased
from shared.game.preconditions import Precondition, answer_preconditions, slot_preconditions
from shared.game.puzzles import Round
from shared.game.results import Challenge
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.services.ports import (
    ActiveRunExists,
    AnswerSlot,
    DueRun,
    QuotaExceeded,
    Slot,
    StaleRun,
    StoredRun,
    Version,
)

# A player's slot in a scope matters only while the scope takes runs: a Daily date for a day, a
# challenge for 7 days after it is created. It is deleted a while after that.
SLOT_TTL_SECONDS = 8 * 24 * 3600
CHALLENGE_QUOTA_TTL_SECONDS = 2 * 24 * 3600
# A challenge's entry by close time is kept this long after it closes (the closing job reads it
# within minutes of the close; the days leave room for a job that was down).
CLOSING_TTL_DAYS = 30


def _epoch(instant: str, seconds: int) -> int:
    return int(parse_iso(instant).timestamp()) + seconds


def run_item(run: Run, version: int) -> Item:
    """The run's item: its compact form and version; a player's run carries the `runs` index
    keys (the player's runs, for `GET /me/export` and `DELETE /me`), and while active the `due`
    index keys (so the expiry job finds it by deadline); practice and guest runs carry their
    deletion time (official runs are kept)."""
    values: dict[str, Any] = {"run": encode_run(run), "version": version}
    if run.player is not None:  # never changes: only the run's first write reaches the index
        values["runs_pk"] = keys.runs_partition(run.player)
        values["runs_sk"] = run.started_at  # short: the run item stays under 1 KB
    if run.player is not None and not run.completed:
        values["due_pk"] = keys.due_partition(run.run_id)
        values["due_sk"] = keys.due_sort(run.deadline, run.run_id)
    if not run.completed:  # what an answer written without a read is conditional on
        values.update(nr=run.round_number, na=run.attempt_number, dl=run.deadline)
    if run.player is None:
        values["expires_at"] = _epoch(run.started_at, GUEST_RUN_TTL_SECONDS)
    elif not run.official:
        values["expires_at"] = _epoch(run.started_at, PRACTICE_RUN_TTL_SECONDS)
    item = {**keys.run_key(run.run_id), **attributes(**values)}
    if not run.completed and run.accepted_words():  # the tail's are found in the tail (`tl`)
        item["used"] = {"SS": sorted(set(run.accepted_words()))}
    return item


def versioned_put(run: Run, version: Version) -> Item:
    """A put of RUN at the next version that holds only if the stored run is still at VERSION:
    the optimistic lock every run write goes through."""
    return {
        "Item": run_item(run, version + 1),
        "ConditionExpression": "version = :v",
        "ExpressionAttributeValues": {":v": {"N": str(version)}},
    }


def save_run(db: Client, run: Run, version: Version) -> Version:
    """Put RUN at the next version if the stored run is still at VERSION (`versioned_put`);
    StaleRun if it is not."""
    try:
        db.call("put_item", **versioned_put(run, version))
    except ConditionFailed as error:
        raise StaleRun(run.run_id) from error
    return Version(version + 1)


class Runs:
    """Puzzles, challenges, runs, slots and the expiry job's reads and watermark."""

    def __init__(self, db: Client, puzzles: PuzzleReads | None = None):
        self.db = db
        self.puzzles = puzzles or PuzzleReads(db)

    # Puzzles and challenges ---------------------------------------------------------------

    def get_puzzle(self, scope: Scope) -> list[Round] | None:
        return self.puzzles.get(scope)

    def put_puzzle(self, scope: Scope, puzzle: list[Round]) -> list[Round]:
        """Store the puzzle unless one is there already; either way return the stored one."""
        try:
            self.db.call(
                "put_item",
                Item={**keys.puzzle_key(scope), **attributes(rounds=json.dumps(puzzle))},
                ConditionExpression="attribute_not_exists(pk)",
            )
            self.puzzles.known[scope] = puzzle
            return puzzle
        except ConditionFailed:
            return self.get_puzzle(scope) or puzzle

    def get_challenge(self, challenge_id: str) -> Challenge | None:
        item = self.db.get(keys.challenge_key(challenge_id))
        return Challenge.model_validate_json(item["data"]["S"]) if item else None

    def create_challenge(self, challenge: Challenge, day: str, quota: int) -> None:
        """Put the challenge and add one to its creator's count for DAY (a per-player-per-date item
        deleted two days on), conditional on the count being under QUOTA, and put the creator's
        copy of it (their list of challenges) and its entry among the challenges closing in its hour
        (shared/dynamo/closing.py), in one transaction."""
        expires = int(
            (datetime.fromisoformat(day) + timedelta(seconds=CHALLENGE_QUOTA_TTL_SECONDS)).timestamp()
        )
        data = attributes(data=challenge.model_dump_json())
        # Its entry among the challenges closing that hour, for the closing job's find-time pass.
        closing_ttl = int((parse_iso(challenge.closes_at) + timedelta(days=CLOSING_TTL_DAYS)).timestamp())
        codes = self.db.transact(
            [
                {
                    "Put": {
                        "Item": {**keys.challenge_key(challenge.challenge_id), **data},
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                },
                {"Put": {"Item": {**keys.made_key(challenge), **data}}},
                {"Put": {"Item": {**keys.closing_key(challenge), **attributes(expires_at=closing_ttl)}}},
                {
                    "Update": {
                        "Key": keys.challenge_quota_key(challenge.creator, day),
                        "UpdateExpression": "ADD created :one SET expires_at = :ttl",
                        "ConditionExpression": "attribute_not_exists(created) OR created < :quota",
                        "ExpressionAttributeValues": {
                            ":one": {"N": "1"},
                            ":quota": {"N": str(quota)},
                            ":ttl": {"N": str(expires)},
                        },
                    }
                },
                not_erased(challenge.creator),
            ]
        )
        refuse_if_erased(codes)
        if codes[3:4] == ["ConditionalCheckFailed"]:
            raise QuotaExceeded(challenge.creator)
        if codes:
            raise DataError("A challenge id was drawn twice")

    def created_challenges(self, creator: str, limit: int) -> list[Challenge]:
        """The challenges CREATOR made, newest first (one Query of their own partition)."""
        items = self.db.newest(keys.player_partition(creator), keys.MADE, limit)
        return [Challenge.model_validate_json(item["data"]["S"]) for item in items]

    # Runs ----------------------------------------------------------------------------------

    def get_run(self, run_id: str, caller: str | None = None, consistent: bool = True) -> StoredRun | None:
        if caller is None:
            item = self.db.get(keys.run_key(run_id), consistent=consistent)
            return None if item is None else self.puzzles.stored_run(run_id, item)
        # One BatchGetItem: the run, and the caller's profile (their admission, and what completing
        # the run writes against).
        wanted = [keys.run_key(run_id), keys.profile_key(caller)]
        found = {i["sk"]["S"]: i for i in self.db.batch_get(wanted, consistent=True)}
        admission = admission_of(found.get("PROFILE"))
        if admission.erased:
            raise AccountErased()
        item = found.get("RUN")
        if item is None:
            return None
        stored = self.puzzles.stored_run(run_id, item)
        profile = stored_profile(found.get("PROFILE"))
        return stored._replace(admission=admission, profile=profile)

    def slot(self, player: str, scope: Scope) -> Slot:
        item = self.db.get(keys.slot_key(player, scope), consistent=True) or {}
        return Slot(item.get("run_id", {}).get("S"), item.get("official_run_id", {}).get("S"))

    def create_run(self, run: Run, replacing: str | None = None) -> Version:
        """Store a new run. A player's run also takes the player's slot in its scope in the same
        transaction, on the conditions the port describes (shared/services/ports.py)."""
        run_put = {"Item": run_item(run, 0), "ConditionExpression": "attribute_not_exists(pk)"}
        if run.player is None:
            self.db.call("put_item", **run_put)
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
                "Key": keys.slot_key(run.player, run.scope),
                "UpdateExpression": update,
                "ConditionExpression": f"{free} AND {decided}" if decided else free,
                "ExpressionAttributeValues": values,
            }
        }
        codes = self.db.transact([{"Put": run_put}, slot_update, admitted(run.player, run.started_at)])
        refuse_unadmitted(self.db, run.player, codes)
        if codes:
            raise ActiveRunExists(run.run_id)
        return Version(0)

    def save_run(self, run: Run, version: Version) -> Version:
        return save_run(self.db, run, version)

    def answer_in_place(self, run_id: str, player: str | None, slot: AnswerSlot, now: datetime) -> StoredRun:
        """One UpdateItem: the attempt appended to the run's tail, the next slot and the version
        moved on, on the conditions the port names; the reply's run from its ALL_NEW image."""
        round_number, attempt_number, word, reason = slot
        accepted = reason is None
        if accepted or attempt_number == ATTEMPTS_PER_ROUND:
            following = (round_number + 1, 1)
        else:
            following = (round_number, attempt_number + 1)
        preconditions = answer_preconditions(player, round_number, attempt_number, word, accepted, now)
        return self._append(run_id, preconditions, following, encode_tail_attempt(word, reason, now))

    def skip_in_place(self, run_id: str, player: str | None, round_number: int, now: datetime) -> StoredRun:
        """One UpdateItem: the skip appended to the run's tail, the next round and the version
        moved on, on the conditions the port names (the round in play, at any attempt)."""
        preconditions = slot_preconditions(player, round_number, None, now)
        return self._append(run_id, preconditions, (round_number + 1, 1), encode_tail_skip(now))

    def _append(
        self, run_id: str, preconditions: list[Precondition], following: tuple[int, int], elements: list[str]
    ) -> StoredRun:
        """Append ELEMENTS to the run's tail and move its next slot to FOLLOWING, on PRECONDITIONS
        (shared/game/preconditions.py, as a condition on the item: shared/dynamo/run_conditions.py)."""
        condition, values = condition_of(preconditions)
        values |= {
            ":nr": {"N": str(following[0])},
            ":na": {"N": str(following[1])},
            ":at": {"L": [{"S": element} for element in elements]},
            ":none": {"L": []},
            ":one": {"N": "1"},
        }
        update = "SET tl = list_append(if_not_exists(tl, :none), :at), nr = :nr, na = :na"
        update += ", version = version + :one"
        try:
            written = self.db.call(
                "update_item",
                Key=keys.run_key(run_id),
                UpdateExpression=update,
                ConditionExpression=condition,
                ExpressionAttributeValues=values,
                ReturnValues="ALL_NEW",
            )
        except ConditionFailed as error:
            raise StaleRun(run_id) from error
        return self.puzzles.stored_run(run_id, written["Attributes"])

    # The expiry job ------------------------------------------------------------------------

    def due_runs(self, now: datetime) -> Iterator[DueRun]:
        """Players' active runs with a deadline at or before NOW, shard by shard, from the sparse
        `due` index (a run leaves it when it completes). The index is eventually consistent: a
        run that has just completed may still be listed (its consistent read then shows it
        completed), and one just started is not yet due."""
        bound = iso(now) + "$"  # `<deadline>#<run id>` sorts before it when the deadline is at or before now
        for number in range(keys.DUE_SHARDS):
            for item in self.db.query(
                IndexName="due",
                KeyConditionExpression="due_pk = :p AND due_sk < :b",
                ExpressionAttributeValues={
                    ":p": {"S": keys.due_shard_partition(number)},
                    ":b": {"S": bound},
                },
            ):
                deadline, _, run_id = item["due_sk"]["S"].partition("#")
                yield DueRun(run_id, deadline)

    def completed_through(self) -> datetime | None:
        return read_watermark(self.db, keys.key(*keys.WATERMARK), "completed_through")

    def mark_completed_through(self, instant: datetime) -> None:
        move_watermark(self.db, keys.key(*keys.WATERMARK), "completed_through", instant)
