"""Request and reply models of the HTTP API (SPEC §5): the JSON names web clients code against."""

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator, model_validator

from shared.constants import (
    ATTEMPTS_PER_ROUND,
    CHALLENGE_DEFAULT_FORBIDDEN_ROUNDS,
    CHALLENGE_DEFAULT_ROUNDS,
    CHALLENGE_MAX_FORBIDDEN_ROUNDS,
    CHALLENGE_MAX_ROUNDS,
    CHALLENGE_MIN_ROUNDS,
)
from shared.rules import Reason

_THREE_LETTERS = re.compile(r"[A-Za-z]{3}")


class Request(BaseModel):
    """Base of every request body: unknown fields are refused, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


def _three_letters(value: str, what: str) -> str:
    if not _THREE_LETTERS.fullmatch(value):
        raise ValueError(f"{what} must be 3 letters A-Z")
    return value.upper()


class ValidateRequest(Request):
    prompt: StrictStr = Field(description="3 letters A-Z, case-insensitive", examples=["TMR"])
    word: StrictStr = Field(description="the submission, judged as sent (no trimming)")
    forbidden: StrictStr | None = Field(
        default=None, description="3 letters A-Z not in the prompt (forbidden mode)", examples=["AEO"]
    )

    @field_validator("prompt")
    @classmethod
    def _prompt(cls, value: str) -> str:
        return _three_letters(value, "prompt")

    @field_validator("forbidden")
    @classmethod
    def _forbidden(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        value = _three_letters(value, "forbidden")
        if len(set(value)) != 3:
            raise ValueError("forbidden letters must be 3 different letters")
        return value

    @model_validator(mode="after")
    def _disjoint(self) -> "ValidateRequest":
        if self.forbidden and set(self.forbidden) & set(self.prompt):
            raise ValueError("forbidden letters may not be in the prompt")
        return self


class ValidateReply(BaseModel):
    valid: bool
    word: str
    reason: Reason | None


class AnswerRequest(Request):
    round: int = Field(ge=1, le=CHALLENGE_MAX_ROUNDS, strict=True)
    attempt: int = Field(ge=1, le=ATTEMPTS_PER_ROUND, strict=True)
    word: StrictStr


class SkipRequest(Request):
    round: int = Field(ge=1, le=CHALLENGE_MAX_ROUNDS, strict=True)


class ChallengeRequest(Request):
    rounds: int = Field(
        default=CHALLENGE_DEFAULT_ROUNDS, ge=CHALLENGE_MIN_ROUNDS, le=CHALLENGE_MAX_ROUNDS, strict=True
    )
    forbidden_rounds: int = Field(
        default=CHALLENGE_DEFAULT_FORBIDDEN_ROUNDS, ge=0, le=CHALLENGE_MAX_FORBIDDEN_ROUNDS, strict=True
    )


class ProfileRequest(Request):
    display_name: StrictStr


# Replies ----------------------------------------------------------------------------------


class DailyInfo(BaseModel):
    date: str = Field(examples=["2026-11-29"])
    rounds: int
    time_limit_seconds: int
    status: Literal["live", "closed"]
    resets_at: str = Field(examples=["2026-11-30T06:00:00.000Z"])


class AttemptView(BaseModel):
    word: str
    accepted: bool
    reason: Reason | None


class RoundView(BaseModel):
    round: int
    prompt: str
    forbidden: str = Field(description='3 uppercase letters in a forbidden round, "" in a classic one')
    attempts: list[AttemptView]
    outcome: Literal["accepted", "lost", "skipped"] | None = Field(
        description="null while the round is open (or was open when the run expired)"
    )
    points: int


class RunView(BaseModel):
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


class AnswerReply(BaseModel):
    accepted: bool
    reason: Reason | None
    points: int
    run: RunView


class SkipReply(BaseModel):
    run: RunView


class BoardRow(BaseModel):
    rank: int
    display_name: str
    score: int
    best_combo: int
    longest_word_length: int
    words: list[str] | None = Field(description="null while the board is live")


class BoardPage(BaseModel):
    date: str
    status: Literal["live", "closed"]
    rows: list[BoardRow]
    next_cursor: str | None


class MyRank(BoardRow):
    date: str
    status: Literal["live", "closed"]


class ChallengeView(BaseModel):
    challenge_id: str
    rounds: int
    forbidden_rounds: int
    time_limit_seconds: int
    created_at: str
    closes_at: str
    open: bool
    status: Literal["live", "closed"]
    rows: list[BoardRow]
    next_cursor: str | None


class Profile(BaseModel):
    display_name: str


class HistoryItem(BaseModel):
    kind: Literal["daily", "challenge"]
    date: str
    challenge_id: str | None
    score: int
    best_combo: int
    longest_word_length: int
    completed_at: str
    rank: int | None


class HistoryPage(BaseModel):
    items: list[HistoryItem]
    next_cursor: str | None


# Player stats and the caller's profile (SPEC §5 `GET /me`) --------------------------------------


class StatsView(BaseModel):
    played: int = Field(description="Daily dates with an official result")
    current_streak: int = Field(
        description="consecutive Daily dates played up to the last one; counts until the date after it ends"
    )
    max_streak: int
    best_score: int | None = Field(description="null until the first official Daily result")
    last_played: str | None = Field(description="the last Daily date played (YYYY-MM-DD)")


class Me(BaseModel):
    display_name: str
    stats: StatsView
