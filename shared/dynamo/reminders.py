"""Reminders on the table (docs/data-model.md, "Reminders"): each subscription is one item in its
send minute's partition, shard by player (`REMIND#<minute>#<shard>` / `<player>`), so the sends of
a minute are one query per shard; the player's own item (`PLAYER#<id>` / `REMINDER`) names the
minute, so PUT moves the subscription and DELETE (and `DELETE /me`) finds it."""

from collections.abc import Iterator
from dataclasses import replace

from shared.dynamo import keys
from shared.dynamo.client import Client, ConditionFailed, Item
from shared.dynamo.tombstone import not_erased, refuse_if_erased
from shared.game.reminders import Reminder, send_minute, shard_of


def _key(player: str, hour: int) -> Item:
    return keys.reminder_key(send_minute(player, hour), shard_of(player), player)


def _item(reminder: Reminder) -> Item:
    item: Item = {
        **_key(reminder.player, reminder.hour),
        "endpoint": {"S": reminder.endpoint},
        "p256dh": {"S": reminder.p256dh},
        "auth": {"S": reminder.auth},
        "hour": {"N": str(reminder.hour)},
        "ignored": {"N": str(reminder.ignored)},
    }
    if reminder.last_sent:
        item["last_sent"] = {"S": reminder.last_sent}
    return item


def _reminder(item: Item) -> Reminder:
    return Reminder(
        player=item["sk"]["S"],
        endpoint=item["endpoint"]["S"],
        p256dh=item["p256dh"]["S"],
        auth=item["auth"]["S"],
        hour=int(item["hour"]["N"]),
        last_sent=item.get("last_sent", {}).get("S"),
        ignored=int(item.get("ignored", {}).get("N", "0")),
    )


class DynamoReminders:
    def __init__(self, db: Client):
        self.db = db

    def _held_key(self, player: str) -> Item | None:
        """The key of PLAYER's subscription item, from their own item (None: no reminder)."""
        pointer = self.db.get(keys.reminder_pointer_key(player), consistent=True)
        if pointer is None:
            return None
        return keys.reminder_key(int(pointer["minute"]["N"]), shard_of(player), player)

    def reminder(self, player: str) -> Reminder | None:
        held = self._held_key(player)
        item = self.db.get(held, consistent=True) if held else None
        return _reminder(item) if item else None

    def put_reminder(self, reminder: Reminder) -> None:
        old = self.reminder(reminder.player)
        item = _item(replace(reminder, last_sent=old.last_sent if old else None))
        minute = send_minute(reminder.player, reminder.hour)
        writes: list[Item] = [
            {"Put": {"Item": item}},
            {"Put": {"Item": {**keys.reminder_pointer_key(reminder.player), "minute": {"N": str(minute)}}}},
        ]
        if old and send_minute(old.player, old.hour) != minute:
            writes.append({"Delete": {"Key": _key(old.player, old.hour)}})
        refuse_if_erased(self.db.transact([*writes, not_erased(reminder.player)]))

    def delete_reminder(self, player: str) -> bool:
        held = self._held_key(player)
        if held is None:
            return False
        self.db.transact([{"Delete": {"Key": held}}, {"Delete": {"Key": keys.reminder_pointer_key(player)}}])
        return True

    def due(self, minute: int, shard: int) -> Iterator[Reminder]:
        for item in self.db.query(
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": keys.reminder_partition(minute, shard)}},
        ):
            yield _reminder(item)

    def record_send(self, reminder: Reminder, day: str, ignored: int) -> bool:
        key = keys.reminder_key(
            send_minute(reminder.player, reminder.hour), shard_of(reminder.player), reminder.player
        )
        values: Item = {":day": {"S": day}, ":n": {"N": str(ignored)}}
        if reminder.last_sent is None:
            condition = "attribute_exists(pk) AND attribute_not_exists(last_sent)"
        else:
            condition = "last_sent = :was"
            values[":was"] = {"S": reminder.last_sent}
        try:
            self.db.call(
                "update_item",
                Key=key,
                UpdateExpression="SET last_sent = :day, ignored = :n",
                ConditionExpression=condition,
                ExpressionAttributeValues=values,
            )
        except ConditionFailed:
            return False
        return True
