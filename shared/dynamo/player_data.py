"""A player's data on DynamoDB (the PlayerDataStore of shared/services/player_data.py).

What is held about a player: the items of their own partition (`PLAYER#<sub>`: profile, slots,
official results, challenge quotas and records, their leagues), their runs (found by the `runs`
index, and by their slots and official results), their name claim, the challenges they created
and the leagues they are in. docs/data-model.md lists the items.
"""

from contextlib import suppress
from datetime import timedelta
from typing import Any, NamedTuple

from shared.dynamo import keys
from shared.dynamo.client import Client, ConditionFailed, Item
from shared.dynamo.codec import display_name, official_result_of, stats_of
from shared.dynamo.leagues import league_of, leave_items
from shared.dynamo.migrations import old_claim
from shared.dynamo.names import release_claim, rename_row
from shared.dynamo.puzzle_reads import PuzzleReads
from shared.dynamo.tombstone import (
    ERASED_AT,
    HELD_NAME,
    NOT_ERASED,
    STOPPED_AT,
    admission_of,
    sanctions_of,
    tombstone_item,
)
from shared.dynamo.top_item import key_id, renamed_top
from shared.game.boards import PlayerProfile
from shared.game.clock import iso, parse_iso
from shared.game.constants import TIME_LIMIT_SECONDS
from shared.game.erasure import Carried, ErasurePlan, ErasureRead
from shared.game.moderation import LogEntry, Report
from shared.game.names import DELETED_PLAYER_NAME, name_skeleton
from shared.game.results import Challenge, OfficialResult
from shared.services.player_data import Holdings, SlotRecord


def _kind(item: Item) -> str:
    """An item of the player's partition by its kind: the sort key up to its first `#`."""
    return str(item["sk"]["S"]).split("#", 1)[0]


def _rest(item: Item) -> str:
    return str(item["sk"]["S"]).split("#", 1)[1]


def _made_id(item: Item) -> str:
    """The challenge id of a creator's copy of a challenge (`MADE#<created_at>#<challenge_id>`)."""
    return str(item["sk"]["S"]).rsplit("#", 1)[1]


class _Own:
    """The items of a player's partition (read in order), by their kind."""

    def __init__(self, items: list[Item]):
        self.items = items
        self.kinds: dict[str, list[Item]] = {}
        for item in items:
            self.kinds.setdefault(_kind(item), []).append(item)

    def of(self, kind: str) -> list[Item]:
        return self.kinds.get(kind, [])

    def one(self, kind: str) -> Item:
        """The item of a kind there is at most one of ({} when there is none)."""
        return next(iter(self.of(kind)), {})

    def league_ids(self) -> list[str]:
        return sorted(self.one("LEAGUES").get("ids", {}).get("SS", []))

    def data(self, kind: str) -> list[str]:
        """The `data` (JSON) of each item of KIND, newest first (their sort keys end in a time)."""
        return [str(item["data"]["S"]) for item in reversed(self.of(kind))]


_TRANSACTION_ITEMS = 100  # DynamoDB's limit on items per TransactWriteItems

# The kinds of the player's partition an export reads by their own rules (the rest go to `other`).
_KNOWN = {
    "PROFILE",
    "STATS",
    "SLOT",
    "OFFICIAL",
    "CHALLENGES",
    "MADE",
    "LEAGUES",
    "RENAME",
    "REPORT",
    "MODLOG",
}


