"""The closing pass in pieces (shared/services/closing_pass.py) on a day of 1,000 and 20,000 runs
(`python benchmarks/closing_pass.py 1000 20000 100000` for other sizes): per piece, the peak of
Python's allocations (tracemalloc) and its time; for the pass, its pieces, requests and units.
Figures, not assertions; docs/moderation.md, "The closing pass", models ten million from them.

The runs are benchmarks/recap.py's simulated people (each answer some seconds after its round
showed), written straight into in-process moto as the game leaves them (the run item, and the
official result carrying its `board` index row), then the pass runs every piece from a queue in
memory, one after another, as the workers would, and the first JUDGED judging pieces (a run's
score is an UpdateItem, slow on moto). Units are benchmarks/meter.py's: each request charged as
DynamoDB bills it, index writes included. The peak counts moto's allocations too (it
builds a Query's whole partition in Python); `--own` also measures what the piece itself holds
(moto's and botocore's allocations aside: slow).
"""

import random
import sys
import time
import tracemalloc
from collections import Counter
from typing import Any

from offline import use_offline_env

use_offline_env()

import boto3  # noqa: E402
from meter import Meter  # noqa: E402
from moto import mock_aws  # noqa: E402
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
from shared.services.closing_pass import ClosingPass  # noqa: E402
from shared.services.closing_pieces import Piece  # noqa: E402

SIZES = (1_000, 20_000)
JUDGED = 4  # phase-2 pieces run (the first ones sent: the longest shards' first pages)
OWN = "--own" in sys.argv  # also measure a piece's own memory (slow)
CHUNK = 1_000  # runs simulated and written at a time


class Units:
    """Requests and units as benchmarks/meter.py charges them (as DynamoDB bills each request:
    index writes, transactions and batch writes included)."""

    def __init__(self, client: Any):
        self.meter = Meter(client)

    @property
    def calls(self) -> Counter[str]:
        return self.meter.calls

    @property
    def read(self) -> float:
        return sum(c.read_units for c in self.meter.charges)

    @property
    def write(self) -> float:
        return sum(c.write_units for c in self.meter.charges)  # the GSIs' share included


def own_bytes() -> int:
    """What the traced allocations alive now hold, those made under moto's or botocore's frames aside."""
    if not tracemalloc.is_tracing():
        return 0
    snapshot = tracemalloc.take_snapshot()
    total = 0
    for trace in snapshot.traces:
        if not any(_LIBRARY in frame.filename for frame in trace.traceback for _LIBRARY in _LIBRARIES):
            total += trace.size
    return total


_LIBRARIES = ("/moto/", "/botocore/", "/boto3/", "/tracemalloc.py")


def store_day(client: Any, table: str, count: int) -> Any:
    """COUNT completed official runs of the day, written in BatchWriteItems."""
    client.create_table(**create_table_request(table))
    ports = dynamo_ports(table, client)
    puzzle = generate_puzzle(seed_for_date(b"benchmark-secret", DAY), 10, 3)
    ports.runs.put_puzzle(SCOPE, puzzle)
    written = ranked = 0
    while written < count:
        rng = random.Random(written)
        runs = simulated_runs(puzzle, min(CHUNK, count - written), rng)
        items = []
        for run in runs:
            run.run_id, run.player = f"r{written}", f"p{written}"
            for record in run.history:  # people's pace: each attempt some seconds after the round showed
                for number, attempt in enumerate(record.attempts, start=1):
                    attempt.elapsed_ms = int(rng.lognormvariate(8.6, 0.5)) * number
            run.completed_at = run.deadline
            items.append({**keys.run_key(run.run_id), "run": {"S": encode_run(run)}})
            result = OfficialResult.of_run(run)
            items.append(official_item(result, None))
            ranked += result.ranked  # an answer of the simulation under the typing floor: unranked
            written += 1
        for start in range(0, len(items), 25):
            batch = [{"PutRequest": {"Item": item}} for item in items[start : start + 25]]
            client.batch_write_item(RequestItems={table: batch})
    return ports, ranked


