"""A player's Daily stats (SPEC §5 `GET /me`): played, current and max streak, best score, last
played. A streak is consecutive Daily dates with an official result; the current one still
counts until the date after the last played date ends (America/Chicago)."""

from datetime import UTC, date, datetime, timedelta

import pytest

from functions.leaderboard.handler import handler
from shared.game import clock
from shared.game.clock import iso
from shared.game.daily_date import reset_instant
from shared.game.stats import PlayerStats, with_daily_result
from tests.conftest import Api
from tests.fakes.fake_boards import official, serve_with
from tests.fakes.fake_store import FakePorts, complete_official

call = Api(handler)


def played(*days: str, scores: tuple[int, ...] = ()) -> PlayerStats:
    """Stats after official results on DAYS, in the order given."""
    stats = None
    for i, day in enumerate(days):
        stats = with_daily_result(stats, date.fromisoformat(day), scores[i] if scores else 100)
    return stats or PlayerStats()


def streaks(stats: PlayerStats, today: str) -> tuple[int, int]:
    return stats.current_streak(date.fromisoformat(today)), stats.max_streak


# The rule, on dates -------------------------------------------------------------------------


def test_a_streak_is_consecutive_daily_dates_across_a_month_end():
    stats = played("2026-01-30", "2026-01-31", "2026-02-01")
    assert streaks(stats, "2026-02-01") == (3, 3)
    stats = played("2026-02-27", "2026-02-28", "2026-03-01")  # 2026 is not a leap year
    assert streaks(stats, "2026-03-01") == (3, 3)
    assert streaks(played("2028-02-28", "2028-03-01"), "2028-03-01") == (1, 1)  # 2028-02-29 exists


def test_a_streak_is_consecutive_daily_dates_across_a_year_end():
    stats = played("2026-12-30", "2026-12-31", "2027-01-01")
    assert streaks(stats, "2027-01-01") == (3, 3)
    assert stats.last_played == "2027-01-01"


@pytest.mark.parametrize(
    "days",
    [
        ("2026-03-07", "2026-03-08", "2026-03-09"),  # clocks spring forward on 2026-03-08 (a 23-hour date)
        ("2026-10-31", "2026-11-01", "2026-11-02"),  # and fall back on 2026-11-01 (a 25-hour date)
    ],
)
def test_a_streak_runs_through_both_daylight_saving_changes(days):
    assert streaks(played(*days), days[-1]) == (3, 3)


def test_the_current_streak_counts_until_the_date_after_last_played_ends():
    stats = played("2026-01-14", "2026-01-15")
    assert streaks(stats, "2026-01-15") == (2, 2)
    assert streaks(stats, "2026-01-16") == (2, 2)  # not played yet today: still counts
    assert streaks(stats, "2026-01-17") == (0, 2)  # a whole date missed


def test_a_missed_date_starts_a_new_streak_and_max_streak_remembers_the_longest():
    stats = played("2026-01-01", "2026-01-02", "2026-01-03", "2026-01-05", "2026-01-06")
    assert streaks(stats, "2026-01-06") == (2, 3)
    assert stats.played == 5


def test_a_result_completed_after_the_next_dates_result_joins_both_streaks():
    # A run of the 15th started at 23:59:50 completes at its deadline, after the run of the 16th.
    stats = played("2026-01-13", "2026-01-14", "2026-01-16", "2026-01-15")
    assert streaks(stats, "2026-01-16") == (4, 4)
    assert stats.last_played == "2026-01-16" and stats.played == 4


def test_out_of_order_results_give_the_same_stats_as_in_order():
    days = ["2026-01-10", "2026-01-11", "2026-01-13", "2026-01-14", "2026-01-15"]
    in_order = played(*days, scores=(10, 50, 30, 20, 40))
    swapped = played(*days[:3], days[4], days[3], scores=(10, 50, 30, 40, 20))
    assert swapped == in_order


def test_best_score_is_the_highest_official_daily_score():
    stats = played("2026-01-01", "2026-01-02", "2026-01-03", scores=(120, 450, 300))
    assert stats.best_score == 450 and stats.played == 3


# GET /me --------------------------------------------------------------------------------------


@pytest.fixture
def store(monkeypatch) -> FakePorts:
    fake = FakePorts()
    serve_with(monkeypatch, fake)
    return fake


def complete(store: FakePorts, day: str, score: int = 100, challenge_id: str | None = None) -> None:
    completed = iso(reset_instant(date.fromisoformat(day)) + timedelta(hours=1))
    complete_official(
        store, official("ann", score, completed_at=completed, day=day, challenge_id=challenge_id)
    )


def me() -> dict:
    status, body, _ = call("GET", "/me", user="ann")
    assert status == 200, body
    return body


def test_me_of_a_new_player_has_empty_stats(store):
    clock.travel_to(datetime(2026, 1, 15, 18, tzinfo=UTC))
    body = me()
    assert set(body) == {"display_name", "stats", "sanctions"} and body["sanctions"] == []
    assert body["stats"] == {
        "played": 0,
        "current_streak": 0,
        "max_streak": 0,
        "best_score": None,
        "last_played": None,
        "freezes": 0,
        "covered_dates": [],
    }


def test_me_counts_daily_official_results_only(store):
    clock.travel_to(datetime(2026, 1, 16, 18, tzinfo=UTC))
    complete(store, "2026-01-15", 300)
    complete(store, "2026-01-16", 200)
    complete(store, "2026-01-16", 999, challenge_id="a-challenge")

    assert me()["stats"] == {
        "played": 2,
        "current_streak": 2,
        "max_streak": 2,
        "best_score": 300,
        "last_played": "2026-01-16",
        "freezes": 0,
        "covered_dates": [],
    }


