"""The one source of "now" for the game, so tests and `make run` can move time without sleeping."""

from datetime import UTC, datetime, timedelta

_offset = timedelta(0)


def now() -> datetime:
    """The current instant, timezone-aware in UTC (shifted by any offset a test or `make run` set)."""
    return datetime.now(UTC) + _offset


def advance(seconds: float) -> None:
    """Move the game clock forward (used by tests and the local server's clock control)."""
    global _offset
    _offset += timedelta(seconds=seconds)


def travel_to(instant: datetime) -> None:
    """Make `now()` read INSTANT (then run on from there)."""
    global _offset
    _offset = instant - datetime.now(UTC)


def reset() -> None:
    """Undo every `advance`."""
    global _offset
    _offset = timedelta(0)


def iso(instant: datetime) -> str:
    """An instant as the API writes it: ISO 8601 UTC with milliseconds, e.g. 2026-11-29T06:00:00.000Z."""
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{instant.microsecond // 1000:03d}Z"


def parse_iso(text: str) -> datetime:
    """The inverse of `iso`."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
