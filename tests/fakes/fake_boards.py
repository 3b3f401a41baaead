"""The in-memory fakes of the board side's ports, over the shared FakeTable (tests/fakes/fake_table.py):
`FakeBoards` (BoardStore), `FakeRanks` (RankStore), `FakeNames` (NameStore); and the helpers of
service and handler tests.

tests/contract/test_board_store.py runs the same tests against them and against the adapters, so
they cannot drift from the real thing. Ranks are counted, and rows shown on page 1, at once here;
on DynamoDB both trail a completion until the stream consumer has run (it counts and keeps the
top of each board; the contract tests drain the stream first).
"""

import uuid
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from shared.game.boards import BoardEntry, BoardPosition, PlayerProfile, TieKey
from shared.game.clock import iso, parse_iso
from shared.game.constants import TIME_LIMIT_SECONDS
from shared.game.daily_date import reset_instant
from shared.game.fair_play import UnrankedReason
from shared.game.moderation import Sanction
from shared.game.names import name_skeleton
from shared.game.results import OfficialResult
from shared.game.scope import Scope
from shared.game.standing import Standing, band_of
from shared.services.board_ports import BoardStore, NameStore, RankStore
from shared.services.ports import Admission, NameTaken
from tests.fakes.fake_table import FakeTable

if TYPE_CHECKING:
    from shared.runtime.wiring import Ports


class FakeBoards:
    """Board pages and rows, profiles and admission (BoardStore). Rows show at once here: on
    DynamoDB the top of a board trails a completion until the stream consumer has run."""

    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def board_page(
        self, scope: Scope, after: BoardPosition | None, limit: int, shown: int = 0, words: bool = True
    ) -> list[BoardEntry]:
        table = self.table
        table.read("board_page")
        entries = sorted(
            (table.entry(player, s) for (player, s), r in table.results.items() if s == scope and r.ranked),
            key=lambda e: e.position.order(),
        )
        if after is not None:
            entries = [e for e in entries if e.position.order() > after.order()]
        return entries[:limit]

    def board_entry(self, player: str, scope: Scope) -> BoardEntry | None:
        result = self.table.results.get((player, scope))
        return self.table.entry(player, scope) if result and result.ranked else None

    def admitted_entry(
        self, player: str, scope: Scope
    ) -> tuple[Admission, BoardEntry | None, frozenset[str]]:
        table = self.table
        return table.admission(player), self.board_entry(player, scope), table.pending_runs(scope)

    def top_page(
        self, scope: Scope, limit: int, words: bool
    ) -> tuple[list[BoardEntry], frozenset[str]] | None:
        self.table.read("top_page")
        return self.board_page(scope, None, limit, 0, words), self.table.pending_runs(scope)

    def player_profile(self, player: str) -> PlayerProfile:
        self.table.read("player_profile")
        return PlayerProfile(self.table.names.get(player), self.table.stats.get(player))

    def admission(self, player: str) -> Admission:
        return self.table.admission(player)

    def own_profile(self, player: str) -> tuple[Admission, PlayerProfile, list[Sanction]]:
        sanctions = list(self.table.sanctions.get(player, []))
        return self.table.admission(player), self.player_profile(player), sanctions


class FakeRanks:
    """Rank counters (RankStore): counted from the results at once here, so a rank never trails
    a completion; `count_official` keeps what the stream consumer counted, once each."""

    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def _ties(self, scope: Scope) -> list[TieKey]:
        found = self.table.results.items()
        return [BoardPosition.of(r).tie for (_, s), r in found if s == scope and r.ranked]

    def count_better(self, scope: Scope, tie: TieKey) -> int:
        self.table.read("count_better")
        return sum(1 for counted in self._ties(scope) if counted.outranks(tie))

    def standing(self, scope: Scope, tie: TieKey | None) -> Standing:
        self.table.read("standing")
        ties = self._ties(scope)
        bands: dict[int, int] = {}
        for counted in ties:
            bands[band_of(counted.score)] = bands.get(band_of(counted.score), 0) + 1
        if tie is None:
            return Standing(bands)
        return Standing(bands, sum(1 for t in ties if t.outranks(tie)), sum(1 for t in ties if t == tie))

    def count_official(self, results: list[OfficialResult]) -> int:
        counted = 0
        with self.table.lock:
            for result in results:
                key = (result.player, result.scope)
                stored = self.table.results.get(key)
                if result.ranked and stored == result and key not in self.table.counted:
                    self.table.counted.add(key)
                    counted += 1
        return counted


