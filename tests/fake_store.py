"""An in-memory Store for service and handler tests: the run side (RunStore) here, the board side
from tests/fake_boards.py. tests/contract/ runs the same tests against it and DynamoStore, so the
two keep one behaviour.

It keeps what DynamoDB keeps, and copies runs in and out as the table would, so a test cannot
pass by sharing objects with the service.
"""

import contextlib
import threading
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from shared.game.clock import parse_iso
from shared.game.errors import AccountErased
from shared.game.moderation import banned_at
from shared.game.puzzles import Round
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import Run, is_already_used, record_attempt
from shared.game.scope import Scope
from shared.services.admission import refuse_unless_admitted
from shared.services.completion import completion_of
from shared.services.ports import (
    ActiveRunExists,
    Admission,
    AnswerSlot,
    Completion,
    DueRun,
    QuotaExceeded,
    Slot,
    StaleRun,
    StoredRun,
    Version,
)
from tests.fake_boards import NOON, serve_with
from tests.fake_moderation import FakeModeration
from tests.fake_recap import FakeRecaps


class FakeRunStore:
    """The run side. A completion writes its official result and stats through
    `_write_completion`, the board side's (FakeBoardStore), so combine the two (FakeStore)."""

    _write_completion: Callable[[Completion], None]

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.RLock()  # each method applies at once, as a DynamoDB request does
        self.puzzles: dict[Scope, list[Round]] = {}
        self.challenges: dict[str, Challenge] = {}
        self.created: dict[tuple[str, str], int] = {}  # (creator, date) -> challenges created
        self.runs: dict[str, tuple[Run, int]] = {}
        self.slots: dict[tuple[str, Scope], dict[str, str]] = {}
        self.reviewed_through: datetime | None = None  # the closing job's watermark for challenges

    def get_puzzle(self, scope: Scope) -> list[Round] | None:
        return self.puzzles.get(scope) if scope.kind == "daily" else self._challenge_puzzle(scope.id)

    def _challenge_puzzle(self, challenge_id: str) -> list[Round] | None:
        found = self.challenges.get(challenge_id)
        return found.puzzle if found else None

    def put_puzzle(self, scope: Scope, puzzle: list[Round]) -> list[Round]:
        with self._lock:
            return self.puzzles.setdefault(scope, list(puzzle))

    def get_challenge(self, challenge_id: str) -> Challenge | None:
        found = self.challenges.get(challenge_id)
        return found.model_copy(deep=True) if found else None

    def create_challenge(self, challenge: Challenge, day: str, quota: int) -> None:
        with self._lock:
            if self.created.get((challenge.creator, day), 0) >= quota:
                raise QuotaExceeded(challenge.creator)
            self.created[(challenge.creator, day)] = self.created.get((challenge.creator, day), 0) + 1
            self.challenges[challenge.challenge_id] = challenge.model_copy(deep=True)

    def challenges_closing(self, after: datetime, through: datetime) -> list[str]:
        with self._lock:
            closing = [(parse_iso(c.closes_at), c.challenge_id) for c in self.challenges.values()]
        return [challenge_id for closes, challenge_id in sorted(closing) if after < closes <= through]

    def challenges_reviewed_through(self) -> datetime | None:
        return self.reviewed_through

    def mark_challenges_reviewed(self, instant: datetime) -> None:
        with self._lock:
            if self.reviewed_through is None or instant > self.reviewed_through:
                self.reviewed_through = instant

    def created_challenges(self, creator: str, limit: int) -> list[Challenge]:
        with self._lock:
            made = [c for c in self.challenges.values() if c.creator == creator]
        made.sort(key=lambda c: (c.created_at, c.challenge_id), reverse=True)
        return [c.model_copy(deep=True) for c in made[:limit]]

    def get_run(self, run_id: str, caller: str | None = None) -> StoredRun | None:
        admission = None if caller is None else self.admission(caller)
        if admission is not None and admission.erased:
            raise AccountErased()
        with self._lock:
            found = self.runs.get(run_id)
            if found is None:
                return None
            return StoredRun(found[0].model_copy(deep=True), Version(found[1]), admission)

    def admission(self, player: str) -> Admission:
        """None erased, no ban: FakeStore adds the board side's (tests/fake_boards.py)."""
        return Admission(False, None)

    def _admitted(self, player: str | None, now: datetime) -> bool:
        """Whether PLAYER may start or answer at NOW (a guest always may)."""
        if player is None:
            return True
        admission = self.admission(player)
        return not admission.erased and not banned_at(admission.banned_until, now)

    def slot(self, player: str, scope: Scope) -> Slot:
        with self._lock:
            slot = self.slots.get((player, scope), {})
            return Slot(slot.get("run_id"), slot.get("official_run_id"))

    def create_run(self, run: Run, replacing: str | None = None) -> Version:
        if run.player is not None:  # the transaction's `admitted` check (shared/dynamo/tombstone.py)
            refuse_unless_admitted(self.admission(run.player), parse_iso(run.started_at))
        with self._lock:
            if run.run_id in self.runs:
                raise ActiveRunExists(run.run_id)
            if run.player is not None:
                slot = self.slots.setdefault((run.player, run.scope), {})
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
            self.runs[run.run_id] = (run.model_copy(deep=True), 0)
            return Version(0)

    def _check(self, run: Run, version: Version) -> None:
        stored = self.runs.get(run.run_id)
        if stored is None or stored[1] != version:
            raise StaleRun(run.run_id)

    def save_run(self, run: Run, version: Version) -> Version:
        with self._lock:
            self._check(run, version)
            self.runs[run.run_id] = (run.model_copy(deep=True), version + 1)
            return Version(version + 1)

    def answer_in_place(self, run_id: str, player: str | None, slot: AnswerSlot, now: datetime) -> StoredRun:
        with self._lock:
            found = self.runs.get(run_id)
            if found is None:
                raise StaleRun(run_id)
            run, version = found[0].model_copy(deep=True), found[1]
            in_play = not run.completed and now < parse_iso(run.deadline) and run.player == player
            in_play = in_play and self._admitted(player, now)  # an erasure or a ban stops its answers
            next_slot = (run.round_number, run.attempt_number) == slot[:2]
            if not (in_play and next_slot) or (slot.reason is None and is_already_used(run, slot.word)):
                raise StaleRun(run_id)
            record_attempt(run, slot.word, slot.reason, now)
            self.runs[run_id] = (run.model_copy(deep=True), version + 1)
            return StoredRun(run, Version(version + 1))

    def complete_run(self, run: Run, version: Version, completion: Completion | None = None) -> None:
        with self._lock:
            self._check(run, version)
            if completion is not None:
                self._write_completion(completion)
            self.runs[run.run_id] = (run.model_copy(deep=True), version + 1)

    def due_runs(self, now: datetime) -> Iterator[DueRun]:
        with self._lock:
            due = [
                DueRun(run.run_id, run.deadline)
                for run, _ in self.runs.values()
                if run.player is not None and not run.completed and parse_iso(run.deadline) <= now
            ]
        yield from due


