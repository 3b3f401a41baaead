"""What a closed day's recap costs in DynamoDB with 100, 2,000 and 20,000 counted players (SPEC
§4a), and the largest a round's item can be. Figures, not assertions. `python benchmarks/recap.py`.

The day's runs are simulated people (benchmarks/skill.py: 60% casual, 30% good, 10% expert) on a
Daily from the generator (a fixed secret); they pick uniformly among a round's common answers, so
the played words spread about as widely as people's could, which is what sizes the items. The
closing pass's step (shared/services/recap.py `Recaps.record`) stores them on in-process moto; the
reads are metered by benchmarks/meter.py on every request the store's client sends (as DynamoDB
bills it). Write units are a unit per 1 KB of each item put.
"""

import math
import random
import sys
from datetime import UTC, datetime, timedelta

from offline import use_offline_env

use_offline_env()

import boto3  # noqa: E402
from meter import Meter, item_size  # noqa: E402
from moto import mock_aws  # noqa: E402
from skill import MIX, PEOPLE, play  # noqa: E402

from shared.dynamo import keys  # noqa: E402
from shared.dynamo.recap import encode_words  # noqa: E402
from shared.dynamo.store import dynamo_ports  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402
from shared.game.clock import iso  # noqa: E402
from shared.game.puzzles import Round, answers, generate_puzzle, pool, seed_for_date  # noqa: E402
from shared.game.runs import Attempt, RoundRecord, Run  # noqa: E402
from shared.game.scope import Scope  # noqa: E402
from shared.services.recap import Recaps  # noqa: E402

SIZES = (100, 2_000, 20_000)
DAY = "2026-03-08"
SCOPE = Scope.daily(DAY)


def simulated_runs(puzzle: list[Round], count: int, rng: random.Random) -> list[Run]:
    """COUNT ranked runs of simulated people as the run engine would have kept them."""
    start = datetime(2026, 3, 8, 12, tzinfo=UTC)
    runs = []
    while len(runs) < count:
        person = rng.choices(PEOPLE, MIX)[0]
        played = play(puzzle, person, rng)
        if not played.ranked:
            continue
        history = []
        for number, current in enumerate(puzzle, start=1):
            mine = [a for a in played.attempts if a[0] == number]
            if not mine:
                break
            attempts = [
                Attempt(word=w or "zzz", accepted=w is not None, reason=None if w else "not_a_word")
                for _, w, _, _ in mine
            ]
            found = any(w for _, w, _, _ in mine)
            outcome = "accepted" if found else "lost" if len(mine) == 3 else None
            history.append(
                RoundRecord(
                    round=number,
                    prompt=current.prompt,
                    forbidden=current.forbidden,
                    attempts=attempts,
                    outcome=outcome,
                )
            )
        runs.append(
            Run(
                run_id=f"r{len(runs)}", kind="daily", date=DAY, player=f"p{len(runs)}", official=True,
                puzzle=puzzle, history=history, started_at=iso(start),
                deadline=iso(start + timedelta(seconds=180)),
            )
        )  # fmt: skip
    return runs


def measure(puzzle: list[Round], count: int) -> dict[str, object]:
    table = f"bench-recap-{count}"
    client = boto3.client("dynamodb")
    client.create_table(**create_table_request(table))
    store = dynamo_ports(table, client, board_shards=keys.BOARD_SHARDS)
    runs = simulated_runs(puzzle, count, random.Random(count))
    Recaps(store.recaps, store.results, store.runs).record(SCOPE, puzzle, runs)
    sizes = [item_size(store.db.get(keys.recap_round_key(SCOPE, n)) or {}) for n in range(1, 11)]
    summary = item_size(store.db.get(keys.recap_key(SCOPE)) or {})
    meter = Meter(client)
    store.recaps.recap(SCOPE)
    public = meter.figures()
    meter.reset()
    store.recaps.round_words(SCOPE, list(range(1, 11)))
    mine = meter.figures()
    distinct = [len(t) for t in store.recaps.round_words(SCOPE, list(range(1, 11))).values()]
    return {
        "summary bytes": summary,
        "summary read units": public["read units"],
        "round items' bytes (largest)": max(sizes),
        "distinct words a round (largest)": max(distinct),
        "10 rounds' words, read units (BatchGetItem)": mine["read units"],
        "pass writes, write units": sum(math.ceil(s / 1024) for s in [*sizes, summary]),
    }


def widest_round() -> tuple[str, int, int]:
    """The pool's prompt with the most answers, every one played by 999,999 players: the bound."""
    prompt = max(pool(), key=lambda p: len(answers(p)))
    every = answers(prompt)
    return prompt, len(every), len(encode_words(dict.fromkeys(every, 999_999)))


def main(sizes: tuple[int, ...] = SIZES) -> None:
    puzzle = generate_puzzle(seed_for_date(b"benchmark-secret", DAY), 10, 3)
    with mock_aws():
        for count in sizes:
            print(f"{count:>6} players:", measure(puzzle, count))
    prompt, words, size = widest_round()
    print(
        f"bound: {prompt}, {words} answers, all played: a round item of {size / 1024:.0f} KB (limit 400 KB)"
    )


if __name__ == "__main__":
    chosen = [arg.removeprefix("--sizes=") for arg in sys.argv[1:] if arg.startswith("--sizes=")]
    main(tuple(int(n) for n in chosen[0].split(",")) if chosen else SIZES)
