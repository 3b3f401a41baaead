"""Reminders (SPEC §4a): `PUT /me/reminder` and `DELETE /me/reminder`, and the two jobs that send
them: every minute the scan reads that minute's subscriptions (one query per shard) and puts them
on a queue in batches; the sender takes a batch and applies the rules (shared/game/reminders.py)
to each: sent only if the day's Daily is unplayed, at most once a day, stopped after seven ignored.
docs/players.md, "Reminders", has the whole path."""

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict
from datetime import datetime
from enum import Enum
from typing import Protocol

from shared.game import clock
from shared.game.daily_date import CENTRAL, daily_date
from shared.game.reminders import SHARDS, Reminder, Step, next_step
from shared.game.scope import Scope
from shared.services.ports import ResultStore, RunStore

BATCH = 50  # reminders per queue message: one sender invocation's pushes


class ReminderStore(Protocol):
    """Where subscriptions are held (shared/dynamo/reminders.py)."""

    def put_reminder(self, reminder: Reminder) -> None:
        """Hold REMINDER (at its send minute), replacing the player's own, whose last send it keeps
        (a new subscription never sends twice a day); AccountErased once the erasure began."""
        ...

    def reminder(self, player: str) -> Reminder | None: ...

    def delete_reminder(self, player: str) -> bool:
        """Remove PLAYER's reminder; whether there was one. Idempotent."""
        ...

    def due(self, minute: int, shard: int) -> Iterator[Reminder]:
        """The reminders of send minute MINUTE in shard SHARD (one query, paged)."""
        ...

    def record_send(self, reminder: Reminder, day: str, ignored: int) -> bool:
        """Mark REMINDER sent on DAY with IGNORED, if its record is still the one read (so a
        batch delivered twice sends once); whether it was."""
        ...


class ReminderQueue(Protocol):
    def send(self, day: str, batch: Sequence[Reminder]) -> None: ...


class PushOutcome(Enum):
    SENT = "sent"
    GONE = "gone"  # the push service says the subscription has ended (404, 410)
    FAILED = "failed"


class PushSender(Protocol):
    def push(self, reminder: Reminder, payload: bytes) -> PushOutcome: ...


class Reminders:
    def __init__(
        self,
        store: ReminderStore,
        results: ResultStore,
        runs: RunStore,
        queue: Callable[[], ReminderQueue],
        push: Callable[[], PushSender],
        now: Callable[[], datetime] = clock.now,
        record: Callable[..., None] = lambda *_args, **_kw: None,
    ):
        self.store, self.results, self.runs = store, results, runs
        self.queue, self.push = queue, push
        self.now, self.record = now, record

    def subscribe(self, reminder: Reminder) -> Reminder:
        self.store.put_reminder(reminder)
        return reminder

    def held(self, player: str) -> Reminder | None:
        return self.store.reminder(player)

    def unsubscribe(self, player: str) -> bool:
        return self.store.delete_reminder(player)

    def scan(self, at: datetime | None = None) -> int:
        """Queue the reminders of AT's minute (Central; default now), in batches; how many."""
        instant = (at or self.now()).astimezone(CENTRAL)
        minute, day = instant.hour * 60 + instant.minute, daily_date(instant).isoformat()
        queued, queue = 0, self.queue()
        for shard in range(SHARDS):
            batch: list[Reminder] = []
            for reminder in self.store.due(minute, shard):
                batch.append(reminder)
                if len(batch) == BATCH:
                    queue.send(day, batch)
                    queued, batch = queued + len(batch), []
            if batch:
                queue.send(day, batch)
                queued += len(batch)
        self.record("RemindersQueued", value=queued)
        return queued

    def deliver(self, day: str, batch: Sequence[Reminder]) -> dict[str, int]:
        """Apply the rules to each of BATCH on DAY and push those due; counts by outcome."""
        counts = {"sent": 0, "skipped": 0, "stopped": 0, "gone": 0, "failed": 0}
        for reminder in batch:
            outcome = self._deliver_one(day, reminder)
            counts[outcome] += 1
        for name, value in counts.items():
            if value:
                self.record("Reminders", reason=name, value=value)
        return counts

    def _played(self, player: str, day: str | None) -> bool:
        """Whether PLAYER has an official result of DAY (a run started completes into one)."""
        return day is not None and self.results.official_result(player, Scope.daily(day)) is not None

    def _deliver_one(self, day: str, reminder: Reminder) -> str:
        if reminder.last_sent == day:
            return "skipped"
        # Today: an official run started counts (no reminder in the middle of one).
        played_today = self.runs.slot(reminder.player, Scope.daily(day)).official_run_id is not None
        played_last = not played_today and self._played(reminder.player, reminder.last_sent)
        step, ignored = next_step(reminder, day, played_today, played_last)
        if step is Step.SKIP:
            return "skipped"
        if step is Step.STOP:
            self.store.delete_reminder(reminder.player)
            return "stopped"
        if not self.store.record_send(reminder, day, ignored):
            return "skipped"  # another delivery of this batch sent it
        outcome = self.push().push(reminder, payload(day))
        if outcome is PushOutcome.GONE:
            self.store.delete_reminder(reminder.player)
        return outcome.value


def message(day: str, batch: Sequence[Reminder]) -> str:
    """A queue message: DAY and a batch of reminders as the scan read them."""
    return json.dumps({"day": day, "reminders": [asdict(r) for r in batch]}, separators=(",", ":"))


def read_message(body: str) -> tuple[str, list[Reminder]]:
    data = json.loads(body)
    return str(data["day"]), [Reminder(**r) for r in data["reminders"]]


def payload(day: str) -> bytes:
    """What the service worker reads (web/sw.js): the day, so one notification shows a day."""
    return json.dumps({"date": day}).encode()
