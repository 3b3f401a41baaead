"""What must hold of a run for an answer or a skip to be recorded (SPEC §3), as values.

One definition that three checks derive from: the rules' own (shared/game/runs.py: its conflicts and
`already_used`), the DynamoDB write's condition (shared/dynamo/run_conditions.py) and the in-memory
fake's (tests/fakes/fake_store.py). tests/dynamo/test_preconditions.py checks that the three agree.
"""

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Literal, NamedTuple

# A run's facts a write depends on (shared/game/runs.py `facts_of`): its player (None: a guest),
# whether that player is admitted (not erased, not banned), whether it is in play (not completed),
# its deadline, the round and attempt in play, and the words it accepted.
Fact = Literal["owner", "admitted", "in_play", "deadline", "round", "attempt", "accepted_words"]
# `is`: the fact equals the value; `after`: the fact is later than the value; `excludes`: the
# value is not among the fact's values.
Test = Literal["is", "after", "excludes"]


class Precondition(NamedTuple):
    fact: Fact
    test: Test
    value: object


def slot_preconditions(
    player: str | None, round_number: int, attempt_number: int | None, now: datetime
) -> list[Precondition]:
    """What a write to the slot (ROUND_NUMBER, ATTEMPT_NUMBER) at NOW needs, in the order the rules
    explain a refusal: the run is PLAYER's and PLAYER is admitted; it is in play (not completed, its
    deadline after NOW); the slot is the one in play (a skip, ATTEMPT_NUMBER None: any attempt)."""
    preconditions = [
        Precondition("owner", "is", player),
        Precondition("admitted", "is", True),
        Precondition("in_play", "is", True),
        Precondition("deadline", "after", now),
        Precondition("round", "is", round_number),
    ]
    if attempt_number is not None:
        preconditions.append(Precondition("attempt", "is", attempt_number))
    return preconditions


def unused(word: str) -> Precondition:
    """An accepted word is recorded as accepted only if the run has not accepted it before."""
    return Precondition("accepted_words", "excludes", word)


def answer_preconditions(
    player: str | None, round_number: int, attempt_number: int, word: str, accepted: bool, now: datetime
) -> list[Precondition]:
    """What recording WORD (ACCEPTED by SPEC §2, or not) in the slot at NOW needs."""
    preconditions = slot_preconditions(player, round_number, attempt_number, now)
    return [*preconditions, unused(word)] if accepted else preconditions


def holds(precondition: Precondition, facts: Mapping[Fact, object]) -> bool:
    fact, value = facts[precondition.fact], precondition.value
    if precondition.test == "is":
        return fact == value
    if precondition.test == "after":
        return isinstance(fact, datetime) and isinstance(value, datetime) and fact > value
    return isinstance(fact, set) and value not in fact


def refusal(preconditions: Iterable[Precondition], facts: Mapping[Fact, object]) -> Precondition | None:
    """The first of PRECONDITIONS that FACTS fail; None: the write may be recorded."""
    return next((p for p in preconditions if not holds(p, facts)), None)
