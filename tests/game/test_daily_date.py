"""SPEC §3: the Daily date is America/Chicago's calendar date, across both 2026 DST changes."""

from datetime import UTC, date, datetime

import pytest

from shared.game.daily_date import daily_date, next_reset, reset_instant


def utc(*args):
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("instant", "expected"),
    [
        # Winter (CST, UTC-6): midnight Central is 06:00 UTC
        (utc(2026, 3, 7, 5, 59, 59), date(2026, 3, 6)),  # 23:59:59 CST on 6 March
        (utc(2026, 3, 7, 6, 0, 0), date(2026, 3, 7)),  # 00:00:00 CST on 7 March
        # The spring change is at 02:00 CST on 8 March; 8 March starts at 06:00 UTC (still CST)
        (utc(2026, 3, 8, 5, 59, 59), date(2026, 3, 7)),
        (utc(2026, 3, 8, 6, 0, 0), date(2026, 3, 8)),
        # Summer (CDT, UTC-5): 9 March starts at 05:00 UTC
        (utc(2026, 3, 9, 4, 59, 59), date(2026, 3, 8)),
        (utc(2026, 3, 9, 5, 0, 0), date(2026, 3, 9)),
        # The autumn change is at 02:00 CDT on 1 November; 1 November starts at 05:00 UTC (CDT)
        (utc(2026, 11, 1, 4, 59, 59), date(2026, 10, 31)),
        (utc(2026, 11, 1, 5, 0, 0), date(2026, 11, 1)),
        # Back in winter: 2 November starts at 06:00 UTC
        (utc(2026, 11, 2, 5, 59, 59), date(2026, 11, 1)),
        (utc(2026, 11, 2, 6, 0, 0), date(2026, 11, 2)),
    ],
)
def test_daily_date_is_the_calendar_date_in_america_chicago(instant, expected):
    assert daily_date(instant) == expected


def test_reset_is_06_utc_in_winter_and_05_utc_in_summer():
    assert reset_instant(date(2026, 1, 15)) == utc(2026, 1, 15, 6)
    assert reset_instant(date(2026, 7, 15)) == utc(2026, 7, 15, 5)


def test_next_reset_across_the_spring_change():
    # During 7 March (CST) the next reset is 8 March 00:00 CST = 06:00 UTC
    assert next_reset(utc(2026, 3, 7, 12)) == utc(2026, 3, 8, 6)
    # During 8 March (the 23-hour day) the next reset is 9 March 00:00 CDT = 05:00 UTC
    assert next_reset(utc(2026, 3, 8, 12)) == utc(2026, 3, 9, 5)
    assert (utc(2026, 3, 9, 5) - utc(2026, 3, 8, 6)).total_seconds() == 23 * 3600


def test_next_reset_across_the_autumn_change():
    assert next_reset(utc(2026, 10, 31, 12)) == utc(2026, 11, 1, 5)
    # 1 November is a 25-hour day
    assert next_reset(utc(2026, 11, 1, 12)) == utc(2026, 11, 2, 6)
    assert (utc(2026, 11, 2, 6) - utc(2026, 11, 1, 5)).total_seconds() == 25 * 3600


def test_no_fixed_offset_the_same_utc_hour_falls_on_different_dates_by_season():
    # 05:30 UTC is 23:30 the day before in winter, 00:30 the same day in summer
    assert daily_date(utc(2026, 1, 10, 5, 30)) == date(2026, 1, 9)
    assert daily_date(utc(2026, 7, 10, 5, 30)) == date(2026, 7, 10)