class FakeNames:
    """Display names (NameStore): claims unique by skeleton, and the rows' names."""

    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def set_display_name(self, player: str, name: str) -> None:
        claim = name_skeleton(name)
        with self.table.lock:
            if any(p != player and name_skeleton(n) == claim for p, n in self.table.names.items()):
                raise NameTaken(name)
            self.table.names[player] = name
            self.table.renames.append(player)  # the rename's record, for the stream consumer

    def rename_rows(self, player: str, scopes: list[Scope], name: str) -> None:
        self.table.rename_rows(player, scopes, name)

    def display_names(self, players: list[str]) -> dict[str, str]:
        self.table.read("display_names")
        return {p: self.table.names[p] for p in players if p in self.table.names}


_boards: BoardStore = FakeBoards(FakeTable())
_ranks: RankStore = FakeRanks(FakeTable())
_names: NameStore = FakeNames(FakeTable())


def scope_order(scope: Scope) -> str:
    """Scopes ordered as the DynamoDB adapter's history key orders them (`DAILY#...` and
    `CHALLENGE#...`), so both stores break ties of completion time alike."""
    return f"{scope.kind.upper()}#{scope.id}"


# Helpers for service and handler tests ----------------------------------------------------------

CURSOR_KEY = b"test cursor key"


def follow_renames(ports: Any, players: Any = None) -> None:
    """What the stream consumer does with each rename the fake table recorded (on DynamoDB: the
    table's stream hands them to functions/leaderboard/counters.py), with PLAYERS (by default
    the service functions/leaderboard/handler.py serves with). On tests.fakes.dynamo_store's ports,
    the stream consumer does it."""
    if hasattr(ports, "settle"):
        ports.settle()
        return
    if players is None:
        from functions.leaderboard import handler as module

        players = module.players()  # type: ignore[attr-defined]  # wiring's, as the handler serves it
    while ports.table.renames:
        players.show_current_name(ports.table.renames.pop(0))


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


def serve_with(
    monkeypatch: pytest.MonkeyPatch, ports: "Ports", now: Callable[[], datetime] | None = None
) -> None:
    """Make the handlers serve from PORTS (services built as wiring builds them, with their caches
    aging by the game clock, so tests that move the clock expire them)."""
    from functions.daily import expire
    from functions.daily import handler as daily_module
    from functions.leaderboard import handler as module
    from functions.moderation import handler as moderation_module
    from functions.moderation import routes as moderation_routes
    from shared.game import clock
    from shared.game.dictionary import words
    from shared.http.cursors import Cursors
    from shared.runtime import closing_wiring
    from shared.runtime.piece_queue import MemoryQueue
    from shared.runtime.secrets import deployment_secret
    from shared.runtime.wiring import moderation_on
    from shared.services.game import Game
    from shared.services.leaderboard import Boards
    from shared.services.players import Players
    from shared.services.recap import Recaps

    now = now or clock.now
    p = ports
    boards = Boards(p.boards, p.ranks, p.names, p.runs, now=now, monotonic=lambda: clock.now().timestamp())
    players = Players(p.boards, p.names, p.results, p.runs, boards, now=now)
    moderation = moderation_on(p, now)
    game = Game(p.runs, p.results, deployment_secret, words, now=now)
    recaps = Recaps(p.recaps, p.results, p.runs, now)
    closing = closing_wiring.build(p, game, MemoryQueue())
    for served, services in (
        (module, {"boards": boards, "players": players, "moderation": moderation, "recaps": recaps}),
        (daily_module, {"players": players, "game": game, "boards": boards, "moderation": moderation}),
        (expire, {"game": game, "closing_pass": closing, "moderation": moderation}),
        (moderation_routes, {"moderation": moderation, "players": players}),
        (moderation_module, {"players": players}),
    ):
        for name, service in services.items():
            monkeypatch.setattr(served, name, lambda service=service: service)
    monkeypatch.setattr(module, "cursors", Cursors(lambda: CURSOR_KEY))


# The board tests' day (tests/services/test_boards.py, tests/services/test_profiles.py) ------------

DAY = date(2026, 1, 15)  # a winter date: its reset is 06:00 UTC
NOON = datetime(2026, 1, 15, 18, 0, tzinfo=UTC)  # 12:00 Central on DAY, while DAY is live
CLOSES = reset_instant(DAY + timedelta(days=1)) + timedelta(seconds=TIME_LIMIT_SECONDS)


def completion(seconds: int, day: date = DAY) -> str:
    """An official completion time SECONDS after 00:00 Central on DAY."""
    return iso(reset_instant(day) + timedelta(seconds=seconds))
