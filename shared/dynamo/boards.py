"""Boards, rank counters, history, stats and display names on DynamoDB: the board side of the
Store, mixed into `DynamoStore` (shared/dynamo/store.py), which supplies `_call`, `_batch_get` and
`_transact`. Items and keys are described in docs/leaderboards.md.

Nothing here is written by every completion. A completion writes only the player's own items:
the official result (whose `board` index row lands in one of BOARD_SHARDS partitions) and the
player's profile (which keeps the player's stats). Rank counters are kept by
functions/leaderboard/counters.py from the table's stream, one summed update per counter item
per batch (`count_official`); the same consumer keeps each board's top item, its best TOP_ROWS
rows, which page 1 and page 2 read (`_merge_top`, `board_page`), written at most once a second
per board however many consumers run.
"""

import hashlib
import json
import secrets
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import date
from typing import Any

from shared.dynamo.rank_keys import band_of, counter_prefixes, counts_better, position_of, rank_key
from shared.dynamo.table import TTL_ATTRIBUTE
from shared.game.boards import (
    TOP_ROWS,
    BoardEntry,
    BoardPosition,
    HistoryPosition,
    PlayerProfile,
    TieKey,
    merge_top,
    page_from_top,
    scope_of_result,
)
from shared.game.errors import Throttled
from shared.game.results import OfficialResult
from shared.game.scope import Scope
from shared.game.stats import PlayerStats, with_daily_result
from shared.services.ports import OfficialTaken, StaleRun

Item = dict[str, Any]  # a DynamoDB item or request, as boto3's client takes it

# A board's rows are spread over this many partitions of the `board` index: each completion
# writes one row (one write unit), so one shard takes 1/32 of the rush. A page read from the
# shards reads every shard (at least half a read unit each); pages within the top of the board
# read one item instead. See docs/leaderboards.md.
BOARD_SHARDS = 32
# The top item is written at most once per TOP_INTERVAL_SECONDS per board (plus renames): rows
# for it wait in TOP_INBOXES inbox partitions until the board's next interval is claimed.
TOP_INTERVAL_SECONDS = 1.0
TOP_INBOXES = 16
# A consumer waiting for a claim's interval to end tries again this long after its end.
_TOP_CLAIM_MARGIN = 0.01
# An inbox item is deleted once folded in; the TTL only sweeps one a crash left behind.
_INBOX_TTL_SECONDS = 2 * 24 * 3600
# Attempts at a conditional write of a top-of-board item, read again after each refusal, before
# giving up: the consumer's batch fails (Lambda delivers it again), a rename answers 429.
_TOP_ATTEMPTS = 10
# DynamoDB's limit on items per TransactWriteItems.
_TRANSACTION_ITEMS = 100
# Counter attributes one update may add to (moto's expression parser recurses once per clause).
_COUNTER_CLAUSES = 40


def shard_of(key: str, shards: int = BOARD_SHARDS) -> int:
    """A stable shard number for a player or run id."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") % shards


def scope_key(scope: Scope) -> str:
    """How a scope is spelled inside keys: `DAILY#<date>` or `CHALLENGE#<id>`."""
    return f"{scope.kind.upper()}#{scope.id}"


def scope_from_key(text: str) -> Scope:
    kind, _, ident = text.partition("#")
    return Scope.daily(ident) if kind == "DAILY" else Scope.challenge(ident)


def _key(pk: str, sk: str) -> Item:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _official_key(player: str, scope: Scope) -> Item:
    return _key(f"PLAYER#{player}", f"OFFICIAL#{scope_key(scope)}")


def _board_partition(scope: Scope, shard: int) -> str:
    return f"BOARD#{scope_key(scope)}#{shard}"


def _top_key(scope: Scope) -> Item:
    return _key(f"TOP#{scope_key(scope)}", "TOP")


def _top_claim_key(scope: Scope) -> Item:
    return _key(f"TOP#{scope_key(scope)}#CLAIM", "CLAIM")


def _inbox_partition(scope: Scope, inbox: int) -> str:
    return f"TOP#{scope_key(scope)}#IN{inbox}"


def _packed(rows: list[list[Any]]) -> Item:
    """ROWS as compact JSON, zlib-compressed, in a binary attribute: items cost by size, and the
    rows' rank keys, dates and words compress to about half."""
    return {"B": zlib.compress(json.dumps(rows, separators=(",", ":")).encode())}


def _unpacked(attribute: Item) -> list[list[Any]]:
    rows: list[list[Any]] = json.loads(zlib.decompress(attribute["B"]))
    return rows


def _top_rows(item: Item | None) -> tuple[list[BoardEntry], int]:
    """The rows of a top-of-board item and its version (no item: none, version 0)."""
    if not item:
        return [], 0
    rows = [
        BoardEntry(player, position_of(key), words, name)
        for player, key, name, words in _unpacked(item["rows"])
    ]
    return rows, int(item["version"]["N"])


