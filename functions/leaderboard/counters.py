"""The rank counters' keeper and the renames' follower: a DynamoDB Streams consumer (SPEC §4: no
item written by every completion; SPEC §5: boards follow a rename). Each official result
INSERTed into the table is counted for ranks, the whole batch in one summed update per counter
item (shared/dynamo/counters.py `count_official`), exactly once however often the stream delivers
it; then the batch's rows that could enter each board's top item (its best rows, which page 1
reads) go through the board's inbox, folded into the item at most once a second per board,
idempotently (shared/dynamo/top.py `merge`). Replies with Powertools' partial batch response
(its documented BatchProcessor and record handler), so a failed batch is retried from its first
uncounted record.

Each rename (an INSERT or MODIFY of a `PLAYER#<sub>` / `RENAME` item, shared/dynamo/codec.py)
shows the player's current name on their live boards (shared/services/players.py `show_current_name`),
idempotently: a rename that fails is reported failed, and Lambda delivers it again (with what
came after it) until it succeeds, so a propagation cut short resumes.

The stack's event source filters on these two kinds of record (infra/schedule.py); the same tests
are repeated here, so `make run` (local/streams.py) and a changed filter take the same records.
"""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from collections import defaultdict
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from functions.dry_run import is_dry_run
from shared.game.results import OfficialResult
from shared.runtime.observability import logger, observed
from shared.runtime.wiring import is_official_insert, official_result_of, players, ports, renamed_player

Count = Callable[[list[OfficialResult]], int]
Follow = Callable[[str], int]  # shows a player's current name on their live boards
Failures = dict[int, Exception]  # a record (the id of its raw dict) -> why it failed
ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


class Renamed(NamedTuple):
    """A rename's stream record: whose."""

    player: str


def official_of(record: DynamoDBRecord) -> OfficialResult | Renamed | None:
    """The official result RECORD inserted, the player a rename record names, or None for any
    other change of the table."""
    change = record.raw_event.get("dynamodb") or {}
    keys = change.get("Keys") or {}
    event_name = record.raw_event.get("eventName") or ""
    player = renamed_player(event_name, keys)
    if player is not None:
        return Renamed(player)
    if not is_official_insert(event_name, keys):
        return None
    return official_result_of(change.get("NewImage") or {})


def count_stream_batch(event: dict[str, Any], context: Any, count: Count, follow: Follow) -> dict[str, Any]:
    """Count the official results of one stream batch with COUNT and follow its renames with
    FOLLOW; Powertools' partial response. The counting is done for the whole batch at once
    (`batch_failures`), then Powertools' BatchProcessor goes through the records with a record
    handler that fails each record whose result or rename failed."""
    failures = batch_failures([DynamoDBRecord(raw) for raw in event.get("Records") or []], count, follow)

    def record_handler(record: DynamoDBRecord) -> None:
        failure = failures.get(id(record.raw_event))
        if failure is not None:
            raise failure

    processor = BatchProcessor(event_type=EventType.DynamoDBStreams)
    reply = process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
    return dict(reply)


def batch_failures(records: list[DynamoDBRecord], count: Count, follow: Follow) -> Failures:
    """Read RECORDS, count every result read together, then follow each player renamed in them
    once; returns the records that failed. If counting fails, every result's record fails
    (counting is idempotent, so those already counted are skipped when Lambda delivers them
    again); if following a player fails, their rename's records fail (following is idempotent
    too). A record that cannot be read fails alone."""
    failures: Failures = {}
    results: list[tuple[OfficialResult, DynamoDBRecord]] = []
    renamed: dict[str, list[DynamoDBRecord]] = defaultdict(list)
    for record in records:
        try:
            read = official_of(record)
        except Exception as error:  # a malformed record: reported failed, the rest go on
            failures[id(record.raw_event)] = error
            continue
        if isinstance(read, OfficialResult):
            results.append((read, record))
        elif isinstance(read, Renamed):
            renamed[read.player].append(record)
    if results:
        failures |= _attempt(partial(_count, count, [r for r, _ in results]), [rec for _, rec in results])
    for player, their in renamed.items():
        failures |= _attempt(partial(_follow, follow, player), their)
    return failures


def _count(count: Count, results: list[OfficialResult]) -> None:
    counted = count(results)
    logger.info("Counted official results", extra={"read": len(results), "counted": counted})


def _follow(follow: Follow, player: str) -> None:
    boards = follow(player)
    logger.info("Followed a rename", extra={"boards": boards})


def _attempt(step: Callable[[], None], records: list[DynamoDBRecord]) -> Failures:
    """Run STEP; if it fails, each of RECORDS fails with its error."""
    try:
        step()
    except Exception as error:
        return {id(record.raw_event): error for record in records}
    return {}


@observed
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    if is_dry_run(event):  # a new version's canary (functions/dry_run.py): started, nothing counted
        return {"dry_run": True, "batchItemFailures": []}
    return count_stream_batch(event, context, ports().ranks.count_official, players().show_current_name)


init_phase.end()  # the init is over (functions/init_phase.py)
