"""The domain's preconditions of a run write (shared/game/preconditions.py) as a DynamoDB condition
on the run item, which keeps each fact as `run_item` (shared/dynamo/runs.py) writes it."""

from collections.abc import Iterable
from datetime import datetime

from shared.dynamo import keys
from shared.dynamo.client import Item
from shared.dynamo.tombstone import STOPPED_AT
from shared.game.clock import iso
from shared.game.preconditions import Precondition


def condition_of(preconditions: Iterable[Precondition]) -> tuple[str, Item]:
    """The ConditionExpression that holds when PRECONDITIONS all do, and its values (`:c0`...)."""
    parts, values = [], {}
    for number, precondition in enumerate(preconditions):
        part, value = _condition(precondition, f":c{number}")
        parts.append(part)
        values.update(value)
    return " AND ".join(parts), values


def _condition(precondition: Precondition, name: str) -> tuple[str, Item]:
    match precondition:
        case ("owner", "is", None):  # a guest's run has no `runs` index keys
            return "attribute_not_exists(runs_pk)", {}
        case ("owner", "is", str(player)):
            return f"runs_pk = {name}", {name: {"S": keys.runs_partition(player)}}
        case ("admitted", "is", True):  # an erasure or a ban marks its player's runs in play
            return f"attribute_not_exists({STOPPED_AT})", {}
        case ("in_play", "is", True):  # a completed run's item has no next slot
            return "attribute_exists(nr)", {}
        case ("deadline", "after", datetime() as now):
            return f"dl > {name}", {name: {"S": iso(now)}}  # ISO 8601 strings sort as their instants
        case ("round", "is", int(number)):
            return f"nr = {name}", {name: {"N": str(number)}}
        case ("attempt", "is", int(number)):
            return f"na = {name}", {name: {"N": str(number)}}
        case ("accepted_words", "excludes", str(word)):  # those of the last whole write, and the tail's
            return f"NOT contains(used, {name}) AND NOT contains(tl, {name})", {name: {"S": word}}
    raise ValueError(f"No condition on a run item for {precondition}")
