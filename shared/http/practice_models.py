"""The requests of `POST /daily/{date}/practice` and its guest twin (SPEC §4a): one round of a
past Daily, or (a player only, an empty body) the rounds their official run of that date missed."""

from typing import Annotated

from pydantic import Field

from shared.game.constants import DAILY_ROUNDS
from shared.http.models import JsonInt, Request

RoundNumber = Annotated[JsonInt, Field(ge=1, le=DAILY_ROUNDS)]


class PracticeRequest(Request):
    round: RoundNumber | None = Field(
        default=None,
        description="the round to practise (1-based); left out, the rounds the caller's official run "
        "of that date lost, skipped or never reached",
        examples=[3],
    )


class GuestPracticeRequest(Request):
    round: RoundNumber = Field(description="the round to practise (1-based)", examples=[3])


NO_ROUND = PracticeRequest()
