"""Boards and a player's rank (SPEC §4): ordered reads that cost the same for 10 or 10 million
players, and boards that, once closed, never change. See docs/leaderboards.md for the design."""

import time
from collections.abc import Callable
from datetime import date, datetime
from typing import NamedTuple

from shared.game import clock
from shared.game.boards import (
    BoardEntry,
    BoardPosition,
    TieKey,
    assign_ranks,
    board_closed,
    challenge_closes_at,
    daily_closes_at,
    rank_from_better,
)
from shared.game.clock import parse_iso
from shared.game.daily_date import daily_date, parse_date
from shared.game.errors import BadRequest, NotFound
from shared.game.names import default_display_name
from shared.game.results import Challenge, OfficialResult
from shared.game.scope import Scope
from shared.game.standing import histogram, percentile, players_with_own
from shared.services.admission import refuse_unless_admitted
from shared.services.board_ports import BoardStore, NameStore, RankStore
from shared.services.ports import RunStore

# The expiry job's watermark moves once a minute; reading it this often per container is plenty.
WATERMARK_CACHE_SECONDS = 5.0


class PageStart(NamedTuple):
    """Where a page of a board starts: after POSITION (None: at the top), with SHOWN rows before
    it, the last of them ranked RANK (the HTTP edge carries it in a page's signed cursor)."""

    after: BoardPosition | None = None
    shown: int = 0
    rank: int = 0


TOP = PageStart()


class Row(NamedTuple):
    """A row as a board shows it: the player's display name (or their default one), and the
    words only once the board is closed."""

    rank: int
    display_name: str
    score: int
    best_combo: int
    longest_word_length: int
    words: list[str] | None
    run_id: str = ""  # never shown: what a moderation case names the row by (SPEC §3e)


class Page(NamedTuple):
    """A page of SCOPE's board, and where the next page starts (None: this is the last)."""

    scope: Scope
    closed: bool
    rows: list[Row]
    following: PageStart | None
    pending: frozenset[str] | None = None  # its runs under review, when read with the page


class MyRow(NamedTuple):
    """A player's row on a Daily board, with how many results the board counts so far and the
    share of them the row beats (SPEC §4a)."""

    day: date
    closed: bool
    row: Row
    players: int
    percentile: int
    pending: frozenset[str] = frozenset()  # the board's runs under review, read with the row


class Distribution(NamedTuple):
    """A Daily board's ranked players and its scores per band of SCORE_BAND_POINTS (SPEC §4a)."""

    day: date
    closed: bool
    players: int
    bands: list[int]


class ChallengeBoard(NamedTuple):
    """A challenge's details as its page shows them, and a page of its board."""

    challenge: Challenge
    open: bool
    creator_name: str
    creator_score: int | None
    page: Page


def rows(entries: list[BoardEntry], ranks: list[int], closed: bool) -> list[Row]:
    """ENTRIES with their RANKS as a board shows them. Each row carries its player's display
    name (renames reach the rows of live boards), so no page reads a profile."""
    return [
        Row(
            rank=rank,
            display_name=e.display_name or default_display_name(e.player),
            score=e.position.score,
            best_combo=e.position.best_combo,
            longest_word_length=e.position.longest_word_length,
            words=e.words if closed else None,
            run_id=e.position.run_id,
        )
        for e, rank in zip(entries, ranks, strict=True)
    ]


