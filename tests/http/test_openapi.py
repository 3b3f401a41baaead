"""The committed OpenAPI document is generated from the code (functions/openapi.py); it must not
drift, and it must say what the handlers enforce (SPEC §5)."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from functions.openapi import document, render
from shared.http.models import RunView
from shared.http.routes import ROUTES

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "openapi.json"


@pytest.fixture(scope="module")
def doc():
    return document()


def test_openapi_json_is_up_to_date_run_make_openapi_if_this_fails():
    assert COMMITTED.read_text() == render()


def test_make_openapi_runs_in_a_shell_without_aws_settings():
    """`make openapi` imports the handlers, which make their DynamoDB client at import (a cold
    start): without a region or table in the environment it still writes the same document."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "TABLE_NAME", "PUZZLE_"))}
    result = subprocess.run(
        [sys.executable, "-m", "functions.openapi"],
        cwd=REPO,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout == COMMITTED.read_text()


def test_shared_never_imports_functions():
    for path in (REPO / "shared").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(name.split(".")[0] == "functions" for name in names), path


def test_openapi_documents_every_route_and_marks_player_routes(doc):
    for route in ROUTES:
        operation = doc["paths"][route.path][route.method.lower()]
        assert ("security" in operation) == (route.access == "player"), route
        assert ("401" in operation["responses"]) == (route.access == "player"), route


def test_the_creating_routes_document_201(doc):
    created = {
        (method.upper(), path)
        for path, item in doc["paths"].items()
        for method, operation in item.items()
        if "201" in operation["responses"]
    }
    assert created == {
        ("POST", "/daily/runs"),
        ("POST", "/guest/daily/runs"),
        ("POST", "/daily/{date}/runs"),
        ("POST", "/guest/daily/{date}/runs"),
        ("POST", "/daily/{date}/practice"),
        ("POST", "/guest/daily/{date}/practice"),
        ("POST", "/leagues"),
        ("POST", "/challenges"),
        ("POST", "/challenges/{challenge_id}/runs"),
        ("POST", "/reports"),
        ("POST", "/guest/reports"),
        ("POST", "/me/appeals"),
    }
    assert "200" not in doc["paths"]["/challenges"]["post"]["responses"]
    assert "200" in doc["paths"]["/daily/runs"]["post"]["responses"]  # the active run, resumed


def test_errors_are_the_envelope_and_a_409_may_carry_the_run(doc):
    answers = doc["paths"]["/runs/{run_id}/answers"]["post"]["responses"]
    for status in ("400", "401", "404", "405", "409", "413", "429"):
        schema = answers[status]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/ErrorReply"}
    envelope = doc["components"]["schemas"]["ErrorReply"]
    assert envelope["required"] == ["error"]
    assert doc["components"]["schemas"]["ErrorBody"]["required"] == ["code", "message"]
    assert "RunView" in json.dumps(envelope["properties"]["run"])


def test_a_body_is_required_exactly_where_the_route_table_says(doc):
    for route in ROUTES:
        body = doc["paths"][route.path][route.method.lower()].get("requestBody")
        assert (body is not None) == (route.body != "none"), route
        if body is not None:
            assert body["required"] == (route.body == "required"), route


def test_the_constraints_the_handlers_enforce_are_in_the_document(doc):
    schemas = doc["components"]["schemas"]
    validate = schemas["ValidateRequest"]["properties"]
    assert validate["prompt"]["pattern"] == "^[A-Za-z]{3}$"
    assert validate["forbidden"]["anyOf"][0]["pattern"] == "^([A-Za-z]{3})?$"
    name = schemas["ProfileRequest"]["properties"]["display_name"]
    assert (name["minLength"], name["maxLength"]) == (3, 20) and name["pattern"].startswith("^")
    answer = schemas["AnswerRequest"]["properties"]
    assert (answer["round"]["type"], answer["round"]["minimum"], answer["round"]["maximum"]) == (
        "integer",
        1,
        10,
    )
    assert (answer["attempt"]["minimum"], answer["attempt"]["maximum"]) == (1, 3)
    challenge = schemas["ChallengeRequest"]["properties"]
    assert (challenge["rounds"]["minimum"], challenge["rounds"]["maximum"]) == (5, 10)
    assert (challenge["forbidden_rounds"]["minimum"], challenge["forbidden_rounds"]["maximum"]) == (0, 3)
    for schema in schemas.values():
        if schema.get("type") == "object" and schema["title"].endswith("Request"):
            assert schema["additionalProperties"] is False, schema["title"]

    def parameter(path, method, name):
        item = doc["paths"][path][method]
        return next(p for p in item["parameters"] if p["name"] == name)["schema"]

    for path in ("/runs/{run_id}", "/guest/runs/{run_id}"):
        assert parameter(path, "get", "run_id")["pattern"] == "^[A-Za-z0-9_-]{8,64}$"
    assert (
        parameter("/challenges/{challenge_id}", "get", "challenge_id")["pattern"] == "^[A-Za-z0-9_-]{8,64}$"
    )
    assert parameter("/leaderboard/daily/{date}", "get", "date")["pattern"] == "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
    assert (
        parameter("/leaderboard/daily/me", "get", "date")["anyOf"][0]["pattern"]
        == "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
    )
    limit = parameter("/leaderboard/daily", "get", "limit")
    assert (limit["minimum"], limit["maximum"], limit["default"]) == (1, 100, 50)


def test_openapi_uses_the_spec_json_names_for_a_run(doc):
    spec_names = [
        "run_id",
        "kind",
        "date",
        "challenge_id",
        "status",
        "ended_by",
        "official",
        "round",
        "rounds",
        "prompt",
        "forbidden",
        "attempt",
        "attempts_left",
        "score",
        "combo",
        "best_combo",
        "longest_word_length",
        "started_at",
        "deadline",
        "completed_at",
        "history",
        "ranked",
        "unranked_reason",
    ]
    assert list(doc["components"]["schemas"]["RunView"]["properties"]) == spec_names
    assert list(RunView.model_fields) == spec_names
    schemas = doc["components"]["schemas"]
    assert list(schemas["AttemptView"]["properties"]) == ["word", "accepted", "reason", "elapsed_ms"]
    assert list(schemas["RoundView"]["properties"])[-2:] == ["points", "speed_bonus"]
    assert list(schemas["AnswerReply"]["properties"]) == [
        "accepted",
        "reason",
        "points",
        "speed_bonus",
        "run",
    ]
