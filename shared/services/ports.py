"""The ports: what the services need from storage and from the accounts, as Protocols in domain types.

One port per need, each method on exactly one port: `RunStore` (puzzles, challenges, runs),
`ClosingStore` (challenges by close time), `ResultStore` (completing runs, official results) and
`RecapStore` here; `BoardStore`, `RankStore` and `NameStore` in shared/services/board_ports.py;
`LeagueStore` (shared/services/leagues.py), `PlayerDataStore` (shared/services/player_data.py),
the moderation ports (shared/services/moderation_store.py). shared/dynamo/ has one adapter class per
port, built once by `dynamo_ports` (shared/dynamo/store.py); the tests one fake per port over one
in-memory table (tests/fakes/fake_store.py `FakePorts`), and tests/contract/ runs the same tests against
both (docs/data-model.md, "Ports and adapters"). Storage keys, item layouts and optimistic-lock
counters stay in the adapters.
"""

from collections.abc import Iterator
from datetime import date, datetime
from typing import NamedTuple, NewType, Protocol

from shared.game.boards import HistoryPosition, PlayerProfile
from shared.game.puzzles import Round
from shared.game.recap import DayRecap, RoundTally
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import AnswerReason, Run
from shared.game.scope import Scope
from shared.game.stats import PlayerStats

# What a store hands out with a run it read, to be handed back unchanged with the next write of
# that run: the write holds only if nobody wrote the run in between (optimistic locking).
Version = NewType("Version", int)


class Admission(NamedTuple):
    """What a player route needs to know of its caller before anything else (SPEC §3e, §6):
    whether their erasure has begun (the tombstone), and when the latest ban on them ends (None:
    no ban; BANNED_FOREVER of shared/game/moderation.py: for good). Stores read both with one
    request of the caller's profile (docs/players.md, "Admission")."""

    erased: bool
    banned_until: str | None


class StoredRun(NamedTuple):
    """A run as read, its version, and (when read for a caller) the caller's admission and profile
    from the same request: None where the store did not read them."""

    run: Run
    version: Version
    admission: "Admission | None" = None
    profile: "StoredProfile | None" = None


class AnswerSlot(NamedTuple):
    """A judged attempt for a run's slot: REASON None when the word was accepted by the rules
    (SPEC §2), before the run's own rule (`already_used`) is applied by the write's condition."""

    round_number: int
    attempt_number: int
    word: str
    reason: AnswerReason | None


class DueRun(NamedTuple):
    """A player's active run whose deadline has passed, as the expiry job finds it."""

    run_id: str
    deadline: str  # ISO 8601 UTC, as the run keeps it


class Slot(NamedTuple):
    """A player's standing in one scope: their latest run of it (in play until it completes: so at
    most one is) and the run that is, or will be on completion, their official one (decided when
    it starts; every later run of the scope is practice)."""

    run_id: str | None
    official_run_id: str | None


class ProfileVersion(NamedTuple):
    """What a player's profile was when read for a completion: the completion's write holds only
    if it still is (its name too: PlayerProfile.display_name). `stats` counts the writes of the
    stats (0: none yet)."""

    stats: int


class StoredProfile(NamedTuple):
    profile: PlayerProfile
    version: ProfileVersion


class Completion(NamedTuple):
    """What completing an official run writes besides the run, as the service decided it: the
    official result, and for a Daily the player's stats after it (None for a challenge), both
    from the profile as READ (the write holds only if it is unchanged)."""

    result: OfficialResult
    stats: PlayerStats | None
    read: StoredProfile


class StaleRun(Exception):
    """The run changed since it was read (another request won the conditional write)."""


class ActiveRunExists(Exception):
    """The player's slot in the scope changed since it was read (another run took it)."""


class OfficialTaken(Exception):
    """The player already has an official result for this Daily or challenge."""


class QuotaExceeded(Exception):
    """The player has created as many challenges as one Daily date allows."""


class NameTaken(Exception):
    """Another player holds that display name (or a look-alike: the same skeleton, shared/game/names.py)."""


