"""The ports a contract runs against, unless a module defines its own `store`."""

import pytest

from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from tests.fakes.fake_store import FakePorts


@pytest.fixture(params=["fake", "dynamo"])
def store(request):
    """Empty ports: the in-memory fakes, or the adapters on a fresh in-process moto table."""
    if request.param == "fake":
        return FakePorts()
    return dynamo_ports(request.getfixturevalue("table"), board_shards=BOARD_SHARDS)
