"""The midnight freeze, pure: the capacity window (America/Chicago wall clock) with a margin each
side, and whether a deploy starting at an instant may run. Used by scripts/deploy_window.py
(`make deploy`, the pipeline) and by the stack's own guard (guard.py)."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

CENTRAL = ZoneInfo("America/Chicago")
FREEZE_MARGIN = timedelta(minutes=5)


def _at(day: datetime, hhmm: str) -> datetime:
    hour, minute = (int(part) for part in hhmm.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=CENTRAL)


def freezes(start: str, end: str, now: datetime) -> list[tuple[datetime, datetime]]:
    """The freezes around NOW (yesterday's night, tonight's, tomorrow's) of the window START-END
    (HH:MM Central), widened by FREEZE_MARGIN each side, as UTC instants."""
    today = now.astimezone(CENTRAL)
    found = []
    for offset in (-1, 0, 1):
        day = today + timedelta(days=offset)
        opens = _at(day, start)
        closes = _at(day, end)
        if closes <= opens:  # the window crosses midnight: it ends the next day
            closes = _at(day + timedelta(days=1), end)
        # Compared as instants (UTC): aware datetimes of one zone compare by their wall clock.
        found.append(((opens - FREEZE_MARGIN).astimezone(UTC), (closes + FREEZE_MARGIN).astimezone(UTC)))
    return found


def blocked_until(start: str, end: str, now: datetime, lookahead: timedelta) -> datetime | None:
    """When a deploy starting at NOW and running up to LOOKAHEAD would overlap a freeze: the
    freeze's end (Central); else None."""
    instant = now.astimezone(UTC)
    for opens, closes in freezes(start, end, now):
        if instant < closes and instant + lookahead > opens:
            return closes.astimezone(CENTRAL)
    return None
