"""The Daily Challenge and challenges (SPEC §3, §3a): puzzles, runs and official scores.

This is the game's service layer: it loads state through the Store port, applies the pure
rules of shared/runs.py, and writes the result back with conditional writes. No AWS here.
"""

import secrets
from collections.abc import Callable, Set
from datetime import datetime, timedelta
from typing import Any, Literal, TypeVar, overload

from shared import clock
from shared.boards import scope_of
from shared.clock import iso, parse_iso
from shared.constants import (
    CHALLENGE_OPEN_DAYS,
    DAILY_FORBIDDEN_ROUNDS,
    DAILY_ROUNDS,
    GUEST_RUN_TTL_SECONDS,
    TIME_LIMIT_SECONDS,
)
from shared.daily_date import daily_date, next_reset
from shared.errors import Conflict, NotFound, Throttled
from shared.puzzles import Round, generate_puzzle, seed_for_date
from shared.runs import AnswerResult, Run, answer, expire_if_due, new_run, skip
from shared.store import ActiveRunExists, Challenge, OfficialResult, OfficialTaken, StaleRun, Store

Recorder = Callable[..., None]
T = TypeVar("T")
_MAX_TRIES = 5  # optimistic-lock retries before answering 429


def _ignore(*_: object, **__: object) -> None:
    return None


