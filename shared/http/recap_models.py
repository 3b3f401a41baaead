"""The JSON of a closed day's recap (SPEC §4a): `GET /daily/{date}/recap` and its player part
`GET /daily/{date}/recap/me`. docs/leaderboards.md, "The day's recap"."""

from typing import Literal

from pydantic import Field

from shared.game.recap import DayRecap, MyRoundWord
from shared.http.models import Model


class WordPlayed(Model):
    word: str
    players: int = Field(description="how many of the day's counted players played it")


class RecapRound(Model):
    round: int
    prompt: str
    forbidden: str = Field(description='3 uppercase letters in a forbidden round, "" in a classic one')
    answered: int = Field(description="counted players who found a word")
    lost_or_skipped: int = Field(
        description="counted players who lost or skipped it (the others ran out of time)"
    )
    lost_or_skipped_share: float = Field(description="lost_or_skipped over the day's counted players, 0-1")
    top_words: list[WordPlayed] = Field(
        description="the words most played (at most 10), the most played first"
    )
    longest_word: str | None = Field(description="the longest word anyone played; null if nobody found one")
    missed_common: list[str] = Field(description="common answers (at most 5) that nobody played")


class Recap(Model):
    """A closed Daily's recap, the same for every caller."""

    date: str
    status: Literal["closed", "final"]
    players: int = Field(description="the players counted: the board's ranked results when it closed")
    rounds: list[RecapRound]

    @classmethod
    def of(cls, recap: DayRecap, status: Literal["closed", "final"]) -> "Recap":
        return cls.model_validate({**recap.model_dump(), "status": status})


class MyRecapRound(Model):
    round: int
    word: str | None = Field(description="the caller's accepted word; null when lost, skipped or not reached")
    others: int | None = Field(description="how many other counted players played the same word")


class MyRecap(Model):
    """The caller's own words in a closed Daily's recap."""

    date: str
    rounds: list[MyRecapRound]

    @classmethod
    def of(cls, day: str, words: list[MyRoundWord]) -> "MyRecap":
        return cls(date=day, rounds=[MyRecapRound.model_validate(w.model_dump()) for w in words])
