"""The in-memory fakes of the run side's ports, over one FakeTable (tests/fakes/fake_table.py):
`FakeRuns` (RunStore), `FakeClosing` (ClosingStore), `FakeResults` (ResultStore); and `FakePorts`,
one fake per port (the board side's in tests/fakes/fake_boards.py, fake_leagues.py,
fake_moderation.py, fake_recap.py, fake_player_data.py; fake_requests.py), which the services are
built from as from the table's adapters. tests/contract/ runs the same tests against the fakes and the
adapters, so the two keep one behaviour.

They keep what DynamoDB keeps, and copy runs in and out as the table would, so a test cannot
pass by sharing objects with the service.
"""

import contextlib
from collections.abc import Iterator
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import pytest

from shared.game.boards import HistoryPosition, PlayerProfile
from shared.game.clock import iso, parse_iso
from shared.game.errors import AccountErased
from shared.game.moderation import BANNED_FOREVER, banned_at
from shared.game.preconditions import (
    Precondition,
    answer_preconditions,
    refusal,
    slot_preconditions,
)
from shared.game.puzzles import Round
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import Run, facts_of, record_attempt, skip
from shared.game.scope import Scope
from shared.services.admission import refuse_unless_admitted
from shared.services.completion import completion_of
from shared.services.ports import (
    ActiveRunExists,
    Admission,
    AnswerSlot,
    ClosingStore,
    Completion,
    DueRun,
    OfficialTaken,
    ProfileVersion,
    QuotaExceeded,
    ResultStore,
    RunStore,
    Slot,
    StaleRun,
    StoredProfile,
    StoredRun,
    Version,
)
from tests.fakes.fake_boards import NOON, FakeBoards, FakeNames, FakeRanks, scope_order, serve_with
from tests.fakes.fake_leagues import FakeLeagues
from tests.fakes.fake_moderation import FakeCases
from tests.fakes.fake_passes import FakePasses
from tests.fakes.fake_player_data import FakePlayerData
from tests.fakes.fake_recap import FakeRecaps
from tests.fakes.fake_reminders import FakeReminders
from tests.fakes.fake_requests import FakeRequests
from tests.fakes.fake_reviews import FakeAcceptedWords, FakeAuditLog, FakeBoardReviews, FakeFinalBoards
from tests.fakes.fake_sanctions import FakeSanctions
from tests.fakes.fake_table import FakeTable

if TYPE_CHECKING:
    from shared.runtime.wiring import Ports


def _check(table: FakeTable, run: Run, version: Version) -> None:
    stored = table.runs.get(run.run_id)
    if stored is None or stored[1] != version:
        raise StaleRun(run.run_id)


