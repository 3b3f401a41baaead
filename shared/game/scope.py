"""What a run counts for and whose board it is (SPEC §3, §3a, §4): one Daily date or one challenge.

A plain value of the domain. How a scope is written into storage keys is the DynamoDB adapter's
business (shared/dynamo/store.py), never the domain's.
"""

from typing import Literal, NamedTuple


class Scope(NamedTuple):
    kind: Literal["daily", "challenge"]
    id: str  # the Daily date (YYYY-MM-DD) or the challenge id

    @classmethod
    def daily(cls, day: str) -> "Scope":
        return cls("daily", day)

    @classmethod
    def challenge(cls, challenge_id: str) -> "Scope":
        return cls("challenge", challenge_id)

    @classmethod
    def of(cls, day: str, challenge_id: str | None = None) -> "Scope":
        """A challenge's scope if CHALLENGE_ID is given, else the Daily of DAY."""
        return cls.challenge(challenge_id) if challenge_id else cls.daily(day)