class Game:
    def __init__(
        self,
        store: Store,
        secret: Callable[[], bytes],
        dictionary: Callable[[], Set[str]],
        record: Recorder = _ignore,
        now: Callable[[], datetime] = clock.now,
    ):
        self.store = store
        self.secret = secret
        self.dictionary = dictionary
        self.record = record  # record("RunsStarted") etc.; the handlers wire it to metrics
        self.now = now
        self._puzzles: dict[str, list[Round]] = {}  # puzzles never change once stored

    # The Daily -----------------------------------------------------------------------------

    def daily_info(self) -> dict[str, Any]:
        now = self.now()
        return {
            "date": daily_date(now).isoformat(),
            "rounds": DAILY_ROUNDS,
            "time_limit_seconds": TIME_LIMIT_SECONDS,
            "status": "live",
            "resets_at": iso(next_reset(now)),
        }

    def daily_puzzle(self, day: str) -> list[Round]:
        """The puzzle of DAY: stored once (by the reset job or the first player), then cached."""
        scope = scope_of(day)
        if scope not in self._puzzles:
            stored = self.store.get_puzzle(scope)
            if stored is None:
                generated = generate_puzzle(
                    seed_for_date(self.secret(), day), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS
                )
                stored = self.store.put_puzzle(scope, generated)
            self._puzzles[scope] = stored
        return self._puzzles[scope]

    def start_daily(self, player: str | None) -> tuple[Run, bool]:
        """Start a Daily run (True), or return the player's active run (False)."""
        now = self.now()  # read once: the run's date and start must agree, even at midnight
        day = daily_date(now).isoformat()
        return self._start(player, "daily", day, self.daily_puzzle(day), None, now)

    # Challenges ----------------------------------------------------------------------------

    def create_challenge(self, player: str, rounds: int, forbidden_rounds: int) -> Challenge:
        now = self.now()
        challenge = Challenge(
            challenge_id=secrets.token_urlsafe(12),
            creator=player,
            puzzle=generate_puzzle(secrets.token_bytes(32), rounds, forbidden_rounds),
            created_at=iso(now),
            closes_at=iso(now + timedelta(days=CHALLENGE_OPEN_DAYS)),
        )
        self.store.put_challenge(challenge)
        return challenge

    def challenge(self, challenge_id: str) -> Challenge:
        found = self.store.get_challenge(challenge_id)
        if found is None:
            raise NotFound("No such challenge", "challenge_not_found")
        return found

    def start_challenge(self, player: str, challenge_id: str) -> tuple[Run, bool]:
        """Start a run of a challenge (True), or return the player's active run (False)."""
        now = self.now()
        found = self.challenge(challenge_id)
        closed = now >= parse_iso(found.closes_at)
        day = daily_date(now).isoformat()
        return self._start(player, "challenge", day, found.puzzle, challenge_id, now, closed)

    # Runs ----------------------------------------------------------------------------------

    def _start(
        self,
        player: str | None,
        kind: Literal["daily", "challenge"],
        day: str,
        puzzle: list[Round],
        challenge_id: str | None,
        now: datetime,
        closed: bool = False,
    ) -> tuple[Run, bool]:
        """A player has at most one active run at a time: starting while one is active returns it,
        whatever it is a run of, so a first (official) run cannot be abandoned and restarted."""
        scope = scope_of(day, challenge_id)

        def attempt() -> tuple[Run, bool]:
            official = False
            if player is not None:
                active_id, has_official = self.store.player_status(player, scope)
                if active_id:
                    active = self._refresh(self.store.get_run(active_id))
                    if active is not None and not active.completed:
                        return active, False
                    raise StaleRun(active_id)  # it has just completed: look again
                official = not has_official
            if closed:
                raise Conflict("This challenge has closed", "challenge_closed")
            run = new_run(secrets.token_urlsafe(16), kind, day, puzzle, now, player, official, challenge_id)
            try:
                self.store.create_run(run)
            except ActiveRunExists as error:
                raise StaleRun(run.run_id) from error  # a concurrent start won: return its run
            self.record("RunsStarted")
            return run, True

        return self._retry(attempt)

    def get_run(self, run_id: str, player: str | None) -> Run:
        """The caller's run (a guest's by its id alone), completed first if its time is up."""
        return self._retry(lambda: self._refresh(self._load(run_id, player)))

    def answer(
        self, run_id: str, player: str | None, round_number: int, attempt_number: int, word: str
    ) -> tuple[AnswerResult, Run]:
        def attempt() -> tuple[AnswerResult, Run]:
            run = self._refresh(self._load(run_id, player))
            result = answer(run, round_number, attempt_number, word, self.now(), self.dictionary())
            if not result.replayed:
                self._persist(run)
                self.record("Answers", reason=result.reason or "accepted")
            return result, run

        return self._retry(attempt)

    def skip(self, run_id: str, player: str | None, round_number: int) -> Run:
        def attempt() -> Run:
            run = self._refresh(self._load(run_id, player))
            if skip(run, round_number, self.now()):
                self._persist(run)
            return run

        return self._retry(attempt)

    @staticmethod
    def _retry(attempt: Callable[[], T]) -> T:
        """Run ATTEMPT again from a fresh read when another request changed the state first
        (every write is conditional on what was read); a lasting contest is 429."""
        for _ in range(_MAX_TRIES):
            try:
                return attempt()
            except StaleRun:
                continue
        raise Throttled("The run is busy; try again")

    def _load(self, run_id: str, player: str | None) -> Run:
        """The run if it is the caller's; a guest run is gone after 2 days even before DynamoDB's
        TTL (which deletes within days, not on the second) removes it."""
        run = self.store.get_run(run_id)
        if run is None or run.player != player or (player is None and self._guest_run_gone(run)):
            raise NotFound("No such run", "run_not_found")
        return run

    def _guest_run_gone(self, run: Run) -> bool:
        return self.now() >= parse_iso(run.started_at) + timedelta(seconds=GUEST_RUN_TTL_SECONDS)

    @overload
    def _refresh(self, run: Run) -> Run: ...
    @overload
    def _refresh(self, run: None) -> None: ...
    def _refresh(self, run: Run | None) -> Run | None:
        """Complete RUN if its time limit has passed (it completes when next touched)."""
        if run is not None and expire_if_due(run, self.now()):
            self._persist(run)
        return run

    def _persist(self, run: Run) -> None:
        if not run.completed:
            self.store.save_run(run)
            return
        official = self._official_result(run) if run.official else None
        try:
            self.store.complete_run(run, official)
        except OfficialTaken:
            run.official = False  # a racing run of the same player became official first
            self.store.complete_run(run, None)
            official = None
        self.record("RunsCompleted")
        if official:
            self.record("OfficialScores")

    @staticmethod
    def _official_result(run: Run) -> OfficialResult:
        return OfficialResult(
            player=run.player or "",
            scope=run.scope,
            kind=run.kind,
            date=run.date,
            challenge_id=run.challenge_id,
            run_id=run.run_id,
            score=run.score,
            best_combo=run.best_combo,
            longest_word_length=run.longest_word_length,
            completed_at=run.completed_at or "",
            words=run.accepted_words(),
        )

    # The reset job -------------------------------------------------------------------------

    def reset(self, sleep: Callable[[float], None]) -> dict[str, Any]:
        """At 00:00 Central: store the new date's puzzle, and complete the runs of the two
        previous dates still marked active, waiting for the last ones' time limits (at most
        TIME_LIMIT_SECONDS) so the closed date's board is whole. Idempotent."""
        today = daily_date(self.now())
        self.daily_puzzle(today.isoformat())
        completed = 0
        for day in (today - timedelta(days=2), today - timedelta(days=1)):
            for run_id in list(self.store.active_run_ids(day.isoformat())):
                completed += self._complete_when_due(run_id, sleep)
        return {"date": today.isoformat(), "runs_completed": completed}

    def _complete_when_due(self, run_id: str, sleep: Callable[[float], None]) -> int:
        run = self.store.get_run(run_id)
        if run is None or run.completed:
            return 0
        wait = (parse_iso(run.deadline) - self.now()).total_seconds()
        if wait > 0:
            sleep(wait)

        def attempt() -> int:
            fresh = self._refresh(self.store.get_run(run_id))
            return 1 if fresh is not None and fresh.completed and fresh.ended_by == "expired" else 0

        return self._retry(attempt)
