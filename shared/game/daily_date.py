"""The Daily date: America/Chicago's calendar date, and the instant it next resets."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

CENTRAL = ZoneInfo("America/Chicago")


def daily_date(instant: datetime) -> date:
    """The Daily date is the calendar date in America/Chicago; it changes at 00:00 Central."""
    return instant.astimezone(CENTRAL).date()


def reset_instant(day: date) -> datetime:
    """The UTC instant at which `day` starts in Central time (06:00 UTC in winter, 05:00 in summer)."""
    return datetime.combine(day, time(0), tzinfo=CENTRAL).astimezone(UTC)


def next_reset(instant: datetime) -> datetime:
    """When the Daily date in effect at `instant` ends: the next 00:00 Central, in UTC."""
    return reset_instant(daily_date(instant) + timedelta(days=1))
