"""A player's data (SPEC §5 `GET /me/export`, `DELETE /me`): everything held about them, to take
away or to erase.

The erasure is a sequence of steps, each idempotent, so that a run of it interrupted at any
point and run again ends the same as one uninterrupted run. First the tombstone: from then on
every player route refuses the player and no write naming them succeeds (a completion racing it
reads the profile's name again and writes "deleted player"). Then, read once and written in a few
requests, everything they hold: the name's claims, every row of theirs renamed "deleted player"
(ranks unchanged: only the name changes, as a rename does), the leagues, the challenges' creator,
their runs and own items. Last the account: its refresh tokens revoked, then the account deleted.
What is left, of all the items keyed by the player, is their official results, showing "deleted
player", so that boards keep their rows and ranks, and the tombstone. docs/players.md has the
details.
"""

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import NamedTuple, Protocol

from shared.game import clock
from shared.game.boards import PlayerProfile
from shared.game.clock import iso
from shared.game.erasure import Carried, ErasurePlan, ErasureRead, erasure_plan
from shared.game.errors import Throttled
from shared.game.leagues import League
from shared.game.moderation import LogEntry, Report, Sanction
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.services.admission import refuse_unless_admitted
from shared.services.ports import Accounts, Admission


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
    admission: Admission  # read with the profile: an export admits its caller (docs/players.md)
    sanctions: list[Sanction]  # kept on the profile (SPEC §3e)
    reports: list[Report]  # the reports the player made, newest first
    moderation_log: list[LogEntry]  # a moderator's own decisions, newest first


class Export(NamedTuple):
    player: str
    exported_at: str
    held: Holdings


class PlayerDataStore(Protocol):
    """What exporting and erasing a player need from storage (shared/dynamo/player_data.py)."""

    def holdings(self, player: str) -> Holdings: ...

    def official_results(self, player: str) -> list[OfficialResult]:
        """The player's official results, read consistently (the rows a hidden name leaves)."""
        ...

    def stop_answers(self, player: str, at: str) -> None:
        """Stop the one-request answers of the player's runs that may still take one (started
        within a time limit of AT), after their admission changed (a ban): from then on an
        answer reads the profile, and is refused."""
        ...

    def begin_erasure(self, player: str, at: str) -> None:
        """Put the tombstone on the player's profile (made if there is none): it shows
        DELETED_PLAYER_NAME from now on, and every player route and every write naming the
        player refuses them. Idempotent."""
        ...

    def erasure_read(self, player: str) -> ErasureRead:
        """What the erasure changes of the player (once the tombstone is on): the claims of the
        name they showed, their board rows, leagues and challenges made, as they are now."""
        ...

    def carry_out_erasure(self, read: ErasureRead, plan: ErasurePlan) -> Carried:
        """Carry PLAN out, on condition that what it changes is still as READ (else nothing of it
        is done: not done, naming the claims someone else holds): release the claims, show
        DELETED_PLAYER_NAME on the rows (every board, live or closed, and its top), take the
        player out of the leagues (the heir holds each) and off the challenges (which stay);
        then delete their runs and every item keyed by them but their official results, and
        leave the profile as the tombstone alone."""
        ...


_ATTEMPTS = 5  # reads of everything again when something changed meanwhile


def erase_holdings(store: PlayerDataStore, player: str) -> None:
    """Everything the erasure changes after the tombstone: read, planned (shared/game/erasure.py)
    and carried out; read and planned again when something changed since the read, a claim
    someone else holds (a look-alike of the name from before skeletons) left to them. Idempotent."""
    foreign: frozenset[str] = frozenset()
    for _ in range(_ATTEMPTS):
        read = store.erasure_read(player)
        carried = store.carry_out_erasure(read, erasure_plan(read, foreign))
        if carried.done:
            return
        foreign |= carried.foreign
    raise Throttled("Your account is busy; try DELETE /me again")


class PlayerData:
    def __init__(
        self,
        store: PlayerDataStore,
        accounts: Callable[[], Accounts],
        now: Callable[[], datetime] = clock.now,
        also_erase: Sequence[Callable[[str], object]] = (),
    ):
        self.store = store
        self.accounts = accounts
        self.now = now
        self.also_erase = also_erase  # items held elsewhere than under the player's key: reminders

    def export(self, player: str) -> Export:
        """Everything held about PLAYER (the HTTP edge writes it as one JSON document), once the
        profile read with it admits them (a ban leaves the export open: SPEC §3e)."""
        held = self.store.holdings(player)
        refuse_unless_admitted(held.admission, self.now(), banned_ok=True)
        return Export(player, iso(self.now()), held)

    def erasure_steps(self, player: str, username: str) -> list[Callable[[], None]]:
        """The erasure, step by step, in its order (see the module's docstring)."""
        return [
            lambda: self.store.begin_erasure(player, iso(self.now())),
            *[lambda erase=erase: erase(player) for erase in self.also_erase],
            lambda: erase_holdings(self.store, player),
            lambda: self.accounts().sign_out(username),  # its refresh tokens, before the account
            lambda: self.accounts().delete_account(username),
        ]

    def erase(self, player: str, username: str) -> None:
        """Erase PLAYER: idempotent, and complete when run again after an interruption."""
        for step in self.erasure_steps(player, username):
            step()
