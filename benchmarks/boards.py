"""What boards cost in DynamoDB with 100, 2,000 and 20,000 official results (SPEC §4: the same
whether 10 or 10 million players took part), and what the busiest partition takes at the rush.

Reads: a page of 50 (first read on a container, and again with the display names cached), the
next page by its cursor, a deep page, a closed page, and one player's rank. Requests, items read,
their size and read units are charged by benchmarks/meter.py on every request the store's client
sends, as DynamoDB bills it.

Writes at the rush: each completion writes one board row into one of the board's shards (its
size measured from the index). The stream consumer is invoked once a second per stream shard:
its counting transactions (the consumer's own grouping, one update per counter item touched, on
one counter copy) and its way into the top item (inbox, claim, fold) are simulated second by
second with the consumer's own functions, items sized as stored. Figures, not assertions.
`make bench`.
"""

import base64
import math
import random
import string
import sys
import time
import uuid
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any

from offline import use_offline_env

use_offline_env()

import boto3  # noqa: E402
from meter import Meter, item_size  # noqa: E402
from moto import mock_aws  # noqa: E402

from shared.dynamo import keys  # noqa: E402
from shared.dynamo.board_index import shard_page  # noqa: E402
from shared.dynamo.codec import inbox_item, official_item, top_items  # noqa: E402
from shared.dynamo.counters import chunks  # noqa: E402
from shared.dynamo.store import DynamoPorts, dynamo_ports  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402
from shared.game.boards import (  # noqa: E402
    SETTLE_SECONDS,  # noqa: E402
    BoardEntry,
    BoardPosition,
    TieKey,
    merge_top,
)
from shared.game.clock import iso  # noqa: E402
from shared.game.constants import (  # noqa: E402
    DAILY_FORBIDDEN_ROUNDS,
    DAILY_ROUNDS,
    POINTS_PER_LETTER,
    POINTS_PER_LETTER_FORBIDDEN,
)
from shared.game.dictionary import words  # noqa: E402
from shared.game.results import OfficialResult  # noqa: E402
from shared.game.scope import Scope  # noqa: E402
from shared.game.scoring import combo_bonus, speed_bonus  # noqa: E402
from shared.services.leaderboard import TOP, Boards  # noqa: E402

SIZES = (100, 2_000, 20_000)
DAY = "2026-01-15"
SCOPE = Scope.daily(DAY)
NOON = datetime(2026, 1, 15, 18, 0, tzinfo=UTC)  # the board is live
CLOSED = datetime(2026, 1, 16, 7, 0, tzinfo=UTC)  # DAY closed (06:03 UTC) and settled
PAGE = 50
DEEP_PAGE = 10


def _tie(result: OfficialResult) -> TieKey:
    return BoardPosition.of(result).tie


def played_run(rng: random.Random) -> tuple[int, int, int]:
    """(score, best combo, longest word) of a plausible Daily run (each answer 1 to 15 s after its
    round was shown)."""
    score = combo = best = longest = 0
    for round_number in range(1, DAILY_ROUNDS + 1):
        if rng.random() < 0.25:
            combo = 0
            continue
        length = min(15, max(3, round(rng.gauss(7, 2))))
        combo += 1
        forbidden = round_number > DAILY_ROUNDS - DAILY_FORBIDDEN_ROUNDS
        per_letter = POINTS_PER_LETTER_FORBIDDEN if forbidden else POINTS_PER_LETTER
        score += length * per_letter + combo_bonus(combo) + speed_bonus(rng.randrange(1_000, 15_000))
        best, longest = max(best, combo), max(longest, length)
    return score, best, longest


@cache
def _answers() -> list[str]:
    return sorted(w for w in words() if 4 <= len(w) <= 10)


def display_name(player: str) -> str:
    """A player's display name in the benchmark: 6 to 16 letters, random (as incompressible as
    players' names are)."""
    rng = random.Random(player)
    return "".join(rng.choices(string.ascii_letters, k=rng.randint(6, 16)))


