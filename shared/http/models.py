"""Request and reply models of the HTTP API (SPEC §5): the JSON names web clients code against.

The JSON Schema of each model is the OpenAPI document's (`make openapi`), so every constraint a
handler enforces on a field is written here as a pydantic constraint (pattern, range, strictness)
and the document says it too; the few checks a schema cannot say (forbidden letters distinct and
not in the prompt) are validators, and their 400 is in the document.

Here: the bases, and the models of the validate and daily functions' routes (the Daily, runs,
challenges) and of errors; the leaderboard function's are in shared/http/leaderboard_models.py.
"""

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictStr,
    field_validator,
    model_validator,
)

from shared.game.clock import iso, parse_iso
from shared.game.constants import (
    ATTEMPTS_PER_ROUND,
    CHALLENGE_DEFAULT_FORBIDDEN_ROUNDS,
    CHALLENGE_DEFAULT_ROUNDS,
    CHALLENGE_MAX_FORBIDDEN_ROUNDS,
    CHALLENGE_MAX_ROUNDS,
    CHALLENGE_MIN_ROUNDS,
    COMBO_BONUS_MAX_STEPS,
    COMBO_BONUS_PER_STEP,
    FORBIDDEN_LETTERS,
    MAX_SCORE,
    POINTS_PER_LETTER,
    POINTS_PER_LETTER_FORBIDDEN,
    PROMPT_LENGTH,
    SCORED_LENGTH_CAP,
    SPEED_BONUS_PER_SECOND,
    SPEED_BONUS_SECONDS,
    TIME_LIMIT_SECONDS,
)
from shared.game.fair_play import UnrankedReason, ranked, unranked_reason
from shared.game.rules import Reason
from shared.game.runs import AnswerReason
from shared.http.limits import Limits

if TYPE_CHECKING:
    from shared.game.daily_date import DailyDetails
    from shared.game.results import Challenge
    from shared.game.runs import Run
    from shared.services.leaderboard import ChallengeBoard, Row

Status = Literal["live", "closed"]


def status(closed: bool) -> Status:
    """A board's (or a Daily's) status as the API names it."""
    return "closed" if closed else "live"


PROMPT_PATTERN = f"^[A-Za-z]{{{PROMPT_LENGTH}}}$"
FORBIDDEN_PATTERN = f"^([A-Za-z]{{{FORBIDDEN_LETTERS}}})?$"


def _integral(value: Any) -> Any:
    """JSON has one number type, and JSON Schema's `integer` is any number with no fractional
    part: 2.0 is the integer 2. Strings and booleans stay refused (the field is strict)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# An integer as JSON Schema means it: 2 and 2.0, never "2", true or 2.5.
JsonInt = Annotated[int, BeforeValidator(_integral), Field(strict=True)]


class Model(BaseModel):
    """Base of every model here. Each is built on its first use (`defer_build`), not when this
    module is imported: a function builds only the models it serves (validate two of about twenty;
    ~5 ms less init, ~1 ms more on the first request, benchmarks/coldstart.py)."""

    model_config = ConfigDict(defer_build=True)


class Request(Model):
    """Base of every request body: unknown fields are refused, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class ValidateRequest(Request):
    prompt: StrictStr = Field(
        description=f"{PROMPT_LENGTH} letters A-Z, case-insensitive", examples=["TMR"], pattern=PROMPT_PATTERN
    )
    word: StrictStr = Field(description="the submission, judged as sent (no trimming)")
    forbidden: StrictStr | None = Field(
        default=None,
        description=f"{FORBIDDEN_LETTERS} different letters A-Z, none in the prompt (forbidden mode); "
        "null or empty: classic",
        examples=["AEO"],
        pattern=FORBIDDEN_PATTERN,
    )

    @field_validator("prompt")
    @classmethod
    def _prompt(cls, value: str) -> str:
        return value.upper()

    @field_validator("forbidden")
    @classmethod
    def _forbidden(cls, value: str | None) -> str | None:
        if not value:
            return None
        value = value.upper()
        if len(set(value)) != FORBIDDEN_LETTERS:
            raise ValueError(f"forbidden letters must be {FORBIDDEN_LETTERS} different letters")
        return value

    @model_validator(mode="after")
    def _disjoint(self) -> "ValidateRequest":
        if self.forbidden and set(self.forbidden) & set(self.prompt):
            raise ValueError("forbidden letters may not be in the prompt")
        return self


class ValidateReply(Model):
    valid: bool
    word: str
    reason: Reason | None


