"""shared/dynamo/codec.py writes items in DynamoDB JSON by itself (the functions ship botocore, not
boto3): for every value an item holds it writes what boto3's TypeSerializer writes, and refuses what
that refuses, so items read the same whichever wrote them."""

import json
from decimal import Decimal

import pytest
from boto3.dynamodb.types import TypeSerializer
from hypothesis import given
from hypothesis import strategies as st

from shared.dynamo.codec import attribute, attributes

SCALARS = st.one_of(
    st.text(),
    st.integers(min_value=-(10**38) + 1, max_value=10**38 - 1),  # DynamoDB's 38 digits
    st.booleans(),
    st.binary(min_size=1),
    st.none(),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _boto3(value):
    serialized = TypeSerializer().serialize(value)
    if "B" in serialized:  # boto3 wraps bytes in its Binary; botocore takes either
        serialized = {"B": bytes(serialized["B"])}
    return serialized


def _plain(node):
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return bytes(node) if type(node).__name__ == "Binary" else node


@given(VALUES)
def test_every_value_is_written_as_boto3_s_serializer_writes_it(value):
    assert attribute(value) == _plain(_boto3(value))


def test_the_values_items_hold_and_none_left_out():
    assert attributes(run="compact", version=3, gone=None, flags=[True], rounds={"1": "TMR"}) == {
        "run": {"S": "compact"},
        "version": {"N": "3"},
        "flags": {"L": [{"BOOL": True}]},
        "rounds": {"M": {"1": {"S": "TMR"}}},
    }


@pytest.mark.parametrize("value", [1.5, Decimal("1.5"), object(), {1: "a"}])
def test_a_value_of_no_type_an_item_holds_is_refused(value):
    with pytest.raises(TypeError):
        attribute(value)


def test_a_stored_runs_speed_bonus_is_the_one_it_was_scored_with(monkeypatch):
    """The run item keeps each accepted round's speed bonus: a later change of the rule (here, any
    answer worth 999) leaves stored runs as they were scored; a round stored before it was kept
    has it recomputed."""
    from shared.dynamo import codec
    from shared.game.puzzles import Round
    from shared.game.runs import Attempt, RoundRecord, Run

    puzzle = [Round("TMR", ""), Round("DGS", "")]
    history = [
        RoundRecord(
            round=1, prompt="TMR", forbidden="", outcome="accepted", points=5, speed_bonus=7,
            attempts=[Attempt(word="timer", accepted=True, reason=None, elapsed_ms=1_500)],
        ),
        RoundRecord(round=2, prompt="DGS", forbidden="", outcome="skipped", attempts=[]),
    ]  # fmt: skip
    run = Run(
        run_id="r1", kind="daily", date="2026-01-15", player=None, official=False, puzzle=puzzle,
        history=history, started_at="2026-01-15T18:00:00.000Z", deadline="2026-01-15T18:03:00.000Z",
    )  # fmt: skip
    stored = codec.encode_run(run)
    monkeypatch.setattr(codec, "speed_bonus", lambda elapsed_ms: 999)
    assert [r.speed_bonus for r in codec.decode_run("r1", stored, puzzle).history] == [7, 0]
    before = json.loads(stored)
    before["h"][0] = before["h"][0][:3]  # as a round was stored before the bonus was kept
    assert codec.decode_run("r1", json.dumps(before), puzzle).history[0].speed_bonus == 999
