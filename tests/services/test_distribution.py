"""How good a result was (SPEC §4a): a Daily board's score histogram in bands of 100, its ranked
players, and the caller's band, percentile and ladder step, through real API Gateway v2 events on
the in-memory fake and on DynamoDB alike."""

from datetime import timedelta

import pytest

from functions.leaderboard.handler import handler
from shared.game.constants import LADDER, MAX_SCORE
from shared.game.standing import Standing, ladder_step, percentile
from tests.conftest import Api
from tests.fakes.fake_boards import DAY, completion, official
from tests.fakes.fake_store import complete_official
from tests.services.test_boards import close_day

call = Api(handler)


def record(store, name: str, score: int, combo: int = 0, longest: int = 6, **kw) -> None:
    complete_official(
        store, official(name, score, combo, longest, completed_at=completion(5), day=DAY.isoformat(), **kw)
    )


def distribution(day=DAY) -> tuple[int, dict, dict]:
    return call("GET", f"/leaderboard/daily/{day.isoformat()}/distribution")


# Ten players: 1999, 1950 twice (tied), 1900, 1210, 1205, 640, 90, 40, 0; and an unranked bot.
BOARD = [("a", 1999), ("b", 1950), ("c", 1950), ("d", 1900), ("e", 1210), ("f", 1205), ("g", 640)]
BOARD += [("h", 90), ("i", 40), ("j", 0)]


def test_the_distribution_is_the_ranked_players_per_band_of_100(store):
    for name, score in BOARD:
        record(store, name, score)
    record(store, "bot", 2085, 10, 12, unranked_reason="implausible_speed")

    status, body, headers = distribution()
    assert status == 200, body
    assert body["players"] == 10 and body["band_points"] == 100
    assert len(body["bands"]) == MAX_SCORE // 100 + 1
    assert {band: n for band, n in enumerate(body["bands"]) if n} == {19: 4, 12: 2, 6: 1, 0: 3}
    assert body["ladder"] == [{"name": name, "percentile": least} for name, least in LADDER]
    assert headers["headers"]["Cache-Control"] == "public, max-age=5"
    assert body["status"] == "live"


def test_my_rank_says_my_band_percentile_and_ladder_step(store):
    for name, score in BOARD:
        record(store, name, score)

    expected = {  # better than: the players strictly below, of 10
        "a": (19, 90, "Brilliant"),
        "b": (19, 70, "Great"),  # tied with c: beats neither c nor a
        "d": (19, 60, "Great"),
        "g": (6, 30, "Solid"),
        "j": (0, 0, "Good start"),
    }
    for name, (band, percent, step) in expected.items():
        status, body, _ = call("GET", "/leaderboard/daily/me", user=name, query={"date": DAY.isoformat()})
        assert status == 200, body
        assert (body["band"], body["percentile"], body["step"], body["players"]) == (band, percent, step, 10)


def test_an_empty_day_has_no_players_and_every_band_empty(store):
    status, body, _ = distribution(DAY - timedelta(days=3))
    assert status == 200 and body["players"] == 0 and set(body["bands"]) == {0}


def test_a_closed_day_is_cached_a_minute_as_its_board_while_a_decision_may_still_move_it(store):
    record(store, "a", 300)
    close_day(store)
    status, body, headers = distribution()
    assert status == 200 and body["status"] == "closed" and body["players"] == 1
    assert headers["headers"]["Cache-Control"] == "public, max-age=60"  # the review window (SPEC §4)


@pytest.mark.parametrize("day", ["2026-13-01", "yesterday", "2026-01-16"])
def test_a_bad_or_future_date_is_400(store, day):
    status, body, _ = call("GET", f"/leaderboard/daily/{day}/distribution")
    assert status == 400 and set(body) == {"error"}


@pytest.mark.parametrize(
    ("percent", "step"),
    [(0, "Good start"), (24, "Good start"), (25, "Solid"), (49, "Solid"), (50, "Great"), (75, "Excellent")]
    + [(89, "Excellent"), (90, "Brilliant"), (98, "Brilliant"), (99, "Top 1%")],
)
def test_the_ladder_steps_at_25_50_75_90_and_99_percent(percent, step):
    assert ladder_step(percent) == step


def test_a_result_not_yet_counted_counts_itself_in_the_players_it_is_compared_with():
    assert percentile(Standing({}, 0, 0)) == 0
    assert percentile(Standing({3: 4}, 1, 0)) == 60  # 4 counted, and me: 3 of 5 below


def test_a_read_between_two_counter_updates_never_gives_a_rank_past_the_board_or_a_negative_percentile():
    # The stream consumer updates the counters one item after another: here the result ranked
    # above mine is in the better count but not yet in its band (the rush saw this as a 500).
    from shared.game.standing import players_with_own

    torn = Standing(bands={5: 1}, better=2, equal=1)
    assert players_with_own(torn) == 3  # rank 3 of 3, not of 1
    assert percentile(torn) == 0 and ladder_step(percentile(torn)) == "Good start"