class FakeRuns:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def get_puzzle(self, scope: Scope) -> list[Round] | None:
        return self.table.puzzles.get(scope) if scope.kind == "daily" else self._challenge_puzzle(scope.id)

    def _challenge_puzzle(self, challenge_id: str) -> list[Round] | None:
        found = self.table.challenges.get(challenge_id)
        return found.puzzle if found else None

    def put_puzzle(self, scope: Scope, puzzle: list[Round]) -> list[Round]:
        with self.table.lock:
            return self.table.puzzles.setdefault(scope, list(puzzle))

    def get_challenge(self, challenge_id: str) -> Challenge | None:
        found = self.table.challenges.get(challenge_id)
        return found.model_copy(deep=True) if found else None

    def create_challenge(self, challenge: Challenge, day: str, quota: int) -> None:
        with self.table.lock:
            if self.table.created.get((challenge.creator, day), 0) >= quota:
                raise QuotaExceeded(challenge.creator)
            self.table.created[(challenge.creator, day)] = (
                self.table.created.get((challenge.creator, day), 0) + 1
            )
            self.table.challenges[challenge.challenge_id] = challenge.model_copy(deep=True)

    def created_challenges(self, creator: str, limit: int) -> list[Challenge]:
        with self.table.lock:
            made = [c for c in self.table.challenges.values() if c.creator == creator]
        made.sort(key=lambda c: (c.created_at, c.challenge_id), reverse=True)
        return [c.model_copy(deep=True) for c in made[:limit]]

    def get_run(self, run_id: str, caller: str | None = None, consistent: bool = True) -> StoredRun | None:
        admission = None if caller is None else self.table.admission(caller)
        if admission is not None and admission.erased:
            raise AccountErased()
        with self.table.lock:
            found = self.table.runs.get(run_id)
            if found is None:
                return None
            return StoredRun(found[0].model_copy(deep=True), Version(found[1]), admission)

    def _admitted(self, player: str | None, now: datetime) -> bool:
        """Whether PLAYER may start or answer at NOW (a guest always may)."""
        if player is None:
            return True
        admission = self.table.admission(player)
        return not admission.erased and not banned_at(admission.banned_until, now)

    def slot(self, player: str, scope: Scope) -> Slot:
        with self.table.lock:
            slot = self.table.slots.get((player, scope), {})
            return Slot(slot.get("run_id"), slot.get("official_run_id"))

    def create_run(self, run: Run, replacing: str | None = None) -> Version:
        if run.player is not None:  # the transaction's `admitted` check (shared/dynamo/tombstone.py)
            refuse_unless_admitted(self.table.admission(run.player), parse_iso(run.started_at))
        with self.table.lock:
            if run.run_id in self.table.runs:
                raise ActiveRunExists(run.run_id)
            if run.player is not None:
                slot = self.table.slots.setdefault((run.player, run.scope), {})
                official = slot.get("official_run_id")
                free = slot.get("run_id") in (None, replacing)
                if run.official:
                    decided = official in (None, replacing)
                else:  # practice needs the official run decided; a past Daily's never will be
                    decided = official is not None or run.archive
                if not (free and decided):
                    raise ActiveRunExists(run.run_id)
                slot["run_id"] = run.run_id
                if run.official:
                    slot["official_run_id"] = run.run_id
            self.table.runs[run.run_id] = (run.model_copy(deep=True), 0)
            return Version(0)

    def save_run(self, run: Run, version: Version) -> Version:
        with self.table.lock:
            _check(self.table, run, version)
            self.table.runs[run.run_id] = (run.model_copy(deep=True), version + 1)
            return Version(version + 1)

    def answer_in_place(self, run_id: str, player: str | None, slot: AnswerSlot, now: datetime) -> StoredRun:
        with self.table.lock:
            found = self.table.runs.get(run_id)
            if found is None:
                raise StaleRun(run_id)
            run, version = found[0].model_copy(deep=True), found[1]
            round_number, attempt_number, word, reason = slot
            preconditions = answer_preconditions(
                player, round_number, attempt_number, word, reason is None, now
            )
            self._refuse_unless(run, preconditions, now)
            record_attempt(run, word, reason, now)
            self.table.runs[run_id] = (run.model_copy(deep=True), version + 1)
            return StoredRun(run, Version(version + 1))

    def skip_in_place(self, run_id: str, player: str | None, round_number: int, now: datetime) -> StoredRun:
        with self.table.lock:
            found = self.table.runs.get(run_id)
            if found is None:
                raise StaleRun(run_id)
            run, version = found[0].model_copy(deep=True), found[1]
            self._refuse_unless(run, slot_preconditions(player, round_number, None, now), now)
            skip(run, round_number, now)
            self.table.runs[run_id] = (run.model_copy(deep=True), version + 1)
            return StoredRun(run, Version(version + 1))

    def _refuse_unless(self, run: Run, preconditions: list[Precondition], now: datetime) -> None:
        """StaleRun unless RUN meets PRECONDITIONS (shared/game/preconditions.py), its player
        admitted at NOW as the table's profiles say (the adapter reads the mark on the run)."""
        if refusal(preconditions, facts_of(run, self._admitted(run.player, now))) is not None:
            raise StaleRun(run.run_id)

    def due_runs(self, now: datetime) -> Iterator[DueRun]:
        with self.table.lock:
            due = [
                DueRun(run.run_id, run.deadline)
                for run, _ in self.table.runs.values()
                if run.player is not None and not run.completed and parse_iso(run.deadline) <= now
            ]
        yield from due

    def completed_through(self) -> datetime | None:
        self.table.read("completed_through")
        return self.table.watermark

    def mark_completed_through(self, instant: datetime) -> None:
        instant = parse_iso(iso(instant))  # kept to the millisecond, as the adapter keeps it
        with self.table.lock:
            self.table.watermark = max(self.table.watermark or instant, instant)


class FakeClosing:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def challenges_closing(self, after: datetime, through: datetime) -> list[str]:
        with self.table.lock:
            closing = [(parse_iso(c.closes_at), c.challenge_id) for c in self.table.challenges.values()]
        return [challenge_id for closes, challenge_id in sorted(closing) if after < closes <= through]

    def challenges_reviewed_through(self) -> datetime | None:
        return self.table.reviewed_through

    def mark_challenges_reviewed(self, instant: datetime) -> None:
        with self.table.lock:
            if self.table.reviewed_through is None or instant > self.table.reviewed_through:
                self.table.reviewed_through = instant