def results_for(count: int) -> list[OfficialResult]:
    """COUNT official results sized as production's: a Cognito sub (a random UUID), a run id of
    16 random bytes (22 characters, as the game makes them), 6 to 10 dictionary words. Random
    like theirs, so the top item compresses as it would."""
    rng = random.Random(count)
    results = []
    for _ in range(count):
        score, best, longest = played_run(rng)
        completed = NOON - timedelta(hours=12) + timedelta(seconds=rng.randrange(12 * 3600))
        results.append(
            OfficialResult(
                player=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                kind="daily",
                date=DAY,
                challenge_id=None,
                run_id=base64.urlsafe_b64encode(rng.randbytes(16)).rstrip(b"=").decode(),
                score=score,
                best_combo=best,
                longest_word_length=longest,
                started_at=iso(completed - timedelta(milliseconds=rng.randrange(30_000, 180_001))),
                completed_at=iso(completed),
                words=rng.sample(_answers(), rng.randint(6, 10)),
            )
        )
    return results


def fill(store: DynamoPorts, results: list[OfficialResult]) -> None:
    """The items completions and the stream consumer leave: official items (already counted),
    profiles, and each counter item once with the sum of its increments (batch writes, which is
    quicker here than a transaction each)."""
    puts, sums, rows = [], Counter(), []
    for result in results:
        name = display_name(result.player)
        puts.append({**official_item(result, name, keys.BOARD_SHARDS), "counted": {"BOOL": True}})
        rows.append(BoardEntry(result.player, BoardPosition.of(result), result.words, name))
        puts.append(
            {"pk": {"S": f"PLAYER#{result.player}"}, "sk": {"S": "PROFILE"}, "display_name": {"S": name}}
        )
        for key, attribute in keys.counter_keys(SCOPE, _tie(result)):
            sums[key["pk"]["S"], key["sk"]["S"], attribute] += 1
    puts.extend(top_items(SCOPE, merge_top([], rows), 1))  # what the consumer keeps
    for start in range(0, len(puts), 25):
        pending = {store.table: [{"PutRequest": {"Item": item}} for item in puts[start : start + 25]]}
        while pending:
            pending = store.client.batch_write_item(RequestItems=pending).get("UnprocessedItems")
    by_item: dict[tuple[str, str], dict[str, int]] = {}
    for (pk, sk, attribute), total in sums.items():
        by_item.setdefault((pk, sk), {})[attribute] = total
    for (pk, sk), totals in by_item.items():
        names = sorted(totals)
        for start in range(0, len(names), 40):  # moto's expression parser recurses per clause
            chunk = names[start : start + 40]
            store.client.update_item(
                TableName=store.table,
                Key={"pk": {"S": pk}, "sk": {"S": sk}},
                UpdateExpression="ADD " + ", ".join(f"#a{n} :v{n}" for n in range(len(chunk))),
                ExpressionAttributeNames={f"#a{n}": a for n, a in enumerate(chunk)},
                ExpressionAttributeValues={f":v{n}": {"N": str(totals[a])} for n, a in enumerate(chunk)},
            )


def _row(result: OfficialResult) -> BoardEntry:
    return BoardEntry(result.player, BoardPosition.of(result), result.words, display_name(result.player))


def rush_writes(store: DynamoPorts, results: list[OfficialResult]) -> dict[str, float]:
    """Write units per 1,000 completions on the busiest board shard, and the sizes of a row and of
    a full top item. (The counters' writes follow the consumer's invocations, not the
    completions: `counters_at_the_rush`.)"""
    rows = Counter(keys.shard(r.player, keys.BOARD_SHARDS) for r in results)
    row_bytes = [item_size(i) for i in _index_entries(store)]
    row_units = max(math.ceil(size / 1024) for size in row_bytes)
    arrivals = random.Random(1).sample(results, len(results))
    top, words = top_items(SCOPE, merge_top([], [_row(r) for r in arrivals]), 1)
    return {
        "top item bytes (full)": item_size(top),
        "its words item bytes": item_size(words),
        "board row bytes (largest)": max(row_bytes),
        "busiest board shard, units per 1,000": max(rows.values()) * row_units * 1000 / len(results),
    }


# The rush at one and ten million players in ten minutes: completions a second, and the stream
# shards (one consumer invocation each per batching window, a second) the table's write rate
# gives the stream (docs/leaderboards.md derives them).
RUSHES = (("1 million", 1_667, 40), ("10 million", 16_667, 400))
RUSH_SECONDS = 8


