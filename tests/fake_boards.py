"""An in-memory BoardStore (shared/game/boards.py) for service and handler tests.

tests/contract/test_board_store.py runs the same tests against it and against DynamoStore, so it
cannot drift from the real thing. Ranks are counted, and rows shown on page 1, at once here; on
DynamoDB both trail a completion until the stream consumer has run (it counts and keeps the top
of each board; the contract tests drain the stream first).
"""

import uuid
from datetime import UTC, date, datetime, timedelta
from typing import Any

from shared.game.boards import (
    BoardEntry,
    BoardPosition,
    HistoryPosition,
    PlayerProfile,
    TieKey,
)
from shared.game.clock import iso, parse_iso
from shared.game.constants import TIME_LIMIT_SECONDS
from shared.game.daily_date import reset_instant
from shared.game.fair_play import UnrankedReason
from shared.game.moderation import BANNED_FOREVER, ban_end
from shared.game.names import name_skeleton
from shared.game.results import Challenge, OfficialResult
from shared.game.scope import Scope
from shared.game.standing import Standing, band_of
from shared.game.stats import PlayerStats
from shared.services.ports import (
    Admission,
    Completion,
    NameTaken,
    OfficialTaken,
    ProfileVersion,
    StaleRun,
    StoredProfile,
)