class AnswerRequest(Request):
    round: JsonInt = Field(ge=1, le=CHALLENGE_MAX_ROUNDS)
    attempt: JsonInt = Field(ge=1, le=ATTEMPTS_PER_ROUND)
    word: StrictStr


class SkipRequest(Request):
    round: JsonInt = Field(ge=1, le=CHALLENGE_MAX_ROUNDS)


class ChallengeRequest(Request):
    rounds: JsonInt = Field(
        default=CHALLENGE_DEFAULT_ROUNDS, ge=CHALLENGE_MIN_ROUNDS, le=CHALLENGE_MAX_ROUNDS
    )
    forbidden_rounds: JsonInt = Field(
        default=CHALLENGE_DEFAULT_FORBIDDEN_ROUNDS, ge=0, le=CHALLENGE_MAX_FORBIDDEN_ROUNDS
    )


# Replies ----------------------------------------------------------------------------------


class Scoring(Model):
    """Every term of a word's score (SPEC §3), from shared/game/constants.py, which scoring uses:
    the rules card shows these numbers."""

    points_per_letter: int = POINTS_PER_LETTER
    points_per_letter_forbidden: int = POINTS_PER_LETTER_FORBIDDEN
    scored_length_cap: int = SCORED_LENGTH_CAP
    combo_bonus_per_step: int = COMBO_BONUS_PER_STEP
    combo_bonus_max_steps: int = COMBO_BONUS_MAX_STEPS
    speed_bonus_per_second: int = SPEED_BONUS_PER_SECOND
    speed_bonus_seconds: int = SPEED_BONUS_SECONDS
    max_score: int = MAX_SCORE


class DailyInfo(Model):
    date: str = Field(examples=["2026-11-29"])
    rounds: int
    time_limit_seconds: int
    status: Literal["live", "closed"]
    resets_at: str = Field(examples=["2026-11-30T06:00:00.000Z"])
    scoring: Scoring = Field(default_factory=Scoring, description="the numbers of every scoring term")
    limits: Limits = Field(default_factory=Limits, description="the limits a client checks first")

    @classmethod
    def of(cls, daily: "DailyDetails") -> "DailyInfo":
        return cls(
            date=daily.day.isoformat(),
            rounds=daily.rounds,
            time_limit_seconds=daily.time_limit_seconds,
            status=status(not daily.live),
            resets_at=iso(daily.resets_at),
        )


class PastDaily(Model):
    """`GET /daily/{date}`: a Daily date's details (SPEC §3d)."""

    date: str
    rounds: int
    time_limit_seconds: int
    status: Literal["live", "closed"] = Field(description="live: today's Daily; closed: a past one")
    first_date: str = Field(description="the deployment's first Daily date: past Dailies start there")
    practice: bool = Field(description="whether POST /daily/{date}/runs plays it (not while live)")

    @classmethod
    def of(cls, daily: "DailyDetails") -> "PastDaily":
        return cls(
            date=daily.day.isoformat(),
            rounds=daily.rounds,
            time_limit_seconds=daily.time_limit_seconds,
            status=status(not daily.live),
            first_date=daily.first_date.isoformat(),
            practice=not daily.live,
        )


class AttemptView(Model):
    word: str
    accepted: bool
    reason: AnswerReason | None
    elapsed_ms: int = Field(description="milliseconds from the moment the server showed the round")


class RoundView(Model):
    round: int
    prompt: str
    forbidden: str = Field(description='3 uppercase letters in a forbidden round, "" in a classic one')
    attempts: list[AttemptView]
    outcome: Literal["accepted", "lost", "skipped"] | None = Field(
        description="null while the round is open (or was open when the run expired)"
    )
    points: int = Field(description="including the round's combo and speed bonuses")
    speed_bonus: int = Field(description="3 × max(0, 10 − whole seconds to the accepted answer)")