class FakeStore(FakeRecaps, FakeRunStore, FakeModeration):
    """The whole port in memory (moderation too: tests/fake_moderation.py; recaps:
    tests/fake_recap.py)."""

    def admission(self, player: str) -> Admission:
        return FakeModeration.admission(self, player)  # the tombstones and sanctions it keeps


def complete_official(store: Any, result: OfficialResult) -> None:
    """Record RESULT through the RunStore port as the game does when its run completes: a run of
    it is stored (taking the player's slot in its scope), then completed with the completion the
    service decides (shared/services/completion.py). Works on FakeStore and DynamoStore alike.
    Raises OfficialTaken, or StaleRun when the profile changed between its read and the write."""
    store.complete_run(*prepare(store, result))


def prepare(store: Any, result: OfficialResult) -> tuple[Run, Version, Completion]:
    """The first half of `complete_official`: RESULT's run stored and the player's profile read, so a test
    can change the profile before `store.complete_run(*prepared)` writes."""
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
        store.create_run(run, store.slot(result.player, result.scope).run_id)
    read = store.profile_for_completion(result.player, result.kind == "daily")
    return run, Version(0), completion_of(result, read)


def store_at_noon(monkeypatch, store: Any = None) -> FakeStore:
    """A fresh store the leaderboard handler serves from (STORE, by default an in-memory one),
    with the game clock at noon on DAY."""
    from shared.game import clock

    clock.travel_to(NOON)
    store = store or FakeStore()
    serve_with(monkeypatch, store)
    return store


@contextlib.contextmanager
def served_store(kind: str, monkeypatch) -> Iterator[Any]:
    """`store_at_noon` on the in-memory fake (`fake`) or on DynamoDB (`dynamo`, on moto)."""
    if kind == "fake":
        yield store_at_noon(monkeypatch)
        return
    from tests.dynamo_store import settled_store

    with settled_store() as dynamo:
        yield store_at_noon(monkeypatch, dynamo)