def _top_item(scope: Scope, rows: list[BoardEntry], version: int) -> Item:
    """A top-of-board item: its rows ([player, rank key, name, words] each) packed, and its
    version."""
    return {
        **_top_key(scope),
        "rows": _packed([[e.player, rank_key(e.position), e.display_name, e.words] for e in rows]),
        "version": {"N": str(version)},
    }


def _inbox_item(scope: Scope, rows: list[BoardEntry], now: float, token: str) -> Item:
    """An inbox item: ROWS left for SCOPE's top item ([player, rank key, words] each, no name)
    packed like the top item's, in the inbox partition TOKEN picks; deleted once folded in."""
    return {
        **_key(_inbox_partition(scope, shard_of(token, TOP_INBOXES)), f"{now:.3f}#{token}"),
        "rows": _packed([[e.player, rank_key(e.position), e.words] for e in rows]),
        TTL_ATTRIBUTE: {"N": str(int(now) + _INBOX_TTL_SECONDS)},
    }


def _cache_name(key: Item) -> str:
    return f"{key['pk']['S']}\n{key['sk']['S']}"


def _history_key(completed_at: str, scope: Scope) -> str:
    return f"{completed_at}#{scope_key(scope)}"


# Rank counters: three levels, so every counter item stays small (an update costs by item size)
# and a rank reads three items per counter shard. Scores run from 0 to MAX_SCORE (2,085), so
# `BANDS` has at most 21 attributes and a band's `SCORES` item at most 100 (SCORE_BAND).
# Copies each counter is split over. Every counting transaction adds to the `BANDS` item (and, at
# the rush, to the popular bands' and scores' items), and there is one counting transaction per
# consumer invocation, so their number follows the stream's shards, not the completions
# (docs/leaderboards.md, "Writes per partition"): each transaction adds to one copy, picked at
# random, and a rank sums them all.
COUNTER_SHARDS = 2
# A rank may trail a completion by the consumer's lag (a second or two); reusing the counter items
# a container read for up to a second more keeps the rush's rank reads off the `BANDS` items.
RANK_CACHE_SECONDS = 1.0
_COUNTER_CACHE_ITEMS = 10_000  # past this many cached counter items, expired ones are dropped


def _counter_keys(scope: Scope, tie: TieKey, shard: int = 0) -> list[tuple[Item, str]]:
    """The three counter items of counter shard SHARD a result of TIE adds one to, each with the
    attribute it adds to, named `b`, `s` or `t` and a prefix of TIE's rank key
    (shared/dynamo/rank_keys.py `counter_prefixes`), so that rows better than a tie are counted by the
    attributes whose names sort before its own:
    - `COUNT#<scope>` / `BANDS`: `b<band digits>`, results per band of SCORE_BAND points;
    - `COUNT#<scope>#B<band>` / `SCORES`: `s<score digits>`, results per score within the band;
    - `COUNT#<scope>#<score>` / `TIES`: `t<tie digits>`, results per tie key within the score;
    with `#C<shard>` after the scope for shards other than 0. Each has its own partition key, so
    the counters of a board spread over partitions."""
    band, score, own = counter_prefixes(tie)
    prefix = f"COUNT#{scope_key(scope)}" + (f"#C{shard}" if shard else "")
    return [
        (_key(prefix, "BANDS"), f"b{band}"),
        (_key(f"{prefix}#B{band_of(tie.score)}", "SCORES"), f"s{score}"),
        (_key(f"{prefix}#{tie.score}", "TIES"), f"t{own}"),
    ]


def official_item(result: OfficialResult, name: str | None) -> Item:
    """The official result's item: the result, its board row (rank key, words, the player's
    display name NAME at completion) and its history key. An unranked result (SPEC §3b) has no
    board row (so no board index entry, no count, no top row) and carries `unranked_reason`
    (absent: ranked), which league boards filter on."""
    scope = scope_of_result(result)
    item: dict[str, Any] = {
        **_official_key(result.player, scope),
        "data": {"S": result.model_dump_json()},
        "words": {"L": [{"S": w} for w in result.words]},
        "history_pk": {"S": f"HISTORY#{result.player}"},
        "history_sk": {"S": _history_key(result.completed_at, scope)},
    }
    if result.unranked_reason:
        item["unranked_reason"] = {"S": result.unranked_reason}
    else:
        item["board_pk"] = {"S": _board_partition(scope, shard_of(result.player))}
        item["board_sk"] = {"S": rank_key(BoardPosition.of(result))}
    if name:
        item["name"] = {"S": name}
    return item


def _entry(item: Item) -> BoardEntry:
    """A board row from an official item or its `board` index entry."""
    return BoardEntry(
        player=item["pk"]["S"].removeprefix("PLAYER#"),
        position=position_of(item["board_sk"]["S"]),
        words=[w["S"] for w in item.get("words", {}).get("L", [])],
        display_name=item.get("name", {}).get("S"),
    )


def official_from_image(image: Item) -> OfficialResult:
    """The official result in a stream record's NewImage (DynamoDB JSON)."""
    return OfficialResult.model_validate_json(image["data"]["S"])