class RunStore(Protocol):
    """Puzzles, challenges and runs (SPEC §3, §3a)."""

    def get_puzzle(self, scope: Scope) -> list[Round] | None: ...

    def put_puzzle(self, scope: Scope, puzzle: list[Round]) -> list[Round]:
        """Store PUZZLE unless the scope has one already; either way return the stored one."""
        ...

    def get_challenge(self, challenge_id: str) -> Challenge | None: ...

    def create_challenge(self, challenge: Challenge, day: str, quota: int) -> None:
        """Store CHALLENGE and count it against its creator's QUOTA for Daily date DAY, atomically.
        Raises QuotaExceeded when the creator already made QUOTA challenges that date."""
        ...

    def created_challenges(self, creator: str, limit: int) -> list[Challenge]:
        """The challenges CREATOR made, newest first, at most LIMIT."""
        ...

    def get_run(self, run_id: str, caller: str | None = None, consistent: bool = True) -> StoredRun | None:
        """The run, read consistently (eventually, without CALLER and with CONSISTENT false: a run
        that cannot change any more); with CALLER, in the same request as CALLER's tombstone:
        AccountErased once their erasure has begun (shared/dynamo/tombstone.py)."""
        ...

    def slot(self, player: str, scope: Scope) -> Slot:
        """The player's standing in SCOPE, read consistently (one item)."""
        ...

    def create_run(self, run: Run, replacing: str | None = None) -> Version:
        """Store a new run. A player's run also takes the player's slot in its scope, on condition
        that the slot names no run or still names REPLACING (a run the caller found completed, or
        missing: how a dangling slot repairs itself); an official run also becomes the slot's
        official run, on condition it has none (or REPLACING, missing); a practice run on condition
        it has one. Raises ActiveRunExists otherwise (read the slot again)."""
        ...

    def save_run(self, run: Run, version: Version) -> Version:
        """Write an active run if it is still at VERSION. Raises StaleRun."""
        ...

    def answer_in_place(self, run_id: str, player: str | None, slot: AnswerSlot, now: datetime) -> StoredRun:
        """Append SLOT's judged attempt to the run in one conditional write, without reading the
        run: it holds only if the run is PLAYER's (None: a guest's), its player admitted, still in
        play at NOW (not completed, its deadline ahead), SLOT is its next (round, attempt), and an
        accepted word is not yet one of the run's accepted words (shared/game/preconditions.py).
        Returns the run as written (the attempt applied by shared/game/runs.py's record_attempt);
        raises StaleRun when a condition fails (read the run to learn which)."""
        ...

    def skip_in_place(self, run_id: str, player: str | None, round_number: int, now: datetime) -> StoredRun:
        """Skip ROUND_NUMBER of the run in one conditional write, without reading the run: it
        holds only if the run is PLAYER's (None: a guest's), still in play at NOW and that round
        is the one in play (any attempt). Returns the run as written; raises StaleRun when a
        condition fails (read the run to learn which). Never the last round: that skip completes
        the run, whose official result needs the whole run."""
        ...

    def due_runs(self, now: datetime) -> Iterator[DueRun]:
        """The players' active runs whose deadline is at or before NOW (guest runs are left
        to complete when next read: they never rank)."""
        ...

    def completed_through(self) -> datetime | None:
        """The expiry job's watermark: every player run with a deadline at or before it is
        completed (None before the job's first whole pass)."""
        ...

    def mark_completed_through(self, instant: datetime) -> None:
        """Move the watermark forward to INSTANT (never back)."""
        ...


class ClosingStore(Protocol):
    """Challenges by close time, for the closing job's find-time pass (SPEC §3b)."""

    def challenges_closing(self, after: datetime, through: datetime) -> list[str]:
        """The ids of the challenges closing after AFTER and at or before THROUGH, by close time."""
        ...

    def challenges_reviewed_through(self) -> datetime | None:
        """The closing job's watermark: every challenge closing at or before it has had its
        find-time pass (None before the job's first)."""
        ...

    def mark_challenges_reviewed(self, instant: datetime) -> None:
        """Move that watermark forward to INSTANT (never back)."""
        ...


class ResultStore(Protocol):
    """Completing runs and the official results they write (SPEC §3, §4): the player's stats go
    with a Daily's."""

    def profile_for_completion(self, player: str) -> StoredProfile:
        """PLAYER's profile (name and stats), read consistently, with the version a Completion from
        it is conditional on."""
        ...

    def complete_run(self, run: Run, version: Version, completion: Completion | None = None) -> None:
        """Write a completed run if it is still at VERSION and, with COMPLETION (an official
        run's), its official result and the player's stats, at once. Raises StaleRun (the run, or
        the profile COMPLETION was read from, changed), or OfficialTaken when the player's official
        result for the scope exists already. (The slot needs no write: a completed run no longer
        blocks a start.)"""
        ...

    def official_result(self, player: str, scope: Scope) -> OfficialResult | None: ...

    def admitted_result(self, player: str, scope: Scope) -> tuple[Admission, OfficialResult | None]:
        """PLAYER's admission and their official result of SCOPE, in one request, eventually
        consistent (a read-only route: its admission may trail a tombstone or a ban by under a
        second, docs/players.md)."""
        ...

    def results_since(self, player: str, day: date) -> list[OfficialResult]:
        """PLAYER's official results of Daily dates and challenges played from DAY on."""
        ...

    def history(self, player: str, after: HistoryPosition | None, limit: int) -> list[OfficialResult]:
        """The player's official results, newest first, after AFTER."""
        ...


class StoredRecap(NamedTuple):
    recap: DayRecap
    final: bool


class RecapStore(Protocol):
    """A closed day's recap (shared/services/recap.py): the summary, and each round's played words
    with their counts, written once by the closing pass."""

    def put_recap(self, scope: Scope, recap: DayRecap, tallies: list[RoundTally]) -> None:
        """Store RECAP and the rounds' TALLIES (the recap last: once it reads, the tallies do)."""
        ...

    def recap(self, scope: Scope) -> StoredRecap | None:
        """The recap, and whether its board is known final (`mark_final`)."""
        ...

    def mark_final(self, scope: Scope) -> None:
        """Note on the recap that its board is final, so that later reads need no status read."""
        ...

    def round_words(self, scope: Scope, rounds: list[int]) -> dict[int, dict[str, int]]:
        """Each of ROUNDS' played words with how many played it."""
        ...


class Accounts(Protocol):
    def sign_out(self, username: str) -> None:
        """Revoke every refresh token of the account (Cognito's AdminUserGlobalSignOut); an
        account that does not exist is no error."""
        ...

    def delete_account(self, username: str) -> None:
        """Delete the account; one that does not exist (deleted already) is no error."""
        ...
