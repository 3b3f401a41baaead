"""Where a million reminder subscriptions land (SPEC §4a; docs/data-model.md "Reminders"): how many
each send-minute partition holds, so the writes per second per partition at the send follow.
Figures, not assertions. `python benchmarks/reminders.py`.

A million player ids (UUIDs from a fixed seed, as Cognito's `sub`) subscribe at one hour (the
worst case: everyone at 19:00 Central) and at hours spread as evening play is (17:00 to 22:00, the
middle hours twice as likely). Each subscription is one item in `REMIND#<minute>#<shard>`
(shared/game/reminders.py: a minute of the hour's first ten from the id, 16 shards), and each
send writes it once (a conditional UpdateItem under 1 KB: one write unit). The item size is
measured on a subscription shaped as Chrome's (an FCM endpoint of 188 characters).
"""

import json
import random
import uuid
from collections import Counter

from shared.game.reminders import SHARDS, SPREAD_MINUTES, send_minute, shard_of

PLAYERS = 1_000_000
EVENING = [17, 18, 18, 19, 19, 20, 20, 21, 21, 22]


def busiest(hours: list[int]) -> tuple[int, int]:
    """(the most subscriptions in one partition, the most in one minute) for PLAYERS ids."""
    rng = random.Random(51)
    partitions: Counter[tuple[int, int]] = Counter()
    minutes: Counter[int] = Counter()
    for _ in range(PLAYERS):
        player = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        minute = send_minute(player, rng.choice(hours))
        partitions[(minute, shard_of(player))] += 1
        minutes[minute] += 1
    return max(partitions.values()), max(minutes.values())


def item_bytes() -> int:
    endpoint = "https://fcm.googleapis.com/fcm/send/" + "x" * 152
    item = {
        "pk": "REMIND#1143#07",
        "sk": str(uuid.uuid4()),
        "endpoint": endpoint,
        "p256dh": "B" * 87,
        "auth": "A" * 22,
        "hour": "19",
        "ignored": "3",
        "last_sent": "2026-12-06",
    }
    return sum(len(k) + len(v) for k, v in item.items())


def main() -> None:
    print(f"{PLAYERS:,} subscriptions, {SHARDS} shards, {SPREAD_MINUTES} send minutes an hour")
    print(f"one item: {item_bytes()} bytes (one write unit per send)")
    for label, hours in (("all at 19:00", [19]), ("evening, 17:00-22:00", EVENING)):
        partition, minute = busiest(hours)
        print(
            json.dumps(
                {
                    "hours": label,
                    "busiest_minute_sends": minute,
                    "busiest_partition_items": partition,
                    "writes_per_s_if_sent_over_60s": round(partition / 60, 1),
                    "writes_per_s_if_sent_over_10s": round(partition / 10, 1),
                }
            )
        )


if __name__ == "__main__":
    main()
