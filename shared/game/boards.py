"""Boards (SPEC §4): board order, shared ranks, when a board closes, and the port boards read.

Board order is defined once, by `TieKey.order` and `BoardPosition.order`: score, then best
combo, then longest-word length counted up to 12, all descending; rows equal on all three share
a rank (1, 2, 2, 4); among them the faster run is listed first, then the earlier completion. How
rows are stored, sharded and keyed is the storage adapter's business (shared/dynamo/keys.py spells
this order as a sort key, tests/game/test_board_order.py proves it); this module speaks positions,
scopes and results.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import NamedTuple

from shared.game.clock import parse_iso
from shared.game.constants import SCORED_LENGTH_CAP, TIME_LIMIT_SECONDS
from shared.game.daily_date import reset_instant
from shared.game.results import OfficialResult
from shared.game.scope import Scope
from shared.game.stats import PlayerStats

# How long after a scope's runs have all completed a board waits before it calls itself closed:
# the rank counters trail completions (DynamoDB Streams, then a batching function: about a
# second, minutes only if that function is failing) and the board index is eventually consistent.
SETTLE_SECONDS = 60


class TieKey(NamedTuple):
    """What decides a rank: rows with the same tie key share it. The longest word counts up to
    SCORED_LENGTH_CAP letters here (a memorised 30-letter word ranks no higher than a 12)."""

    score: int
    best_combo: int
    capped_longest: int

    def order(self) -> tuple[int, int, int]:
        """Score, then best combo, then longest-word length up to 12, all descending."""
        return (-self.score, -self.best_combo, -self.capped_longest)

    def outranks(self, other: TieKey) -> bool:
        """Whether a row of this tie key has a better rank than a row of OTHER."""
        return self.order() < other.order()


class BoardPosition(NamedTuple):
    """Where a row stands on its board. Sorting positions by `order` gives board order: the tie
    key first, then among equal ties the faster run (completion minus start), then the earlier
    completion, the run id making every position unique. `longest_word_length` is the true one,
    which the row shows."""

    score: int
    best_combo: int
    longest_word_length: int
    duration_ms: int
    completed_at: str
    run_id: str

    @property
    def tie(self) -> TieKey:
        return TieKey(self.score, self.best_combo, min(self.longest_word_length, SCORED_LENGTH_CAP))

    def order(self) -> tuple[int, int, int, int, str, str]:
        return (*self.tie.order(), self.duration_ms, self.completed_at, self.run_id)

    @classmethod
    def of(cls, result: OfficialResult) -> BoardPosition:
        return cls(
            result.score,
            result.best_combo,
            result.longest_word_length,
            run_duration_ms(result.started_at, result.completed_at),
            result.completed_at,
            result.run_id,
        )


def run_duration_ms(started_at: str, completed_at: str) -> int:
    """How long a run took: its completion minus its start, in whole milliseconds."""
    return (parse_iso(completed_at) - parse_iso(started_at)) // timedelta(milliseconds=1)


class BoardEntry(NamedTuple):
    """One row of a board as stored: whose it is, where it stands, its words, and the display
    name it shows (None: the default name). The name is the player's current one while the board
    is live and frozen from its close time on (see `rename_reaches`)."""

    player: str
    position: BoardPosition
    words: list[str]
    display_name: str | None


class PlayerProfile(NamedTuple):
    """A player's own record: the chosen display name (None: the default name), the Daily stats
    (None before the first official Daily result), and when a rank ban on them ends (None: none;
    a result completed before then is kept off the boards, SPEC §3e)."""

    display_name: str | None
    stats: PlayerStats | None
    rank_banned_until: str | None = None


class HistoryPosition(NamedTuple):
    """Where an item stands in a player's history: newest completion first."""

    completed_at: str
    scope: Scope


def assign_ranks(ties: list[TieKey], position: int, previous: TieKey | None, previous_rank: int) -> list[int]:
    """Ranks for rows in board order that follow `position` rows already shown (the last of them
    with tie key `previous` and rank `previous_rank`): equal rows share a rank, the next row
    takes its position (1, 2, 2, 4)."""
    ranks = []
    for offset, tie in enumerate(ties):
        rank = previous_rank if tie == previous else position + offset + 1
        ranks.append(rank)
        previous, previous_rank = tie, rank
    return ranks


# How many of a board's best rows its top-of-board item holds (kept by the rank counters' stream
# consumer): page 1 at any page size (limit <= 100, plus the one row that tells whether there is
# more) and page 2 of the default 50 are read from that one item.
TOP_ROWS = 101


def merge_top(top: list[BoardEntry], arrivals: list[BoardEntry], size: int = TOP_ROWS) -> list[BoardEntry]:
    """The best SIZE rows of TOP and ARRIVALS, in board order. A player has one row per board, so
    an arrival whose player is already in TOP (a result delivered again) changes nothing."""
    rows = {entry.player: entry for entry in arrivals}
    rows.update({entry.player: entry for entry in top})
    return sorted(rows.values(), key=lambda entry: entry.position.order())[:size]


def page_from_top(
    top: list[BoardEntry], after: BoardPosition | None, limit: int, size: int = TOP_ROWS
) -> list[BoardEntry] | None:
    """The best LIMIT rows after AFTER, if the top of the board TOP (its best rows, at most SIZE)
    holds them: with fewer than SIZE rows it holds the whole board; full, it holds the rows up to
    its last one, so it answers when it has LIMIT rows after AFTER. None: read the whole board."""
    rows = [entry for entry in top if after is None or entry.position.order() > after.order()]
    if len(top) < size or len(rows) >= limit:
        return rows[:limit]
    return None


def rank_from_better(better: int) -> int:
    """A result's rank is one more than the number of results strictly better (1, 2, 2, 4)."""
    return 1 + better


def daily_closes_at(day: date) -> datetime:
    """A Daily date closes at its reset plus the run time limit: a run started just before
    midnight may still be played until then, so its words stay hidden until then."""
    return reset_instant(day + timedelta(days=1)) + timedelta(seconds=TIME_LIMIT_SECONDS)


def challenge_closes_at(closes_at: datetime) -> datetime:
    """A challenge closes its time limit after it stops taking new runs."""
    return closes_at + timedelta(seconds=TIME_LIMIT_SECONDS)


def board_closed(now: datetime, closes_at: datetime, completed_through: datetime | None) -> bool:
    """A board is `live` until its scope closes, then `closed` only once every run of the scope
    has completed: the expiry job's watermark (every run with a deadline at or before it is
    completed) has passed the close time by SETTLE_SECONDS. No run of the scope can have a
    deadline after its close time."""
    if now < closes_at or completed_through is None:
        return False
    return completed_through >= closes_at + timedelta(seconds=SETTLE_SECONDS)


def rename_reaches(now: datetime, closes_at: datetime) -> bool:
    """Whether a rename at NOW still changes a row of a board closing at CLOSES_AT. A board may
    only be called closed SETTLE_SECONDS after its close time, so a rename that stops at the close
    time can never change a board already served as closed."""
    return now < closes_at


# The oldest result a rename can still reach: a challenge closes 7 days (plus the time limit)
# after it is created, and no result of it can complete before that.
RENAME_REACH_DAYS = 8
