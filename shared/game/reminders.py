"""Reminders (SPEC §4a): the rules of an opt-in daily push, with no storage and no transport.

A player picks an hour before midnight Central; their reminder goes out in one of the hour's
first SPREAD_MINUTES minutes (the same one every day, from their id), so that a popular hour is
spread over ten minutes of sends. Each send minute's subscriptions are held over SHARDS
partitions (docs/data-model.md, "Reminders"), a player's by their id.

A reminder is sent only if the day's Daily is unplayed, at most once a day, and never again
after IGNORED_LIMIT in a row were ignored (a send after which that day's Daily was not played)."""

import hashlib
from dataclasses import dataclass
from enum import Enum

SHARDS = 16
SPREAD_MINUTES = 10
IGNORED_LIMIT = 7
LAST_HOUR = 23  # 23:00-23:09 Central is the latest: before midnight, when the Daily changes


def _digest(player: str) -> int:
    return int.from_bytes(hashlib.sha256(player.encode()).digest()[:8], "big")


def shard_of(player: str) -> int:
    return _digest(player) % SHARDS


def send_minute(player: str, hour: int) -> int:
    """The minute of the Central day (0-1439) PLAYER's reminder at HOUR goes out."""
    if not 0 <= hour <= LAST_HOUR:
        raise ValueError(f"hour must be 0 to {LAST_HOUR}")
    return hour * 60 + (_digest(player) >> 8) % SPREAD_MINUTES


@dataclass(frozen=True)
class Reminder:
    """One player's subscription (the Web Push endpoint and its two keys) and its record: the
    last day a reminder was sent and how many sends in a row were ignored."""

    player: str
    endpoint: str
    p256dh: str
    auth: str
    hour: int
    last_sent: str | None = None  # a Daily date (Central)
    ignored: int = 0


class Step(Enum):
    SEND = "send"
    SKIP = "skip"  # already sent today, or today's Daily is played
    STOP = "stop"  # IGNORED_LIMIT reminders in a row were ignored: the subscription ends


def next_step(reminder: Reminder, today: str, played_today: bool, played_last_sent: bool) -> tuple[Step, int]:
    """What to do with REMINDER on TODAY, and its ignored count from now on. PLAYED_LAST_SENT:
    whether the Daily of the last send's day was played (after it: a send needs it unplayed)."""
    if reminder.last_sent == today or played_today:
        return Step.SKIP, reminder.ignored
    ignored = 0 if reminder.last_sent is None or played_last_sent else reminder.ignored + 1
    if ignored >= IGNORED_LIMIT:
        return Step.STOP, ignored
    return Step.SEND, ignored