def top_at_the_rush(rate: int, stream_shards: int) -> dict[str, float]:
    """The top item, its claim item and its inbox partitions, second by second, when RATE
    completions a second arrive (random order) through STREAM_SHARDS consumers invoked once a
    second, following the consumer's rules (shared/dynamo/top.py `merge`): an invocation
    whose rows could enter the top as last folded leaves them in an inbox item (sized as stored)
    and reads the board's claim (consistently: once, and once after waiting for its end; it also
    reads its own inbox item, on the inbox partitions); one consumer a second claims it (a
    1-unit put; the others' failed puts at the interval's end bound the claim's writes) and
    folds: it writes the top item (sized as stored) and deletes the inbox items it read (a delete
    costs the item's size). Returns the busiest second's units per partition, and totals."""
    arrivals = results_for(rate * RUSH_SECONDS)
    per_call = rate // stream_shards
    top: list[BoardEntry] = []
    busiest: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for second in range(RUSH_SECONDS):
        batch = arrivals[second * rate : (second + 1) * rate]
        left: list[list[BoardEntry]] = []
        for call in range(stream_shards):
            rows = [_row(r) for r in batch[call * per_call : (call + 1) * per_call]]
            present = {e.player for e in top}
            entering = [e for e in merge_top(top, rows) if e.player not in present]
            if entering:
                left.append(entering)
        units: Counter[str] = Counter()
        inbox_units: Counter[int] = Counter()
        for n, rows in enumerate(left):
            item = inbox_item(SCOPE, rows, 1.8e9 + second, f"{second}-{n}")
            inbox = int(item["pk"]["S"].rsplit("#IN", 1)[1])
            inbox_units[inbox] += 2 * math.ceil(item_size(item) / 1024)  # its put and its delete
        units["claim item reads"] = 2 * len(left)  # consistent, 1 unit: once, and once after waiting
        # The fold's claim, and at worst a failed conditional put (still a unit) by every other
        # invocation waking at the interval's end before that claim lands: an upper bound.
        units["claim item writes"] = len(left)
        units["busiest inbox partition"] = max(inbox_units.values(), default=0)
        units["inbox items"] = len(left)
        if left:
            top = merge_top(top, [e for rows in left for e in rows])
            # the top item and its words item, written in one transaction (twice the units)
            units["top item"] = 2 * sum(
                math.ceil(item_size(i) / 1024) for i in top_items(SCOPE, top, second + 1)
            )
        for name, value in units.items():
            busiest[name] = max(busiest[name], value)
            totals[name] += value
    return {
        "top item, busiest second (units)": busiest["top item"],
        "claim item writes, busiest second, at most (units)": busiest["claim item writes"],
        "claim item reads, busiest second (units)": busiest["claim item reads"],
        "busiest inbox partition, busiest second (units)": busiest["busiest inbox partition"],
        "inbox items, busiest second": busiest["inbox items"],
        f"inbox items in {RUSH_SECONDS} s": totals["inbox items"],
        f"top item units in {RUSH_SECONDS} s": totals["top item"],
    }


def _index_entries(store: DynamoPorts) -> list[dict]:
    entries = []
    for shard in range(keys.BOARD_SHARDS):
        entries += store.client.query(
            TableName=store.table,
            IndexName="board",
            KeyConditionExpression="board_pk = :p",
            ExpressionAttributeValues={":p": {"S": f"BOARD#DAILY#{DAY}#{shard}"}},
            Limit=50,
        )["Items"]
    return entries


