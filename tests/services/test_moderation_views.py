"""What the web client's moderation needs from the API (docs/moderation.md, "The moderator's view"):
a player's own row (`/leaderboard/daily/me`) and history say `"review": "pending"` while a case
about their run is open, as the board's row does; on the in-memory stores and on DynamoDB (moto),
through the handlers."""

from collections.abc import Callable

import pytest

from functions.daily.handler import handler as daily_handler
from shared.game import clock
from shared.game.moderation import case_id_for
from shared.game.puzzles import answers
from tests.fakes.fake_boards import DAY, NOON, serve_with
from tests.fakes.fake_store import FakePorts
from tests.services.test_moderation import call, decide, played, report


@pytest.fixture(params=["fake", "dynamo"])
def play(request, monkeypatch, still_clock) -> Callable[[str, str], str]:
    """How a player names themself and completes today's official Daily (returning its run's id):
    on the in-memory fakes (the result recorded as the board tests do), or on DynamoDB (in-process
    moto), played through the daily function."""
    clock.travel_to(NOON)
    if request.param == "dynamo":
        request.getfixturevalue("table")
        return play_daily
    store = FakePorts()
    serve_with(monkeypatch, store)

    def record(user: str, name: str) -> str:
        played(store, user, 900, name)
        return f"run-{user}-{DAY.isoformat()}"

    return record


def play_daily(user: str, name: str) -> str:
    """USER names themself NAME and plays today's Daily through the daily function, a person's
    two seconds an answer; returns the run's id."""
    assert call("PUT", "/me", {"display_name": name}, user=user)[0] == 200
    status, run = call("POST", "/daily/runs", user=user, function=daily_handler)
    assert status == 201, run
    while run["status"] == "active":
        clock.advance(2)
        used = {a["word"] for r in run["history"] for a in r["attempts"] if a["accepted"]}
        word = next(w for w in answers(run["prompt"], run["forbidden"]) if w not in used)
        body = {"round": run["round"], "attempt": run["attempt"], "word": word}
        status, reply = call(
            "POST", f"/runs/{run['run_id']}/answers", body, user=user, function=daily_handler
        )
        assert status == 200, reply
        run = reply["run"]
    return str(run["run_id"])


def test_a_players_own_row_and_history_say_pending_while_a_case_on_their_run_is_open(play):
    run_id = play("zed", "Zed")
    mine = call("GET", "/leaderboard/daily/me", user="zed")[1]
    (item,) = call("GET", "/me/history", user="zed")[1]["items"]
    assert (mine["review"], item["review"]) == (None, None)
    assert report("ann", "run", f"{DAY.isoformat()}:Zed")[0] == 201
    mine = call("GET", "/leaderboard/daily/me", user="zed")[1]
    (item,) = call("GET", "/me/history", user="zed")[1]["items"]
    assert (mine["review"], item["review"]) == ("pending", "pending")
    assert mine["rank"] == 1
    assert decide(case_id_for("run", run_id), "dismiss", "a fast typist")[0] == 200
    mine = call("GET", "/leaderboard/daily/me", user="zed")[1]
    (item,) = call("GET", "/me/history", user="zed")[1]["items"]
    assert (mine["review"], item["review"]) == (None, None)


def test_another_players_open_case_marks_none_of_mine(play):
    play("zed", "Zed")
    play("ann", "Ann")
    assert report("bob", "run", f"{DAY.isoformat()}:Zed")[0] == 201
    assert call("GET", "/leaderboard/daily/me", user="ann")[1]["review"] is None
    (item,) = call("GET", "/me/history", user="ann")[1]["items"]
    assert item["review"] is None
