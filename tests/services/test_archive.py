"""Past Dailies (SPEC §3d, §5) through the daily function with real API Gateway v2 events: a past
date's details, practice runs of it by players and guests, never official, never on a board or in
stats, one active run per player per date, refused while the date is live or in the future."""

from datetime import UTC, datetime, timedelta

import pytest

from functions.daily.handler import handler
from functions.leaderboard.handler import handler as leaderboard_handler
from shared.game import clock
from shared.game.constants import DEFAULT_FIRST_DAILY_DATE
from shared.runtime import wiring
from shared.services.game import Game
from tests.conftest import Api
from tests.fakes.fake_store import FakePorts
from tests.play import play_out

call = Api(handler)
leaderboard = Api(leaderboard_handler)
TODAY = datetime(2026, 1, 15, 18, tzinfo=UTC)  # noon Central on 15 January
PAST = "2026-01-10"


@pytest.fixture(autouse=True)
def store(monkeypatch):
    fake = FakePorts()
    wiring.reset(fake)
    clock.travel_to(TODAY)
    yield fake
    wiring.reset()


def start(day: str, user: str | None = "ann") -> tuple[int, dict]:
    path = f"/daily/{day}/runs" if user else f"/guest/daily/{day}/runs"
    status, body, _ = call("POST", path, user=user)
    return status, body


def test_a_past_daily_tells_its_date_rounds_and_that_it_is_played_as_practice():
    status, body, _ = call("GET", f"/daily/{PAST}")
    assert status == 200
    assert body == {
        "date": PAST,
        "rounds": 10,
        "time_limit_seconds": 180,
        "status": "closed",
        "first_date": DEFAULT_FIRST_DAILY_DATE.isoformat(),
        "practice": True,
    }
    assert call("GET", "/daily/2026-01-15")[1]["practice"] is False


def test_a_past_dailys_details_are_cached_a_day_and_todays_never_past_the_reset():
    assert call("GET", f"/daily/{PAST}")[2]["headers"]["Cache-Control"] == "public, max-age=86400"
    today = call("GET", "/daily/2026-01-15")[2]["headers"]["Cache-Control"]
    assert today == "public, max-age=60"


def test_an_archive_run_plays_the_same_puzzle_as_that_dates_daily(store):
    game = Game(store.runs, store.results, lambda: b"test-seed", lambda: set())
    status, run = start(PAST)
    assert status == 201 and run["date"] == PAST and run["kind"] == "daily"
    assert run["prompt"] == game.daily_puzzle(PAST)[0].prompt


def test_an_archive_run_is_never_official_never_on_a_board_nor_in_stats(store):
    status, run = start(PAST)
    assert run["official"] is False
    completed = play_out(call, run, user="ann")
    assert completed["status"] == "completed" and completed["official"] is False and completed["score"] > 0
    assert store.table.results == {} and store.table.stats == {}
    status, body, _ = leaderboard("GET", f"/leaderboard/daily/{PAST}")
    assert status == 200 and body["rows"] == []
    assert leaderboard("GET", "/me", user="ann")[1]["stats"]["played"] == 0


def test_an_archive_run_after_the_official_one_of_that_date_is_practice_too(store):
    clock.travel_to(datetime(2026, 1, 10, 18, tzinfo=UTC))
    status, official_run, _ = call("POST", "/daily/runs", user="ann")
    play_out(call, official_run, user="ann")
    clock.travel_to(TODAY)
    status, run = start(PAST)
    assert status == 201 and run["official"] is False
    play_out(call, run, user="ann")
    assert [r.run_id for r in store.table.results.values()] == [official_run["run_id"]]


def test_one_active_archive_run_per_player_per_date():
    first = start(PAST)[1]
    status, again = start(PAST)
    assert status == 200 and again["run_id"] == first["run_id"]
    status, other = start("2026-01-11")
    assert status == 201 and other["run_id"] != first["run_id"]


def test_a_guest_plays_a_past_daily_too():
    status, run = start(PAST, user=None)
    assert status == 201 and run["official"] is False
    assert play_out(call, run)["status"] == "completed"


@pytest.mark.parametrize("user", ["ann", None])
def test_an_archive_run_is_refused_for_a_live_date_with_409_daily_is_live(user):
    status, body = start("2026-01-15", user)
    assert status == 409 and body["error"]["code"] == "daily_is_live"


def test_an_archive_run_of_yesterday_is_played_from_the_reset_on():
    clock.travel_to(datetime(2026, 1, 16, 5, 59, tzinfo=UTC))  # 23:59 Central on 15 January
    assert start("2026-01-15")[0] == 409
    clock.travel_to(datetime(2026, 1, 16, 6, 0, 1, tzinfo=UTC))  # just after the reset
    assert start("2026-01-15")[0] == 201


@pytest.mark.parametrize("user", ["ann", None])
def test_an_archive_run_for_a_future_date_is_400(user):
    status, body = start("2026-01-16", user)
    assert status == 400 and body["error"]["code"] == "future_date"
    assert call("GET", "/daily/2026-01-16")[0] == 400


def test_a_date_before_the_deployments_first_daily_is_404(monkeypatch):
    before = (DEFAULT_FIRST_DAILY_DATE - timedelta(days=1)).isoformat()
    status, body = start(before)
    assert status == 404 and body["error"]["code"] == "daily_not_found"
    assert call("GET", f"/daily/{before}")[0] == 404


def test_the_first_date_is_the_first_daily_date_setting(monkeypatch, store):
    monkeypatch.setenv("FIRST_DAILY_DATE", "2026-01-12")
    wiring.reset(store)
    try:
        assert start(PAST)[0] == 404
        assert start("2026-01-12")[0] == 201
        assert call("GET", "/daily/2026-01-12")[1]["first_date"] == "2026-01-12"
    finally:
        monkeypatch.delenv("FIRST_DAILY_DATE")
        wiring.reset(store)


@pytest.mark.parametrize("day", ["2026-1-10", "2026-02-30", "yesterday"])
def test_a_malformed_date_is_400(day):
    assert start(day)[0] == 400
    assert call("GET", f"/daily/{day}")[0] == 400


def test_get_of_the_daily_runs_path_is_405_not_a_malformed_date():
    status, body, reply = call("GET", "/daily/runs")
    assert status == 405 and body["error"]["code"] == "method_not_allowed"
    assert reply["headers"]["Allow"] == "POST"
