"""The run engine (SPEC §3): one attempt at a puzzle, its rounds, attempts, combo and score.

Pure: every function takes the run and `now` and changes the run in memory; shared/services/game.py
loads and saves it. The server holds the whole state: a client never sends a score.
"""

import hashlib
from collections.abc import Set
from datetime import datetime, timedelta
from typing import Literal, NamedTuple

from pydantic import BaseModel

from shared.game.clock import iso, parse_iso
from shared.game.constants import ATTEMPTS_PER_ROUND, MAX_WORD_LENGTH, TIME_LIMIT_SECONDS
from shared.game.errors import Conflict
from shared.game.preconditions import Fact, holds, refusal, slot_preconditions, unused
from shared.game.puzzles import Round
from shared.game.rules import Reason, ascii_lower, judge
from shared.game.scope import Scope
from shared.game.scoring import points_for, speed_bonus

Outcome = Literal["accepted", "lost", "skipped"]
# Why a run rejected an answer: a §2 reason, or a word the run already accepted (SPEC §3).
AnswerReason = Literal[Reason, "already_used"]


class RunConflict(Conflict):
    """An answer or skip that does not fit the run's state (409), with the run as it stands, which
    the reply shows (SPEC §5) so that a client can resume from it."""

    def __init__(self, message: str, code: str, run: "Run"):
        super().__init__(message, code)
        self.run = run


class Attempt(BaseModel):
    """One judged submission. A word longer than the rules allow is kept cut to MAX_WORD_LENGTH + 1
    characters with the digest of the whole word, so a run item stays small and a retry of the
    same long word still replays. `elapsed_ms` is how long after its round was shown it arrived."""

    word: str
    accepted: bool
    reason: AnswerReason | None
    elapsed_ms: int = 0
    digest: str | None = None

    @classmethod
    def of(cls, word: str, accepted: bool, reason: AnswerReason | None, elapsed_ms: int) -> "Attempt":
        if len(word) <= MAX_WORD_LENGTH + 1:
            return cls(word=word, accepted=accepted, reason=reason, elapsed_ms=elapsed_ms)
        return cls(
            word=word[: MAX_WORD_LENGTH + 1],
            accepted=accepted,
            reason=reason,
            elapsed_ms=elapsed_ms,
            digest=_digest(word),
        )

    def same_word(self, word: str) -> bool:
        """Whether WORD (any case) is the word judged here."""
        word = ascii_lower(word)
        return _digest(word) == self.digest if self.digest else word == self.word


def _digest(word: str) -> str:
    return hashlib.sha256(word.encode("utf-8", "surrogatepass")).hexdigest()


class RoundRecord(BaseModel):
    """One round as played; `outcome` is None while the round is still open. `points` includes
    the combo and speed bonuses."""

    round: int
    prompt: str
    forbidden: str
    attempts: list[Attempt] = []
    outcome: Outcome | None = None
    points: int = 0
    speed_bonus: int = 0