@pytest.mark.parametrize(
    "last_played, next_reset_utc",
    [
        ("2026-03-07", datetime(2026, 3, 9, 5, tzinfo=UTC)),  # the 8th is 23 hours: CDT from 02:00
        ("2026-10-31", datetime(2026, 11, 2, 6, tzinfo=UTC)),  # the 1st is 25 hours: CST from 02:00
        ("2026-12-31", datetime(2027, 1, 2, 6, tzinfo=UTC)),
    ],
)
def test_the_current_streak_ends_when_the_date_after_last_played_ends_in_central_time(
    store, last_played, next_reset_utc
):
    complete(store, last_played)

    # The clock runs on after travel_to: a second's margin, not a millisecond, keeps this exact
    # on a loaded machine.
    clock.travel_to(next_reset_utc - timedelta(seconds=1))
    assert me()["stats"]["current_streak"] == 1
    clock.travel_to(next_reset_utc)
    assert me()["stats"]["current_streak"] == 0
    assert me()["stats"]["max_streak"] == 1


# Streak freezes (SPEC §5) -------------------------------------------------------------------


def consecutive(first: str, count: int) -> list[str]:
    start = date.fromisoformat(first)
    return [(start + timedelta(days=i)).isoformat() for i in range(count)]


def test_a_freeze_is_earned_at_10_consecutive_dailies_played():
    assert played(*consecutive("2026-01-01", 9)).freezes == 0
    assert played(*consecutive("2026-01-01", 10)).freezes == 1


def test_freezes_are_capped_at_2_held():
    assert played(*consecutive("2026-01-01", 20)).freezes == 2
    assert played(*consecutive("2026-01-01", 30)).freezes == 2


def test_a_freeze_is_spent_on_a_gap_of_one_day_and_the_streak_goes_on():
    days = consecutive("2026-01-01", 10)  # earns one
    stats = played(*days, "2026-01-12")  # the 11th missed
    assert stats.freezes == 0 and stats.covered == ["2026-01-11"]
    assert streaks(stats, "2026-01-12") == (12, 12)  # the covered date joins the streak
    assert stats.played == 11


def test_no_freeze_is_spent_on_a_gap_of_three_days_and_the_streak_ends():
    stats = played(*consecutive("2026-01-01", 20), "2026-01-24")  # 21st-23rd missed, 2 held
    assert stats.freezes == 2 and stats.covered == []
    assert streaks(stats, "2026-01-24") == (1, 20)


def test_a_gap_of_two_days_spends_two_freezes_when_two_are_held_and_one_is_not_enough():
    two = played(*consecutive("2026-01-01", 20), "2026-01-23")
    assert two.freezes == 0 and two.covered == ["2026-01-21", "2026-01-22"]
    assert streaks(two, "2026-01-23") == (23, 23)
    one = played(*consecutive("2026-01-01", 10), "2026-01-13")  # 11th and 12th missed, 1 held
    assert one.freezes == 1 and one.covered == [] and streaks(one, "2026-01-13") == (1, 10)


@pytest.mark.parametrize(
    ("first", "missed"),
    [
        ("2026-02-26", "2026-03-08"),  # clocks spring forward on 2026-03-08 (a 23-hour date)
        ("2026-10-22", "2026-11-01"),  # and fall back on 2026-11-01 (a 25-hour date)
    ],
)
def test_a_missed_day_across_both_daylight_saving_changes_is_covered_by_a_freeze(first, missed):
    days = consecutive(first, 10)
    after = (date.fromisoformat(missed) + timedelta(days=1)).isoformat()
    assert (date.fromisoformat(missed) - date.fromisoformat(days[-1])).days == 1
    stats = played(*days, after)
    assert stats.covered == [missed] and streaks(stats, after) == (12, 12)
    # Until that result, the streak still counts on the date after the missed one.
    assert streaks(played(*days), after) == (10, 10)


def test_the_streak_counts_while_held_freezes_could_cover_the_dates_missed_so_far():
    stats = played(*consecutive("2026-01-01", 10))  # one held, last played the 10th
    assert streaks(stats, "2026-01-12") == (10, 10)  # the 11th missed: one freeze covers it
    assert streaks(stats, "2026-01-13") == (0, 10)  # two missed, one held


def test_a_late_result_for_a_covered_date_gives_its_freeze_back():
    days = consecutive("2026-01-01", 10)
    stats = played(*days, "2026-01-12", "2026-01-11")  # the 11th's run completed last
    assert stats.freezes == 1 and stats.covered == []
    assert streaks(stats, "2026-01-12") == (12, 12) and stats.played == 12


def test_me_shows_the_freezes_held_and_the_dates_they_covered(store):
    for day in consecutive("2026-01-01", 10):
        complete(store, day)
    clock.travel_to(datetime(2026, 1, 12, 18, tzinfo=UTC))  # the 11th missed, one freeze held
    stats = me()["stats"]
    assert (stats["freezes"], stats["covered_dates"], stats["current_streak"]) == (1, [], 10)
    complete(store, "2026-01-12")
    stats = me()["stats"]
    assert (stats["freezes"], stats["covered_dates"], stats["current_streak"]) == (0, ["2026-01-11"], 12)
