"""What a run counts for and whose board it is (SPEC §3, §3a, §4): one Daily date or one challenge.

A plain value of the domain. How a scope is written into storage keys is the DynamoDB adapter's
business (shared/dynamo/keys.py), never the domain's.
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


# A run id names its scope ahead of its random part, so that an answer finds its puzzle without
# reading the run: `d<YYYYMMDD><random>` for a Daily, `c<challenge id><random>` for a challenge.
_RANDOM_LENGTH = 22  # secrets.token_urlsafe(16)
_DATE_LENGTH = 8
_CHALLENGE_ID_LENGTH = 16  # secrets.token_urlsafe(12), as challenges are created


def run_id_in(scope: Scope, random_part: str) -> str:
    """A new run id of SCOPE (only RANDOM_PART for a challenge id of another length)."""
    if scope.kind == "daily":
        return "d" + scope.id.replace("-", "") + random_part
    if len(scope.id) == _CHALLENGE_ID_LENGTH:
        return "c" + scope.id + random_part
    return random_part


def scope_of_run_id(run_id: str) -> Scope | None:
    """The scope a run id names; None for an id that names none (one minted before run ids named
    their scope, say), whose run is then read to find it."""
    head = run_id[: max(0, len(run_id) - _RANDOM_LENGTH)]
    if head[:1] == "d" and len(head) == 1 + _DATE_LENGTH and head[1:].isdigit():
        return Scope.daily(f"{head[1:5]}-{head[5:7]}-{head[7:]}")
    if head[:1] == "c" and len(head) == 1 + _CHALLENGE_ID_LENGTH:
        return Scope.challenge(head[1:])
    return None
