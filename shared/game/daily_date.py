"""The Daily date: America/Chicago's calendar date, and the instant it next resets; a Daily date's
details as `GET /daily` and `GET /daily/{date}` show them."""

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

from shared.game.errors import BadRequest

CENTRAL = ZoneInfo("America/Chicago")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_date(day: str) -> date:
    """DAY as a date, if it is one spelled YYYY-MM-DD; otherwise BadRequest `invalid_date`."""
    try:
        if not _ISO_DATE.fullmatch(day):
            raise ValueError(day)
        return date.fromisoformat(day)
    except ValueError as error:
        raise BadRequest("A date is YYYY-MM-DD", "invalid_date") from error


def daily_date(instant: datetime) -> date:
    """The Daily date is the calendar date in America/Chicago; it changes at 00:00 Central."""
    return instant.astimezone(CENTRAL).date()


def reset_instant(day: date) -> datetime:
    """The UTC instant at which `day` starts in Central time (06:00 UTC in winter, 05:00 in summer)."""
    return datetime.combine(day, time(0), tzinfo=CENTRAL).astimezone(UTC)


def next_reset(instant: datetime) -> datetime:
    """When the Daily date in effect at `instant` ends: the next 00:00 Central, in UTC."""
    return reset_instant(daily_date(instant) + timedelta(days=1))


class DailyDetails(NamedTuple):
    """A Daily date: its puzzle's size and time limit, whether it is today's (live: played as the
    Daily; a past one is played as practice), when the live Daily next resets, and the
    deployment's first Daily date."""

    day: date
    rounds: int
    time_limit_seconds: int
    live: bool
    resets_at: datetime
    first_date: date
