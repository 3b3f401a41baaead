"""A data store that cannot be reached, or that answers it cannot serve (make run's store once
its disk is full, #39), is 503 `store_unavailable` on every route, never 500 `internal_error`:
botocore's connection errors are mapped in one place, shared/dynamo/client.py's Client.request."""

import botocore.client
import pytest
from botocore.exceptions import ClientError, ConnectionClosedError, EndpointConnectionError, ReadTimeoutError

from functions.daily.handler import handler as daily_handler
from functions.leaderboard.handler import handler as leaderboard_handler
from shared.dynamo.client import Client, DataError
from shared.game.errors import StoreUnavailable
from tests.conftest import Api

ENDPOINT = "http://127.0.0.1:9"
DOWN = [
    EndpointConnectionError(endpoint_url=ENDPOINT),
    ConnectionClosedError(endpoint_url=ENDPOINT),
    ReadTimeoutError(endpoint_url=ENDPOINT),
    ClientError({"Error": {"Code": "ServiceUnavailable", "Message": "x"}}, "PutItem"),
]


class Boto:
    def __init__(self, error: Exception):
        self.error = error

    def get_item(self, **kwargs):
        raise self.error


@pytest.mark.parametrize("error", DOWN, ids=lambda e: type(e).__name__)
def test_a_store_that_is_down_is_store_unavailable(error):
    with pytest.raises(StoreUnavailable) as raised:
        Client("wordsqd", Boto(error)).get({"pk": {"S": "a"}, "sk": {"S": "b"}})
    assert raised.value.code == "store_unavailable"


def test_any_other_refusal_is_still_a_data_error():
    error = ClientError({"Error": {"Code": "ValidationException", "Message": "x"}}, "GetItem")
    with pytest.raises(DataError):
        Client("wordsqd", Boto(error)).get({"pk": {"S": "a"}, "sk": {"S": "b"}})


@pytest.mark.parametrize("error", DOWN, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize(
    ("handler", "method", "path", "body", "user"),
    [
        (daily_handler, "POST", "/daily/runs", None, "ann"),
        (daily_handler, "POST", "/guest/daily/runs", None, None),
        (leaderboard_handler, "GET", "/me", None, "ann"),
        (leaderboard_handler, "PUT", "/me", {"display_name": "Ann"}, "ann"),
        (leaderboard_handler, "GET", "/leaderboard/daily", None, None),
    ],
)
def test_every_request_while_the_store_is_down_is_503_store_unavailable_not_500(
    table, monkeypatch, error, handler, method, path, body, user
):
    def down(self, operation, params):
        raise error

    monkeypatch.setattr(botocore.client.BaseClient, "_make_api_call", down)
    status, reply, _ = Api(handler)(method, path, body, user=user)
    assert status == 503, reply
    assert reply["error"]["code"] == "store_unavailable"