class DynamoBoards:
    """The board side of DynamoStore (a mixin: DynamoStore gives the requests)."""

    table: str
    _call: Any
    _batch_get: Any
    _transact: Any
    _batch_delete: Any
    sleep: Any
    # Rows the top-of-board item holds (the contract tests lower it, so that paging past the top
    # needs tens of results, not hundreds, on in-process moto).
    top_rows: int = TOP_ROWS
    # Seconds between two folds into one top item (tests lower it, or drive `wall` by hand).
    top_interval: float = TOP_INTERVAL_SECONDS
    # Seconds a container reuses a counter item it read for a rank (0: read every time). The
    # stack's functions and `make run` use RANK_CACHE_SECONDS (shared/runtime/wiring.py).
    rank_cache_seconds: float = 0.0

    def wall(self) -> float:
        """The wall clock (epoch seconds) that claims on top items are measured in: shared by
        every consumer, unlike the game clock."""
        return time.time()

    def _query_items(self, **query: Any) -> Iterator[Item]:
        """Every item a Query on the table returns, page after page, read as they are needed."""
        while True:
            page = self._call("query", **query)
            yield from page["Items"]
            if "LastEvaluatedKey" not in page:
                return
            query["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    # Completion: what core's complete_run adds to its transaction ----------------------------

    def _official_writes(self, result: OfficialResult) -> list[Item]:
        """The transaction items that record RESULT, in this order:

        1. Put of the official result (with its board row and the player's display name), on
           condition that the player has none for the scope (a failure means OfficialTaken);
        2. one conditional write of the player's profile, on condition that it still shows the
           name read here (a failure means a rename came between: read again and retry,
           StaleRun), so a rename never misses a row (Players.set_display_name renames the rows
           of live boards). For a Daily result it is the Update of the stats kept on the profile,
           on condition too that they are still as read (a failure means another completion of
           the same player changed them first: StaleRun); for a challenge, a ConditionCheck;
        3. only while a player's stats still live in the item of the layout before (`STATS`, see
           `_stats_update`): the Delete of that item, on condition it is still as read.

        Reads the player's own items first, in one consistent BatchGetItem: the profile, and for
        a Daily result the old `STATS` item too."""
        scope = scope_of_result(result)
        player_pk = f"PLAYER#{result.player}"
        daily = scope.kind == "daily"
        wanted = [_key(player_pk, "PROFILE")] + ([_key(player_pk, "STATS")] if daily else [])
        found = {item["sk"]["S"]: item for item in self._batch_get(wanted, consistent=True)}
        profile = found.get("PROFILE", {})
        name = profile.get("display_name", {}).get("S")
        items: list[Item] = [
            {"Put": {"Item": official_item(result, name), "ConditionExpression": "attribute_not_exists(pk)"}}
        ]
        if daily:
            return items + self._stats_update(result, profile, found.get("STATS"))
        condition, values = _same_name(name)
        check: dict[str, Any] = {"Key": _key(player_pk, "PROFILE"), "ConditionExpression": condition}
        if values:
            check["ExpressionAttributeValues"] = values
        return [*items, {"ConditionCheck": check}]

    def _stats_update(self, result: OfficialResult, profile: Item, legacy: Item | None) -> list[Item]:
        """The profile's Update with the stats after RESULT (`stats`, JSON, and `stats_version`,
        one more than read), on condition that the name and the stats are still as read.

        Stats written before they moved onto the profile are in their own `STATS` item (`data`,
        `version`). While the profile has no `stats_version`, that item (LEGACY) is where the
        stats start from, and it is deleted in the same transaction, on condition that its
        version is still the one read: each player's first Daily completion after the move
        retires it (two more write units, once)."""
        if "stats_version" in profile:
            before: PlayerStats | None = PlayerStats.model_validate_json(profile["stats"]["S"])
            version = int(profile["stats_version"]["N"])
            stats_condition = "stats_version = :version"
        else:
            before = PlayerStats.model_validate_json(legacy["data"]["S"]) if legacy else None
            version = 0
            stats_condition = "attribute_not_exists(stats_version)"
        # A result counts for its run's Daily date, even when it completed after midnight.
        after = with_daily_result(before, date.fromisoformat(result.date), result.score)
        name_condition, values = _same_name(profile.get("display_name", {}).get("S"))
        values[":stats"] = {"S": after.model_dump_json()}
        values[":next"] = {"N": str(version + 1)}
        if version:
            values[":version"] = {"N": str(version)}
        items: list[Item] = [
            {
                "Update": {
                    "Key": _key(f"PLAYER#{result.player}", "PROFILE"),
                    "UpdateExpression": "SET stats = :stats, stats_version = :next",
                    "ConditionExpression": f"{name_condition} AND {stats_condition}",
                    "ExpressionAttributeValues": values,
                }
            }
        ]
        if legacy and "stats_version" not in profile:
            items.append(
                {
                    "Delete": {
                        "Key": _key(f"PLAYER#{result.player}", "STATS"),
                        "ConditionExpression": "version = :version",
                        "ExpressionAttributeValues": {":version": legacy["version"]},
                    }
                }
            )
        return items

    def move_old_stats(self, player: str) -> str:
        """Move PLAYER's stats from an old `STATS` item onto the profile, as their next Daily
        completion would (scripts/move_old_stats.py, for players who have not come back): one
        transaction of the profile's Update (on condition it has no stats yet) and the Delete of
        the old item (on condition it is still as read). Returns what happened: "moved", "none"
        (no old item), "kept" (the profile has stats already: the old item was written after the
        move, by code of the layout before; left for a person to look at) or "changed" (a
        completion came between: run again)."""
        player_pk = f"PLAYER#{player}"
        found = {
            item["sk"]["S"]: item
            for item in self._batch_get(
                [_key(player_pk, "PROFILE"), _key(player_pk, "STATS")], consistent=True
            )
        }
        legacy = found.get("STATS")
        if legacy is None:
            return "none"
        if "stats_version" in found.get("PROFILE", {}):
            return "kept"
        moved = {
            "Update": {
                "Key": _key(player_pk, "PROFILE"),
                "UpdateExpression": "SET stats = :stats, stats_version = :one",
                "ConditionExpression": "attribute_not_exists(stats_version)",
                "ExpressionAttributeValues": {":stats": legacy["data"], ":one": {"N": "1"}},
            }
        }
        retired = {
            "Delete": {
                "Key": _key(player_pk, "STATS"),
                "ConditionExpression": "version = :version",
                "ExpressionAttributeValues": {":version": legacy["version"]},
            }
        }
        return "changed" if self._transact([moved, retired]) else "moved"

    def _record_official(self, result: OfficialResult) -> None:
        """Record RESULT on its own (tests, benchmarks): the same items complete_run writes with
        a run. Raises OfficialTaken, or StaleRun when the stats changed meanwhile."""
        codes = self._transact(self._official_writes(result))
        if not codes:
            return
        if codes[0] == "ConditionalCheckFailed":
            raise OfficialTaken(result.run_id)
        raise StaleRun(result.run_id)  # the name or the stats changed since they were read

    # Rank counters: the stream consumer's writes ----------------------------------------------

    def count_official(self, results: list[OfficialResult]) -> int:
        """Count RESULTS for ranks, each exactly once however often it is delivered; returns how
        many were counted now (the rest had been counted before).

        Each transaction marks its results `counted` (on condition that the stored official result
        is that very result and not yet counted) and adds the summed increments to the counter
        items of one counter copy, picked at random: all of it or nothing. A result already marked
        (or not the stored one) cancels its transaction; it is dropped and the rest is tried again.
        So a retried batch never counts twice, and a crash mid-batch never loses a count. An
        unranked result (SPEC §3b) is neither counted nor brought into the top of its board."""
        results = [result for result in results if result.ranked]
        counted = 0
        for chunk in _chunks(results):
            pending = list(chunk)
            while pending:
                codes = self._transact(_counting_items(pending, secrets.randbelow(COUNTER_SHARDS)))
                if not codes:
                    counted += len(pending)
                    break
                done = {i for i, code in enumerate(codes[: len(pending)]) if code == "ConditionalCheckFailed"}
                if not done:
                    raise RuntimeError(f"counting transaction cancelled: {codes}")
                pending = [r for i, r in enumerate(pending) if i not in done]
        by_scope: dict[Scope, list[OfficialResult]] = defaultdict(list)
        for result in results:
            by_scope[scope_of_result(result)].append(result)
        for scope, arrived in by_scope.items():
            self._merge_top(scope, arrived)
        return counted

    # The top of a board: one item holding its best TOP_ROWS rows, kept by the same consumer -----
    #
    # Consumers run one per stream shard, so at the rush hundreds a second may bring a row for
    # the same top item. So the item is written at most once per `top_interval` (a second) per
    # board: a consumer leaves its entering rows in the board's inbox (`_leave_rows`), then
    # whoever claims the board's next interval (`_claim_top`, a small item) folds every row left
    # so far into the top (`_fold_inbox`). See docs/leaderboards.md.

    def _merge_top(self, scope: Scope, results: list[OfficialResult]) -> None:
        """Bring RESULTS into SCOPE's top-of-board item. Rows that cannot enter it (it is full of
        better rows, or they are there already: a record delivered again) are dropped at once,
        against an eventually consistent read (a stale top is never better than the stored one,
        so nothing that could enter is dropped). The rest are left in one inbox item, and the
        consumer returns only once that item is gone: a fold deletes the inbox items it read only
        after its write of the top succeeded, so then the rows are in (or were beaten). Until
        then, in turns:
        - the board's claim is held for this interval: wait for its end;
        - it is free: claim it and fold (the fold reads the inbox after claiming, so it reads
          these rows); a claim that fails means another consumer claimed it since it was read:
          look again whether its fold took the rows.
        A claim that ends more than an interval from now was set by a clock far ahead: it counts
        as free, so no consumer waits on it. A fold that fails raises: the batch fails and comes
        again, and the rows are left again. After _TOP_ATTEMPTS turns, Throttled (the same)."""
        top, version = self._read_top(scope, consistent=False)
        present = {entry.player for entry in top}
        arrivals = [
            BoardEntry(r.player, BoardPosition.of(r), r.words, None)
            for r in results
            if r.player not in present
        ]
        entering = [e for e in merge_top(top, arrivals, self.top_rows) if e.player not in present]
        if not entering:
            return
        left = self._leave_rows(scope, entering)
        for attempt in range(_TOP_ATTEMPTS):
            if attempt and not self._call("get_item", Key=left, ConsistentRead=True).get("Item"):
                return  # a fold read these rows, wrote the top, then deleted the inbox item
            holder, until = self._top_claim(scope)
            now = self.wall()
            if now < until <= now + self.top_interval:  # claimed for this interval: wait for its end
                self.sleep(until - now + _TOP_CLAIM_MARGIN)
            elif self._claim_top(scope, holder, now):  # free (or set by a clock far ahead)
                self._fold_inbox(scope)
                return
            # else another consumer claimed it since it was read: see whether its fold took them
        raise Throttled("The game is busy; try again shortly")  # the batch fails and comes again

    def _leave_rows(self, scope: Scope, rows: list[BoardEntry]) -> Item:
        """One new, never-changed inbox item holding ROWS (without names: the fold reads those),
        in one of TOP_INBOXES partitions, so that no partition takes every consumer's write.
        Returns its key."""
        item = _inbox_item(scope, rows, self.wall(), secrets.token_hex(8))
        self._call("put_item", Item=item)
        return _key(item["pk"]["S"], item["sk"]["S"])

    def _top_claim(self, scope: Scope) -> tuple[str | None, float]:
        """Who holds SCOPE's claim (a token; None: never claimed) and until when, read
        consistently: a read, so the many consumers waiting at the rush write nothing."""
        item = self._call("get_item", Key=_top_claim_key(scope), ConsistentRead=True).get("Item")
        return (item["token"]["S"], float(item["until"]["N"])) if item else (None, 0.0)

    def _claim_top(self, scope: Scope, holder: str | None, now: float) -> bool:
        """Claim SCOPE's top item for `top_interval` seconds from NOW, if the claim is still
        HOLDER's (expired, as read): only one of the consumers that read it gets it."""
        from shared.dynamo.store import ConditionFailed  # shared.dynamo.store mixes this class in

        token = secrets.token_hex(8)
        claim: dict[str, Any] = {
            "Item": {
                **_top_claim_key(scope),
                "until": {"N": f"{now + self.top_interval:.3f}"},
                "token": {"S": token},
            }
        }
        if holder is None:
            claim["ConditionExpression"] = "attribute_not_exists(pk)"
        else:
            claim["ConditionExpression"] = "#token = :holder"
            claim["ExpressionAttributeNames"] = {"#token": "token"}
            claim["ExpressionAttributeValues"] = {":holder": {"S": holder}}
        try:
            self._call("put_item", **claim)
            return True
        except ConditionFailed:
            return False

    def _fold_inbox(self, scope: Scope) -> None:
        """Fold every row left in SCOPE's inbox into its top item, then delete the inbox items
        read: each was written once and never changed, so deleting it loses nothing left since."""
        left: list[Item] = []
        for inbox in range(TOP_INBOXES):
            left += self._query_items(
                KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": _inbox_partition(scope, inbox)}},
                ConsistentRead=True,
            )
        rows: dict[str, list[BoardEntry]] = defaultdict(list)
        for item in left:
            for player, key, words in _unpacked(item["rows"]):
                rows[player].append(BoardEntry(player, position_of(key), words, None))
        self._merge_into_top(scope, rows)
        for start in range(0, len(left), 25):
            self._batch_delete([_key(i["pk"]["S"], i["sk"]["S"]) for i in left[start : start + 25]])

    def _merge_into_top(self, scope: Scope, candidates: dict[str, list[BoardEntry]]) -> None:
        """Merge CANDIDATES (player -> the rows left for them) into SCOPE's top-of-board item,
        written back only if a row entered it, on condition that nobody wrote it since it was read
        (else read again and merge again).

        Idempotent: a row is keyed by its player, so a row left twice changes nothing. Each
        entering row is read from its official item first (consistently): a row that is not the
        stored result (moto's stream carries cancelled transactions' records, so a player may
        have been left two different rows) is dropped, the player's other rows tried, and the row
        takes the name the item shows. After the write the names are read again: a rename that
        updated the official item after that first read, but looked at the top before this
        write, is caught here (and one after the write finds the row itself). The first merge
        into a board also takes the board index's best rows, read the same way."""
        for _ in range(_TOP_ATTEMPTS):
            top, version = self._read_top(scope)
            if not version:
                # No top item yet: a new board, or one that was live before top items existed.
                # Seed it from the board index (once per board) so it holds every earlier row.
                for entry in self._shard_page(scope, None, self.top_rows):
                    candidates.setdefault(entry.player, [entry])
            present = {e.player for e in top}
            best = {  # each player's best row not yet ruled out
                p: min(rows, key=lambda e: e.position.order())
                for p, rows in candidates.items()
                if rows and p not in present
            }
            merged = merge_top(top, list(best.values()), self.top_rows)
            entering = [e.player for e in merged if e.player not in present]
            if not entering:
                return
            stored = self._stored_rows(scope, entering)
            wrong = [p for p in entering if p not in stored or stored[p].position != best[p].position]
            if wrong:  # not the stored results: never on the board
                for player in wrong:
                    kept = stored.get(player)
                    candidates[player] = [
                        e for e in candidates[player] if kept and e.position == kept.position
                    ]
                continue
            if self._write_top(scope, [stored.get(e.player, e) for e in merged], version):
                written = {player: stored[player].display_name for player in entering}
                again = self._stored_rows(scope, entering)
                renamed = {p: e.display_name for p, e in again.items() if e.display_name != written[p]}
                if renamed:
                    self._rename_in_top(scope, renamed)
                return
        raise Throttled("The game is busy; try again shortly")  # the batch fails and comes again

    def _read_top(self, scope: Scope, consistent: bool = True) -> tuple[list[BoardEntry], int]:
        return _top_rows(self._call("get_item", Key=_top_key(scope), ConsistentRead=consistent).get("Item"))

    def _write_top(self, scope: Scope, rows: list[BoardEntry], version: int) -> bool:
        """Put SCOPE's top item at VERSION + 1 if it is still at VERSION (0: absent)."""
        from shared.dynamo.store import ConditionFailed  # shared.dynamo.store mixes this class in

        put: dict[str, Any] = {"Item": _top_item(scope, rows, version + 1)}
        if version:
            put["ConditionExpression"] = "version = :v"
            put["ExpressionAttributeValues"] = {":v": {"N": str(version)}}
        else:
            put["ConditionExpression"] = "attribute_not_exists(pk)"
        try:
            self._call("put_item", **put)
            return True
        except ConditionFailed:
            return False

    def _stored_rows(self, scope: Scope, players: list[str]) -> dict[str, BoardEntry]:
        """The board rows of PLAYERS' official results of SCOPE, read consistently."""
        items = self._batch_get([_official_key(p, scope) for p in players], consistent=True)
        return {entry.player: entry for entry in map(_entry, items)}

    def _rename_in_top(self, scope: Scope, names: dict[str, str | None]) -> None:
        """Show NAMES (player -> name) on their rows in SCOPE's top item, if they are there."""
        for _ in range(_TOP_ATTEMPTS):
            top, version = self._read_top(scope)
            if all(e.display_name == names[e.player] for e in top if e.player in names):
                return
            rows = [e._replace(display_name=names[e.player]) if e.player in names else e for e in top]
            if self._write_top(scope, rows, version):
                return
        raise Throttled("The game is busy; try again shortly")  # 429: PUT /me again is idempotent

    def count_better(self, scope: Scope, tie: TieKey) -> int:
        """How many counted results of SCOPE rank strictly better than TIE: one BatchGetItem of
        three small counter items per counter shard, whatever the number of players (fewer when
        this container read some of them less than `rank_cache_seconds` ago)."""
        keys = [key for shard in range(COUNTER_SHARDS) for key, _ in _counter_keys(scope, tie, shard)]
        better = 0
        for item in self._counter_items(keys):
            for name, value in item.items():
                if name[:1] in "bst" and name not in ("pk", "sk") and counts_better(name[1:], tie):
                    better += int(value["N"])
        return better

    def _counter_items(self, keys: list[Item]) -> list[Item]:
        """The counter items at KEYS (those that exist), each read at most once per
        `rank_cache_seconds` by this container: at the rush every finisher reads a rank, and every
        rank reads the `BANDS` items, so without this they would take every rank read."""
        if self.rank_cache_seconds <= 0:
            return list(self._batch_get(keys))
        now = self.wall()
        cache: dict[str, tuple[float, Item | None]] = self.__dict__.setdefault("_counter_cache", {})
        if len(cache) > _COUNTER_CACHE_ITEMS:
            for name in [name for name, (until, _) in cache.items() if until <= now]:
                del cache[name]
        names = [_cache_name(key) for key in keys]
        fresh = {name for name in names if name in cache and cache[name][0] > now}
        missing = [key for key, name in zip(keys, names, strict=True) if name not in fresh]
        if missing:
            read = {_cache_name(item): item for item in self._batch_get(missing)}
            for name in map(_cache_name, missing):
                cache[name] = (now + self.rank_cache_seconds, read.get(name))
        return [item for name in names if (item := cache[name][1]) is not None]

    # Reads -------------------------------------------------------------------------------------

    def board_page(
        self, scope: Scope, after: BoardPosition | None, limit: int, shown: int = 0
    ) -> list[BoardEntry]:
        """The best LIMIT rows after AFTER (SHOWN rows before it): from the top-of-board item
        when it holds them (one GetItem), else a lazy merge of the shards."""
        if shown + limit <= self.top_rows:
            page = page_from_top(self._read_top(scope, consistent=False)[0], after, limit, self.top_rows)
            if page is not None:
                return page
        return self._shard_page(scope, after, limit)

    def _shard_page(self, scope: Scope, after: BoardPosition | None, limit: int) -> list[BoardEntry]:
        """The best LIMIT rows after AFTER: a lazy merge of the shards. Each shard is read a few
        rows at a time (about its share of the page, plus two), and read again only when the
        merge has used up what it read while it may still hold a better row."""
        chunk = -(-limit // BOARD_SHARDS) + 2
        start = rank_key(after) if after else None
        buffers: dict[int, list[BoardEntry]] = {}
        more: dict[int, Item | None] = {}
        for shard in range(BOARD_SHARDS):
            buffers[shard], more[shard] = self._board_query(scope, shard, start, None, chunk)
        rows: list[BoardEntry] = []
        while len(rows) < limit:
            for shard in range(BOARD_SHARDS):
                if not buffers[shard] and more[shard]:
                    buffers[shard], more[shard] = self._board_query(scope, shard, start, more[shard], chunk)
            candidates = [shard for shard in buffers if buffers[shard]]
            if not candidates:
                break
            best = min(candidates, key=lambda shard: buffers[shard][0].position.order())
            rows.append(buffers[best].pop(0))
        return rows

    def _board_query(
        self, scope: Scope, shard: int, after: str | None, start: Item | None, limit: int
    ) -> tuple[list[BoardEntry], Item | None]:
        condition = "board_pk = :p" + (" AND board_sk > :a" if after else "")
        values = {":p": {"S": _board_partition(scope, shard)}}
        if after:
            values[":a"] = {"S": after}
        kwargs: dict[str, Any] = {
            "IndexName": "board",
            "KeyConditionExpression": condition,
            "ExpressionAttributeValues": values,
            "Limit": limit,
        }
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = self._call("query", **kwargs)
        return [_entry(item) for item in page["Items"]], page.get("LastEvaluatedKey")

    def board_entry(self, player: str, scope: Scope) -> BoardEntry | None:
        item = self._call("get_item", Key=_official_key(player, scope)).get("Item")
        return _entry(item) if item and "board_sk" in item else None

    def results_since(self, player: str, day: date) -> list[OfficialResult]:
        """Read consistently from the player's own partition: the Daily results are sorted by date
        there, the challenge results are few."""
        daily = self._call(
            "query",
            KeyConditionExpression="pk = :p AND sk BETWEEN :from AND :to",
            ExpressionAttributeValues={
                ":p": {"S": f"PLAYER#{player}"},
                ":from": {"S": f"OFFICIAL#{scope_key(Scope.daily(day.isoformat()))}"},
                ":to": {"S": "OFFICIAL#DAILY#~"},
            },
            ConsistentRead=True,
        )["Items"]
        challenges = list(
            self._query_items(
                KeyConditionExpression="pk = :p AND begins_with(sk, :c)",
                ExpressionAttributeValues={
                    ":p": {"S": f"PLAYER#{player}"},
                    ":c": {"S": "OFFICIAL#CHALLENGE#"},
                },
                ConsistentRead=True,
            )
        )
        results = [OfficialResult.model_validate_json(i["data"]["S"]) for i in daily + challenges]
        return [r for r in results if r.date >= day.isoformat()]

    def rename_rows(self, player: str, scopes: list[Scope], name: str) -> None:
        """Transactions of up to 100 rows, each update on condition that the row exists: one that
        does not is left out and the rest written again. Then the row in each board's top item."""
        unique = list(dict.fromkeys(scopes))
        for start in range(0, len(unique), _TRANSACTION_ITEMS):
            pending = unique[start : start + _TRANSACTION_ITEMS]
            while pending:
                codes = self._transact([_rename(player, scope, name) for scope in pending])
                pending = [
                    s for s, code in zip(pending, codes, strict=False) if code != "ConditionalCheckFailed"
                ]
        # After the rows: a consumer merging this player into a top reads the row's name after
        # its write, so either it sees the new name or this finds the player in the top.
        for scope in unique:
            self._rename_in_top(scope, {player: name})

    def official_result(self, player: str, scope: Scope) -> OfficialResult | None:
        item = self._call("get_item", Key=_official_key(player, scope)).get("Item")
        return OfficialResult.model_validate_json(item["data"]["S"]) if item else None

    def history(self, player: str, after: HistoryPosition | None, limit: int) -> list[OfficialResult]:
        """The player's official results, newest first, after AFTER."""
        condition = "history_pk = :p" + (" AND history_sk < :a" if after else "")
        values = {":p": {"S": f"HISTORY#{player}"}}
        if after:
            values[":a"] = {"S": _history_key(after.completed_at, after.scope)}
        page = self._call(
            "query",
            IndexName="history",
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            ScanIndexForward=False,
            Limit=limit,
        )
        return [OfficialResult.model_validate_json(i["data"]["S"]) for i in page["Items"]]

    def player_profile(self, player: str) -> PlayerProfile:
        """One consistent GetItem of the profile, which holds the name and the stats; a second of
        the old `STATS` item only while the profile has no stats (see `_stats_update`)."""
        profile = self._call("get_item", Key=_key(f"PLAYER#{player}", "PROFILE"), ConsistentRead=True)
        item = profile.get("Item", {})
        name = item.get("display_name", {}).get("S")
        if "stats_version" in item:
            return PlayerProfile(name, PlayerStats.model_validate_json(item["stats"]["S"]))
        legacy = self._call("get_item", Key=_key(f"PLAYER#{player}", "STATS"), ConsistentRead=True).get(
            "Item"
        )
        return PlayerProfile(name, PlayerStats.model_validate_json(legacy["data"]["S"]) if legacy else None)

    def display_names(self, players: list[str]) -> dict[str, str]:
        """The chosen display name of each player who has set one."""
        unique = list(dict.fromkeys(players))
        keys = [_key(f"PLAYER#{p}", "PROFILE") for p in unique]
        return {
            item["pk"]["S"].removeprefix("PLAYER#"): item["display_name"]["S"]
            for item in self._batch_get(keys)
            if "display_name" in item
        }


def _same_name(name: str | None) -> tuple[str, dict[str, Any]]:
    """The condition that a profile still shows NAME (None: no name set), and its values."""
    if name:
        return "display_name = :name", {":name": {"S": name}}
    return "attribute_not_exists(display_name)", {}


def _chunks(results: list[OfficialResult]) -> list[list[OfficialResult]]:
    """RESULTS in groups whose counting transaction (one marker per result, one update per
    counter item) stays within DynamoDB's item limit, each update within _COUNTER_CLAUSES
    attributes. Sorted by board and score first, so a group shares counter items and one
    transaction counts as many results as it can."""
    chunks: list[list[OfficialResult]] = []
    current: list[OfficialResult] = []
    counters: dict[str, set[str]] = defaultdict(set)  # counter item -> attributes added to
    for result in sorted(results, key=lambda r: (scope_key(scope_of_result(r)), r.score)):
        keys = [(key["pk"]["S"], name) for key, name in _counter_keys(scope_of_result(result), _tie(result))]
        new_items = sum(1 for pk, _ in keys if pk not in counters)
        fits = len(current) + 1 + len(counters) + new_items <= _TRANSACTION_ITEMS and all(
            len(counters[pk] | {name}) <= _COUNTER_CLAUSES for pk, name in keys
        )
        if current and not fits:
            chunks.append(current)
            current, counters = [], defaultdict(set)
        current.append(result)
        for pk, name in keys:
            counters[pk].add(name)
    if current:
        chunks.append(current)
    return chunks


def _tie(result: OfficialResult) -> TieKey:
    return BoardPosition.of(result).tie


def _counting_items(results: list[OfficialResult], shard: int) -> list[Item]:
    """One marker update per result (first, in order), then one summed ADD per counter item of
    counter shard SHARD."""
    items: list[Item] = []
    sums: dict[str, tuple[Item, Counter[str]]] = {}
    for result in results:
        scope = scope_of_result(result)
        items.append(
            {
                "Update": {
                    "Key": _official_key(result.player, scope),
                    "UpdateExpression": "SET counted = :yes",
                    # The stored result must be this one (its rank key names the run), not yet counted.
                    "ConditionExpression": "board_sk = :position AND attribute_not_exists(counted)",
                    "ExpressionAttributeValues": {
                        ":yes": {"BOOL": True},
                        ":position": {"S": rank_key(BoardPosition.of(result))},
                    },
                }
            }
        )
        for key, name in _counter_keys(scope, _tie(result), shard):
            sums.setdefault(key["pk"]["S"], (key, Counter()))[1][name] += 1
    items += [_add(key, counts) for key, counts in sums.values()]
    return items


def _rename(player: str, scope: Scope, name: str) -> Item:
    return {
        "Update": {
            "Key": _official_key(player, scope),
            "UpdateExpression": "SET #name = :name",
            "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeNames": {"#name": "name"},
            "ExpressionAttributeValues": {":name": {"S": name}},
        }
    }


def _add(key: Item, counts: Counter[str]) -> Item:
    names = sorted(counts)
    return {
        "Update": {
            "Key": key,
            "UpdateExpression": "ADD " + ", ".join(f"#a{n} :v{n}" for n in range(len(names))),
            "ExpressionAttributeNames": {f"#a{n}": name for n, name in enumerate(names)},
            "ExpressionAttributeValues": {f":v{n}": {"N": str(counts[name])} for n, name in enumerate(names)},
        }
    }