class DynamoPlayerData:
    def __init__(self, db: Client, puzzles: PuzzleReads):
        self.db = db
        self.puzzles = puzzles  # to read the runs' items
        # The `runs` index as begin_erasure read it, for erasure_read (a step after it, or on a
        # retry in another container, which reads it again): the runs started since show in the
        # player's slots, which erasure_read reads consistently.
        self._indexed: dict[str, list[str]] = {}

    def official_results(self, player: str) -> list[OfficialResult]:
        """The player's official results (a moderator's hide_name renames their board rows)."""
        return [official_result_of(item) for item in _Own(self._own_items(player)).of("OFFICIAL")]

    def _own_items(self, player: str) -> list[Item]:
        """Every item of the player's partition, read consistently."""
        return list(
            self.db.query(
                KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": keys.player_partition(player)}},
                ConsistentRead=True,
            )
        )

    def _run_ids(self, player: str, own: _Own) -> list[str]:
        """The player's runs: the `runs` index (eventually consistent), and, read consistently,
        the latest run of each slot (so a run just started is found) and each official run."""
        kept = self._indexed.pop(player, None)  # read by begin_erasure just before
        indexed = kept if kept is not None else [keys.run_id_of(i) for i in self._indexed_runs(player)]
        slots = [item[a]["S"] for item in own.of("SLOT") for a in ("run_id", "official_run_id") if a in item]
        official = [official_result_of(item).run_id for item in own.of("OFFICIAL")]
        return list(dict.fromkeys(indexed + slots + official))

    def holdings(self, player: str) -> Holdings:
        """Three requests whatever the player holds (more only past 100 runs and leagues): the
        player's partition (profile, stats, slots, results, their copies of the challenges they
        made, their list of leagues), read consistently, the `runs` index, and one BatchGetItem of
        the runs, the name claim and the leagues (eventually consistent: a run written in the
        second before the export may show as it was a second earlier)."""
        own = _Own(self._own_items(player))
        profile_item = own.one("PROFILE")
        profile = PlayerProfile(display_name(profile_item), stats_of(profile_item)[0])
        shown = profile.display_name if profile.display_name != DELETED_PLAYER_NAME else None
        claim = name_skeleton(shown) if shown else None
        wanted = [keys.run_key(run_id) for run_id in self._run_ids(player, own)]
        wanted += [keys.name_key(claim)] if claim else []
        wanted += [keys.league_key(league_id) for league_id in own.league_ids()]
        found: dict[str, list[Item]] = {"RUN": [], "NAME": [], "LEAGUE": []}
        for item in self.db.batch_get(wanted):  # eventually consistent; by the partition key's kind
            found[str(item["pk"]["S"]).split("#", 1)[0]].append(item)
        runs = [self.puzzles.stored_run(keys.run_id_of(item), item).run for item in found["RUN"]]
        held = any(item.get("player", {}).get("S") == player for item in found["NAME"])
        return Holdings(
            profile=profile,
            name_claim=claim if held else None,
            runs=sorted(runs, key=lambda run: run.started_at),
            leagues=sorted(map(league_of, found["LEAGUE"]), key=lambda league: league.league_id),
            admission=admission_of(profile_item),
            sanctions=sanctions_of(profile_item),
            **_records(own),
        )

    def begin_erasure(self, player: str, at: str) -> None:
        """The tombstone and the stop of the player's runs in play, in one transaction after one
        Query of the `runs` index (kept for `erasure_read`, which then needs no second one):
        the profile (made if there is none) shows "deleted player" from now on, the name it
        showed kept aside (`held_name`) until the erasure has released its claims, and each
        run started within a time limit of AT is marked `stopped_at` (see `stop_answers`). Done
        once: begun before (a retry), the tombstone is kept and the runs are marked one by one."""
        indexed = self._indexed_runs(player)
        self._indexed[player] = [keys.run_id_of(item) for item in indexed]
        since = iso(parse_iso(at) - timedelta(seconds=TIME_LIMIT_SECONDS))
        recent = [keys.run_id_of(item) for item in indexed if item.get("runs_sk", {}).get("S", "") > since]
        stops = [_stop(run_id, at) for run_id in recent[: _TRANSACTION_ITEMS - 1]]
        if not self.db.transact([{"Update": _tombstone(player, at)}, *stops]):
            self._mark(recent[_TRANSACTION_ITEMS - 1 :], at)  # past a transaction's room: alone
            return
        with suppress(ConditionFailed):  # begun before, or a run went meanwhile: one by one
            self.db.call("update_item", **_tombstone(player, at))
        self._mark(recent, at)

    def _indexed_runs(self, player: str) -> list[Item]:
        """The player's runs in the `runs` index (eventually consistent: it trails by under a second)."""
        return list(
            self.db.query(
                IndexName="runs",
                KeyConditionExpression="runs_pk = :p",
                ExpressionAttributeValues={":p": {"S": keys.runs_partition(player)}},
            )
        )

    def _mark(self, run_ids: list[str], at: str) -> None:
        for run_id in run_ids:
            with suppress(ConditionFailed):  # gone already
                self.db.call("update_item", **_stop(run_id, at)["Update"])

    def stop_answers(self, player: str, at: str) -> None:
        """Mark the player's runs that may still take an answer (started within a time limit of
        AT: the `runs` index's sort key is the start) `stopped_at` AT, after their admission
        changed (the tombstone, a ban): an answer is one UpdateItem that reads no profile
        (Runs.answer_in_place), and its condition refuses a marked run, so from here on the
        answer falls back to the read that says 401 or 403. A run started in the last moment
        before the tombstone may not be in the index yet (it trails by under a second): its
        answers count until the erasure deletes it."""
        since = iso(parse_iso(at) - timedelta(seconds=TIME_LIMIT_SECONDS))
        recent = self.db.query(
            IndexName="runs",
            KeyConditionExpression="runs_pk = :p AND runs_sk > :since",
            ExpressionAttributeValues={":p": {"S": keys.runs_partition(player)}, ":since": {"S": since}},
        )
        self._mark([keys.run_id_of(item) for item in recent], at)

    def erasure_read(self, player: str) -> ErasureRead:
        """What the erasure changes, read in three requests: a Query of the player's partition
        (consistent) and one of the `runs` index (kept from begin_erasure when it ran here just
        before), and one BatchGetItem (consistent) of the top items of their boards, their
        leagues and their challenges."""
        own = _Own(self._own_items(player))
        held = own.one("PROFILE").get(HELD_NAME, {}).get("S")
        rows = [(official_result_of(item).scope, str(item["name"]["S"])) for item in own.of("OFFICIAL")]
        leagues = [keys.league_key(i) for i in own.league_ids()]
        challenges = [keys.challenge_key(_made_id(item)) for item in own.of("MADE")]
        tops = [keys.top_key(scope) for scope, _ in rows]
        found = {key_id(item): item for item in self.db.batch_get(tops + leagues + challenges, True)}
        return ErasureRead(
            player=player,
            claims=list(dict.fromkeys([name_skeleton(held), old_claim(held)])) if held else [],
            rows=rows,
            leagues=[league_of(item) for item in _found(found, leagues)],
            challenges=[Challenge.model_validate_json(i["data"]["S"]) for i in _found(found, challenges)],
            stored=_Read(own, self._run_ids(player, own), found),
        )

    def carry_out_erasure(self, read: ErasureRead, plan: ErasurePlan) -> Carried:
        """PLAN's writes that need a condition in transactions of up to 100 (the claims first, so
        that a claim someone else holds is named), each on condition that what it changes is as
        READ; then BatchWriteItem of every delete (their runs, their own items but the official
        results) and of the profile as the tombstone alone."""
        stored = read.stored
        assert isinstance(stored, _Read), "a read of this store"
        writes = _conditional_writes(read.player, plan, stored.found)
        for start in range(0, len(writes), _TRANSACTION_ITEMS):
            codes = self.db.transact(writes[start : start + _TRANSACTION_ITEMS])
            if codes:  # the claims come first
                failed = zip(plan.release, codes, strict=False) if start == 0 else []
                return Carried(False, frozenset(c for c, code in failed if code == "ConditionalCheckFailed"))
        kept = {"OFFICIAL", "PROFILE"}
        deletes = [keys.run_key(run_id) for run_id in stored.run_ids]
        deletes += [
            keys.key_of(item)
            for kind, items in stored.own.kinds.items()
            if kind not in kept
            for item in items
        ]
        profile = stored.own.one("PROFILE") or None
        player = read.player
        self.db.batch_delete(deletes, puts=[tombstone_item(player, profile)])
        return Carried(True)


