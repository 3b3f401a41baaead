"""The request of `POST /daily/{date}/practice` (SPEC §4a): the past Daily's rounds to practise."""

from typing import Annotated

from pydantic import Field

from shared.game.constants import DAILY_ROUNDS
from shared.http.models import JsonInt, Request

RoundNumber = Annotated[JsonInt, Field(ge=1, le=DAILY_ROUNDS)]


class PracticeRequest(Request):
    rounds: list[RoundNumber] = Field(
        min_length=1,
        max_length=DAILY_ROUNDS,
        description="the rounds to practise (1-based; a repeat counts once): one round, or those missed",
        examples=[[3], [2, 5, 9]],
    )
