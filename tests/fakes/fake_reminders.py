"""The reminders port in memory (shared/dynamo/reminders.py is the table's): subscriptions by send
minute and shard, refusing an erased player's as the table's transaction does."""

from collections.abc import Iterator
from dataclasses import replace

from shared.game.errors import AccountErased
from shared.game.reminders import Reminder, send_minute, shard_of
from tests.fakes.fake_table import FakeTable


class FakeReminders:
    def __init__(self, table: FakeTable) -> None:
        self.table = table
        self.held: dict[str, Reminder] = {}

    def put_reminder(self, reminder: Reminder) -> None:
        if reminder.player in self.table.erased_players:
            raise AccountErased()
        old = self.held.get(reminder.player)
        self.held[reminder.player] = replace(reminder, last_sent=old.last_sent if old else None)

    def reminder(self, player: str) -> Reminder | None:
        return self.held.get(player)

    def delete_reminder(self, player: str) -> bool:
        return self.held.pop(player, None) is not None

    def due(self, minute: int, shard: int) -> Iterator[Reminder]:
        for r in list(self.held.values()):
            if send_minute(r.player, r.hour) == minute and shard_of(r.player) == shard:
                yield r

    def record_send(self, reminder: Reminder, day: str, ignored: int) -> bool:
        now = self.held.get(reminder.player)
        if now is None or now.last_sent != reminder.last_sent:
            return False
        self.held[reminder.player] = replace(now, last_sent=day, ignored=ignored)
        return True