class RunView(Model):
    run_id: str
    kind: Literal["daily", "challenge"]
    date: str
    challenge_id: str | None
    status: Literal["active", "completed"]
    ended_by: Literal["finished", "expired"] | None
    official: bool
    round: int | None
    rounds: int
    prompt: str | None
    forbidden: str | None
    attempt: int | None
    attempts_left: int
    score: int
    combo: int
    best_combo: int
    longest_word_length: int
    started_at: str
    deadline: str
    completed_at: str | None
    history: list[RoundView]
    ranked: bool = Field(
        description="placed on its board and counted in ranks (on completion); false for guest and "
        "practice runs, for an official run whose answers came faster than a person can type, and for "
        "one completed under a rank ban"
    )
    unranked_reason: UnrankedReason | None = Field(
        description="why an official run does not rank; null for a ranked, guest or practice run"
    )

    @classmethod
    def from_run(cls, run: "Run") -> "RunView":
        """The run as the API shows it to its owner (SPEC §5): the round in play, or nulls once
        completed; the attempts without their stored digests."""
        active = not run.completed
        number = run.round_number if active else None
        current = run.puzzle[number - 1] if number else None
        return cls(
            run_id=run.run_id,
            kind=run.kind,
            date=run.date,
            challenge_id=run.challenge_id,
            status="active" if active else "completed",
            ended_by=run.ended_by,
            official=run.official,
            round=number,
            rounds=len(run.puzzle),
            prompt=current.prompt if current else None,
            forbidden=current.forbidden if current else None,
            attempt=run.attempt_number if active else None,
            attempts_left=ATTEMPTS_PER_ROUND - run.attempt_number + 1 if active else 0,
            score=run.score,
            combo=run.combo,
            best_combo=run.best_combo,
            longest_word_length=run.longest_word_length,
            started_at=run.started_at,
            deadline=run.deadline,
            completed_at=run.completed_at,
            history=[RoundView.model_validate(record, from_attributes=True) for record in run.history],
            ranked=ranked(run),
            unranked_reason=unranked_reason(run),
        )


class AnswerReply(Model):
    accepted: bool
    reason: AnswerReason | None
    points: int = Field(description="including the combo and speed bonuses")
    speed_bonus: int
    run: RunView


class SkipReply(Model):
    run: RunView


class BoardRow(Model):
    rank: int
    display_name: str
    score: int
    best_combo: int
    longest_word_length: int
    words: list[str] | None = Field(description="null while the board is live")
    review: Literal["pending"] | None = Field(
        default=None, description='"pending" while a moderation case about the row is open (SPEC §3e)'
    )

    @classmethod
    def of(cls, row: "Row", pending: frozenset[str] = frozenset()) -> "BoardRow":
        fields = row._asdict()
        return cls(**fields, review="pending" if fields.pop("run_id") in pending else None)


class ChallengeView(Model):
    challenge_id: str
    rounds: int
    forbidden_rounds: int
    time_limit_seconds: int
    created_at: str
    closes_at: str
    open: bool
    status: Literal["live", "closed", "final"] = Field(description="as a Daily board's (SPEC §4)")
    creator_name: str = Field(description="the creator's display name, for 'X challenged you'")
    creator_score: int | None = Field(description="the creator's official score on it; null until they play")
    rows: list[BoardRow]
    next_cursor: str | None
    corrections: str | None = Field(
        default=None, description="a final board's public corrections (its path); null before"
    )

    @classmethod
    def of(
        cls, board: "ChallengeBoard", next_cursor: str | None, pending: frozenset[str] = frozenset()
    ) -> "ChallengeView":
        """PENDING: the board's runs under review (their rows say so)."""
        challenge = board.challenge
        return cls(
            challenge_id=challenge.challenge_id,
            rounds=len(challenge.puzzle),
            forbidden_rounds=sum(1 for r in challenge.puzzle if r.forbidden),
            time_limit_seconds=TIME_LIMIT_SECONDS,
            created_at=challenge.created_at,
            closes_at=challenge.closes_at,
            open=board.open,
            status=status(board.page.closed),
            creator_name=board.creator_name,
            creator_score=board.creator_score,
            rows=[BoardRow.of(row, pending) for row in board.page.rows],
            next_cursor=next_cursor,
        )


class ChallengeSummary(Model):
    challenge_id: str
    rounds: int
    forbidden_rounds: int
    created_at: str
    closes_at: str
    open: bool

    @classmethod
    def of(cls, challenge: "Challenge", now: datetime) -> "ChallengeSummary":
        return cls(
            challenge_id=challenge.challenge_id,
            rounds=len(challenge.puzzle),
            forbidden_rounds=sum(1 for r in challenge.puzzle if r.forbidden),
            created_at=challenge.created_at,
            closes_at=challenge.closes_at,
            open=now < parse_iso(challenge.closes_at),
        )


class MyChallenges(Model):
    items: list[ChallengeSummary] = Field(
        description="the challenges the caller made, newest first (at most 50)"
    )


class ErrorBody(Model):
    code: str = Field(description="stable, machine-readable", examples=["bad_request"])
    message: str = Field(description="for people; never a stack trace or an internal name")


class ErrorReply(Model):
    """Every error (SPEC §5); a 409 about a run carries the run as it now is."""

    error: ErrorBody
    run: RunView | None = Field(default=None, description="the current run (409 on a run only)")
