"""Practice of a past Daily's rounds (SPEC §4a) through the daily function with real API Gateway v2
events: one round's prompt and forbidden letters, or a player's missed rounds, as a run judged
against those rounds; never official, never in stats; refused while the date is live."""

from datetime import UTC, datetime

import pytest

from functions.daily.handler import handler
from functions.leaderboard.handler import handler as leaderboard_handler
from shared.game import clock
from shared.runtime import wiring
from tests.conftest import Api
from tests.fakes.fake_store import FakePorts
from tests.play import play_out

call = Api(handler)
leaderboard = Api(leaderboard_handler)
TODAY = datetime(2026, 1, 15, 18, tzinfo=UTC)  # noon Central on 15 January
PAST = "2026-01-10"


@pytest.fixture(params=["fake", "dynamo"])
def store(request):
    """The in-memory stores, or DynamoDB (in-process moto), where a run item names its puzzle by
    its scope and a practice run its rounds in it."""
    clock.travel_to(TODAY)
    if request.param == "dynamo":
        request.getfixturevalue("table")
        yield wiring.ports()
        return
    fake = FakePorts()
    wiring.reset(fake)
    yield fake
    wiring.reset()


def puzzle(store):
    return wiring.game().daily_puzzle(PAST)


def test_one_round_is_practised_with_its_prompt_and_forbidden_letters_and_judged_against_them(store):
    status, run, _ = call("POST", f"/daily/{PAST}/practice", {"rounds": [9]})
    assert status == 201
    nine = puzzle(store)[8]
    assert (run["rounds"], run["round"], run["prompt"], run["forbidden"]) == (
        1,
        1,
        nine.prompt,
        nine.forbidden,
    )
    assert len(run["forbidden"]) == 3 and run["official"] is False and run["ranked"] is False
    completed = play_out(call, run)  # its one round, answered with a word of round 9 (guest routes)
    assert completed["status"] == "completed" and completed["history"][0]["outcome"] == "accepted"
    assert completed["history"][0]["prompt"] == nine.prompt


def test_the_missed_rounds_in_the_puzzles_order_never_official_never_in_stats(store):
    status, run, _ = call("POST", f"/daily/{PAST}/practice", {"rounds": [7, 2, 7]}, user="ann")
    assert status == 201 and run["rounds"] == 2 and run["prompt"] == puzzle(store)[1].prompt
    completed = play_out(call, run)
    assert [r["prompt"] for r in completed["history"]] == [puzzle(store)[1].prompt, puzzle(store)[6].prompt]
    assert completed["official"] is False
    stats = leaderboard("GET", "/me", user="ann")[1]["stats"]
    assert stats["played"] == 0 and stats["current_streak"] == 0
    assert leaderboard("GET", f"/leaderboard/daily/{PAST}")[1]["rows"] == []


@pytest.mark.parametrize(
    ("day", "body", "status", "code"),
    [
        ("2026-01-15", {"rounds": [1]}, 409, "daily_is_live"),
        ("2026-01-16", {"rounds": [1]}, 400, "future_date"),
        (PAST, {"rounds": [11]}, 400, None),
        (PAST, {"rounds": []}, 400, None),
        (PAST, {"round": 1}, 400, None),
    ],
)
def test_a_live_or_future_date_and_a_round_the_puzzle_lacks_are_refused(store, day, body, status, code):
    got, reply, _ = call("POST", f"/daily/{day}/practice", body)
    assert got == status, reply
    if code:
        assert reply["error"]["code"] == code