class FakeBoardStore:
    def __init__(self) -> None:
        self.results: dict[tuple[str, Scope], OfficialResult] = {}
        self.row_names: dict[tuple[str, Scope], str | None] = {}  # the name each board row shows
        self.names: dict[str, str] = {}
        self.stats: dict[str, PlayerStats] = {}
        self.stats_versions: dict[str, int] = {}  # writes of each player's stats
        self.challenges: dict[str, Challenge] = {}
        self.watermark: datetime | None = None
        self.reads: dict[str, int] = {}  # calls per method, for tests of caching
        self.renames: list[str] = []  # players renamed, not yet followed (`follow_renames`)
        self.erased_players: set[str] = set()  # players whose profile holds the tombstone

    def _read(self, method: str) -> None:
        self.reads[method] = self.reads.get(method, 0) + 1

    # Writes ----------------------------------------------------------------------------------

    def profile_for_completion(self, player: str, daily: bool) -> StoredProfile:
        rank_bans = [
            s.until or BANNED_FOREVER for s in self.sanctions(player) if s.action in ("rank_ban", "ban")
        ]
        profile = PlayerProfile(self.names.get(player), self.stats.get(player), max(rank_bans, default=None))
        return StoredProfile(profile, ProfileVersion(self.stats_versions.get(player, 0)))

    def _write_completion(self, completion: Completion) -> None:
        """What a completion writes besides its run (the fake run store calls this), as given:
        on condition that the player has no official result for the scope (else OfficialTaken)
        and the profile is still as read (else StaleRun)."""
        result, read = completion.result, completion.read
        scope = result.scope
        if (result.player, scope) in self.results:
            raise OfficialTaken(result.run_id)
        now = self.profile_for_completion(result.player, completion.stats is not None)
        if now.profile.display_name != read.profile.display_name or (
            completion.stats is not None and now.version != read.version
        ):
            raise StaleRun(result.run_id)
        self.results[result.player, scope] = result
        self.row_names[result.player, scope] = read.profile.display_name
        if completion.stats is not None:
            self.stats[result.player] = completion.stats
            self.stats_versions[result.player] = read.version.stats + 1

    def set_display_name(self, player: str, name: str) -> None:
        claim = name_skeleton(name)
        if any(p != player and name_skeleton(n) == claim for p, n in self.names.items()):
            raise NameTaken(name)
        self.names[player] = name
        self.renames.append(player)  # the rename's record, for the stream consumer

    def mark_completed_through(self, instant: datetime) -> None:
        instant = parse_iso(iso(instant))  # kept to the millisecond, as DynamoStore keeps it
        self.watermark = max(self.watermark or instant, instant)

    # Reads -----------------------------------------------------------------------------------

    def board_page(
        self, scope: Scope, after: BoardPosition | None, limit: int, shown: int = 0, words: bool = True
    ) -> list[BoardEntry]:
        self._read("board_page")
        entries = sorted(
            (self._entry(player, s) for (player, s), r in self.results.items() if s == scope and r.ranked),
            key=lambda e: e.position.order(),
        )
        if after is not None:
            entries = [e for e in entries if e.position.order() > after.order()]
        return entries[:limit]

    def count_better(self, scope: Scope, tie: TieKey) -> int:
        self._read("count_better")
        return sum(
            1
            for (_, s), r in self.results.items()
            if s == scope and r.ranked and BoardPosition.of(r).tie.outranks(tie)
        )

    def standing(self, scope: Scope, tie: TieKey | None) -> Standing:
        self._read("standing")
        ties = [BoardPosition.of(r).tie for (_, s), r in self.results.items() if s == scope and r.ranked]
        bands: dict[int, int] = {}
        for counted in ties:
            bands[band_of(counted.score)] = bands.get(band_of(counted.score), 0) + 1
        if tie is None:
            return Standing(bands)
        return Standing(bands, sum(1 for t in ties if t.outranks(tie)), sum(1 for t in ties if t == tie))

    def _entry(self, player: str, scope: Scope) -> BoardEntry:
        result = self.results[player, scope]
        return BoardEntry(player, BoardPosition.of(result), result.words, self.row_names[player, scope])

    def official_result(self, player: str, scope: Scope) -> OfficialResult | None:
        return self.results.get((player, scope))

    def board_entry(self, player: str, scope: Scope) -> BoardEntry | None:
        result = self.results.get((player, scope))
        return self._entry(player, scope) if result and result.ranked else None

    def admitted_entry(
        self, player: str, scope: Scope
    ) -> tuple[Admission, BoardEntry | None, frozenset[str]]:
        return self.admission(player), self.board_entry(player, scope), self.pending_runs(scope)

    def top_page(
        self, scope: Scope, limit: int, words: bool
    ) -> tuple[list[BoardEntry], frozenset[str]] | None:
        self._read("top_page")
        return self.board_page(scope, None, limit, 0, words), self.pending_runs(scope)

    def results_since(self, player: str, day: date) -> list[OfficialResult]:
        return [r for (p, _), r in self.results.items() if p == player and r.date >= day.isoformat()]

    def rename_rows(self, player: str, scopes: list[Scope], name: str) -> None:
        for scope in scopes:
            if (player, scope) in self.row_names:
                self.row_names[player, scope] = name

    def history(self, player: str, after: HistoryPosition | None, limit: int) -> list[OfficialResult]:
        mine = sorted(
            ((r.completed_at, r.scope, r) for (p, _), r in self.results.items() if p == player),
            key=lambda row: (row[0], _scope_order(row[1])),
            reverse=True,
        )
        if after is not None:
            mine = [
                row
                for row in mine
                if (row[0], _scope_order(row[1])) < (after.completed_at, _scope_order(after.scope))
            ]
        return [r for _, _, r in mine[:limit]]

    def display_names(self, players: list[str]) -> dict[str, str]:
        self._read("display_names")
        return {p: self.names[p] for p in players if p in self.names}

    def player_profile(self, player: str) -> PlayerProfile:
        self._read("player_profile")
        return PlayerProfile(self.names.get(player), self.stats.get(player))

    def own_profile(self, player: str) -> tuple[Admission, PlayerProfile, list[Any]]:
        return self.admission(player), self.player_profile(player), self.sanctions(player)

    def admission(self, player: str) -> Admission:
        self._read("admission")
        ends = [end for end in map(ban_end, self.sanctions(player)) if end]
        return Admission(player in self.erased_players, max(ends) if ends else None)

    def get_challenge(self, challenge_id: str) -> Challenge | None:
        return self.challenges.get(challenge_id)

    def completed_through(self) -> datetime | None:
        self._read("completed_through")
        return self.watermark

    def sanctions(self, player: str) -> list[Any]:
        """No player has a sanction here (tests/fake_moderation.py keeps them): what the ban guard
        every player route passes reads (functions/moderation.py)."""
        return []

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        """No run is under review here (tests/fake_moderation.py keeps cases): what a board page
        reads for its rows' `review`."""
        return frozenset()


def _scope_order(scope: Scope) -> str:
    """Scopes ordered as the DynamoDB adapter's history key orders them (`DAILY#...` and
    `CHALLENGE#...`), so both stores break ties of completion time alike."""
    return f"{scope.kind.upper()}#{scope.id}"


# Helpers for service and handler tests ----------------------------------------------------------

CURSOR_KEY = b"test cursor key"


def follow_renames(store: "FakeBoardStore", players: Any = None) -> None:
    """What the stream consumer does with each rename the store recorded (on DynamoDB: the
    table's stream hands them to functions/leaderboard/counters.py), with PLAYERS (by default
    the service functions/leaderboard/handler.py serves with). On tests.dynamo_store's store,
    the stream consumer does it."""
    if hasattr(store, "settle"):
        store.settle()
        return
    if players is None:
        from functions.leaderboard import handler as module

        players = module.players()
    while store.renames:
        players.show_current_name(store.renames.pop(0))


