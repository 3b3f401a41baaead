"""The ports the wiring serves a test, by its `fake` or `dynamo` param."""

import contextlib
from collections.abc import Iterator

import pytest

from shared.runtime import wiring
from tests.fakes.fake_store import FakePorts


@contextlib.contextmanager
def wired_ports(request: pytest.FixtureRequest) -> Iterator:
    """DynamoDB on in-process moto (`dynamo`: the `table` fixture's fresh wiring) or the in-memory
    fakes (`fake`), wired for the handlers while the test runs."""
    if request.param == "dynamo":
        request.getfixturevalue("table")
        yield wiring.ports()
        return
    fake = FakePorts()
    wiring.reset(fake)
    yield fake
    wiring.reset()