def measure(count: int) -> tuple[dict[str, dict[str, Any]], dict[str, float]]:
    table = f"bench-boards-{count}"
    client = boto3.client("dynamodb")
    client.create_table(**create_table_request(table))
    store = dynamo_ports(table, client, board_shards=keys.BOARD_SHARDS)
    results = results_for(count)
    started = time.perf_counter()
    fill(store, results)
    filled = time.perf_counter() - started
    meter = Meter(client)
    boards = Boards(store.boards, store.ranks, store.names, store.runs, now=lambda: NOON)
    figures: dict[str, dict[str, Any]] = {}

    def metered(name: str, call):
        meter.reset()
        reply = call()
        figures[name] = meter.figures()
        return reply

    # A cursor carries the position its page starts at (shared/http/cursors.py): the pages here
    # start at the positions themselves.
    board_day = date.fromisoformat(DAY)
    first = metered("page 1", lambda: boards.daily_board(board_day, TOP, PAGE))
    second = metered(
        "page 2 by its cursor", lambda: boards.daily_board(board_day, first.following or TOP, PAGE)
    )
    cursor, position = first.following or TOP, PAGE
    if second.following:
        walked = boards.daily_board(board_day, second.following, (DEEP_PAGE - 3) * PAGE)
        if walked.following:
            cursor, position = walked.following, (DEEP_PAGE - 1) * PAGE
    depth = position // PAGE + 1
    deep = metered("deep page by its cursor", lambda: boards.daily_board(board_day, cursor, PAGE))
    metered(
        "page 1 merged from the shards (no top)",
        lambda: shard_page(store.db, store.board_keys, SCOPE, None, PAGE + 1),
    )
    figures["deep page by its cursor"]["page"] = depth
    ordered = sorted(results, key=lambda r: (-r.score, -r.best_combo, -r.longest_word_length, r.completed_at))
    middle = ordered[len(ordered) // 2]
    mine = metered("one player's rank", lambda: boards.daily_rank(DAY, middle.player))
    metered("the day's distribution", lambda: boards.daily_distribution(DAY))
    store.runs.mark_completed_through(CLOSED)
    closed_boards = Boards(
        store.boards,
        store.ranks,
        store.names,
        store.runs,
        now=lambda: CLOSED + timedelta(seconds=SETTLE_SECONDS),
    )
    closed = metered("page 1 of the closed board", lambda: closed_boards.daily_board(board_day, TOP, PAGE))

    expected = 1 + sum(1 for r in results if _tie(r) > _tie(middle))
    print(
        f"{count:>6} results: filled in {filled:.1f}s; {len(first.rows)} rows on page 1, {len(deep.rows)} on "
        f"page {depth}; median player's rank {mine.row.rank} (expected {expected}); closed page status "
        f"{'closed' if closed.closed else 'live'}; {len({r.score for r in results})} distinct scores"
    )
    return figures, rush_writes(store, results)


# The counters at the rush: completions a second and the stream shards the table's write rate
# gives the stream (about 25 write units per run, one shard per 1,000 units/s: rate / 40).
COUNTER_RUSHES = (
    ("1 million", 1_667, 40),
    ("10 million", 16_667, 400),
    ("20,000/s", 20_000, 500),
    ("30,000/s", 30_000, 750),
)


def counters_at_the_rush(rate: int, stream_shards: int, counter_shards: int) -> dict[str, float]:
    """The counter items' write units a second when RATE completions a second arrive (random
    order) through STREAM_SHARDS consumers invoked once a second, each counting its share with
    the consumer's own grouping (`chunks`: one transaction per group, one update per counter item
    it touches, on one counter shard picked at random), after ten seconds of the same rush have
    filled the counters (an update costs 2 units per KB of the item, in a transaction)."""
    arrivals = results_for(rate)  # one second's worth
    rng = random.Random(rate)
    per_call = math.ceil(rate / stream_shards)
    attributes: dict[str, Counter[str]] = {}  # counter item -> its counts after ten seconds
    for result in arrivals:
        for shard in range(counter_shards):
            for key, name in keys.counter_keys(SCOPE, _tie(result), shard):
                attributes.setdefault(key["pk"]["S"], Counter())[name] += 10 // counter_shards
    units: Counter[str] = Counter()
    transactions = 0
    for call in range(stream_shards):
        for chunk in chunks(arrivals[call * per_call : (call + 1) * per_call]):
            transactions += 1
            shard = rng.randrange(counter_shards)
            for pk in {key["pk"]["S"] for r in chunk for key, _ in keys.counter_keys(SCOPE, _tie(r), shard)}:
                item = {"pk": {"S": pk}, "sk": {"S": "BANDS"}}  # (the longest of the three)
                item.update({name: {"N": str(n)} for name, n in attributes[pk].items()})
                units[pk] += 2 * math.ceil(item_size(item) / 1024)
    # the most units; a tie (BANDS is in every transaction, so often) named by the first key
    busiest, busiest_units = min(units.items(), key=lambda item: (-item[1], item[0]))
    # Each result's `counted` marker: an update of its official item in the transaction (2 units
    # per KB of the item).
    markers = sum(
        2 * math.ceil(item_size(official_item(r, display_name(r.player), keys.BOARD_SHARDS)) / 1024)
        for r in arrivals
    )
    return {
        "counting transactions a second": transactions,
        "results per transaction": rate / transactions,
        "counter write units per result": sum(units.values()) / rate,
        "marker write units per result": markers / rate,
        "busiest counter item": busiest.removeprefix(f"COUNT#DAILY#{DAY}").lstrip("#") or "BANDS",
        "its write units a second": busiest_units,
    }


def main(reads_only: bool = False, sizes: tuple[int, ...] = SIZES) -> None:
    """Every figure; READS_ONLY (`--reads`): the read table alone, for SIZES (`--sizes=100,2000`)."""
    with mock_aws():
        runs = [measure(count) for count in sizes]
    print()
    print(f"DynamoDB reads per call: {keys.BOARD_SHARDS} board shards, pages of {PAGE}, in-process moto")
    header = f"{'call':<34} {'figure':<11}" + "".join(f"{count:>10,}" for count in sizes)
    print(header)
    print("-" * len(header))
    for position, call in enumerate(runs[-1][0]):
        pages = [str(r[0][call]["page"]) for r in runs if "page" in r[0][call]]
        print(call + (f" (page {' / '.join(pages)})" if pages else ""))
        for figure in ("requests", "items read", "item bytes", "read units"):
            values = "".join(f"{list(r[0].values())[position][figure]:>10,}" for r in runs)
            print(f"{'':<34} {figure:<11}{values}")
        operations = {list(r[0].values())[position]["by operation"] for r in runs}
        print(f"{'':<34} {'requests':<11}   {' / '.join(sorted(operations))}")
    if reads_only:
        return
    print()
    print("Writes at the rush: the board index")
    for figure in runs[-1][1]:
        values = "".join(
            f"{value:>10,.1f}" if isinstance(value := r[1][figure], float) else f"{value!s:>10}" for r in runs
        )
        print(f"{figure:<45}{values}")
    busiest = runs[-1][1]["busiest board shard, units per 1,000"]
    print(f"completions/s at which the busiest board shard takes 1,000 units/s: {1e6 / busiest:,.0f}")
    print()
    print(f"The top of the board at the rush, second by second for {RUSH_SECONDS} s (units a second)")
    rushes = {label: top_at_the_rush(rate, shards) for label, rate, shards in RUSHES}
    print(f"{'':<50}" + "".join(f"{label:>14}" for label in rushes))
    print(f"{'completions/s, stream shards':<50}" + "".join(f"{f'{r:,}, {s}':>14}" for _, r, s in RUSHES))
    for figure in next(iter(rushes.values())):
        print(f"{figure:<50}" + "".join(f"{rush[figure]:>14,}" for rush in rushes.values()))
    print()
    print("The counters at the rush (one consumer invocation per stream shard a second)")
    print(
        f"{'completions/s, stream shards':<36}{'counter shards':>15}"
        + "".join(f"{f'{r:,}, {s}':>14}" for _, r, s in COUNTER_RUSHES)
    )
    for counter_shards in sorted({1, keys.COUNTER_SHARDS}):
        figures = [counters_at_the_rush(rate, shards, counter_shards) for _, rate, shards in COUNTER_RUSHES]
        for figure in figures[0]:
            values = "".join(
                f"{f[figure]:>14,.1f}" if isinstance(f[figure], float) else f"{f[figure]!s:>14}"
                for f in figures
            )
            print(f"{figure:<36}{counter_shards:>15}{values}")
    print()
    compare_shard_counts(runs[-1])


def compare_shard_counts(measured: tuple[dict, dict]) -> None:
    """The trade-off of the shard count, at 20,000 results: each shard costs a page read from the
    shards at least half a read unit; each takes 1/shards of the rush's board rows. Side by side
    with half as many shards (16, as before the top item)."""
    shards = keys.BOARD_SHARDS
    print(f"Board shards, side by side at {SIZES[-1]:,} results")
    columns = (
        "page 1 RU",
        "shard-merged page 1 RU",
        "page 10 RU",
        "busiest shard per 1,000",
        "board limit/s",
    )
    print(f"{'shards':>6} " + " ".join(f"{c:>{max(8, len(c))}}" for c in columns))
    results = {shards: measured}
    with mock_aws():
        keys.BOARD_SHARDS = shards // 2
        try:
            results[shards // 2] = measure(SIZES[-1])
        finally:
            keys.BOARD_SHARDS = shards
    for count, (reads, writes) in sorted(results.items()):
        busiest = writes["busiest board shard, units per 1,000"]
        page1, deep = reads["page 1"]["read units"], reads["deep page by its cursor"]["read units"]
        merged = reads["page 1 merged from the shards (no top)"]["read units"]
        print(f"{count:>6} {page1:>9} {merged:>22} {deep:>10} {busiest:>23.1f} {1_000_000 / busiest:>13,.0f}")


if __name__ == "__main__":
    chosen = [arg.removeprefix("--sizes=") for arg in sys.argv[1:] if arg.startswith("--sizes=")]
    main("--reads" in sys.argv[1:], tuple(int(n) for n in chosen[0].split(",")) if chosen else SIZES)
