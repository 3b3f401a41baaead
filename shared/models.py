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
    reason: Literal["empty", "too_long", "not_letters", "letter_order", "forbidden_letter", "not_a_word"] | None


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