def player(name: str) -> str:
    """The player id tests.conftest.Api's `user=name` authenticates as: a UUID, like Cognito's."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"wordsqd-test:{name}"))


def official(
    name: str,
    score: int,
    best_combo: int = 0,
    longest: int = 0,
    *,
    completed_at: str,
    day: str,
    words: tuple[str, ...] = ("timer",),
    challenge_id: str | None = None,
    run_id: str | None = None,
    duration_ms: int = 60_000,
    unranked_reason: UnrankedReason | None = None,
) -> OfficialResult:
    """An official result of player NAME, as the game builds it when a run completes (its run
    took DURATION_MS)."""
    scope = Scope.of(day, challenge_id)
    started_at = iso(parse_iso(completed_at) - timedelta(milliseconds=duration_ms))
    return OfficialResult(
        player=player(name),
        kind=scope.kind,
        date=day,
        challenge_id=challenge_id,
        run_id=run_id or f"run-{name}-{scope.id}",
        score=score,
        best_combo=best_combo,
        longest_word_length=longest,
        started_at=started_at,
        completed_at=completed_at,
        words=list(words),
        unranked_reason=unranked_reason,
    )


def serve_with(monkeypatch, store: FakeBoardStore, now=None) -> None:
    """Make functions/leaderboard/handler.py serve from STORE (services built as wiring does, with
    their caches aging by the game clock, so tests that move the clock expire them)."""
    from functions import moderation as moderation_routes
    from functions.leaderboard import handler as module
    from shared.game import clock
    from shared.game.dictionary import words
    from shared.http.cursors import Cursors
    from shared.services.leaderboard import Boards
    from shared.services.moderation import Moderation
    from shared.services.players import Players

    boards = Boards(store, now=now or clock.now, monotonic=lambda: clock.now().timestamp())
    players = Players(store, boards, now=now or clock.now)
    from shared.dynamo.moderation import DynamoModeration
    from shared.dynamo.store import DynamoStore

    # the fake keeps moderation items itself (tests/fake_moderation.py); DynamoDB through its part
    kept = DynamoModeration(store) if isinstance(store, DynamoStore) else store
    moderation = Moderation(kept, store, store, words, now=now or clock.now)  # type: ignore[arg-type]
    monkeypatch.setattr(module, "boards", lambda: boards)
    monkeypatch.setattr(module, "players", lambda: players)
    from functions.daily import handler as daily_module  # its routes admit players through them too

    monkeypatch.setattr(daily_module, "players", lambda: players)
    if hasattr(store, "create_run"):  # a whole store: the run routes, which admit their own callers
        from shared.runtime.wiring import deployment_secret
        from shared.services.game import Game

        game = Game(store, deployment_secret, words, now=now or clock.now)  # type: ignore[arg-type]
        monkeypatch.setattr(daily_module, "game", lambda: game)
    monkeypatch.setattr(module, "moderation", lambda: moderation)
    from shared.dynamo.recap import DynamoRecaps
    from shared.services.recap import Recaps

    recaps = Recaps(
        DynamoRecaps(store) if isinstance(store, DynamoStore) else store, store, store, now or clock.now
    )  # type: ignore[arg-type]
    monkeypatch.setattr(module, "recaps", lambda: recaps)
    monkeypatch.setattr(moderation_routes, "moderation", lambda: moderation)
    # The daily function's challenge boards and the one-minute job serve from STORE too.
    from functions.daily import expire

    for served in (daily_module, expire):
        monkeypatch.setattr(served, "boards", lambda: boards)
        monkeypatch.setattr(served, "moderation", lambda: moderation)
    monkeypatch.setattr(expire, "recaps", lambda: recaps)
    if hasattr(store, "create_run"):
        monkeypatch.setattr(expire, "game", lambda: game)
    monkeypatch.setattr(module, "cursors", Cursors(lambda: CURSOR_KEY))


# The board tests' day (tests/test_boards.py, tests/test_profiles.py) ---------------------------

DAY = date(2026, 1, 15)  # a winter date: its reset is 06:00 UTC
NOON = datetime(2026, 1, 15, 18, 0, tzinfo=UTC)  # 12:00 Central on DAY, while DAY is live
CLOSES = reset_instant(DAY + timedelta(days=1)) + timedelta(seconds=TIME_LIMIT_SECONDS)


def completion(seconds: int, day: date = DAY) -> str:
    """An official completion time SECONDS after 00:00 Central on DAY."""
    return iso(reset_instant(day) + timedelta(seconds=seconds))
