"""Challenges by the time they close, for the closing job (functions/daily/expire.py): each
challenge's creation puts an entry in the partitions of its close date (shared/dynamo/keys.py
`closing_key`, shared/dynamo/runs.py `create_challenge`), and the job reads the span between its
own watermark and the boards now closed, a Query per UTC date and shard, then moves the watermark.
A Daily needs no such index: its close is its date's.
"""

from datetime import UTC, datetime, timedelta

from shared.dynamo import keys
from shared.dynamo.client import Client
from shared.dynamo.watermark import move_watermark, read_watermark
from shared.game.clock import iso

DAY = timedelta(days=1)


class ClosingChallenges:
    def __init__(self, db: Client):
        self.db = db

    def challenges_closing(self, after: datetime, through: datetime) -> list[str]:
        """The ids of the challenges that close after AFTER and at or before THROUGH, by close time
        (one Query per UTC date and shard, of the span's entries only)."""
        low, high = iso(after), iso(through)
        found: list[tuple[str, str]] = []
        day = after.astimezone(UTC).date()
        while day <= through.astimezone(UTC).date():
            for number in range(keys.CLOSING_SHARDS):
                for item in self.db.query(
                    KeyConditionExpression="pk = :p AND sk BETWEEN :low AND :high",
                    ExpressionAttributeValues={
                        ":p": {"S": keys.closing_partition(day.isoformat(), number)},
                        ":low": {"S": low},
                        ":high": {"S": high + "#~"},  # `#` and the id sort after the instant
                    },
                ):
                    closes, challenge_id = item["sk"]["S"].split("#", 1)
                    if closes > low:
                        found.append((closes, challenge_id))
            day += DAY
        return [challenge_id for _, challenge_id in sorted(found)]

    def challenges_reviewed_through(self) -> datetime | None:
        """The closing job's watermark: every challenge closing at or before it has had its pass."""
        return read_watermark(self.db, keys.key(*keys.CHALLENGES_REVIEWED), "reviewed_through")

    def mark_challenges_reviewed(self, instant: datetime) -> None:
        """Move the watermark forward to INSTANT (never back)."""
        move_watermark(self.db, keys.key(*keys.CHALLENGES_REVIEWED), "reviewed_through", instant)
