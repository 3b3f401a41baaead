"""The closing pass in pieces (shared/services/closing_pass.py) on a day of 1,000 and 20,000 runs
(`python benchmarks/closing_pass.py 1000 20000 100000` for other sizes; `page` adds a day of
PAGE_RUNS runs in one shard: one full page): for the pass, its pieces, requests and units; per
piece, its memory and the judging's time with one score writer and with WRITERS. Figures, not
assertions; docs/moderation.md, "The closing pass", models ten million.

The runs are benchmarks/recap.py's simulated people (each answer some seconds after its round
showed), written in BatchWriteItems straight into in-process moto as the game leaves them (the
run item, `encode_run`, and the official result carrying its `board` index row, `official_item`).
The pass then runs every counting piece and the merge from a queue in memory, one after another,
as the workers would (the merge needs every partial), and a sample of the judging pieces: the
first JUDGED sent (the longest shards' first pages; JUDGED_LARGE past SAMPLED runs, each a full
page), charged by benchmarks/meter.py (each request as DynamoDB bills it, index writes included).

Then, the meter detached, pieces run again (a re-run piece replaces its result and counts
nothing): TRACED counting pieces of first pages, the merge and the judged pieces under
tracemalloc, for two figures: the peak of every allocation (in-process moto's too: it builds a
Query's reply in Python, which DynamoDB does not), and the piece's own: what its allocations
hold alive, sampled after its requests, those made under moto's frames aside (its replies as
botocore parsed them count) and after a collection of the cyclic garbage (botocore's reply
parsers and moto's requests are cycles, freed by the collector's next pass: not held). moto's
stream is off while a piece is traced: moto keeps a record of every write for the whole process
(DynamoDB keeps its stream outside the function), and those records take memory blocks that
CPython's free lists recycle from objects botocore freed, whose trace names the piece's frames
(a judging piece of 2,000 runs: about 0.8 MB counted its own that moto held). Last, the
judged pieces with one writer and with WRITERS, each request given a ROUND_TRIP (moto answers
in-process; DynamoDB across the network).
"""

import gc
import itertools
import os
import random
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from offline import use_offline_env

use_offline_env()

import boto3  # noqa: E402
from meter import Meter  # noqa: E402
from moto import mock_aws  # noqa: E402
from moto.core import DEFAULT_ACCOUNT_ID  # noqa: E402
from moto.dynamodb.models import dynamodb_backends  # noqa: E402
from recap import DAY, SCOPE, simulated_runs  # noqa: E402

from local.moto_patches import cheaper_requests  # noqa: E402
from shared.dynamo import keys  # noqa: E402
from shared.dynamo.closing_pieces import DynamoPasses  # noqa: E402
from shared.dynamo.codec import encode_run, official_item  # noqa: E402
from shared.dynamo.store import dynamo_ports  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402
from shared.game.puzzles import generate_puzzle, seed_for_date  # noqa: E402
from shared.game.results import OfficialResult  # noqa: E402
from shared.runtime.piece_queue import MemoryQueue  # noqa: E402
from shared.runtime.wiring import moderation_ports  # noqa: E402
from shared.services.closing_pass import WRITERS, ClosingPass  # noqa: E402
from shared.services.closing_pieces import COUNT, JUDGE, MERGE, PAGE_RUNS, Piece  # noqa: E402

SIZES = (1_000, 20_000)
JUDGED = 4  # judging pieces run (the first ones sent: the longest shards' first pages)
SAMPLED, JUDGED_LARGE = 20_000, 2  # past SAMPLED runs a day, judging pieces run (full pages)
TRACED = 3  # counting pieces traced again (first pages: full ones once a shard holds PAGE_RUNS)
FRAMES = 16  # frames kept a traced allocation: enough to find moto's frame under copy and json
ROUND_TRIP = 0.005  # seconds a request's round trip to DynamoDB (in-region: single-digit ms)
CHUNK = 1_000  # runs simulated and written at a time
NAMES = {COUNT: "count", MERGE: "merge", JUDGE: "judge"}
_MOTO = "/moto/"  # an allocation made under one of its frames is moto's
_READS = ("query", "batch_get_item", "get_item")  # a request whose reply the piece holds


