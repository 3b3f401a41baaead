"""`make run`'s DynamoDB Streams trigger: polls the table's stream (moto implements DynamoDB
Streams) and calls the rank counters' Lambda entry point (functions/leaderboard/counters.py; in
`make run`, in a worker process of its own: local/server.py) with the event AWS Lambda would
send it, after the same filters the stack's event source applies (`eventName = INSERT` and
`sk` beginning `OFFICIAL#`: new official results; an INSERT or MODIFY with `sk = RENAME`:
renames, shared/dynamo/codec.py).

Like Lambda's stream poller, it moves on past a batch only once the handler has taken it: on a
partial batch response it reads again from the first failed record; if the handler raises, from
the batch's first record. Tests on in-process moto call `StreamPoller.drain()` directly.

When the embedded store is started again (local/store.py), its table is new and so is its
stream (another ARN), holding an INSERT for every item loaded: the poller notices the new ARN
at its next poll and reads the new stream from its start (counting is idempotent, so results
counted before are skipped, and those the old stream held but no poll had read yet are counted).
"""

import os
import threading
import uuid
from collections.abc import Callable
from typing import Any

import boto3
from botocore.config import Config

from local.events import LambdaContext
from shared.dynamo.codec import is_official_insert, renamed_player

# moto keeps every shard iterator it hands out, so a faster poll costs the embedded store memory
# for no faster counts than Lambda's one-second batching window.
POLL_SECONDS = 1.0
BATCH_SIZE = 100
Record = dict[str, Any]  # a stream record, as GetRecords or Lambda's event has it
Handler = Callable[[dict[str, Any], Any], dict[str, Any]]  # a Lambda entry point: (event, context)


def _counters_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    from functions.leaderboard.counters import handler  # imported when first used, as Lambda does

    reply: dict[str, Any] = handler(event, context)  # Powertools' decorators leave it untyped
    return reply


def _wanted(record: Record) -> bool:
    keys = record["dynamodb"].get("Keys", {})
    if renamed_player(record["eventName"], keys) is not None:
        return True
    return is_official_insert(record["eventName"], keys)


def _lambda_record(record: Record, stream_arn: str) -> Record:
    """A GetRecords record as Lambda delivers it (timestamps as epoch seconds)."""
    change = dict(record["dynamodb"])
    created = change.get("ApproximateCreationDateTime")
    if created is not None and not isinstance(created, int | float):
        change["ApproximateCreationDateTime"] = created.timestamp()
    return {
        **{k: v for k, v in record.items() if k != "dynamodb"},
        "dynamodb": change,
        "eventSourceARN": stream_arn,
    }


class StreamPoller:
    """Reads every shard of one table's stream and hands its records to HANDLER in batches."""

    def __init__(
        self,
        table_name: str,
        handler: Handler = _counters_handler,
        endpoint_url: str | None = None,
        batch_size: int = BATCH_SIZE,
    ):
        endpoint = endpoint_url or os.environ.get("AWS_ENDPOINT_URL_DYNAMODB") or None
        self.handler = handler
        self.batch_size = batch_size
        self.table_name = table_name
        self.dynamodb = boto3.client("dynamodb", endpoint_url=endpoint)
        self.stream_arn = self._latest_stream_arn()
        # moto answers DynamoDB Streams only on its classic endpoint, not the account-based one.
        self.streams = boto3.client(
            "dynamodbstreams", endpoint_url=endpoint, config=Config(account_id_endpoint_mode="disabled")
        )
        self._positions: dict[str, tuple[str, str | None]] = {}  # shard -> (iterator type, sequence)
        self._draining = threading.Lock()  # the poll thread and a clock jump take turns

    def drain(self) -> int:
        """Hand every record now in the stream to the handler; returns how many it was given."""
        given = 0
        with self._draining:
            latest = self._latest_stream_arn()
            if latest != self.stream_arn:  # a new table (the store started again): a new stream
                self.stream_arn, self._positions = latest, {}
            shards = self.streams.describe_stream(StreamArn=self.stream_arn)["StreamDescription"]["Shards"]
            for shard in shards:
                given += self._drain_shard(shard["ShardId"])
        return given

    def _latest_stream_arn(self) -> str:
        arn: str = self.dynamodb.describe_table(TableName=self.table_name)["Table"]["LatestStreamArn"]
        return arn

    def _drain_shard(self, shard_id: str) -> int:
        kind, sequence = self._positions.get(shard_id, ("TRIM_HORIZON", None))
        request: dict[str, Any] = {
            "StreamArn": self.stream_arn,
            "ShardId": shard_id,
            "ShardIteratorType": kind,
        }
        if sequence:
            request["SequenceNumber"] = sequence
        iterator = self.streams.get_shard_iterator(**request)["ShardIterator"]
        given = 0
        while iterator:
            reply = self.streams.get_records(ShardIterator=iterator, Limit=self.batch_size)
            records = reply["Records"]
            if not records:
                break
            batch = [_lambda_record(r, self.stream_arn) for r in records if _wanted(r)]
            failed_from = self._invoke(batch) if batch else None
            if failed_from is not None:
                self._positions[shard_id] = ("AT_SEQUENCE_NUMBER", failed_from)
                return given
            given += len(batch)
            self._positions[shard_id] = ("AFTER_SEQUENCE_NUMBER", records[-1]["dynamodb"]["SequenceNumber"])
            iterator = reply.get("NextShardIterator")
        return given

    def _invoke(self, batch: list[Record]) -> str | None:
        """Call the handler; the sequence number to read again from, or None when all was taken."""
        context = LambdaContext(function_name="wordsqd-counters", aws_request_id=str(uuid.uuid4()))
        try:
            reply = self.handler({"Records": batch}, context) or {}
        except Exception as error:  # Lambda would retry the batch; so do we, on the next poll
            print(f"wordsqd: counters failed, will retry: {error}", flush=True)
            first: str = batch[0]["dynamodb"]["SequenceNumber"]
            return first
        failures = [f["itemIdentifier"] for f in reply.get("batchItemFailures") or []]
        return min(failures, key=int) if failures else None

    def run(self, stopping: threading.Event, interval: float = POLL_SECONDS) -> None:
        failing = False
        while not stopping.wait(interval):
            try:
                self.drain()
                failing = False
            except Exception as error:  # the store may be starting again; the next poll tries again
                if not failing:  # once, not every second while it lasts
                    print(f"wordsqd: stream poll failed (trying again each second): {error}", flush=True)
                failing = True


def start(table_name: str, handler: Handler) -> tuple[threading.Event, StreamPoller]:
    """Poll TABLE_NAME's stream in a background thread (for `make run`), handing its batches to
    HANDLER; set the returned event to stop it. The poller is returned too: a jump of the game
    clock drains it at once (the consumer's second of lag has passed in the time jumped over)."""
    stopping = threading.Event()
    poller = StreamPoller(table_name, handler=handler)
    threading.Thread(target=poller.run, args=(stopping,), name="streams", daemon=True).start()
    return stopping, poller