class Run(BaseModel):
    run_id: str
    kind: Literal["daily", "challenge"]
    date: str
    challenge_id: str | None = None
    player: str | None = None  # None for a guest run
    official: bool = False
    archive: bool = False  # a practice run of a past Daily (SPEC §3d): never official
    puzzle: list[Round]
    # A practice of some of its date's rounds (SPEC §4a): their numbers in that date's puzzle
    # (`puzzle` holds those rounds alone); None: the whole puzzle.
    puzzle_rounds: list[int] | None = None
    history: list[RoundRecord] = []
    score: int = 0
    combo: int = 0
    best_combo: int = 0
    longest_word_length: int = 0
    started_at: str
    deadline: str
    completed_at: str | None = None
    ended_by: Literal["finished", "expired"] | None = None
    # When the server showed the round in play: the run's start for round 1, then the reply that
    # ended the round before (None: the start). The speed bonus and fair play count from it.
    round_shown_at: str | None = None
    # Completed under a rank ban (SPEC §3e): official, never placed (shared/services/completion.py).
    rank_banned: bool = False

    @property
    def completed(self) -> bool:
        return self.completed_at is not None

    @property
    def round_number(self) -> int:
        """The 1-based round in play (len(puzzle) + 1 once every round is closed)."""
        closed = sum(1 for record in self.history if record.outcome)
        return closed + 1

    @property
    def attempt_number(self) -> int:
        """The next attempt (1-3) in the round in play."""
        record = self._open_record()
        return len(record.attempts) + 1 if record else 1

    def elapsed_ms(self, now: datetime) -> int:
        """Whole milliseconds from the moment the round in play was shown to NOW."""
        shown = parse_iso(self.round_shown_at or self.started_at)
        return max(0, (now - shown) // timedelta(milliseconds=1))

    @property
    def scope(self) -> Scope:
        """What the run counts for: one Daily date or one challenge (its board)."""
        return Scope.of(self.date, self.challenge_id)

    def accepted_words(self) -> list[str]:
        return [a.word for record in self.history for a in record.attempts if a.accepted]

    def _open_record(self) -> RoundRecord | None:
        if self.history and self.history[-1].outcome is None:
            return self.history[-1]
        return None

    def _record_for_play(self) -> RoundRecord:
        record = self._open_record()
        if record is None:
            number = self.round_number
            current = self.puzzle[number - 1]
            record = RoundRecord(round=number, prompt=current.prompt, forbidden=current.forbidden)
            self.history.append(record)
        return record


class AnswerResult(NamedTuple):
    accepted: bool
    reason: AnswerReason | None
    points: int  # including the speed bonus
    speed_bonus: int = 0
    replayed: bool = False


def new_run(
    run_id: str,
    kind: Literal["daily", "challenge"],
    date: str,
    puzzle: list[Round],
    now: datetime,
    player: str | None = None,
    official: bool = False,
    challenge_id: str | None = None,
    archive: bool = False,
) -> Run:
    """A fresh run: round 1, attempt 1, with the time limit counted from `now`."""
    return Run(
        run_id=run_id,
        kind=kind,
        date=date,
        challenge_id=challenge_id,
        player=player,
        official=official and not archive,
        archive=archive,
        puzzle=puzzle,
        started_at=iso(now),
        deadline=iso(now + timedelta(seconds=TIME_LIMIT_SECONDS)),
    )


def expire_if_due(run: Run, now: datetime) -> bool:
    """A run whose time limit has passed completes with what it had scored, at its deadline.
    Returns True when this call completed it."""
    if run.completed or now < parse_iso(run.deadline):
        return False
    run.completed_at = run.deadline
    run.ended_by = "expired"
    return True


def answer(
    run: Run, round_number: int, attempt_number: int, word: str, now: datetime, dictionary: Set[str]
) -> AnswerResult:
    """Judge `word` in its slot (round, attempt). A repeat of an applied answer replays its reply;
    any other slot than the next one, or a completed run, is a Conflict."""
    replay = _replay_of(run, round_number, attempt_number, word)
    if replay:
        return replay
    expire_if_due(run, now)
    _require_next_slot(run, round_number, attempt_number, now)
    record = run._record_for_play()
    verdict = judge(word, record.prompt, dictionary, record.forbidden)
    accepted: bool = verdict.valid
    reason: AnswerReason | None = verdict.reason
    if accepted and is_already_used(run, verdict.word):
        accepted, reason = False, "already_used"
    return record_attempt(run, verdict.word, reason if not accepted else None, now)


def record_attempt(run: Run, word: str, reason: AnswerReason | None, now: datetime) -> AnswerResult:
    """Apply a judged attempt (REASON None: accepted) to the slot in play, as it arrived at NOW:
    the score, combo and round's close follow. `answer` judges first; a run's item replays the
    attempts a write appended without reading it (shared/dynamo/runs.py) through this too."""
    record = run._record_for_play()
    accepted = reason is None
    elapsed = run.elapsed_ms(now)  # a rejected attempt does not restart the round's clock
    record.attempts.append(Attempt.of(word, accepted, reason, elapsed))
    if accepted:
        run.combo += 1
        run.best_combo = max(run.best_combo, run.combo)
        run.longest_word_length = max(run.longest_word_length, len(word))
        record.points = points_for(len(word), bool(record.forbidden), run.combo, elapsed)
        record.speed_bonus = speed_bonus(elapsed)
        run.score += record.points
        _close_round(run, record, "accepted", now)
    else:
        run.combo = 0
        if len(record.attempts) == ATTEMPTS_PER_ROUND:
            _close_round(run, record, "lost", now)
    return AnswerResult(accepted, reason, record.points, record.speed_bonus)


def is_already_used(run: Run, word: str) -> bool:
    """A word accepted once in a run is not accepted again in that run: a repeat is rejected with
    reason `already_used` (checked after the §2 checks pass; it counts as a rejection)."""
    return not holds(unused(word), facts_of(run))


def facts_of(run: Run, admitted: bool = True) -> dict[Fact, object]:
    """RUN's facts its writes' preconditions test (shared/game/preconditions.py), its player
    ADMITTED or not (the run does not know: the player's profile does)."""
    return {
        "owner": run.player,
        "admitted": admitted,
        "in_play": not run.completed,
        "deadline": parse_iso(run.deadline),
        "round": run.round_number,
        "attempt": run.attempt_number,
        "accepted_words": set(run.accepted_words()),
    }


def skip(run: Run, round_number: int, now: datetime) -> bool:
    """Skip the round in play: the combo breaks and the run moves on. Returns False when this
    is a replay of the skip that closed that round."""
    if round_number <= len(run.history) and run.history[round_number - 1].outcome == "skipped":
        return False
    expire_if_due(run, now)
    _require_next_slot(run, round_number, None, now)
    record = run._record_for_play()
    run.combo = 0
    _close_round(run, record, "skipped", now)
    return True


def _replay_of(run: Run, round_number: int, attempt_number: int, word: str) -> AnswerResult | None:
    if round_number > len(run.history):
        return None
    attempts = run.history[round_number - 1].attempts
    if attempt_number > len(attempts):
        return None
    if not attempts[attempt_number - 1].same_word(word):
        raise RunConflict("That attempt was already used with another word", "slot_used", run)
    return applied_result(run, round_number, attempt_number)._replace(replayed=True)


def applied_result(run: Run, round_number: int, attempt_number: int) -> AnswerResult:
    """The reply an applied attempt got: its verdict, and its round's points if it was accepted."""
    record = run.history[round_number - 1]
    applied = record.attempts[attempt_number - 1]
    points, bonus = (record.points, record.speed_bonus) if applied.accepted else (0, 0)
    return AnswerResult(applied.accepted, applied.reason, points, bonus)


def _require_next_slot(run: Run, round_number: int, attempt_number: int | None, now: datetime) -> None:
    """The slot's preconditions (shared/game/preconditions.py) on the run as read: the service read
    it as its player's, admitted, so a refusal is of a run over or of another slot."""
    failed = refusal(slot_preconditions(run.player, round_number, attempt_number, now), facts_of(run))
    if failed is not None and failed.fact in ("in_play", "deadline"):
        raise RunConflict("The run is over", "run_completed", run)
    if failed is not None:
        expected = f"Expected round {run.round_number}, attempt {run.attempt_number}"
        raise RunConflict(expected, "not_next_slot", run)


def _close_round(run: Run, record: RoundRecord, outcome: Outcome, now: datetime) -> None:
    """Close the round; the reply that closes it shows the next round, whose clock starts now."""
    record.outcome = outcome
    run.round_shown_at = iso(now)
    if run.round_number > len(run.puzzle):
        run.completed_at = iso(now)
        run.ended_by = "finished"