def measure(count: int) -> None:
    client = boto3.client("dynamodb")
    table = f"bench-pieces-{count}"
    started = time.perf_counter()
    ports, ranked = store_day(client, table, count)
    stored = time.perf_counter() - started
    queue = MemoryQueue()
    passes = DynamoPasses(ports.db, ports.runs, ports.top, ports.ranks)
    service = ClosingPass(
        passes, queue, ports.runs, ports.moderation, ports.recaps, ports.closing,
        lambda: DAY, lambda day: [],
    )  # fmt: skip
    units = Units(client)
    waited = [0.0]  # seconds inside DynamoDB requests (moto's, here)
    request = ports.db.request

    def timed(*args: Any, **kwargs: Any) -> Any:
        begun = time.perf_counter()
        try:
            return request(*args, **kwargs)
        finally:
            waited[0] += time.perf_counter() - begun

    ports.db.request = timed  # type: ignore[method-assign]
    service._start(SCOPE)
    sample = 1 if count <= 20_000 else 8  # tracemalloc slows everything: every 8th piece past 20,000
    judged = 0  # phase 2 runs JUDGED pieces (moto's UpdateItem, a run's score, is the slow part)
    before_judging = (0.0, 0.0, 0)
    judged_runs = [0]
    keep = passes.keep_score

    def counted(*args: Any) -> Any:
        judged_runs[0] += 1
        return keep(*args)

    passes.keep_score = counted  # type: ignore[method-assign]
    # The piece's own memory, moto's aside: in-process moto builds a Query's whole partition in
    # Python (DynamoDB does not), so the peak counts it; a snapshot after every batch of runs read,
    # without moto's and botocore's frames, is what the piece holds.
    own_peak = [0]
    read_runs = passes.read_runs

    def sampled(scope: Any, run_ids: list[str]) -> Any:
        for number, run in enumerate(read_runs(scope, run_ids), start=1):
            if number % 100 == 0 or number == len(run_ids):
                own_peak[0] = max(own_peak[0], own_bytes())
            yield run

    if OWN:  # slow: a snapshot of every traced block after every batch
        passes.read_runs = sampled  # type: ignore[method-assign]
    mine: dict[int, list[int]] = {1: [], 0: [], 2: []}
    own: dict[int, list[float]] = {1: [], 0: [], 2: []}
    peaks: dict[int, list[int]] = {1: [], 0: [], 2: []}
    seconds: dict[int, list[float]] = {1: [], 0: [], 2: []}
    while queue.messages:
        body, _ = queue.messages.popleft()
        phase = Piece.of(body).phase
        if phase == 2:
            if judged == JUDGED:
                continue
            if judged == 0:
                before_judging = (units.read, units.write, sum(units.calls.values()))
            judged += 1
        traced = len(seconds[phase]) % sample == 0
        own_peak[0] = 0
        if traced:
            tracemalloc.start(12 if OWN else 1)
        begun, before = time.perf_counter(), waited[0]
        service.run(body)
        seconds[phase].append(time.perf_counter() - begun)
        own[phase].append(seconds[phase][-1] - (waited[0] - before))
        if traced:
            peaks[phase].append(tracemalloc.get_traced_memory()[1])
            mine[phase].append(max(own_peak[0], own_bytes()) if OWN else 0)
            tracemalloc.stop()
    pieces = passes.pass_state(SCOPE).expected[1]
    recap = ports.recaps.recap(SCOPE)
    assert recap is not None and recap.recap.players == ranked, (recap and recap.recap.players, ranked)
    print(
        f"  {count:>7,} runs, {ranked:,} ranked ({stored:.0f} s to store): "
        f"{pieces} pieces a phase, {JUDGED} judged"
    )
    for phase, name in ((1, "count"), (0, "merge"), (2, "judge")):
        if peaks[phase]:
            print(
                f"    {name}: peak {max(peaks[phase]) / 2**20:.1f} MB a piece (median "
                f"{sorted(peaks[phase])[len(peaks[phase]) // 2] / 2**20:.1f}); its own "
                f"{max(mine[phase]) / 2**20:.2f} MB "
                f"(median {sorted(mine[phase])[len(mine[phase]) // 2] / 2**20:.2f}); "
                f"{max(seconds[phase]):.2f} s the longest, {sum(seconds[phase]):.1f} s in all, "
                f"{sum(own[phase]):.1f} s outside requests"
            )
    print(f"    requests {dict(units.calls)}; {units.read:,.0f} read units, {units.write:,.0f} write units")
    read, write, requests = before_judging
    judging = (units.read - read, units.write - write, sum(units.calls.values()) - requests)
    print(
        f"    phases 1 and merge, a run: {read / ranked:.3f} read units, {write / ranked:.3f} write units, "
        f"{requests / ranked:.4f} requests; phase 2 ({judged_runs[0]:,} runs), a run: "
        f"{judging[0] / judged_runs[0]:.3f} read, {judging[1] / judged_runs[0]:.3f} write, "
        f"{judging[2] / judged_runs[0]:.3f} requests"
    )


def main() -> None:
    sizes = [int(arg) for arg in sys.argv[1:] if arg.isdigit()] or list(SIZES)
    print("The closing pass in pieces: memory and time per piece, requests and units per pass")
    cheaper_requests()  # `make run`'s moto: a transaction copies the items it touches, not the table
    with mock_aws():
        for count in sizes:
            measure(count)


if __name__ == "__main__":
    main()
