"""The midnight rush as figures: with N players in the ten minutes after 00:00 Central, what each
quota and partition meets at the top of the rush, from the project's per-run figures (measured by
`make bench` with benchmarks/meter.py). docs/operations.md, "The ten-million night", prints them;
scripts/preflight.py checks a stage's planned peak (its `rush_players`) against its quotas.
The board's bound is the stage's (its `board_shards` in infra/stages.json), the `due` index's that
of keys.DUE_SHARDS.

    python scripts/rush_plan.py [--players 1000000,10000000] [--stage dev]
"""

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infra.capacity import PEAK_FACTOR, REQUESTS_PER_RUN, WARM_REQUEST_SECONDS  # noqa: E402
from infra.config import REPO_ROOT, STAGES_FILE, StageConfig  # noqa: E402
from shared.dynamo.keys import DUE_SHARDS  # noqa: E402

RUSH_SECONDS = 600  # SPEC §4: the rush is the ten minutes after the reset
# Per official run and the reads after it (a start, 10 answers, the rank, `GET /me`):
# benchmarks/daily.py's whole official run is 26 write units, 5 of them its index entries (below);
# the rank counters add 4.5 a result (benchmarks/boards.py, "The counters at the rush").
TABLE_WRITE_UNITS = 26 - 5 + 4.5
# The completing answer's read (2), then the rank (4.5) and `GET /me` (1): benchmarks/cost.py.
TABLE_READ_UNITS = 2 + 4.5 + 1
INDEX_WRITE_UNITS = {"board": 1, "history": 1, "due": 2, "runs": 1}  # a start and a completion
# Completions a second the board index takes: MEASURED_SHARDS shards of about 1,000 write units/s
# each, less the unevenness of random arrivals (benchmarks/boards.py measured 29,240 at 32 shards;
# docs/data-model.md).
BOARD_COMPLETIONS_BOUND = 29_000
MEASURED_SHARDS = 32
PARTITION_WRITE_UNITS = 1_000  # a DynamoDB partition's writes a second


def board_completions_bound(shards: int) -> int:
    """Completions a second SHARDS board shards take: the measured bound, per shard."""
    return BOARD_COMPLETIONS_BOUND * shards // MEASURED_SHARDS


def due_completions_bound(shards: int) -> int:
    """Completions a second SHARDS partitions of the `due` index take: two entries a run (its
    start and its completion; docs/data-model.md)."""
    return shards * PARTITION_WRITE_UNITS // INDEX_WRITE_UNITS["due"]


DUE_COMPLETIONS_BOUND = due_completions_bound(DUE_SHARDS)
# Lambda adds at most 1,000 execution environments every 10 seconds per function above what is
# provisioned (https://docs.aws.amazon.com/lambda/latest/dg/scaling-behavior.html).
SCALING_PER_10_SECONDS = 1_000


@dataclass(frozen=True)
class Peak:
    """The top of a rush of PLAYERS (PEAK_FACTOR times its ten-minute average), per second."""

    players: int

    @property
    def runs(self) -> float:
        return self.players / RUSH_SECONDS * PEAK_FACTOR

    @property
    def api_requests(self) -> float:
        return self.runs * sum(REQUESTS_PER_RUN.values())

    @property
    def concurrency(self) -> dict[str, int]:
        """Busy environments per API function: requests/s x a warm request's seconds."""
        return {name: math.ceil(self.runs * n * WARM_REQUEST_SECONDS) for name, n in REQUESTS_PER_RUN.items()}

    @property
    def table_writes(self) -> float:
        return self.runs * TABLE_WRITE_UNITS

    @property
    def table_reads(self) -> float:
        return self.runs * TABLE_READ_UNITS

    def index_writes(self, index: str) -> float:
        return self.runs * INDEX_WRITE_UNITS[index]

    def ramp_seconds(self, provisioned: dict[str, int]) -> float:
        """How long Lambda takes to add what PROVISIONED lacks, the slowest function's."""
        short = [max(0, need - provisioned.get(name, 0)) for name, need in self.concurrency.items()]
        return 10 * math.ceil(max(short) / SCALING_PER_10_SECONDS)


def load_stage(stage: str, stages_file: Path = STAGES_FILE) -> StageConfig:
    """STAGE's entry of STAGES_FILE, as the deploy reads it (infra.config)."""
    # The asset plays no part in quotas: the repository root stands in for it.
    return StageConfig.load(stage, json.loads(stages_file.read_text()), REPO_ROOT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="1000000,10000000")
    parser.add_argument("--stage", default="dev", help="the stage of infra/stages.json")
    parser.add_argument("--stages-file", type=Path, default=STAGES_FILE)
    args = parser.parse_args(argv)
    peaks = [Peak(int(n)) for n in args.players.split(",")]
    shards = load_stage(args.stage, args.stages_file).board_shards
    board = f"board completions/s (bound {board_completions_bound(shards):,}: {shards} shards, {args.stage})"
    due = f"`due` completions/s (bound {DUE_COMPLETIONS_BOUND:,}: {DUE_SHARDS} partitions)"
    rows = [
        ("runs completed/s (average x 2)", lambda p: p.runs),
        ("API requests/s", lambda p: p.api_requests),
        *[
            (f"Lambda environments busy, {name}", lambda p, n=name: p.concurrency[n])
            for name in REQUESTS_PER_RUN
        ],
        ("DynamoDB table write units/s", lambda p: p.table_writes),
        ("DynamoDB table read units/s", lambda p: p.table_reads),
        *[
            (f"DynamoDB `{i}` index write units/s", lambda p, i=i: p.index_writes(i))
            for i in INDEX_WRITE_UNITS
        ],
        (board, lambda p: p.runs),
        (due, lambda p: p.runs),
        ("Lambda ramp with nothing provisioned, s", lambda p: p.ramp_seconds({})),
    ]
    width = max(len(label) for label, _ in rows) + 2
    print(f"{'at the top of the rush':<{width}}" + "".join(f"{p.players:>14,}" for p in peaks))
    for label, figure in rows:
        print(f"{label:<{width}}" + "".join(f"{figure(p):>14,.0f}" for p in peaks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
