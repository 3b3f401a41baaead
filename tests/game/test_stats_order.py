"""Streaks by date, whatever the arrival order (issue 54): the same official Daily results, in
any order they arrive, give the same stats (streaks, freezes, maxima), in the domain and on both
stores (the fake and DynamoDB on in-process moto)."""

import itertools
import os
from collections.abc import Iterator
from datetime import date, timedelta

import boto3
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from moto import mock_aws

from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.dynamo.table import create_table_request
from shared.game.clock import iso
from shared.game.daily_date import reset_instant
from shared.game.stats import SETTLE_AFTER, PlayerStats, with_daily_result
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import FakePorts, complete_official

FIRST = date(2026, 1, 1)


def arrived(days: list[date], scores: dict[date, int] | None = None) -> PlayerStats:
    """Stats after official results on DAYS, in the order given."""
    stats = None
    for day in days:
        stats = with_daily_result(stats, day, (scores or {}).get(day, 100))
    assert stats is not None
    return stats


def shown(stats: PlayerStats) -> tuple:
    return (stats.played, stats.best_score, stats.max_streak, stats.streaks, stats.freezes, stats.covered)


def test_the_issues_pattern_a_late_result_for_the_day_before_keeps_the_frozen_streak():
    # Days 1-10 played, the 11th missed, the 12th's result arriving after the 13th's.
    days = [FIRST + timedelta(days=i) for i in range(10)]
    twelfth, thirteenth = FIRST + timedelta(days=11), FIRST + timedelta(days=12)
    stats = arrived([*days, thirteenth, twelfth])
    assert stats.current_streak(thirteenth) == 13 and stats.covered == ["2026-01-11"]
    assert stats.freezes == 0 and stats.max_streak == 13
    assert stats == arrived([*days, twelfth, thirteenth])


# Any order of dates within SETTLE_AFTER days of each other: the whole record is the same.
played_within_the_window = st.lists(
    st.integers(0, SETTLE_AFTER), min_size=1, max_size=SETTLE_AFTER, unique=True
)


@settings(max_examples=300, deadline=None)
@given(
    played_within_the_window.flatmap(lambda offsets: st.tuples(st.just(offsets), st.permutations(offsets)))
)
def test_any_arrival_order_gives_the_stats_of_date_order(offsets_and_order):
    offsets, order = offsets_and_order
    scores = {FIRST + timedelta(days=o): 10 * o for o in offsets}
    in_date_order = arrived(sorted(scores), scores)
    assert arrived([FIRST + timedelta(days=o) for o in order], scores) == in_date_order


# Longer histories, each result up to 30 days late (a result is at most one day late): the same.
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 150), st.integers(0, SETTLE_AFTER - 1)), min_size=1, max_size=90),
)
def test_results_arriving_late_give_the_stats_of_date_order_over_long_histories(played_and_late):
    lateness = dict(played_and_late)  # one result per date
    order = sorted(lateness, key=lambda o: (o + lateness[o], o))
    in_date_order = arrived([FIRST + timedelta(days=o) for o in sorted(lateness)])
    assert arrived([FIRST + timedelta(days=o) for o in order]) == in_date_order


def test_a_record_written_before_the_settled_dates_goes_on_from_its_fields():
    # The layout before: the shown fields only, as a record of ten dates played in a row holds.
    old = PlayerStats.model_validate(
        {"played": 10, "best_score": 100, "max_streak": 10, "streaks": [("2026-01-01", "2026-01-10")]}
        | {"freezes": 1, "covered": [], "earned_in_streak": 1}
    )
    stats = with_daily_result(old, date(2026, 1, 12), 100)  # the 11th missed: the freeze covers it
    assert shown(stats) == (11, 100, 12, [("2026-01-01", "2026-01-12")], 0, ["2026-01-11"])
    assert stats.played_in_streak == 11


# Both stores -----------------------------------------------------------------------------------

players = (f"order-{i}" for i in itertools.count())


@pytest.fixture(scope="module", params=["fake", "dynamo"])
def store(request) -> Iterator[object]:
    if request.param == "fake":
        yield FakePorts()
        return
    with mock_aws():
        table = os.environ["TABLE_NAME"]
        boto3.client("dynamodb").create_table(**create_table_request(table))
        yield dynamo_ports(table, board_shards=BOARD_SHARDS)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(0, SETTLE_AFTER), min_size=1, max_size=16, unique=True).flatmap(st.permutations))
def test_both_stores_keep_the_stats_of_date_order_whatever_the_arrival_order(store, order):
    name = next(players)  # a new player for each example: the module's store holds them all
    for offset in order:
        day = (FIRST + timedelta(days=offset)).isoformat()
        completed_at = iso(reset_instant(date.fromisoformat(day)) + timedelta(hours=1))
        complete_official(store, official(name, 10 * offset, completed_at=completed_at, day=day))

    stats = store.boards.player_profile(player(name)).stats

    scores = {FIRST + timedelta(days=o): 10 * o for o in order}
    assert stats == arrived(sorted(scores), scores)
