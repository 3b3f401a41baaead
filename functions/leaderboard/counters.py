"""The rank counters' keeper: a DynamoDB Streams consumer (SPEC §4: no item written by every
completion). Each official result INSERTed into the table is counted for ranks, the whole batch
in one summed update per counter item (shared/dynamo_boards.py `count_official`), exactly once
however often the stream delivers it; then the batch's rows that could enter each board's top
item (its best rows, which page 1 reads) go through the board's inbox, folded into the item at
most once a second per board, idempotently (shared/dynamo_boards.py `_merge_top`). Replies
with Powertools' partial batch response, so a failed batch is retried from its first uncounted
record. The stack's event source filters on `eventName = INSERT` and `sk` beginning
`OFFICIAL#`; the same test is repeated here, so `make run` (local/streams.py) and a changed
filter count the same records.
"""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

import sys
from collections.abc import Callable
from typing import Any, cast

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from shared.dynamo_boards import official_from_image
from shared.observability import logger, metrics, tracer
from shared.store import OfficialResult
from shared.wiring import store

Count = Callable[[list[OfficialResult]], int]
store()  # the DynamoDB client, made during the cold start (shared/wiring.py)


class CountingProcessor(BatchProcessor):
    """Powertools' BatchProcessor for a DynamoDB stream, with the counting done for the whole
    batch at once: the record handler only reads each record, then every result read is counted
    together. If counting fails, every record read is reported failed (counting is idempotent,
    so those already counted are skipped when Lambda delivers them again)."""

    def __init__(self, count: Count):
        super().__init__(event_type=EventType.DynamoDBStreams)
        self.count = count

    def process(self) -> list[tuple[Any, ...]]:
        entries = [self._process_record(record) for record in self.records]
        # (the result read, the raw record), for each record that holds an official result
        read: list[tuple[OfficialResult, Any]] = [
            (cast(OfficialResult, entry[1]), entry[2])
            for entry in entries
            if entry[0] == "success" and entry[1] is not None
        ]
        if read:
            try:
                counted = self.count([result for result, _ in read])
                logger.info("Counted official results", extra={"read": len(read), "counted": counted})
            except Exception:
                failure = sys.exc_info()
                for _, record in read:
                    self.success_messages.remove(record)
                    self.failure_handler(DynamoDBRecord(record), failure)
        return entries


def official_of(record: DynamoDBRecord) -> OfficialResult | None:
    """The official result RECORD inserted, or None for any other change of the table."""
    change = record.raw_event.get("dynamodb") or {}
    sort_key = (change.get("Keys") or {}).get("sk", {}).get("S", "")
    if record.raw_event.get("eventName") != "INSERT" or not sort_key.startswith("OFFICIAL#"):
        return None
    return official_from_image(change.get("NewImage") or {})


def count_stream_batch(event: dict[str, Any], context: Any, count: Count) -> dict[str, Any]:
    """Count the official results of one stream batch with COUNT; Powertools' partial response."""
    processor = CountingProcessor(count)
    reply = process_partial_response(
        event=event, record_handler=official_of, processor=processor, context=context
    )
    return dict(reply)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return count_stream_batch(event, context, store().count_official)


init_phase.end()  # the init is over (functions/init_phase.py)
