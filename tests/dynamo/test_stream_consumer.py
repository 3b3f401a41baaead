"""The stream consumer's batch (functions/leaderboard/counters.py) on Powertools' documented
BatchProcessor: one count for the whole batch, one follow per renamed player, and a partial batch
response that fails exactly the records whose step failed (Lambda delivers them again). COUNT and
FOLLOW are stand-ins here; the consumer over DynamoDB is in tests/contract/test_board_store.py."""

from typing import Any

import pytest

from functions.leaderboard.counters import count_stream_batch
from shared.dynamo.codec import official_item
from shared.dynamo.keys import BOARD_SHARDS
from shared.game.results import OfficialResult
from tests.fakes.fake_boards import official, player

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

DAY = "2026-01-15"


def inserted(result: OfficialResult, sequence: int) -> dict[str, Any]:
    item = official_item(result, None, BOARD_SHARDS)
    keys = {"pk": item["pk"], "sk": item["sk"]}
    return record("INSERT", keys, sequence, item)


def renamed(name: str, sequence: int) -> dict[str, Any]:
    keys = {"pk": {"S": f"PLAYER#{player(name)}"}, "sk": {"S": "RENAME"}}
    return record("MODIFY", keys, sequence, keys)


def other(sequence: int) -> dict[str, Any]:
    keys = {"pk": {"S": "RUN#r1"}, "sk": {"S": "RUN"}}
    return record("MODIFY", keys, sequence, keys)


def record(event: str, keys: dict, sequence: int, image: dict) -> dict[str, Any]:
    return {
        "eventID": str(sequence),
        "eventName": event,
        "eventSource": "aws:dynamodb",
        "dynamodb": {"Keys": keys, "NewImage": image, "SequenceNumber": str(sequence)},
    }


class Steps:
    """COUNT and FOLLOW, recording their calls; each fails for what is in `failing`."""

    def __init__(self, failing: frozenset[str] = frozenset()):
        self.failing = failing
        self.counted: list[list[str]] = []
        self.followed: list[str] = []

    def count(self, results: list[OfficialResult]) -> int:
        self.counted.append([r.player for r in results])
        if "count" in self.failing:
            raise RuntimeError("counting failed")
        return len(results)

    def follow(self, who: str) -> int:
        self.followed.append(who)
        if who in self.failing:
            raise RuntimeError("following failed")
        return 1


def failed(reply: dict[str, Any]) -> list[str]:
    return [failure["itemIdentifier"] for failure in reply["batchItemFailures"]]


def results(*names: str) -> list[OfficialResult]:
    return [official(n, 100, completed_at=f"{DAY}T06:00:00.000Z", day=DAY) for n in names]


def test_a_batch_is_counted_in_one_call_and_each_renamed_player_followed_once():
    ann, bob = results("ann", "bob")
    event = {"Records": [inserted(ann, 1), renamed("cy", 2), other(3), inserted(bob, 4), renamed("cy", 5)]}
    steps = Steps()

    reply = count_stream_batch(event, None, steps.count, steps.follow)

    assert failed(reply) == []
    assert steps.counted == [[ann.player, bob.player]]
    assert steps.followed == [player("cy")]


def test_a_count_that_fails_fails_every_result_record_and_no_other():
    ann, bob = results("ann", "bob")
    event = {"Records": [inserted(ann, 1), renamed("cy", 2), other(3), inserted(bob, 4)]}
    steps = Steps(frozenset({"count"}))

    reply = count_stream_batch(event, None, steps.count, steps.follow)

    assert failed(reply) == ["1", "4"]
    assert steps.followed == [player("cy")], "the renames are followed all the same"


def test_a_follow_that_fails_fails_that_players_rename_records_only():
    (ann,) = results("ann")
    event = {"Records": [renamed("cy", 1), inserted(ann, 2), renamed("dee", 3), renamed("cy", 4)]}
    steps = Steps(frozenset({player("cy")}))

    reply = count_stream_batch(event, None, steps.count, steps.follow)

    assert failed(reply) == ["1", "4"]
    assert steps.followed == [player("cy"), player("dee")]


def test_a_record_that_cannot_be_read_fails_alone():
    (ann,) = results("ann")
    broken = inserted(ann, 2)
    broken["dynamodb"]["NewImage"]["data"] = {"S": "{not json"}
    event = {"Records": [inserted(ann, 1), broken, renamed("cy", 3)]}
    steps = Steps()

    reply = count_stream_batch(event, None, steps.count, steps.follow)

    assert failed(reply) == ["2"]
    assert steps.counted == [[ann.player]]


def test_a_batch_with_nothing_to_count_calls_nothing():
    steps = Steps()

    reply = count_stream_batch({"Records": [other(1)]}, None, steps.count, steps.follow)

    assert failed(reply) == []
    assert steps.counted == [] and steps.followed == []
