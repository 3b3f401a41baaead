"""What the closing pass reads (SPEC §3b's find-time pass and §4a's recap share one read of the
day's runs) with 500 and 2,000 official runs, scaled to a million. Figures, not assertions.
`python benchmarks/closing_pass.py`.

The runs are benchmarks/recap.py's simulated people, stored as the game stores them (the run item,
then the completing transaction with its official result and `board` index row) on in-process
moto. Then `DynamoModeration.scope_runs`, the pass's one read, runs under benchmarks/boards.py's
Meter (each response's items: eventually consistent, half a unit per 4 KB of each item; a Query's
units from the summed size of the items it returned, as DynamoDB counts them).
"""

import random

from offline import use_offline_env

use_offline_env()

import boto3  # noqa: E402
from boards import Meter  # noqa: E402
from moto import mock_aws  # noqa: E402
from recap import DAY, SCOPE, simulated_runs  # noqa: E402

from local.moto_patches import cheaper_requests  # noqa: E402
from shared.dynamo.store import DynamoPorts, dynamo_ports  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402
from shared.game.puzzles import generate_puzzle, seed_for_date  # noqa: E402
from shared.game.results import OfficialResult  # noqa: E402
from shared.services.completion import completion_of  # noqa: E402
from shared.services.ports import Version  # noqa: E402

SIZES = (500, 2_000)
PLAYERS = 1_000_000


def stored_day(count: int) -> DynamoPorts:
    """A table holding COUNT completed official runs of the day."""
    table = f"bench-closing-{count}"
    client = boto3.client("dynamodb")
    client.create_table(**create_table_request(table))
    store = dynamo_ports(table, client)
    puzzle = generate_puzzle(seed_for_date(b"benchmark-secret", DAY), 10, 3)
    store.runs.put_puzzle(SCOPE, puzzle)
    for run in simulated_runs(puzzle, count, random.Random(count)):
        for record in run.history:  # people's pace: each attempt some seconds after the round showed
            for number, attempt in enumerate(record.attempts, start=1):
                attempt.elapsed_ms = 4_000 * number
        run.completed_at = run.deadline
        store.runs.create_run(run)
        result = OfficialResult.of_run(run)
        store.results.complete_run(
            run, Version(0), completion_of(result, store.results.profile_for_completion(run.player))
        )
    return store


def main() -> None:
    print("The closing pass's read of a day's runs (the find-time pass and the recap share it)")
    per_run = 0.0
    cheaper_requests()  # `make run`'s moto: a transaction copies the items it touches, not the table
    with mock_aws():
        for count in SIZES:
            store = stored_day(count)
            meter = Meter(store.client)
            runs = store.moderation.scope_runs(SCOPE)
            figures = meter.figures()
            per_run = figures["read units"] / count
            print(
                f"  {count:>6,} runs: {len(runs):,} read, requests {dict(meter.calls)}, "
                f"{figures['read units']:,.1f} read units ({per_run:.3f} a run)"
            )
    print(
        f"  at {PLAYERS:,} runs, scaled from the last: {per_run * PLAYERS:,.0f} read units once a day "
        f"(${per_run * PLAYERS * 0.125 / 1e6:.2f} at $0.125 per million), no write at the rush"
    )


if __name__ == "__main__":
    main()
