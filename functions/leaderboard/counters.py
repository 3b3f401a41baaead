"""The rank counters' keeper and the renames' follower: a DynamoDB Streams consumer (SPEC §4: no
item written by every completion; SPEC §5: boards follow a rename). Each official result
INSERTed into the table is counted for ranks, the whole batch in one summed update per counter
item (shared/dynamo/counters.py `count_official`), exactly once however often the stream delivers
it; then the batch's rows that could enter each board's top item (its best rows, which page 1
reads) go through the board's inbox, folded into the item at most once a second per board,
idempotently (shared/dynamo/top.py `merge`). Replies
with Powertools' partial batch response, so a failed batch is retried from its first uncounted
record.

Each rename (an INSERT or MODIFY of a `PLAYER#<sub>` / `RENAME` item, shared/dynamo/codec.py)
shows the player's current name on their live boards (shared/services/players.py `show_current_name`),
idempotently: a rename that fails is reported failed, and Lambda delivers it again (with what
came after it) until it succeeds, so a propagation cut short resumes.

The stack's event source filters on these two kinds of record (infra/schedule.py); the same tests
are repeated here, so `make run` (local/streams.py) and a changed filter take the same records.
"""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

import sys
from collections.abc import Callable
from typing import Any, NamedTuple

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from shared.game.results import OfficialResult
from shared.runtime.observability import logger, metrics, tracer
from shared.runtime.wiring import official_result_of, players, ports, renamed_player

Count = Callable[[list[OfficialResult]], int]
Follow = Callable[[str], int]  # shows a player's current name on their live boards
ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


class Renamed(NamedTuple):
    """A rename's stream record: whose."""

    player: str


class CountingProcessor(BatchProcessor):
    """Powertools' BatchProcessor for a DynamoDB stream, with the counting done for the whole
    batch at once: the record handler only reads each record, then every result read is counted
    together. If counting fails, every result's record is reported failed (counting is
    idempotent, so those already counted are skipped when Lambda delivers them again). Then each
    player renamed in the batch has their name followed once; if that fails, their rename's
    records are reported failed (following is idempotent too)."""

    def __init__(self, count: Count, follow: Follow):
        super().__init__(event_type=EventType.DynamoDBStreams)
        self.count = count
        self.follow = follow

    def process(self) -> list[tuple[Any, ...]]:
        entries = [self._process_record(record) for record in self.records]
        # (what was read, the raw record), for each record that holds a result or a rename
        read = [(entry[1], entry[2]) for entry in entries if entry[0] == "success" and entry[1] is not None]
        results = [(r, record) for r, record in read if isinstance(r, OfficialResult)]
        if results:
            try:
                counted = self.count([result for result, _ in results])
                logger.info("Counted official results", extra={"read": len(results), "counted": counted})
            except Exception:
                self._failed([record for _, record in results])
        renamed: dict[str, list[Any]] = {}
        for r, record in read:
            if isinstance(r, Renamed):
                renamed.setdefault(r.player, []).append(record)
        for player, records in renamed.items():
            try:
                boards = self.follow(player)
                logger.info("Followed a rename", extra={"boards": boards})
            except Exception:
                self._failed(records)
        return entries

    def _failed(self, records: list[Any]) -> None:
        failure = sys.exc_info()
        for record in records:
            self.success_messages.remove(record)
            self.failure_handler(DynamoDBRecord(record), failure)


def official_of(record: DynamoDBRecord) -> OfficialResult | Renamed | None:
    """The official result RECORD inserted, the player a rename record names, or None for any
    other change of the table."""
    change = record.raw_event.get("dynamodb") or {}
    keys = change.get("Keys") or {}
    event_name = record.raw_event.get("eventName") or ""
    player = renamed_player(event_name, keys)
    if player is not None:
        return Renamed(player)
    if event_name != "INSERT" or not keys.get("sk", {}).get("S", "").startswith("OFFICIAL#"):
        return None
    return official_result_of(change.get("NewImage") or {})


def count_stream_batch(event: dict[str, Any], context: Any, count: Count, follow: Follow) -> dict[str, Any]:
    """Count the official results of one stream batch with COUNT and follow its renames with
    FOLLOW; Powertools' partial response."""
    processor = CountingProcessor(count, follow)
    reply = process_partial_response(
        event=event, record_handler=official_of, processor=processor, context=context
    )
    return dict(reply)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return count_stream_batch(event, context, ports().ranks.count_official, players().show_current_name)


init_phase.end()  # the init is over (functions/init_phase.py)
