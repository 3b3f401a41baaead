"""A player's own things (SPEC §5): profile and stats (`/me`) and history (`/me/history`)."""

from collections.abc import Callable
from datetime import datetime, timedelta

from shared.game import clock
from shared.game.boards import RENAME_REACH_DAYS, HistoryPosition, rename_reaches
from shared.game.daily_date import daily_date
from shared.game.errors import Conflict
from shared.game.names import check_display_name, default_display_name
from shared.game.results import Challenge, OfficialResult
from shared.game.scope import Scope
from shared.game.stats import PlayerStats
from shared.http.cursors import decode_cursor, encode_cursor, invalid_cursor
from shared.http.models import HistoryItem, HistoryPage, Me, Profile, StatsView
from shared.services.leaderboard import Boards
from shared.services.ports import BoardStore, NameTaken

HISTORY_PAGE_DEFAULT = 20
HISTORY_PAGE_MAX = 50


class Players:
    def __init__(
        self,
        store: BoardStore,
        boards: Boards,
        cursor_key: Callable[[], bytes],
        now: Callable[[], datetime] = clock.now,
        older_cursor_keys: Callable[[], tuple[bytes, ...]] = tuple,
    ):
        self.store = store
        self.boards = boards
        self.cursor_key = cursor_key  # signs new cursors
        self.older_cursor_keys = older_cursor_keys  # still verify, for a while after a rotation
        self.now = now

    def me(self, player: str) -> Me:
        profile = self.store.player_profile(player)
        stats = profile.stats or PlayerStats()
        return Me(
            display_name=profile.display_name or default_display_name(player),
            stats=StatsView(
                played=stats.played,
                current_streak=stats.current_streak(daily_date(self.now())),
                max_streak=stats.max_streak,
                best_score=stats.best_score,
                last_played=stats.last_played,
            ),
        )

    def set_display_name(self, player: str, name: str) -> Profile:
        """Claim NAME and show it on the profile, in one write that also records the rename for
        the boards: a bounded number of requests, whatever the number of the player's live
        boards. The table's stream hands that record to the stream consumer, which shows the
        name on the boards (`show_current_name`), a second or two later."""
        try:
            self.store.set_display_name(player, check_display_name(name))
        except NameTaken as error:
            raise Conflict("That display name is taken", "display_name_taken") from error
        return Profile(display_name=name)

    def show_current_name(self, player: str) -> int:
        """Show PLAYER's current display name on their rows of every board not yet past its
        close time (boards show the current name while live; a closed board never changes), the
        top of each board included; returns how many boards that is. Idempotent and resumable:
        it reads the name from the profile (so a rename delivered late or twice writes the
        latest name), and a run cut short is simply run again (the stream delivers the rename
        again until it succeeds)."""
        name = self.store.player_profile(player).display_name
        if name is None:
            return 0
        now = self.now()
        since = daily_date(now) - timedelta(days=RENAME_REACH_DAYS)
        results = self.store.results_since(player, since)
        challenges = self._challenges(results)
        live = [
            Scope.of(r.date, r.challenge_id)
            for r in results
            if (closes := self.boards.closes_at(r, challenges.get(r.challenge_id)))
            and rename_reaches(now, closes)
        ]
        self.store.rename_rows(player, live, name)
        return len(live)

    def _challenges(self, results: list[OfficialResult]) -> dict[str | None, Challenge | None]:
        ids = {r.challenge_id for r in results if r.challenge_id is not None}
        return {challenge_id: self.store.get_challenge(challenge_id) for challenge_id in ids}

    def history(self, player: str, cursor: str | None, limit: int) -> HistoryPage:
        after = self._read_cursor(player, cursor)
        results = self.store.history(player, after, limit + 1)
        more = len(results) > limit
        results = results[:limit]
        challenges = self._challenges(results)
        items = [
            HistoryItem(
                kind=r.kind,
                date=r.date,
                challenge_id=r.challenge_id,
                score=r.score,
                best_combo=r.best_combo,
                longest_word_length=r.longest_word_length,
                completed_at=r.completed_at,
                rank=self.boards.final_rank(r, challenges.get(r.challenge_id)),
                unranked_reason=r.unranked_reason,
            )
            for r in results
        ]
        next_cursor = None
        if more:
            last = results[-1]
            scope = Scope.of(last.date, last.challenge_id)
            next_cursor = encode_cursor(
                {"history": player, "after": [last.completed_at, *scope]}, self.cursor_key()
            )
        return HistoryPage(items=items, next_cursor=next_cursor)

    def _read_cursor(self, player: str, cursor: str | None) -> HistoryPosition | None:
        if not cursor:
            return None
        state = decode_cursor(cursor, self.cursor_key(), *self.older_cursor_keys())
        try:
            if state["history"] != player:
                raise ValueError("another player's history")
            completed_at, kind, ident = state["after"]
            if kind not in ("daily", "challenge"):
                raise ValueError(kind)
            return HistoryPosition(str(completed_at), Scope(kind, str(ident)))
        except (KeyError, TypeError, ValueError) as error:
            raise invalid_cursor() from error
