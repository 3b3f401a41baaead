"""The Daily Challenge and challenges (SPEC §3, §3a): puzzles, runs and official scores.

This is the game's service layer: it reads through its ports (RunStore, ResultStore), applies the
pure rules of shared/game/runs.py, and writes the result back with conditional writes. No AWS here.
"""

import contextlib
import secrets
import time
from collections.abc import Callable, Set
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timedelta
from typing import TypeVar

from shared.game import clock
from shared.game.clock import iso, parse_iso
from shared.game.constants import (
    CHALLENGE_OPEN_DAYS,
    CHALLENGES_PER_PLAYER_PER_DATE,
    DAILY_FORBIDDEN_ROUNDS,
    DAILY_ROUNDS,
    DEFAULT_FIRST_DAILY_DATE,
    GUEST_RUN_TTL_SECONDS,
    MY_CHALLENGES_LIMIT,
    TIME_LIMIT_SECONDS,
)
from shared.game.daily_date import DailyDetails, daily_date, next_reset, parse_date
from shared.game.errors import BadRequest, Conflict, NotFound, Throttled
from shared.game.puzzles import Round, generate_puzzle, seed_for_date
from shared.game.results import Challenge
from shared.game.runs import AnswerResult, Run, answer, expire_if_due, new_run, skip
from shared.game.scope import Scope, run_id_in
from shared.services.admission import refuse_unless_admitted
from shared.services.answering import answer_at_once, skip_at_once
from shared.services.completion import as_placed, implausible_details, run_completion
from shared.services.ports import (
    ActiveRunExists,
    Completion,
    DueRun,
    OfficialTaken,
    QuotaExceeded,
    ResultStore,
    RunStore,
    StaleRun,
    StoredProfile,
    StoredRun,
    Version,
)
from shared.services.retry import Exhausted, retry

Recorder = Callable[..., None]
T = TypeVar("T")
# Due runs one expiry pass completes at once: at the rush a minute's abandoned runs number in the
# tens of thousands, each a read and a write of ~10 ms, so one at a time would not fit a minute.
EXPIRY_WORKERS = 32
# The watermark is kept to the millisecond: a pass that could not complete a run stops it one step
# before that run's deadline (every run due at or before it is then completed).
WATERMARK_STEP = timedelta(milliseconds=1)
# Failed runs an expiry pass lists in its summary (its log line); the count is always whole.
FAILURES_LISTED = 20


def _ignore(*_: object, **__: object) -> None:
    return None


