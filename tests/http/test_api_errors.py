"""SPEC §5 errors through a real handler: a throttled store is 429 and anything unexpected is a
logged 500, each in the envelope, with no trace or internal name reaching the client."""

import json

from botocore.exceptions import ClientError

from functions.daily.handler import handler
from shared.runtime import wiring
from tests.conftest import Api

call = Api(handler)


def _guest_run(table) -> str:
    status, run, _ = call("POST", "/guest/daily/runs")
    assert status == 201, run
    return str(run["run_id"])


def test_a_throttled_store_is_a_429_envelope_not_a_500(table, monkeypatch):
    run_id = _guest_run(table)

    def throttled(**_):
        raise ClientError({"Error": {"Code": "ProvisionedThroughputExceededException"}}, "GetItem")

    monkeypatch.setattr(wiring.ports().client, "get_item", throttled)
    status, body, raw = call("GET", f"/guest/runs/{run_id}")
    assert (status, body["error"]["code"]) == (429, "throttled"), body
    assert set(body["error"]) == {"code", "message"} and raw["headers"]["Content-Type"] == "application/json"


def test_an_unexpected_store_error_is_a_500_envelope_without_details(table, monkeypatch, caplog):
    run_id = _guest_run(table)

    def broken(**_):
        raise ClientError({"Error": {"Code": "InternalServerError", "Message": "secret detail"}}, "GetItem")

    monkeypatch.setattr(wiring.ports().client, "get_item", broken)
    status, body, raw = call("GET", f"/guest/runs/{run_id}")
    assert status == 500 and body == {
        "error": {"code": "internal_error", "message": "Something went wrong on our side"}
    }
    assert "secret detail" not in raw["body"] and "Traceback" not in raw["body"]
    logged = [r for r in caplog.records if r.getMessage() == "Unhandled error"]
    assert logged and logged[0].exc_info and "InternalServerError" in str(logged[0].exc_info[1])  # for us


def test_a_409_carries_the_run_as_the_api_shows_it(table):
    run_id = _guest_run(table)
    status, body, _ = call("POST", f"/guest/runs/{run_id}/answers", {"round": 2, "attempt": 1, "word": "x"})
    assert (status, body["error"]["code"]) == (409, "not_next_slot")
    assert body["run"]["run_id"] == run_id and body["run"]["round"] == 1 and body["run"]["attempt"] == 1
    assert "version" not in body["run"] and "puzzle" not in body["run"]  # storage stays inside
    assert json.dumps(body["run"]) == json.dumps(call("GET", f"/guest/runs/{run_id}")[1])


def test_an_id_that_cannot_be_one_is_404_as_the_document_says(table):
    for path in ("/guest/runs/short", "/guest/runs/has%20space%20inside", "/challenges/x"):
        status, body, _ = call("GET", path)
        assert status == 404 and body["error"]["code"] in ("run_not_found", "challenge_not_found"), body


def test_a_wrong_method_on_a_literal_path_is_405_even_where_a_param_route_matches():
    """`GET /daily/runs` is `POST /daily/runs`'s path, not the past Daily `runs` (SPEC §5: 405)."""
    import importlib

    from local.events import LambdaContext, http_event

    handler = importlib.import_module("functions.daily.handler").handler
    reply = handler(http_event("GET", "/daily/runs", raw_body=""), LambdaContext(aws_request_id="x"))
    assert reply["statusCode"] == 405
    assert json.loads(reply["body"])["error"]["code"] == "method_not_allowed"
    assert reply["headers"]["Allow"] == "POST"
