"""SPEC §6, the edge in front: requests must come through CloudFront (and so WAF). The stack gives
CloudFront and the API functions one secret; CloudFront sends it as a header, and the API refuses a
request without it, so the HTTP API's own execute-api address answers nothing but 403
(docs/edge.md). Unset, as under `make run` and in the other tests, nothing is checked."""

import pytest

from functions.leaderboard.handler import handler as leaderboard
from functions.validate.handler import handler as validate
from shared.http.routes import ORIGIN_HEADER
from shared.runtime import wiring
from shared.runtime.edge_settings import ORIGIN_SECRET_VARIABLE
from tests.conftest import Api

SECRET = "s3cret-value-from-secrets-manager-0123456789"


@pytest.fixture
def behind_the_edge(monkeypatch):
    monkeypatch.setenv(ORIGIN_SECRET_VARIABLE, SECRET)
    wiring.reset()  # a container started with it
    yield
    monkeypatch.delenv(ORIGIN_SECRET_VARIABLE)
    wiring.reset()


@pytest.mark.parametrize("sent", [None, "", "wrong", SECRET[:-1], SECRET + "x", SECRET.upper()])
def test_a_request_without_the_edges_secret_is_403_in_the_envelope(behind_the_edge, sent):
    headers = {ORIGIN_HEADER: sent} if sent is not None else {}
    status, body, raw = Api(validate)(
        "POST", "/validate", {"word": "TIMER", "prompt": "TMR"}, headers=headers
    )
    assert (status, body["error"]["code"]) == (403, "forbidden"), body
    assert raw["headers"]["Content-Type"] == "application/json"
    assert SECRET not in raw["body"]


def test_the_secret_is_checked_before_anything_else_a_player_route_or_a_body_would_answer(behind_the_edge):
    """No 401 and no 413 tell the direct caller anything about the routes behind."""
    status, body, _ = Api(leaderboard)("GET", "/leaderboard/daily/me")
    assert (status, body["error"]["code"]) == (403, "forbidden")
    status, body, _ = Api(validate)("POST", "/validate", raw_body="x" * 10_000)
    assert (status, body["error"]["code"]) == (403, "forbidden")


def test_a_request_through_the_edge_is_served_as_before(behind_the_edge):
    status, body, _ = Api(validate)(
        "POST", "/validate", {"word": "TIMER", "prompt": "TMR"}, headers={ORIGIN_HEADER: SECRET}
    )
    assert status == 200 and body["valid"] is True, body


def test_without_a_configured_secret_nothing_is_checked(monkeypatch):
    monkeypatch.delenv(ORIGIN_SECRET_VARIABLE, raising=False)
    wiring.reset()
    status, body, _ = Api(validate)("POST", "/validate", {"word": "TIMER", "prompt": "TMR"})
    assert status == 200 and body["valid"] is True, body
