"""Boards and a player's rank (SPEC §4): ordered reads that cost the same for 10 or 10 million
players, and boards that, once closed, never change. See docs/leaderboards.md for the design."""

import re
import threading
import time
from collections.abc import Callable
from datetime import date, datetime

from shared import clock
from shared.boards import (
    BoardEntry,
    BoardPosition,
    BoardStore,
    TieKey,
    assign_ranks,
    board_closed,
    challenge_closes_at,
    daily_closes_at,
    rank_from_better,
)
from shared.clock import parse_iso
from shared.constants import TIME_LIMIT_SECONDS
from shared.cursors import decode_cursor, encode_cursor, invalid_cursor
from shared.daily_date import daily_date
from shared.errors import BadRequest, NotFound
from shared.models import BoardPage, BoardRow, ChallengeView, MyRank
from shared.profiles import default_display_name
from shared.scope import Scope
from shared.store import Challenge, OfficialResult

_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# A live board shows each player's current name, read at most this often per container.
NAME_CACHE_SECONDS = 60.0
# The expiry job's watermark moves once a minute; reading it this often per container is plenty.
WATERMARK_CACHE_SECONDS = 5.0


class NameCache:
    """Current display names, kept per container for NAME_CACHE_SECONDS (a page of a live board
    then costs no profile read when its players were seen recently)."""

    def __init__(
        self,
        lookup: Callable[[list[str]], dict[str, str]],
        ttl: float = NAME_CACHE_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        self.lookup = lookup
        self.ttl = ttl
        self.monotonic = monotonic
        self._names: dict[str, tuple[float, str | None]] = {}
        self._lock = threading.Lock()

    def forget(self, player: str) -> None:
        """Drop PLAYER's cached name (they renamed through this container)."""
        with self._lock:
            self._names.pop(player, None)

    def names(self, players: list[str]) -> dict[str, str | None]:
        now = self.monotonic()
        with self._lock:
            fresh = {p: hit[1] for p in players if (hit := self._names.get(p)) and now - hit[0] < self.ttl}
        missing = [p for p in dict.fromkeys(players) if p not in fresh]
        if missing:
            found = self.lookup(missing)
            with self._lock:
                for player in missing:
                    fresh[player] = found.get(player)
                    self._names[player] = (now, found.get(player))
        return fresh


class Boards:
    def __init__(
        self,
        store: BoardStore,
        cursor_key: Callable[[], bytes],
        now: Callable[[], datetime] = clock.now,
        names: NameCache | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        self.store = store
        self.cursor_key = cursor_key
        self.now = now
        self.monotonic = monotonic  # what the per-container caches measure their age by
        self.names = names or NameCache(store.display_names, monotonic=monotonic)
        self._closed: set[Scope] = set()  # a closed board never reopens
        self._watermark: tuple[float, datetime | None] | None = None

    # Daily boards --------------------------------------------------------------------------

    def daily_board(self, day: str | None, cursor: str | None, limit: int) -> BoardPage:
        board_day = self._board_date(day)
        scope = Scope.daily(board_day.isoformat())
        status, rows, next_cursor = self._page(scope, daily_closes_at(board_day), cursor, limit)
        return BoardPage(date=board_day.isoformat(), status=status, rows=rows, next_cursor=next_cursor)

    def daily_rank(self, day: str | None, player: str) -> MyRank:
        """The caller's row with the rank counted from the rank counters (they trail a completion
        by a second or two while the board is live; they are final once it is closed)."""
        board_day = self._board_date(day)
        scope = Scope.daily(board_day.isoformat())
        result = self.store.official_result(player, scope)
        if result is None:
            raise NotFound("No official result for that date", "not_ranked")
        closed = self.closed(scope, daily_closes_at(board_day))
        name = self.names.names([player]).get(player) or default_display_name(player)
        return MyRank(
            date=board_day.isoformat(),
            status="closed" if closed else "live",
            rank=self.rank_of(result),
            display_name=name,
            score=result.score,
            best_combo=result.best_combo,
            longest_word_length=result.longest_word_length,
            words=result.words if closed else None,
        )

    def _board_date(self, day: str | None) -> date:
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

    def challenge_view(self, challenge: Challenge, cursor: str | None, limit: int) -> dict:
        """A challenge's details and a page of its board (a dict: the runs' handler shapes it)."""
        closes = parse_iso(challenge.closes_at)
        status, rows, next_cursor = self._page(
            Scope.challenge(challenge.challenge_id), challenge_closes_at(closes), cursor, limit
        )
        return ChallengeView(
            challenge_id=challenge.challenge_id,
            rounds=len(challenge.puzzle),
            forbidden_rounds=sum(1 for r in challenge.puzzle if r.forbidden),
            time_limit_seconds=TIME_LIMIT_SECONDS,
            created_at=challenge.created_at,
            closes_at=challenge.closes_at,
            open=self.now() < closes,
            status=status,
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
        now = self.monotonic()
        if self._watermark is None or now - self._watermark[0] >= WATERMARK_CACHE_SECONDS:
            self._watermark = (now, self.store.completed_through())
        return self._watermark[1]

    # Pages and ranks -----------------------------------------------------------------------

    def _page(
        self, scope: Scope, closes_at: datetime, cursor: str | None, limit: int
    ) -> tuple[str, list[BoardRow], str | None]:
        """One page of a board. The cursor carries where the last page ended (its position, how
        many rows came before and the last rank), signed, so no page counts the rows before it."""
        after, shown, previous_rank = self._read_cursor(scope, cursor)
        closed = self.closed(scope, closes_at)  # decided before reading: a closed page is final
        entries = self.store.board_page(scope, after, limit + 1)
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
        return ("closed" if closed else "live"), rows, next_cursor

    def _read_cursor(self, scope: Scope, cursor: str | None) -> tuple[BoardPosition | None, int, int]:
        if not cursor:
            return None, 0, 0
        state = decode_cursor(cursor, self.cursor_key())
        try:
            if Scope(*state["scope"]) != scope:
                raise ValueError("another board")
            score, combo, longest, completed_at, run_id = state["after"]
            after = BoardPosition(int(score), int(combo), int(longest), str(completed_at), str(run_id))
            return after, int(state["shown"]), int(state["rank"])
        except (KeyError, TypeError, ValueError) as error:
            raise invalid_cursor() from error

    def _rows(self, entries: list[BoardEntry], ranks: list[int], closed: bool) -> list[BoardRow]:
        """A closed board shows the name each player had when their run completed (stored with
        the row), so it reads the same forever; a live one shows current names (cached)."""
        if closed:
            names = {e.player: e.name_at_completion for e in entries}
        else:
            names = self.names.names([e.player for e in entries]) if entries else {}
        return [
            BoardRow(
                rank=rank,
                display_name=names.get(e.player) or default_display_name(e.player),
                score=e.position.score,
                best_combo=e.position.best_combo,
                longest_word_length=e.position.longest_word_length,
                words=e.words if closed else None,
            )
            for e, rank in zip(entries, ranks, strict=True)
        ]

    def rank_of(self, result: OfficialResult) -> int:
        tie = TieKey(result.score, result.best_combo, result.longest_word_length)
        return rank_from_better(self.store.count_better(Scope.of(result.date, result.challenge_id), tie))

    def final_rank(self, result: OfficialResult, challenge: Challenge | None) -> int | None:
        """RESULT's rank once its board is closed (it never changes again); None while live."""
        scope = Scope.of(result.date, result.challenge_id)
        if scope.kind == "daily":
            closes = daily_closes_at(date.fromisoformat(result.date))
        elif challenge is None:
            return None
        else:
            closes = challenge_closes_at(parse_iso(challenge.closes_at))
        return self.rank_of(result) if self.closed(scope, closes) else None
