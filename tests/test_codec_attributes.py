"""shared/dynamo/codec.py writes items in DynamoDB JSON by itself (the functions ship botocore, not
boto3): for every value an item holds it writes what boto3's TypeSerializer writes, and refuses what
that refuses, so items read the same whichever wrote them."""

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