class FakeResults:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def profile_for_completion(self, player: str) -> StoredProfile:
        table = self.table
        held = table.sanctions.get(player, [])
        rank_bans = [
            s.until or BANNED_FOREVER for s in held if s.action in ("rank_ban", "ban") and s.lifted_at is None
        ]
        profile = PlayerProfile(
            table.names.get(player), table.stats.get(player), max(rank_bans, default=None)
        )
        return StoredProfile(profile, ProfileVersion(table.stats_versions.get(player, 0)))

    def complete_run(self, run: Run, version: Version, completion: Completion | None = None) -> None:
        with self.table.lock:
            _check(self.table, run, version)
            if completion is not None:
                self._write_completion(completion)
            self.table.runs[run.run_id] = (run.model_copy(deep=True), version + 1)

    def _write_completion(self, completion: Completion) -> None:
        """What a completion writes besides its run, as given: on condition that the player has
        no official result for the scope (else OfficialTaken) and the profile is still as read
        (else StaleRun)."""
        result, read, table = completion.result, completion.read, self.table
        scope = result.scope
        if (result.player, scope) in table.results:
            raise OfficialTaken(result.run_id)
        now = self.profile_for_completion(result.player)
        if now.profile.display_name != read.profile.display_name or (
            completion.stats is not None and now.version != read.version
        ):
            raise StaleRun(result.run_id)
        table.results[result.player, scope] = result
        table.row_names[result.player, scope] = read.profile.display_name
        if completion.stats is not None:
            table.stats[result.player] = completion.stats
            table.stats_versions[result.player] = read.version.stats + 1

    def official_result(self, player: str, scope: Scope) -> OfficialResult | None:
        return self.table.results.get((player, scope))

    def admitted_result(self, player: str, scope: Scope) -> tuple[Admission, OfficialResult | None]:
        return self.table.admission(player), self.table.results.get((player, scope))

    def results_since(self, player: str, day: date) -> list[OfficialResult]:
        found = self.table.results.items()
        return [r for (p, _), r in found if p == player and r.date >= day.isoformat()]

    def history(self, player: str, after: HistoryPosition | None, limit: int) -> list[OfficialResult]:
        mine = sorted(
            ((r.completed_at, r.scope, r) for (p, _), r in self.table.results.items() if p == player),
            key=lambda row: (row[0], scope_order(row[1])),
            reverse=True,
        )
        if after is not None:
            mine = [
                row
                for row in mine
                if (row[0], scope_order(row[1])) < (after.completed_at, scope_order(after.scope))
            ]
        return [r for _, _, r in mine[:limit]]


class FakePorts:
    """One fake per port over one FakeTable, as `dynamo_ports` builds one adapter per port over
    one table. `table` is there for tests to look inside."""

    def __init__(self, table: FakeTable | None = None) -> None:
        self.table = table = table or FakeTable()
        self.runs = FakeRuns(table)
        self.closing = FakeClosing(table)
        self.results = FakeResults(table)
        self.boards = FakeBoards(table)
        self.ranks = FakeRanks(table)
        self.names = FakeNames(table)
        self.leagues = FakeLeagues(table)
        self.player_data = FakePlayerData(table)
        self.cases = FakeCases(table)
        self.audit_log = FakeAuditLog(table)
        self.sanctions = FakeSanctions(table)
        self.accepted_words = FakeAcceptedWords(table)
        self.board_reviews = FakeBoardReviews(table)
        self.final_boards = FakeFinalBoards(table)
        self.recaps = FakeRecaps(table)
        self.requests = FakeRequests()
        self.reminders = FakeReminders(table)
        self.passes = FakePasses(table)  # the closing pass's (shared/runtime/closing_wiring.py)


# Each fake against its port, for mypy (pyproject.toml's `files`).
_runs: RunStore = FakeRuns(FakeTable())
_closing: ClosingStore = FakeClosing(FakeTable())
_results: ResultStore = FakeResults(FakeTable())
_ports: "Ports" = FakePorts()


def complete_official(ports: Any, result: OfficialResult) -> None:
    """Record RESULT through the RunStore port as the game does when its run completes: a run of
    it is stored (taking the player's slot in its scope), then completed with the completion the
    service decides (shared/services/completion.py). Works on FakePorts and the table's adapters
    (`dynamo_ports`) alike.
    Raises OfficialTaken, or StaleRun when the profile changed between its read and the write."""
    ports.results.complete_run(*prepare(ports, result))


def prepare(ports: Any, result: OfficialResult) -> tuple[Run, Version, Completion]:
    """The first half of `complete_official`: RESULT's run stored and the player's profile read, so a test
    can change the profile before `ports.results.complete_run(*prepared)` writes."""
    run = Run(
        run_id=result.run_id,
        kind=result.kind,
        date=result.date,
        challenge_id=result.challenge_id,
        player=result.player,
        official=True,
        puzzle=[],
        score=result.score,
        best_combo=result.best_combo,
        longest_word_length=result.longest_word_length,
        started_at=result.started_at,
        deadline=result.completed_at,
        completed_at=result.completed_at,
        ended_by="finished",
    )
    with contextlib.suppress(ActiveRunExists):  # stored by an earlier try that was refused
        ports.runs.create_run(run, ports.runs.slot(result.player, result.scope).run_id)
    read = ports.results.profile_for_completion(result.player)
    return run, Version(0), completion_of(result, read)


def store_at_noon(monkeypatch: pytest.MonkeyPatch, store: Any = None) -> Any:
    """Ports the handlers serve from (STORE, by default fresh fakes), with the game clock at noon
    on DAY."""
    from shared.game import clock

    clock.travel_to(NOON)
    store = store or FakePorts()
    serve_with(monkeypatch, store)
    return store


@contextlib.contextmanager
def served_store(kind: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """`store_at_noon` on the in-memory fakes (`fake`) or on DynamoDB (`dynamo`, on moto)."""
    if kind == "fake":
        yield store_at_noon(monkeypatch)
        return
    from tests.fakes.dynamo_store import settled_store

    with settled_store() as dynamo:
        yield store_at_noon(monkeypatch, dynamo)