class _Read(NamedTuple):
    """What erasure_read read, for carry_out_erasure: the player's own items, their runs, and the
    items of the BatchGetItem by their key (the versions the writes' conditions hold)."""

    own: _Own
    run_ids: list[str]
    found: dict[tuple[str, str], Item]


def _records(own: _Own) -> dict[str, Any]:
    """The parts of Holdings read from the player's partition alone."""
    return {
        "slots": [
            SlotRecord(
                keys.scope_from_key(_rest(item)),
                item.get("run_id", {}).get("S"),
                item.get("official_run_id", {}).get("S"),
            )
            for item in own.of("SLOT")
        ],
        "challenge_quotas": {_rest(i): int(i["created"]["N"]) for i in own.of("CHALLENGES")},
        "official_results": [official_result_of(i) for i in own.of("OFFICIAL")],
        "challenges": [Challenge.model_validate_json(i["data"]["S"]) for i in own.of("MADE")],
        "rename": own.one("RENAME").get("name", {}).get("S"),
        "other": [str(item["sk"]["S"]) for kind in own.kinds if kind not in _KNOWN for item in own.of(kind)],
        "reports": [Report.model_validate_json(data) for data in own.data("REPORT")],
        "moderation_log": [LogEntry.model_validate_json(data) for data in own.data("MODLOG")],
    }