def store_day(client: Any, table: str, count: int, one_shard: bool = False) -> Any:
    """COUNT completed official runs of the day, written in BatchWriteItems (ONE_SHARD: all of
    them in the board's shard 0, its players chosen so)."""
    names = (
        f"p{n}" for n in itertools.count() if not one_shard or keys.shard(f"p{n}", keys.BOARD_SHARDS) == 0
    )
    client.create_table(**create_table_request(table))
    ports = dynamo_ports(table, client, board_shards=keys.BOARD_SHARDS)
    puzzle = generate_puzzle(seed_for_date(b"benchmark-secret", DAY), 10, 3)
    ports.runs.put_puzzle(SCOPE, puzzle)
    written = ranked = 0
    while written < count:
        rng = random.Random(written)
        runs = simulated_runs(puzzle, min(CHUNK, count - written), rng)
        items = []
        for run in runs:
            run.run_id, run.player = f"r{written}", next(names)
            for record in run.history:  # people's pace: each attempt some seconds after the round showed
                for number, attempt in enumerate(record.attempts, start=1):
                    attempt.elapsed_ms = int(rng.lognormvariate(8.6, 0.5)) * number
            run.completed_at = run.deadline
            items.append({**keys.run_key(run.run_id), "run": {"S": encode_run(run)}})
            result = OfficialResult.of_run(run)
            items.append(official_item(result, None, keys.BOARD_SHARDS))
            ranked += result.ranked  # an answer of the simulation under the typing floor: unranked
            written += 1
        for start in range(0, len(items), 25):
            batch = [{"PutRequest": {"Item": item}} for item in items[start : start + 25]]
            client.batch_write_item(RequestItems={table: batch})
    return ports, ranked


class Probe:
    """Around each DynamoDB request of the pass (`Client.request`): the piece's own memory sampled
    at its start and end while tracing (`sampled`), and a ROUND_TRIP slept first (`round_trip`)."""

    def __init__(self, db: Any):
        self.request, self.round_trip, self.own, self.requests = db.request, 0.0, 0, 0
        region = os.environ["AWS_DEFAULT_REGION"]
        self.moto_table = dynamodb_backends[DEFAULT_ACCOUNT_ID][region].tables[db.table]
        self.lock = threading.Lock()
        db.request = self.wrapped

    def wrapped(self, *args: Any, **kwargs: Any) -> Any:
        if self.round_trip:
            time.sleep(self.round_trip)
        reply = self.request(*args, **kwargs)
        self.sample(args[0] in _READS)
        return reply

    def sample(self, read: bool = False) -> None:
        """What the traced allocations alive now hold, those made under moto's frames aside: after
        each read (its reply just parsed, the piece's data held) and every 25th write, once
        the cyclic garbage is collected (only the objects made since `traced` began: the older
        ones are frozen)."""
        if not tracemalloc.is_tracing():
            return
        with self.lock:
            self.requests += 1
            if not read and self.requests > 4 and self.requests % 25:
                return
            gc.collect()
            traces = tracemalloc.take_snapshot().traces._traces  # (domain, size, frames, ...): fast
            own = sum(trace[1] for trace in traces if not any(_MOTO in frame[0] for frame in trace[2]))
            self.own = max(self.own, own)

    def traced(self, run: Callable[[], None]) -> tuple[int, int]:
        """(peak of every allocation, the piece's own peak) while RUN runs (moto's stream off)."""
        self.own = self.requests = 0
        stream, self.moto_table.stream_shard = self.moto_table.stream_shard, None
        gc.collect()
        gc.freeze()  # what exists now: never collected below (a collection then scans the new only)
        tracemalloc.start(FRAMES)
        try:
            run()
            self.requests = 0
            self.sample()
            return tracemalloc.get_traced_memory()[1], self.own
        finally:
            tracemalloc.stop()
            gc.unfreeze()
            self.moto_table.stream_shard = stream


