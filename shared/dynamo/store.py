"""The store on one DynamoDB table (shared/dynamo/table.py; items and keys in docs/data-model.md):
the parts, each owning one job, composed behind the ports (shared/services/ports.py RunStore and
BoardStore, shared/services/leagues.py LeagueStore, shared/services/player_data.py
PlayerDataStore), which `DynamoStore` implements by handing each call to its part.

Every part talks through one Client (shared/dynamo/client.py: requests, transactions, batches,
error mapping), spells keys by shared/dynamo/keys.py and items by shared/dynamo/codec.py.
"""

import time
from collections.abc import Callable, Iterator
from datetime import date, datetime
from typing import Any

from shared.dynamo import migrations
from shared.dynamo.boards import BoardReads
from shared.dynamo.client import Client
from shared.dynamo.closing import ClosingChallenges
from shared.dynamo.completion import Completions
from shared.dynamo.counters import Counters
from shared.dynamo.leagues import DynamoLeagues
from shared.dynamo.names import Names
from shared.dynamo.player_data import DynamoPlayerData
from shared.dynamo.runs import Runs
from shared.dynamo.top import TopOfBoard
from shared.game.boards import BoardEntry, BoardPosition, HistoryPosition, PlayerProfile, TieKey
from shared.game.moderation import Sanction
from shared.game.puzzles import Round
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.game.standing import Standing
from shared.services.leagues import League, LeagueRows
from shared.services.player_data import Holdings
from shared.services.ports import (
    Admission,
    AnswerSlot,
    Completion,
    DueRun,
    Slot,
    StoredProfile,
    StoredRun,
    Version,
)


