"""Practice of a past Daily's rounds (SPEC §4a) through the daily function with real API Gateway v2
events: one round's prompt and forbidden letters (a guest or a player), or the rounds a player's official
run missed (read on the server), as a run judged against those rounds; never official, never in
stats; refused while the date is live."""

from datetime import UTC, datetime

import pytest

from functions.daily.handler import handler
from functions.leaderboard.handler import handler as leaderboard_handler
from shared.game import clock
from shared.runtime import wiring
from tests.conftest import Api
from tests.play import good_word, play_out
from tests.services.wired import wired_ports

call = Api(handler)
leaderboard = Api(leaderboard_handler)
TODAY = datetime(2026, 1, 15, 18, tzinfo=UTC)  # noon Central on 15 January
PAST = "2026-01-10"
ON_PAST = datetime(2026, 1, 10, 18, tzinfo=UTC)


@pytest.fixture(params=["fake", "dynamo"])
def store(request):
    """The in-memory stores, or DynamoDB (in-process moto), where a run item names its puzzle by
    its scope and a practice run its rounds in it."""
    clock.travel_to(TODAY)
    with wired_ports(request) as ports:
        yield ports


def puzzle(store):
    return wiring.game().daily_puzzle(PAST)


def official_run(user: str, finish: bool = False) -> None:
    """USER's official run of PAST: every round answered (FINISH), or round 1 answered, round 2
    skipped and the rest never reached before the deadline (the expiry job completes it)."""
    clock.travel_to(ON_PAST)
    run = call("POST", "/daily/runs", user=user)[1]
    if finish:
        play_out(call, run, user)
    else:
        body = {"round": 1, "attempt": run["attempt"], "word": good_word(run)}
        run = call("POST", f"/runs/{run['run_id']}/answers", body, user=user)[1]["run"]
        assert call("POST", f"/runs/{run['run_id']}/skip", {"round": 2}, user=user)[0] == 200
    clock.travel_to(TODAY)
    wiring.game().expire_due_runs()


def test_one_round_is_practised_with_its_prompt_and_forbidden_letters_and_judged_against_them(store):
    status, run, _ = call("POST", f"/guest/daily/{PAST}/practice", {"round": 9})
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


def test_the_missed_rounds_are_read_from_the_official_run_never_official_never_in_stats(store):
    official_run("ann")
    played = leaderboard("GET", "/me", user="ann")[1]["stats"]
    status, run, _ = call("POST", f"/daily/{PAST}/practice", {}, user="ann")
    assert status == 201, run
    assert run["rounds"] == 9 and run["prompt"] == puzzle(store)[1].prompt  # round 2 first
    completed = play_out(call, run)
    assert [r["prompt"] for r in completed["history"]] == [r.prompt for r in puzzle(store)[1:]]
    assert completed["official"] is False
    assert leaderboard("GET", "/me", user="ann")[1]["stats"] == played
    rows = leaderboard("GET", f"/leaderboard/daily/{PAST}")[1]["rows"]
    assert len(rows) <= 1  # only the official run's row, if it ranks


def test_a_player_practises_one_round_and_missed_rounds_need_an_official_run_that_missed_some(store):
    status, run, _ = call("POST", f"/daily/{PAST}/practice", {"round": 4}, user="bob")
    assert status == 201 and run["prompt"] == puzzle(store)[3].prompt and run["official"] is False
    status, reply, _ = call("POST", f"/daily/{PAST}/practice", None, user="bob")
    assert (status, reply["error"]["code"]) == (404, "not_played")
    official_run("cat", finish=True)
    status, reply, _ = call("POST", f"/daily/{PAST}/practice", {}, user="cat")
    assert (status, reply["error"]["code"]) == (409, "nothing_missed")


@pytest.mark.parametrize(
    ("day", "body", "status", "code"),
    [
        ("2026-01-15", {"round": 1}, 409, "daily_is_live"),
        ("2026-01-16", {"round": 1}, 400, "future_date"),
        (PAST, {"round": 11}, 400, None),
        (PAST, {}, 400, None),  # a guest names the round
        (PAST, {"rounds": [1]}, 400, None),
    ],
)
def test_a_live_or_future_date_and_a_round_the_puzzle_lacks_are_refused(store, day, body, status, code):
    got, reply, _ = call("POST", f"/guest/daily/{day}/practice", body)
    assert got == status, reply
    if code:
        assert reply["error"]["code"] == code


def test_a_guest_cannot_ask_for_missed_rounds_on_the_player_route(store):
    status, reply, _ = call("POST", f"/daily/{PAST}/practice", {})
    assert status == 401, reply