def measure(count: int, one_shard: bool = False) -> None:
    client = boto3.client("dynamodb")
    table = f"bench-pieces-{count}{'-page' if one_shard else ''}"
    started = time.perf_counter()
    ports, ranked = store_day(client, table, count, one_shard)
    stored = time.perf_counter() - started
    queue = MemoryQueue()
    passes = DynamoPasses(ports.db, ports.puzzles, ports.board_keys)
    service = ClosingPass(
        passes, queue, ports.runs, moderation_ports(ports), ports.recaps, ports.closing,
        lambda: DAY, lambda day: [], shards=ports.board_keys.shards,
    )  # fmt: skip
    judged = JUDGED if count <= SAMPLED else JUDGED_LARGE
    meter = Meter(client)
    judged_runs, keep, lock = [0], passes.keep_score, threading.Lock()

    def counted(*args: Any) -> Any:
        with lock:
            judged_runs[0] += 1
        return keep(*args)

    passes.keep_score = counted  # type: ignore[method-assign]
    service._start(SCOPE)
    ran: dict[int, list[dict[str, Any]]] = {COUNT: [], MERGE: [], JUDGE: []}
    before_judging = (0.0, 0.0, 0)
    while queue.messages:
        body, _ = queue.messages.popleft()
        phase = Piece.of(body).phase
        if phase == JUDGE:
            if len(ran[JUDGE]) == judged:
                continue
            if not ran[JUDGE]:
                before_judging = (units(meter, "read"), units(meter, "write"), len(meter.charges))
        service.run(body)
        ran[phase].append(body)
    pieces = passes.pass_state(SCOPE).expected[COUNT]
    recap = ports.recaps.recap(SCOPE)
    assert recap is not None and recap.recap.players == ranked, (recap and recap.recap.players, ranked)
    calls = {
        operation: sum(1 for c in meter.charges if c.operation == operation)
        for operation in sorted({c.operation for c in meter.charges})
    }
    read, write, requests = before_judging
    judging = (units(meter, "read") - read, units(meter, "write") - write, len(meter.charges) - requests)
    print(
        f"  {count:>7,} runs{' in one shard' if one_shard else ''}, {ranked:,} ranked "
        f"({stored:.0f} s to store, {time.perf_counter() - started - stored:.0f} s to pass): "
        f"{pieces} pieces a phase, every one counted, {judged} judged"
    )
    print(
        f"    requests {calls}; {units(meter, 'read'):,.0f} read units, "
        f"{units(meter, 'write'):,.0f} write units"
    )
    print(
        f"    count and merge, a run: {read / ranked:.3f} read units, {write / ranked:.3f} write units, "
        f"{requests / ranked:.4f} requests; judging ({judged_runs[0]:,} runs), a run: "
        f"{judging[0] / judged_runs[0]:.3f} read, {judging[1] / judged_runs[0]:.3f} write, "
        f"{judging[2] / judged_runs[0]:.3f} requests"
    )
    meter.detach(client)
    probe = Probe(ports.db)
    again = {
        COUNT: [b for b in ran[COUNT] if b["page"] == 0][:TRACED],
        MERGE: ran[MERGE][:1],
        JUDGE: ran[JUDGE],
    }
    for phase in (COUNT, MERGE, JUDGE):
        figures = [probe.traced(lambda body=body: service.run(body)) for body in again[phase]]
        peaks, own = sorted(f[0] for f in figures), sorted(f[1] for f in figures)
        print(
            f"    {NAMES[phase]}: {len(figures)} pieces traced "
            f"({page_runs(passes, again[phase])} runs the most): "
            f"peak {peaks[-1] / 2**20:.1f} MB with moto's (median {peaks[len(peaks) // 2] / 2**20:.1f}); "
            f"the piece's own {own[-1] / 2**20:.2f} MB (median {own[len(own) // 2] / 2**20:.2f})"
        )
    queue.messages.clear()
    probe.round_trip = ROUND_TRIP
    timed: dict[int, list[float]] = {}
    for writers in (1, WRITERS):
        service.writers = writers
        timed[writers] = []
        for body in ran[JUDGE]:
            begun = time.perf_counter()
            service.run(body)
            timed[writers].append(time.perf_counter() - begun)
    ratios = [many / one for one, many in zip(timed[1], timed[WRITERS], strict=True)]
    print(
        f"    judging, {ROUND_TRIP * 1000:.0f} ms a request's round trip: a piece takes "
        f"{', '.join(f'{r:.2f}' for r in ratios)} of its one-writer time with {WRITERS} writers "
        f"(one writer: {', '.join(f'{t:.1f}' for t in timed[1])} s; {WRITERS}: "
        f"{', '.join(f'{t:.1f}' for t in timed[WRITERS])} s)"
    )
    queue.messages.clear()


def units(meter: Meter, kind: str) -> float:
    """Read or write units charged so far (the GSIs' share of a write included)."""
    return sum(getattr(c, f"{kind}_units") for c in meter.charges)


def page_runs(passes: DynamoPasses, bodies: list[dict[str, Any]]) -> int:
    """The most runs one of the pieces BODIES reads (the merge: none)."""
    most = 0
    for body in bodies:
        piece = Piece.of(body)
        if piece.phase != MERGE:
            most = max(most, len(passes.board_page(piece.scope, piece.shard, piece.start, PAGE_RUNS)[0]))
    return most


def main() -> None:
    page = "page" in sys.argv[1:]  # a full page: PAGE_RUNS runs in one shard, as every piece past 64,000
    sizes = [int(arg) for arg in sys.argv[1:] if arg.isdigit()] or ([] if page else list(SIZES))
    print("The closing pass in pieces: requests and units per pass, memory and time per piece")
    cheaper_requests()  # `make run`'s moto: a transaction copies the items it touches, not the table
    with mock_aws():
        for count in sizes:
            measure(count)
        if page:
            measure(PAGE_RUNS, one_shard=True)


if __name__ == "__main__":
    main()
