"""The committed OpenAPI document is generated from the code; it must not drift."""

from pathlib import Path

from shared.openapi import document, render
from shared.routes import ROUTES

COMMITTED = Path(__file__).resolve().parents[1] / "openapi.json"


def test_openapi_json_is_up_to_date_run_make_openapi_if_this_fails():
    assert COMMITTED.read_text() == render()


def test_openapi_documents_every_route_and_marks_player_routes():
    paths = document()["paths"]
    for route in ROUTES:
        operation = paths[route.path][route.method.lower()]
        assert ("security" in operation) == (route.access == "player"), route


def test_openapi_uses_the_spec_json_names_for_a_run():
    run = document()["components"]["schemas"]["RunView"]["properties"]
    for name in (
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
    ):
        assert name in run
