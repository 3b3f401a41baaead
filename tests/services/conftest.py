"""The store the service tests serve from, unless a module defines its own `store`."""

from collections.abc import Iterator

import pytest

from tests.fakes.dynamo_store import STORES
from tests.fakes.fake_store import FakePorts, served_store


@pytest.fixture(params=STORES)
def store(request, monkeypatch) -> Iterator[FakePorts]:
    """The store the handler serves from: each test runs on the in-memory fake and on DynamoDB."""
    with served_store(request.param, monkeypatch) as served:
        yield served