class DynamoStore:
    """The parts: `runs` (puzzles, challenges, runs, slots, due runs, the watermark), `closing`
    (challenges by close time, the closing job's watermark),
    `completions` (the completing transaction), `boards` (board reads, profiles), `counters`
    (rank counters), `top` (the top of each board), `names` (claims, renames), `leagues`,
    `player_data` (export and erasure). `db` is their client, `client` botocore's under it."""

    def __init__(
        self,
        table_name: str,
        client: Any = None,
        sleep: Callable[[float], None] = time.sleep,
        rank_cache_seconds: float = 0.0,
    ):
        self.table = table_name
        self.db = Client(table_name, client, sleep)
        self.client = self.db.boto
        self.runs = Runs(self.db)
        self.closing = ClosingChallenges(self.db)
        self.completions = Completions(self.db, self.runs)
        self.top = TopOfBoard(self.db)
        self.boards = BoardReads(self.db, self.top)
        self.counters = Counters(self.db, self.top, rank_cache_seconds)
        self.names = Names(self.db, self.top)
        self.leagues = DynamoLeagues(self.db)
        self.player_data = DynamoPlayerData(self.db, self.runs, self.boards, self.names, self.leagues)

    # RunStore ------------------------------------------------------------------------------

    def get_puzzle(self, scope: Scope) -> list[Round] | None:
        return self.runs.get_puzzle(scope)

    def put_puzzle(self, scope: Scope, puzzle: list[Round]) -> list[Round]:
        return self.runs.put_puzzle(scope, puzzle)

    def get_challenge(self, challenge_id: str) -> Challenge | None:
        return self.runs.get_challenge(challenge_id)

    def create_challenge(self, challenge: Challenge, day: str, quota: int) -> None:
        self.runs.create_challenge(challenge, day, quota)

    def created_challenges(self, creator: str, limit: int) -> list[Challenge]:
        return self.runs.created_challenges(creator, limit)

    def get_run(self, run_id: str, caller: str | None = None) -> StoredRun | None:
        return self.runs.get_run(run_id, caller)

    def slot(self, player: str, scope: Scope) -> Slot:
        return self.runs.slot(player, scope)

    def create_run(self, run: Run, replacing: str | None = None) -> Version:
        return self.runs.create_run(run, replacing)

    def save_run(self, run: Run, version: Version) -> Version:
        return self.runs.save_run(run, version)

    def answer_in_place(self, run_id: str, player: str | None, slot: AnswerSlot, now: datetime) -> StoredRun:
        return self.runs.answer_in_place(run_id, player, slot, now)

    def profile_for_completion(self, player: str, daily: bool) -> StoredProfile:
        return self.completions.profile_for_completion(player, daily)

    def complete_run(self, run: Run, version: Version, completion: Completion | None = None) -> None:
        self.completions.complete_run(run, version, completion)

    def due_runs(self, now: datetime) -> Iterator[DueRun]:
        return self.runs.due_runs(now)

    def completed_through(self) -> datetime | None:
        return self.runs.completed_through()

    def mark_completed_through(self, instant: datetime) -> None:
        self.runs.mark_completed_through(instant)

    def challenges_closing(self, after: datetime, through: datetime) -> list[str]:
        return self.closing.challenges_closing(after, through)

    def challenges_reviewed_through(self) -> datetime | None:
        return self.closing.challenges_reviewed_through()

    def mark_challenges_reviewed(self, instant: datetime) -> None:
        self.closing.mark_challenges_reviewed(instant)

    # BoardStore ----------------------------------------------------------------------------

    def board_page(
        self, scope: Scope, after: BoardPosition | None, limit: int, shown: int = 0, words: bool = True
    ) -> list[BoardEntry]:
        return self.boards.board_page(scope, after, limit, shown, words)

    def count_better(self, scope: Scope, tie: TieKey) -> int:
        return self.counters.count_better(scope, tie)

    def standing(self, scope: Scope, tie: TieKey | None) -> Standing:
        return self.counters.standing(scope, tie)

    def official_result(self, player: str, scope: Scope) -> OfficialResult | None:
        return self.boards.official_result(player, scope)

    def history(self, player: str, after: HistoryPosition | None, limit: int) -> list[OfficialResult]:
        return self.boards.history(player, after, limit)

    def board_entry(self, player: str, scope: Scope) -> BoardEntry | None:
        return self.boards.board_entry(player, scope)

    def admitted_entry(
        self, player: str, scope: Scope
    ) -> tuple[Admission, BoardEntry | None, frozenset[str]]:
        return self.boards.admitted_entry(player, scope)

    def top_page(
        self, scope: Scope, limit: int, words: bool
    ) -> tuple[list[BoardEntry], frozenset[str]] | None:
        return self.boards.top_page(scope, limit, words)

    def results_since(self, player: str, day: date) -> list[OfficialResult]:
        return self.boards.results_since(player, day)

    def rename_rows(self, player: str, scopes: list[Scope], name: str) -> None:
        self.names.rename_rows(player, scopes, name)

    def display_names(self, players: list[str]) -> dict[str, str]:
        return self.names.display_names(players)

    def set_display_name(self, player: str, name: str) -> None:
        self.names.set_display_name(player, name)

    def player_profile(self, player: str) -> PlayerProfile:
        return self.boards.player_profile(player)

    def admission(self, player: str) -> Admission:
        return self.boards.admission(player)

    def own_profile(self, player: str) -> tuple[Admission, PlayerProfile, list[Sanction]]:
        return self.boards.own_profile(player)

    # The stream consumer (functions/leaderboard/counters.py) -------------------------------

    def count_official(self, results: list[OfficialResult]) -> int:
        return self.counters.count_official(results)

    # LeagueStore ---------------------------------------------------------------------------

    def create_league(self, league: League, leagues_max: int) -> None:
        self.leagues.create_league(league, leagues_max)

    def get_league(self, league_id: str, consistent: bool = True) -> League | None:
        return self.leagues.get_league(league_id, consistent)

    def admitted_league(self, caller: str, league_id: str) -> tuple[Admission, League | None]:
        return self.leagues.admitted_league(caller, league_id)

    def league_by_code(self, code: str) -> League | None:
        return self.leagues.league_by_code(code)

    def join_league(
        self, league: League, player: str, joined_at: str, members_max: int, leagues_max: int
    ) -> None:
        self.leagues.join_league(league, player, joined_at, members_max, leagues_max)

    def leave_league(self, league: League, player: str, remover: str) -> None:
        self.leagues.leave_league(league, player, remover)

    def rotate_code(self, league: League, code: str) -> None:
        self.leagues.rotate_code(league, code)

    def player_leagues(self, player: str) -> list[League]:
        return self.leagues.player_leagues(player)

    def league_rows(self, players: list[str], scope: Scope) -> LeagueRows:
        return self.leagues.league_rows(players, scope)

    # PlayerDataStore -----------------------------------------------------------------------

    def holdings(self, player: str) -> Holdings:
        return self.player_data.holdings(player)

    def begin_erasure(self, player: str, at: str) -> None:
        self.player_data.begin_erasure(player, at)

    def erase_holdings(self, player: str) -> None:
        self.player_data.erase_holdings(player)

    # Migrations (shared/dynamo/migrations.py) ----------------------------------------------

    def move_old_stats(self, player: str) -> str:
        """scripts/move_old_stats.py's move of one player's old `STATS` item onto the profile."""
        return migrations.move_old_stats(self.db, player)