class Game:
    def __init__(
        self,
        runs: RunStore,
        results: ResultStore,
        secret: Callable[[], bytes],
        dictionary: Callable[[], Set[str]],
        record: Recorder = _ignore,
        now: Callable[[], datetime] = clock.now,
        sleep: Callable[[float], None] = time.sleep,
        first_date: Callable[[], date] = lambda: DEFAULT_FIRST_DAILY_DATE,
    ):
        self.runs, self.results = runs, results
        self.first_date = first_date  # the deployment's first Daily date (FIRST_DAILY_DATE)
        self.secret, self.dictionary = secret, dictionary
        self.record = record  # ("RunsStarted" etc.): metrics, and a log line for one with details
        self.now, self.sleep = now, sleep  # the clock; the retry policy's pauses
        self._puzzles: dict[Scope, list[Round]] = {}  # puzzles never change once stored

    # The Daily -----------------------------------------------------------------------------

    def daily_info(self) -> DailyDetails:
        """Today's Daily (`GET /daily`)."""
        return self._details(daily_date(self.now()))

    def _details(self, day: date) -> DailyDetails:
        now = self.now()
        live = day == daily_date(now)
        return DailyDetails(day, DAILY_ROUNDS, TIME_LIMIT_SECONDS, live, next_reset(now), self.first_date())

    def daily_puzzle(self, day: str) -> list[Round]:
        """The puzzle of DAY: stored once (by the reset job or the first player), then cached."""
        scope = Scope.daily(day)
        if scope not in self._puzzles:
            stored = self.runs.get_puzzle(scope)
            if stored is None:
                generated = generate_puzzle(
                    seed_for_date(self.secret(), day), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS
                )
                stored = self.runs.put_puzzle(scope, generated)
            self._puzzles[scope] = stored
        return self._puzzles[scope]

    def start_daily(self, player: str | None) -> tuple[Run, bool]:
        """Start a run of today's Daily (True), or return the player's active run of it (False)."""
        now = self.now()  # read once: the run's date and start must agree, even at midnight
        day = daily_date(now).isoformat()
        return self._start(player, Scope.daily(day), day, self.daily_puzzle(day), now)

    # Past Dailies (SPEC §3d) ---------------------------------------------------------------

    def past_daily(self, day: str) -> DailyDetails:
        """A Daily date's details (`GET /daily/{date}`): any date from the deployment's first on,
        not in the future; today's is the live Daily."""
        return self._details(self._past_date(day))

    def start_past_daily(self, player: str | None, day: str) -> tuple[Run, bool]:
        """Start a practice run of a past Daily (True), or return the player's active run of that
        date (False): the same puzzle, run engine and scoring as the Daily, never official, so
        never on a board or in stats. Today's Daily is played only as the Daily (409)."""
        now = self.now()
        found = self._past_date(day)
        if found == daily_date(now):
            raise Conflict("Today's Daily is played as the Daily (POST /daily/runs)", "daily_is_live")
        iso_day = found.isoformat()
        return self._start(
            player, Scope.daily(iso_day), iso_day, self.daily_puzzle(iso_day), now, archive=True
        )

    def _past_date(self, day: str) -> date:
        """DAY as a Daily date that has started: a malformed date or one in the future is 400, one
        before the deployment's first Daily is 404."""
        parsed = parse_date(day)
        if parsed > daily_date(self.now()):
            raise BadRequest("That date has not started yet", "future_date")
        if parsed < self.first_date():
            raise NotFound(f"The first Daily was {self.first_date().isoformat()}", "daily_not_found")
        return parsed

    # Challenges ----------------------------------------------------------------------------

    def create_challenge(self, player: str, rounds: int, forbidden_rounds: int) -> Challenge:
        """A new challenge; a player creates at most CHALLENGES_PER_PLAYER_PER_DATE of them per
        Daily date (the next is 429 too_many_challenges)."""
        now = self.now()
        challenge = Challenge(
            challenge_id=secrets.token_urlsafe(12),
            creator=player,
            puzzle=generate_puzzle(secrets.token_bytes(32), rounds, forbidden_rounds),
            created_at=iso(now),
            closes_at=iso(now + timedelta(days=CHALLENGE_OPEN_DAYS)),
        )
        try:
            self.runs.create_challenge(challenge, daily_date(now).isoformat(), CHALLENGES_PER_PLAYER_PER_DATE)
        except QuotaExceeded as error:
            raise Throttled(
                f"At most {CHALLENGES_PER_PLAYER_PER_DATE} challenges a day; try again after the reset",
                "too_many_challenges",
            ) from error
        return challenge

    def created_challenges(self, player: str) -> list[Challenge]:
        """The challenges PLAYER made, newest first (at most MY_CHALLENGES_LIMIT)."""
        return self.runs.created_challenges(player, MY_CHALLENGES_LIMIT)

    def challenge(self, challenge_id: str) -> Challenge:
        found = self.runs.get_challenge(challenge_id)
        if found is None:
            raise NotFound("No such challenge", "challenge_not_found")
        return found

    def start_challenge(self, player: str, challenge_id: str) -> tuple[Run, bool]:
        """Start a run of a challenge (True), or return the player's active run of it (False)."""
        now = self.now()
        found = self.challenge(challenge_id)
        closed = now >= parse_iso(found.closes_at)
        day = daily_date(now).isoformat()
        return self._start(player, Scope.challenge(challenge_id), day, found.puzzle, now, closed)

    # Runs ----------------------------------------------------------------------------------

    def _start(
        self,
        player: str | None,
        scope: Scope,
        day: str,
        puzzle: list[Round],
        now: datetime,
        closed: bool = False,
        archive: bool = False,
    ) -> tuple[Run, bool]:
        """A player has at most one active run per scope: starting while one is active returns it,
        so a first (official) run cannot be abandoned and restarted. Runs of other scopes (another
        date, another challenge) never count. Whether the new run is official is read from the
        slot the creating write is conditional on, so it cannot go stale in between. The first
        start of a scope needs no read: its run is created on condition the slot is empty."""

        def create(official: bool, replacing: str | None = None) -> tuple[Run, bool]:
            run_id = run_id_in(scope, secrets.token_urlsafe(16))
            run = new_run(
                run_id, scope.kind, day, puzzle, now, player, official, _challenge_id(scope), archive
            )
            self.runs.create_run(run, replacing)  # ActiveRunExists when the slot is not as assumed
            self.record("RunsStarted")
            return run, True

        if player is not None and not closed:
            with contextlib.suppress(ActiveRunExists):  # else the slot names a run: read it
                return create(official=not archive)

        def attempt() -> tuple[Run, bool]:
            official, replacing = False, None
            if player is not None:
                slot = self.runs.slot(player, scope)
                latest = self.runs.get_run(slot.run_id) if slot.run_id else None
                if latest is not None:
                    run = self._refresh(latest).run
                    if not run.completed:
                        return run, False
                # The slot's run has completed, or is missing (a dangling slot): replace it. A
                # missing official run never recorded a result, so the new run takes its place.
                replacing = slot.run_id
                official = slot.official_run_id is None or (
                    latest is None and slot.official_run_id == replacing
                )
            if closed:
                raise Conflict("This challenge has closed", "challenge_closed")
            try:
                return create(official, replacing)
            except ActiveRunExists as error:
                raise StaleRun(scope.id) from error  # a concurrent start won: look again

        return self._retry(attempt)

    def get_run(self, run_id: str, player: str | None) -> Run:
        """The caller's run (a guest's by its id alone), completed first if its time is up."""
        return as_placed(self._retry(lambda: self._refresh(self._load(run_id, player)).run), self.results)

    def answer(
        self, run_id: str, player: str | None, round_number: int, attempt_number: int, word: str
    ) -> tuple[AnswerResult, Run]:
        slot = (round_number, attempt_number)
        written = answer_at_once(
            self.runs, self._puzzle_of, self.dictionary(), run_id, player, slot, word, self.now()
        )
        if written is not None:
            self.record("Answers", reason=written[0].reason or "accepted")
            return written

        def attempt() -> tuple[AnswerResult, Run]:
            run, version, _, profile = self._refresh(self._load(run_id, player))
            result = answer(run, round_number, attempt_number, word, self.now(), self.dictionary())
            if not result.replayed:
                self._persist(run, version, profile)
                self.record("Answers", reason=result.reason or "accepted")
            return result, run

        return self._retry(attempt)

    def skip(self, run_id: str, player: str | None, round_number: int) -> Run:
        written = skip_at_once(self.runs, self._puzzle_of, run_id, player, round_number, self.now())
        if written is not None:
            return written

        def attempt() -> Run:
            run, version, _, profile = self._refresh(self._load(run_id, player))
            if skip(run, round_number, self.now()):
                self._persist(run, version, profile)
            return run

        return self._retry(attempt)

    def _puzzle_of(self, scope: Scope) -> list[Round] | None:
        """SCOPE's stored puzzle (cached), None if there is none: never generated here."""
        if scope.kind == "daily" and scope in self._puzzles:
            return self._puzzles[scope]
        return self.runs.get_puzzle(scope)

    def _retry(self, attempt: Callable[[], T]) -> T:
        """Run ATTEMPT again from a fresh read when another request changed the state first
        (every write is conditional on what was read); a lasting contest is 429."""
        try:
            return retry(attempt, StaleRun, sleep=self.sleep)
        except Exhausted as error:
            raise Throttled("The run is busy; try again") from error

    def _load(self, run_id: str, player: str | None) -> StoredRun:
        """The run if it is the caller's (who it admits, read with it); a guest run is gone after
        2 days even before DynamoDB's TTL (which deletes within days, not on the second) does."""
        stored = self.runs.get_run(run_id, player)
        if stored is not None and stored.admission is not None:
            refuse_unless_admitted(stored.admission, self.now())
        gone = timedelta(seconds=GUEST_RUN_TTL_SECONDS)
        guest_gone = (
            player is None and stored is not None and self.now() >= parse_iso(stored.run.started_at) + gone
        )
        if stored is None or stored.run.player != player or guest_gone:
            raise NotFound("No such run", "run_not_found")
        return stored

    def _refresh(self, stored: StoredRun) -> StoredRun:
        """Complete the run if its time limit has passed (the one completion path of an expired
        run, whether a request or the expiry job touches it)."""
        if expire_if_due(stored.run, self.now()):
            self._persist(stored.run, stored.version, stored.profile)
        return stored

    def _persist(self, run: Run, version: Version, profile: StoredProfile | None = None) -> None:
        """Write RUN back (conditional on VERSION); a completed official run with its result and
        the stats (against PROFILE if read with the run), or as practice if the result exists."""
        if not run.completed:
            self.runs.save_run(run, version)
            return
        try:
            self.results.complete_run(run, version, self._completion(run, profile))
        except OfficialTaken:
            run.official = False
            self.results.complete_run(run, version)
        self.record("RunsCompleted")
        if run.official:
            self.record("OfficialScores")
            if details := implausible_details(run):  # SPEC §3b: a metric and a log line for operators
                self.record("ImplausibleRuns", **details)

    def _completion(self, run: Run, profile: StoredProfile | None = None) -> Completion | None:
        """An official run's completion, from PROFILE as read (written only if still so)."""
        if run.player is None or not run.official:
            return None
        read = profile or self.results.profile_for_completion(run.player)
        return run_completion(run, read)

    # The scheduled jobs --------------------------------------------------------------------

    def reset(self) -> dict[str, object]:
        """At 00:00 Central: store the new date's puzzle (players would otherwise make it on
        first use). Idempotent, and the Daily date never depends on it."""
        today = daily_date(self.now()).isoformat()
        self.daily_puzzle(today)
        return {"date": today}

    def expire_due_runs(self) -> dict[str, object]:
        """Every minute: complete each player run whose deadline has passed, through the same
        path as an answer, then move the store's watermark (every run with a deadline at or
        before it is completed) to the instant this pass began.

        One run that fails to complete (throttled, a refused request, an outage of its partition,
        any error) never stops the others: the pass completes every due run it can, reports the
        ones it could not (`failed_runs`, and the `ExpiryFailures` metric), and moves the
        watermark only to just before the earliest deadline among them, so their boards wait for
        them. The next pass finds them due again and tries once more."""
        now = self.now()
        due = list(self.runs.due_runs(now))
        with ThreadPoolExecutor(max_workers=EXPIRY_WORKERS) as pool:
            outcomes = list(pool.map(self._complete_if_due, due))
        completed = sum(1 for outcome in outcomes if outcome == "completed")
        failed = sorted(
            (run.deadline, run.run_id, outcome.removeprefix("failed:"))
            for run, outcome in zip(due, outcomes, strict=True)
            if outcome.startswith("failed:")
        )
        through = now
        if failed:  # the earliest deadline first
            through = min(now, parse_iso(failed[0][0]) - WATERMARK_STEP)
            self.record("ExpiryFailures", value=len(failed))
        self.runs.mark_completed_through(through)
        return {
            "completed_through": iso(through),
            "runs_completed": completed,
            "failed": len(failed),
            "failed_runs": [
                {"run_id": run_id, "deadline": deadline, "error": error}
                for deadline, run_id, error in failed[:FAILURES_LISTED]
            ],
        }

    def _complete_if_due(self, due: DueRun) -> str:
        """Complete one due run: "completed", "already" (completed meanwhile), "not due", or
        "failed:<error class>" when it could not (any error: the pass goes on without it)."""

        def attempt() -> str:
            stored = self.runs.get_run(due.run_id)
            if stored is None or stored.run.completed:
                return "already"
            return "completed" if self._refresh(stored).run.completed else "not due"

        try:
            return self._retry(attempt)
        except Exception as error:  # noqa: BLE001  (one run's failure must not end the pass)
            return f"failed:{type(error).__name__}"


def _challenge_id(scope: Scope) -> str | None:
    return scope.id if scope.kind == "challenge" else None
