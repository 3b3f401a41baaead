"""A player's data (SPEC §5 `GET /me/export`, `DELETE /me`): everything held about them, to take
away or to erase.

The erasure is a sequence of steps, each idempotent, ordered so that a run of it interrupted at
any point and run again ends the same as one uninterrupted run, and so that a completion racing
it cannot leave a row behind with the player's name: the name goes first, then the runs (no
completion can be written after its run is gone), then the rows of every board are renamed
"deleted player" (ranks unchanged: only the name changes, as a rename does), then the leagues,
the challenges' creator, the player's own items, and last the account. What is left, of all the
items keyed by the player, is their official results, showing "deleted player", so that boards
keep their rows and ranks. docs/players.md has the details.
"""

from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from shared.game import clock
from shared.game.boards import PlayerProfile, scope_of_result
from shared.game.clock import iso
from shared.game.errors import NotFound
from shared.game.names import DELETED_PLAYER_NAME
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.http.models import RunView
from shared.services.leagues import MYSELF, League, Leagues
from shared.services.ports import Accounts


class SlotRecord(NamedTuple):
    scope: Scope
    run_id: str | None
    official_run_id: str | None


class Holdings(NamedTuple):
    """Everything the store holds about one player, in domain types. `other` names any item of
    the player's the adapter has no reading for, so that nothing held is left out of an export."""

    profile: PlayerProfile
    name_claim: str | None  # the key of the name the player holds
    slots: list[SlotRecord]
    challenge_quotas: dict[str, int]  # Daily date -> challenges created that date
    official_results: list[OfficialResult]
    runs: list[Run]
    challenges: list[Challenge]
    leagues: list[League]
    rename: str | None  # the name the boards are being moved to (the last rename's record)
    other: list[str]


class PlayerDataStore(Protocol):
    """What exporting and erasing a player need from storage (shared/dynamo/player_data.py)."""

    def holdings(self, player: str) -> Holdings: ...

    def release_name(self, player: str) -> None:
        """Show DELETED_PLAYER_NAME on the player's profile (if they have one) and delete their
        name claims, in one transaction."""
        ...

    def delete_runs(self, player: str) -> None:
        """Delete every run of the player's."""
        ...

    def official_results(self, player: str) -> list[OfficialResult]:
        """Every official result of the player's, read consistently."""
        ...

    def rename_rows(self, player: str, scopes: list[Scope], name: str) -> None: ...

    def disown_challenges(self, player: str) -> None:
        """Take the player off the challenges they created (the challenges stay, with their
        boards), and delete their records of them."""
        ...

    def delete_own_items(self, player: str) -> None:
        """Delete every item keyed by the player except their official results, the profile last."""
        ...


class PlayerData:
    def __init__(
        self,
        store: PlayerDataStore,
        leagues: Leagues,
        accounts: Callable[[], Accounts],
        now: Callable[[], datetime] = clock.now,
    ):
        self.store = store
        self.leagues = leagues
        self.accounts = accounts
        self.now = now

    def export(self, player: str) -> dict[str, Any]:
        """Everything held about PLAYER, as one JSON document."""
        held = self.store.holdings(player)
        return {
            "player_id": player,
            "exported_at": iso(self.now()),
            "profile": {
                "display_name": held.profile.display_name,
                "stats": held.profile.stats.model_dump(mode="json") if held.profile.stats else None,
            },
            "name_claim": held.name_claim,
            "official_results": [r.model_dump(mode="json") for r in held.official_results],
            "runs": [
                {**RunView.from_run(run).model_dump(mode="json"), "archive": run.archive} for run in held.runs
            ],
            "challenges_created": [
                {
                    "challenge_id": c.challenge_id,
                    "rounds": len(c.puzzle),
                    "created_at": c.created_at,
                    "closes_at": c.closes_at,
                }
                for c in held.challenges
            ],
            "challenge_quotas": [
                {"date": day, "created": n} for day, n in sorted(held.challenge_quotas.items())
            ],
            "leagues": [
                {
                    "league_id": league.league_id,
                    "name": league.name,
                    "creator": league.creator == player,
                    "joined_at": league.members.get(player),
                    "members": len(league.members),
                }
                for league in held.leagues
            ],
            "slots": [
                {
                    "kind": s.scope.kind,
                    "id": s.scope.id,
                    "run_id": s.run_id,
                    "official_run_id": s.official_run_id,
                }
                for s in held.slots
            ],
            "rename": held.rename,
            "other": held.other,
        }

    def erasure_steps(self, player: str, username: str) -> list[Callable[[], None]]:
        """The erasure, step by step, in its order (see the module's docstring)."""
        return [
            lambda: self.store.release_name(player),
            lambda: self.store.delete_runs(player),
            lambda: self._rename_every_row(player),
            lambda: self._leave_leagues(player),
            lambda: self.store.disown_challenges(player),
            lambda: self.store.delete_own_items(player),
            lambda: self.accounts().delete_account(username),
        ]

    def erase(self, player: str, username: str) -> None:
        """Erase PLAYER: idempotent, and complete when run again after an interruption."""
        for step in self.erasure_steps(player, username):
            step()

    def _rename_every_row(self, player: str) -> None:
        """Every board, live or closed, shows the player's row as "deleted player"."""
        scopes = [scope_of_result(r) for r in self.store.official_results(player)]
        self.store.rename_rows(player, scopes, DELETED_PLAYER_NAME)

    def _leave_leagues(self, player: str) -> None:
        for league in self.leagues.store.player_leagues(player):
            try:
                self.leagues.remove(player, league.league_id, MYSELF)
            except NotFound:
                continue  # left meanwhile
