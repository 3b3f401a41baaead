"""Boards and a player's rank (SPEC §4): ordered reads that cost the same for 10 or 10 million
players, and boards that, once closed, never change. See docs/leaderboards.md for the design."""

import re
import time
from collections.abc import Callable
from datetime import date, datetime
from typing import Any, Literal

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
from shared.game.constants import TIME_LIMIT_SECONDS
from shared.game.daily_date import daily_date
from shared.game.errors import BadRequest, NotFound
from shared.game.names import default_display_name
from shared.game.results import Challenge, OfficialResult
from shared.game.scope import Scope
from shared.http.cursors import decode_cursor, encode_cursor, invalid_cursor
from shared.http.models import BoardPage, BoardRow, ChallengeView, MyRank
from shared.services.ports import BoardStore

Status = Literal["live", "closed"]
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# The expiry job's watermark moves once a minute; reading it this often per container is plenty.
WATERMARK_CACHE_SECONDS = 5.0


class Boards:
    def __init__(
        self,
        store: BoardStore,
        cursor_key: Callable[[], bytes],
        now: Callable[[], datetime] = clock.now,
        older_cursor_keys: Callable[[], tuple[bytes, ...]] = tuple,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        self.store = store
        self.cursor_key = cursor_key  # signs new cursors
        self.older_cursor_keys = older_cursor_keys  # still verify, for a while after a rotation
        self.now = now
        self.monotonic = monotonic  # what the watermark cache measures its age by
        self._closed: set[Scope] = set()  # a closed board never reopens
        # (monotonic seconds, game clock, watermark) of the last read of the expiry job's watermark
        self._watermark: tuple[float, datetime, datetime | None] | None = None

    # Daily boards --------------------------------------------------------------------------

    def daily_board(self, day: str | None, cursor: str | None, limit: int) -> BoardPage:
        board_day = self.board_date(day)
        scope = Scope.daily(board_day.isoformat())
        status, rows, next_cursor = self._page(scope, daily_closes_at(board_day), cursor, limit)
        return BoardPage(date=board_day.isoformat(), status=status, rows=rows, next_cursor=next_cursor)

    def daily_rank(self, day: str | None, player: str) -> MyRank:
        """The caller's row with the rank counted from the rank counters (they trail a completion
        by a second or two while the board is live; they are final once it is closed)."""
        board_day = self.board_date(day)
        scope = Scope.daily(board_day.isoformat())
        entry = self.store.board_entry(player, scope)
        if entry is None:
            raise NotFound("No official result for that date", "not_ranked")
        closed = self.closed(scope, daily_closes_at(board_day))
        (row,) = self._rows([entry], [self._rank_of(scope, entry.position.tie)], closed)
        # Every counted result ranks better than a score of -1: the board's size, same counters.
        players = max(row.rank, self.store.count_better(scope, TieKey(-1, 0, 0)))
        return MyRank(
            date=board_day.isoformat(),
            status="closed" if closed else "live",
            players=players,
            **row.model_dump(),
        )

    def board_date(self, day: str | None) -> date:
        """The board's date: today by default; a past or present YYYY-MM-DD, else 400."""
        today = daily_date(self.now())
        if day is None:
            return today
        try:
            if not _ISO_DATE.fullmatch(day):
                raise ValueError(day)
            parsed = date.fromisoformat(day)
        except ValueError as error:
            raise BadRequest("A date is YYYY-MM-DD", "invalid_date") from error
        if parsed > today:
            raise BadRequest("That date has not started yet", "future_date")
        return parsed

    # Challenge boards ----------------------------------------------------------------------

    def challenge_view(self, challenge: Challenge, cursor: str | None, limit: int) -> dict[str, Any]:
        """A challenge's details and a page of its board (a dict: the runs' handler shapes it)."""
        closes = parse_iso(challenge.closes_at)
        scope = Scope.challenge(challenge.challenge_id)
        status, rows, next_cursor = self._page(scope, challenge_closes_at(closes), cursor, limit)
        created = self.store.board_entry(challenge.creator, scope)
        # The creator's row carries their name; a creator who has not played it yet is looked up.
        if created is not None:
            name = created.display_name
        else:
            name = self.store.display_names([challenge.creator]).get(challenge.creator)
        return ChallengeView(
            challenge_id=challenge.challenge_id,
            rounds=len(challenge.puzzle),
            forbidden_rounds=sum(1 for r in challenge.puzzle if r.forbidden),
            time_limit_seconds=TIME_LIMIT_SECONDS,
            created_at=challenge.created_at,
            closes_at=challenge.closes_at,
            open=self.now() < closes,
            status=status,
            creator_name=name or default_display_name(challenge.creator),
            creator_score=created.position.score if created else None,
            rows=rows,
            next_cursor=next_cursor,
        ).model_dump()

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
            cached = self._watermark = (tick, game_now, self.store.completed_through())
        return cached[2]

    # Pages and ranks -----------------------------------------------------------------------

    def _page(
        self, scope: Scope, closes_at: datetime, cursor: str | None, limit: int
    ) -> tuple[Status, list[BoardRow], str | None]:
        """One page of a board. The cursor carries where the last page ended (its position, how
        many rows came before and the last rank), signed, so no page counts the rows before it."""
        after, shown, previous_rank = self._read_cursor(scope, cursor)
        closed = self.closed(scope, closes_at)  # decided before reading: a closed page is final
        entries = self.store.board_page(scope, after, limit + 1, shown)
        more = len(entries) > limit
        entries = entries[:limit]
        ranks = assign_ranks(
            [e.position.tie for e in entries], shown, after.tie if after else None, previous_rank
        )
        rows = self._rows(entries, ranks, closed)
        next_cursor = None
        if more:
            next_cursor = encode_cursor(
                {
                    "scope": list(scope),
                    "after": list(entries[-1].position),
                    "shown": shown + len(entries),
                    "rank": ranks[-1],
                },
                self.cursor_key(),
            )
        status: Status = "closed" if closed else "live"
        return status, rows, next_cursor

    def _read_cursor(self, scope: Scope, cursor: str | None) -> tuple[BoardPosition | None, int, int]:
        if not cursor:
            return None, 0, 0
        state = decode_cursor(cursor, self.cursor_key(), *self.older_cursor_keys())
        try:
            if Scope(*state["scope"]) != scope:
                raise ValueError("another board")
            score, combo, longest, duration, completed_at, run_id = state["after"]
            after = BoardPosition(
                int(score), int(combo), int(longest), int(duration), str(completed_at), str(run_id)
            )
            return after, int(state["shown"]), int(state["rank"])
        except (KeyError, TypeError, ValueError) as error:
            raise invalid_cursor() from error

    @staticmethod
    def _rows(entries: list[BoardEntry], ranks: list[int], closed: bool) -> list[BoardRow]:
        """Rows as the API shows them: words only once closed. Each row carries its player's
        display name (renames reach the rows of live boards), so no page reads a profile."""
        return [
            BoardRow(
                rank=rank,
                display_name=e.display_name or default_display_name(e.player),
                score=e.position.score,
                best_combo=e.position.best_combo,
                longest_word_length=e.position.longest_word_length,
                words=e.words if closed else None,
            )
            for e, rank in zip(entries, ranks, strict=True)
        ]

    def _rank_of(self, scope: Scope, tie: TieKey) -> int:
        return rank_from_better(self.store.count_better(scope, tie))

    def closes_at(self, result: OfficialResult, challenge: Challenge | None) -> datetime | None:
        """When RESULT's board closes (None for a challenge that is not found)."""
        if result.challenge_id is None:
            return daily_closes_at(date.fromisoformat(result.date))
        return challenge_closes_at(parse_iso(challenge.closes_at)) if challenge else None

    def final_rank(self, result: OfficialResult, challenge: Challenge | None) -> int | None:
        """RESULT's rank once its board is closed (it never changes again); None while live, and
        for a result that is never ranked (SPEC §3b)."""
        scope = Scope.of(result.date, result.challenge_id)
        closes = self.closes_at(result, challenge)
        if not result.ranked or closes is None or not self.closed(scope, closes):
            return None
        return self._rank_of(scope, BoardPosition.of(result).tie)