def _found(found: dict[tuple[str, str], Item], wanted: list[Item]) -> list[Item]:
    """The items of the keys WANTED that a BatchGetItem FOUND, in WANTED's order."""
    return [found[k] for k in map(key_id, wanted) if k in found]


def _conditional_writes(player: str, plan: ErasurePlan, found: dict[tuple[str, str], Item]) -> list[Item]:
    """PLAN's writes, the claims first, each on condition that what it changes is as FOUND."""
    deleted: dict[str, str | None] = {player: DELETED_PLAYER_NAME}
    writes = [release_claim(claim, player, gone_ok=True) for claim in plan.release]
    writes += [rename_row(player, scope, DELETED_PLAYER_NAME) for scope in plan.rename]
    tops = [renamed_top(s, found.get(key_id(keys.top_key(s))), deleted) for s in plan.boards]
    writes += [top for top in tops if top]
    writes += [item for d in plan.leave for item in leave_items(d.league, player, d.heir)]
    writes += [_disowned(found[key_id(keys.challenge_key(c))]) for c in plan.disown]
    return writes


def _tombstone(player: str, at: str) -> Item:
    """The update that sets the tombstone on the profile, unless it is set already."""
    return {
        "Key": keys.profile_key(player),
        "UpdateExpression": f"SET {ERASED_AT} = :at, {HELD_NAME} = if_not_exists(display_name, :none),"
        " display_name = :deleted",
        "ConditionExpression": NOT_ERASED,
        "ExpressionAttributeValues": {
            ":at": {"S": at},
            ":none": {"S": ""},
            ":deleted": {"S": DELETED_PLAYER_NAME},
        },
    }


def _stop(run_id: str, at: str) -> Item:
    """The mark that stops a run's one-request answers (Runs.answer_in_place), if it exists. It
    moves the run's version too, so a write of the run read before the mark (a skip, a refused
    answer, a completion: a whole versioned put, which would drop the mark) fails, reads again and
    is refused."""
    return {
        "Update": {
            "Key": keys.run_key(run_id),
            "UpdateExpression": f"SET {STOPPED_AT} = :at, version = version + :one",
            "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeValues": {":at": {"S": at}, ":one": {"N": "1"}},
        }
    }


def _disowned(item: Item) -> Item:
    """The Put that takes the creator off the challenge ITEM, on condition it is unchanged since
    read."""
    challenge = Challenge.model_validate_json(item["data"]["S"])
    challenge.creator = ""
    return {
        "Put": {
            "Item": {**keys.key_of(item), "data": {"S": challenge.model_dump_json()}},
            "ConditionExpression": "#d = :read",
            "ExpressionAttributeNames": {"#d": "data"},
            "ExpressionAttributeValues": {":read": item["data"]},
        }
    }