class Boards:
    def __init__(
        self,
        boards: BoardStore,
        ranks: RankStore,
        names: NameStore,
        runs: RunStore,
        now: Callable[[], datetime] = clock.now,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        self.store, self.ranks, self.names, self.runs = boards, ranks, names, runs
        self.now = now
        self.monotonic = monotonic  # what the watermark cache measures its age by
        self._closed: set[Scope] = set()  # a closed board never reopens
        # (monotonic seconds, game clock, watermark) of the last read of the expiry job's watermark
        self._watermark: tuple[float, datetime, datetime | None] | None = None

    # Daily boards --------------------------------------------------------------------------

    def daily_board(self, board_day: date, start: PageStart, limit: int) -> Page:
        """A page of BOARD_DAY's Daily board (a date `board_date` accepted), from START."""
        return self._page(Scope.daily(board_day.isoformat()), daily_closes_at(board_day), start, limit)

    def daily_rank(self, day: str | None, player: str) -> MyRow:
        """The caller's row with the rank counted from the rank counters (they trail a completion
        by a second or two while the board is live; they are final once it is closed)."""
        board_day = self.board_date(day)
        scope = Scope.daily(board_day.isoformat())
        admission, entry, pending = self.store.admitted_entry(player, scope)  # the route admits here
        refuse_unless_admitted(admission, self.now())
        if entry is None:
            raise NotFound("No official result for that date", "not_ranked")
        closed = self.closed(scope, daily_closes_at(board_day))
        # The rank and the board's size from one read of the same counters.
        standing = self.ranks.standing(scope, entry.position.tie)
        (row,) = rows([entry], [rank_from_better(standing.better)], closed)
        return MyRow(board_day, closed, row, players_with_own(standing), percentile(standing), pending)

    def daily_distribution(self, day: str) -> Distribution:
        """DAY's score histogram and ranked players, from the rank counters' band items alone."""
        board_day = self.board_date(day)
        scope = Scope.daily(board_day.isoformat())
        closed = self.closed(scope, daily_closes_at(board_day))  # decided before reading, as a page
        standing = self.ranks.standing(scope, None)
        return Distribution(board_day, closed, standing.players, histogram(standing.bands))

    def board_date(self, day: str | None) -> date:
        """The board's date: today by default; a past or present YYYY-MM-DD, else 400."""
        today = daily_date(self.now())
        if day is None:
            return today
        parsed = parse_date(day)
        if parsed > today:
            raise BadRequest("That date has not started yet", "future_date")
        return parsed

    # Challenge boards ----------------------------------------------------------------------

    def challenge_board(self, challenge: Challenge, start: PageStart, limit: int) -> ChallengeBoard:
        """A challenge's details and a page of its board, from START."""
        closes = parse_iso(challenge.closes_at)
        scope = Scope.challenge(challenge.challenge_id)
        page = self._page(scope, challenge_closes_at(closes), start, limit)
        created = self.store.board_entry(challenge.creator, scope)
        # The creator's row carries their name; a creator who has not played it yet is looked up.
        if created is not None:
            name = created.display_name
        else:
            name = self.names.display_names([challenge.creator]).get(challenge.creator)
        return ChallengeBoard(
            challenge=challenge,
            open=self.now() < closes,
            creator_name=name or default_display_name(challenge.creator),
            creator_score=created.position.score if created else None,
            page=page,
        )

    # Closing -------------------------------------------------------------------------------

    def closed(self, scope: Scope, closes_at: datetime) -> bool:
        """Whether SCOPE's board is closed (final). Remembered per container once true."""
        if scope in self._closed:
            return True
        if self.now() < closes_at:
            return False
        if board_closed(self.now(), closes_at, self._completed_through()):
            self._closed.add(scope)
            return True
        return False

    def _completed_through(self) -> datetime | None:
        """The watermark, read at most every WATERMARK_CACHE_SECONDS; also read again when the
        game clock has moved on by that much (`make run`'s clock control jumps it)."""
        tick, game_now = self.monotonic(), self.now()
        cached = self._watermark
        if (
            cached is None
            or tick - cached[0] >= WATERMARK_CACHE_SECONDS
            or abs((game_now - cached[1]).total_seconds()) >= WATERMARK_CACHE_SECONDS
        ):
            cached = self._watermark = (tick, game_now, self.runs.completed_through())
        return cached[2]

    # Pages and ranks -----------------------------------------------------------------------

    def _page(self, scope: Scope, closes_at: datetime, start: PageStart, limit: int) -> Page:
        """One page of a board from START, which carries where the last page ended (its
        position, how many rows came before and the last rank), so no page counts the rows
        before it."""
        closed = self.closed(scope, closes_at)  # decided before reading: a closed page is final
        pending = None
        first = self.store.top_page(scope, limit + 1, closed) if start.after is None else None
        if first is not None:  # page 1 with the board's runs under review, in one request
            entries, pending = first
        else:
            entries = self.store.board_page(scope, start.after, limit + 1, start.shown, words=closed)
        more = len(entries) > limit
        entries = entries[:limit]
        ranks = assign_ranks(
            [e.position.tie for e in entries],
            start.shown,
            start.after.tie if start.after else None,
            start.rank,
        )
        following = None
        if more:
            following = PageStart(entries[-1].position, start.shown + len(entries), ranks[-1])
        return Page(scope, closed, rows(entries, ranks, closed), following, pending)

    def _rank_of(self, scope: Scope, tie: TieKey) -> int:
        return rank_from_better(self.ranks.count_better(scope, tie))

    def closes_at(self, result: OfficialResult, challenge: Challenge | None) -> datetime | None:
        """When RESULT's board closes (None for a challenge that is not found)."""
        if result.challenge_id is None:
            return daily_closes_at(date.fromisoformat(result.date))
        return challenge_closes_at(parse_iso(challenge.closes_at)) if challenge else None

    def final_rank(self, result: OfficialResult, challenge: Challenge | None) -> int | None:
        """RESULT's rank once its board is closed (it never changes again); None while live, and
        for a result that is never ranked (SPEC §3b)."""
        closes = self.closes_at(result, challenge)
        if not result.ranked or closes is None or not self.closed(result.scope, closes):
            return None
        return self._rank_of(result.scope, BoardPosition.of(result).tie)
