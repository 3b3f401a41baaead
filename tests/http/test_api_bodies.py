"""SPEC §5: a request with an empty or undecodable body is 400, whatever its Content-Type.

Every body-taking route of shared/http/routes.py goes through its own Lambda handler with a real API
Gateway v2 event (local/events.py), for each Content-Type a client may send. Never a 500.
"""

import importlib
import json

import pytest

from local.events import LambdaContext, http_event
from shared.http.routes import HANDLERS, ROUTES, Route
from tests.conftest import player_claims

CONTENT_TYPES = ["text/plain", "multipart/form-data", "APPLICATION/JSON", None]
REQUIRED = [route for route in ROUTES if route.body == "required"]
OPTIONAL = [route for route in ROUTES if route.body == "optional"]
PATH_VALUES = {
    "run_id": "AAAAAAAAAAAAAAAA",
    "case_id": "0" * 24,
    "challenge_id": "AAAAAAAAAAAAAAAA",
    "date": "2026-11-29",
    "league_id": "AAAAAAAAAAAAAAAA",
    "player": "AAAAAAAAAAAAAAAA",
}


def _call(route: Route, content_type: str | None, raw_body: str | bytes) -> tuple[int, dict]:
    path = route.path.format(**PATH_VALUES)
    claims = player_claims("bodies") if route.access == "player" else None
    event = http_event(route.method, path, raw_body=raw_body, claims=claims)
    event["headers"].pop("content-type")
    if content_type is not None:
        event["headers"]["content-type"] = content_type
    module, _, name = HANDLERS[route.function].partition(":")
    handler = getattr(importlib.import_module(module), name)
    reply = handler(event, LambdaContext(aws_request_id="bodies"))
    assert reply["headers"]["Content-Type"] == "application/json"
    return reply["statusCode"], json.loads(reply["body"])


def _route_id(route: Route) -> str:
    return f"{route.method} {route.path}"


def test_the_body_taking_routes_are_the_ones_the_spec_lists():
    assert {_route_id(r) for r in REQUIRED} == {
        "POST /validate",
        "POST /guest/daily/{date}/practice",
        "POST /runs/{run_id}/answers",
        "POST /runs/{run_id}/skip",
        "POST /guest/runs/{run_id}/answers",
        "POST /guest/runs/{run_id}/skip",
        "PUT /me",
        "PUT /me/reminder",
        "POST /leagues",
        "POST /leagues/join",
        "POST /reports",
        "POST /guest/reports",
        "POST /moderation/cases/{case_id}/decision",
        "POST /me/appeals",
    }
    assert {_route_id(r) for r in OPTIONAL} == {"POST /challenges", "POST /daily/{date}/practice"}


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
@pytest.mark.parametrize("route", REQUIRED, ids=_route_id)
def test_an_empty_body_is_400_whatever_the_content_type(route, content_type):
    status, body = _call(route, content_type, "")
    assert status == 400, body
    assert body == {"error": {"code": "bad_request", "message": "A JSON body is required"}}


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
@pytest.mark.parametrize("route", REQUIRED + OPTIONAL, ids=_route_id)
@pytest.mark.parametrize(
    "raw",
    ["{not json", b"\xff\xfe{}", "[" * 3000, '{"round": NaN}', '{"rounds": -Infinity}'],
    ids=["not-json", "not-utf8", "deep", "nan", "infinity"],
)
def test_an_undecodable_body_is_400_whatever_the_content_type(route, content_type, raw):
    status, body = _call(route, content_type, raw)
    assert status == 400, body
    assert body == {"error": {"code": "bad_request", "message": "The body is not UTF-8 JSON"}}


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
def test_an_empty_body_on_post_challenges_takes_the_defaults_whatever_the_content_type(table, content_type):
    # POST /challenges's body is optional: no body means 10 rounds, 3 of them forbidden (SPEC §3a).
    status, body = _call(next(r for r in OPTIONAL if r.path == "/challenges"), content_type, "")
    assert status == 201, body
    assert (body["rounds"], body["forbidden_rounds"]) == (10, 3)


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
def test_a_json_body_is_read_as_json_whatever_the_content_type(content_type):
    route = next(r for r in REQUIRED if r.path == "/validate")
    status, body = _call(route, content_type, json.dumps({"prompt": "TMR", "word": "timer"}))
    assert (status, body) == (200, {"valid": True, "word": "timer", "reason": None})


def test_a_missing_token_is_401_before_the_body_is_looked_at():
    route = next(r for r in REQUIRED if r.access == "player")
    event = http_event(route.method, route.path.format(**PATH_VALUES), raw_body="")
    module, _, name = HANDLERS[route.function].partition(":")
    reply = getattr(importlib.import_module(module), name)(event, LambdaContext(aws_request_id="x"))
    assert reply["statusCode"] == 401


@pytest.mark.parametrize("sub", ["x" * 3000, "sub-ann", "6F1C7C1E-5B1A-4C55-9A51-1D2F0E0F7A2B", "", 7])
def test_a_validly_signed_token_whose_sub_is_not_a_cognito_id_is_401_on_every_player_route(sub):
    """A Cognito `sub` (and a `make run` token's) is a lowercase UUID; any other is no player's."""
    for route in (r for r in ROUTES if r.access == "player"):
        claims = {"sub": sub, "cognito:username": "ann", "token_use": "id"}
        event = http_event(route.method, route.path.format(**PATH_VALUES), raw_body="{}", claims=claims)
        module, _, name = HANDLERS[route.function].partition(":")
        reply = getattr(importlib.import_module(module), name)(event, LambdaContext(aws_request_id="x"))
        assert reply["statusCode"] == 401, (route.path, reply)
        assert json.loads(reply["body"])["error"]["code"] == "unauthorized"


def test_an_integer_written_2_0_is_the_integer_2_as_json_schema_says(table):
    from functions.daily.handler import handler
    from tests.conftest import Api

    call = Api(handler)
    run = call("POST", "/guest/daily/runs")[1]
    status, reply, _ = call(
        "POST", f"/guest/runs/{run['run_id']}/answers", {"round": 1.0, "attempt": 1.0, "word": "zzz"}
    )
    assert status == 200 and reply["run"]["attempt"] == 2, reply
    for bad in ({"round": 1.5}, {"round": "1"}, {"round": True}):
        status, reply, _ = call("POST", f"/guest/runs/{run['run_id']}/skip", bad)
        assert status == 400, (bad, reply)


@pytest.mark.parametrize("route", REQUIRED + OPTIONAL, ids=_route_id)
@pytest.mark.parametrize("raw", ["[null, null]", '[{"prompt": "TMR", "word": "timer"}]', "null", "5", '"x"'])
def test_a_body_that_is_not_a_json_object_is_400(route, raw):
    # Powertools alone would take the first item of an array as the body (form-data semantics).
    status, body = _call(route, "application/json", raw)
    assert (status, body["error"]["code"]) == (400, "bad_request"), body
