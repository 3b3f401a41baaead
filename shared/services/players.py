"""A player's own things (SPEC §5): profile and stats (`/me`) and history (`/me/history`)."""

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import NamedTuple

from shared.game import clock
from shared.game.boards import RENAME_REACH_DAYS, HistoryPosition, rename_reaches
from shared.game.daily_date import daily_date
from shared.game.errors import Conflict
from shared.game.moderation import Sanction
from shared.game.names import check_display_name, default_display_name
from shared.game.results import Challenge, OfficialResult
from shared.game.stats import PlayerStats
from shared.services.admission import refuse_unless_admitted
from shared.services.board_ports import BoardStore, NameStore
from shared.services.leaderboard import Boards
from shared.services.ports import NameTaken, ResultStore, RunStore

HISTORY_PAGE_DEFAULT = 20
HISTORY_PAGE_MAX = 50
FOLLOW_ATTEMPTS = 3  # reads of the name again after a follow's writes


class Summary(NamedTuple):
    """A player's name (theirs, or their default one) and Daily stats, the streak as of today."""

    display_name: str
    stats: PlayerStats
    current_streak: int
    sanctions: list[Sanction] = []  # noqa: RUF012  # a NamedTuple's default, never mutated


class HistoryItem(NamedTuple):
    """An official result of the player's, with its final rank (None while its board is live,
    and for a result that is never ranked)."""

    result: OfficialResult
    rank: int | None
    closes_at: datetime | None = None  # when its board closes (None: a challenge not found)


class History(NamedTuple):
    """A page of a player's history, and where the next page starts (None: this is the last)."""

    items: list[HistoryItem]
    following: HistoryPosition | None


class Players:
    def __init__(
        self,
        store: BoardStore,
        names: NameStore,
        results: ResultStore,
        runs: RunStore,
        boards: Boards,
        now: Callable[[], datetime] = clock.now,
    ):
        self.store, self.names, self.results, self.runs = store, names, results, runs
        self.boards = boards
        self.now = now

    def admit(self, player: str, banned_ok: bool = False) -> None:
        """Let PLAYER use the player routes, or refuse them (SPEC §3e, §6), from one consistent
        read of their profile: an erased player from the moment `DELETE /me` began (401
        `account_erased`), whatever token they hold; a banned one (403 `banned`) unless BANNED_OK
        (the routes a ban leaves open: their profile, export and erasure)."""
        refuse_unless_admitted(self.store.admission(player), self.now(), banned_ok)

    def me(self, player: str) -> Summary:
        """`GET /me`: the profile, from the one read that also admits the caller (a ban lets
        them see their profile, which lists it)."""
        admission, profile, sanctions = self.store.own_profile(player)
        refuse_unless_admitted(admission, self.now(), banned_ok=True)
        stats = profile.stats or PlayerStats()
        return Summary(
            profile.display_name or default_display_name(player),
            stats,
            stats.current_streak(daily_date(self.now())),
            sanctions,
        )

    def set_display_name(self, player: str, name: str) -> str:
        """Claim NAME and show it on the profile, in one write that also records the rename for
        the boards: a bounded number of requests, whatever the number of the player's live
        boards. The table's stream hands that record to the stream consumer, which shows the
        name on the boards (`show_current_name`), a second or two later."""
        try:
            self.names.set_display_name(player, check_display_name(name))
        except NameTaken as error:
            raise Conflict("That display name is taken", "display_name_taken") from error
        return name

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
        results = self.results.results_since(player, since)
        challenges = self._challenges(results)
        live = [
            r.scope
            for r in results
            if (closes := self.boards.closes_at(r, challenges.get(r.challenge_id)))
            and rename_reaches(now, closes)
        ]
        self.names.rename_rows(player, live, name)
        # A rename or an erasure that came after the name was read wrote its rows before these,
        # or after: read the name again, so the rows end with the profile's (never a name an
        # erasure took away).
        for _ in range(FOLLOW_ATTEMPTS):
            latest = self.store.player_profile(player).display_name
            if latest is None or latest == name:
                break
            name = latest
            self.names.rename_rows(player, live, name)
        return len(live)

    def _challenges(self, results: list[OfficialResult]) -> dict[str | None, Challenge | None]:
        ids = {r.challenge_id for r in results if r.challenge_id is not None}
        return {challenge_id: self.runs.get_challenge(challenge_id) for challenge_id in ids}

    def history(self, player: str, after: HistoryPosition | None, limit: int) -> History:
        """A page of PLAYER's history, newest first, after AFTER (None: from the newest)."""
        results = self.results.history(player, after, limit + 1)
        more = len(results) > limit
        results = results[:limit]
        challenges = self._challenges(results)
        items = [self._item(r, challenges.get(r.challenge_id)) for r in results]
        following = HistoryPosition(results[-1].completed_at, results[-1].scope) if more else None
        return History(items, following)

    def _item(self, result: OfficialResult, challenge: Challenge | None) -> HistoryItem:
        return HistoryItem(
            result, self.boards.final_rank(result, challenge), self.boards.closes_at(result, challenge)
        )
