"""A player's data (SPEC §5 `GET /me/export`, `DELETE /me`): everything held about them, to take
away or to erase.

The erasure is a sequence of steps, each idempotent, ordered so that a run of it interrupted at
any point and run again ends the same as one uninterrupted run, and so that a completion racing
it cannot leave a row behind with the player's name: the name goes first, with the tombstone
that every player route and every write naming the player checks from then on, then the runs (no
completion can be written after its run is gone), then the rows of every board are renamed
"deleted player" (ranks unchanged: only the name changes, as a rename does), then the leagues,
the challenges' creator, the player's own items, and last the account (its refresh tokens
revoked, then the account deleted). What is left, of all the items keyed by the player, is their
official results, showing "deleted player", so that boards keep their rows and ranks, and the
tombstone. docs/players.md has the details.
"""

from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple, Protocol

from shared.game import clock
from shared.game.boards import PlayerProfile
from shared.game.clock import iso
from shared.game.errors import NotFound
from shared.game.names import DELETED_PLAYER_NAME
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import Run
from shared.game.scope import Scope
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


class Export(NamedTuple):
    player: str
    exported_at: str
    held: Holdings


class PlayerDataStore(Protocol):
    """What exporting and erasing a player need from storage (shared/dynamo/player_data.py)."""

    def holdings(self, player: str) -> Holdings: ...

    def release_name(self, player: str, erased_at: str) -> None:
        """Put the tombstone on the player's profile (made if there is none), show
        DELETED_PLAYER_NAME there and delete their name claims, in one transaction."""
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
        """Delete every item keyed by the player except their official results, and leave the
        profile as the tombstone alone (DELETED_PLAYER_NAME and when the erasure began)."""
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

    def export(self, player: str) -> Export:
        """Everything held about PLAYER (the HTTP edge writes it as one JSON document)."""
        return Export(player, iso(self.now()), self.store.holdings(player))

    def erasure_steps(self, player: str, username: str) -> list[Callable[[], None]]:
        """The erasure, step by step, in its order (see the module's docstring)."""
        return [
            lambda: self.store.release_name(player, iso(self.now())),
            lambda: self.store.delete_runs(player),
            lambda: self._rename_every_row(player),
            lambda: self._leave_leagues(player),
            lambda: self.store.disown_challenges(player),
            lambda: self.store.delete_own_items(player),
            lambda: self.accounts().sign_out(username),  # its refresh tokens, before the account
            lambda: self.accounts().delete_account(username),
        ]

    def erase(self, player: str, username: str) -> None:
        """Erase PLAYER: idempotent, and complete when run again after an interruption."""
        for step in self.erasure_steps(player, username):
            step()

    def _rename_every_row(self, player: str) -> None:
        """Every board, live or closed, shows the player's row as "deleted player"."""
        scopes = [r.scope for r in self.store.official_results(player)]
        self.store.rename_rows(player, scopes, DELETED_PLAYER_NAME)

    def _leave_leagues(self, player: str) -> None:
        for league in self.leagues.store.player_leagues(player):
            try:
                self.leagues.remove(player, league.league_id, MYSELF)
            except NotFound:
                continue  # left meanwhile
