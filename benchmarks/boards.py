"""What a board page, a deep page and one player's rank cost in DynamoDB with 100, 2,000 and
20,000 official results (SPEC §4: the same whether 10 or 10 million players took part).

Runs on in-process moto. Requests, items read, their size and the read units they would cost are
counted from every response the store's client receives (botocore's after-call event); figures,
not assertions. `make bench`. The board is filled with the store's own item shapes
(`DynamoStore._official_writes`) by batch writes, which is quicker than one transaction each.
"""

import math
import random
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from offline import use_offline_env

use_offline_env()

import boto3  # noqa: E402
from moto import mock_aws  # noqa: E402

from shared.boards import BOARD_SHARDS  # noqa: E402
from shared.clock import iso  # noqa: E402
from shared.constants import (  # noqa: E402
    DAILY_FORBIDDEN_ROUNDS,
    DAILY_ROUNDS,
    POINTS_PER_LETTER,
    POINTS_PER_LETTER_FORBIDDEN,
)
from shared.dynamo import DynamoStore  # noqa: E402
from shared.leaderboard import Boards  # noqa: E402
from shared.scoring import combo_bonus  # noqa: E402
from shared.store import OfficialResult  # noqa: E402
from shared.table import create_table_request  # noqa: E402

SIZES = (100, 2_000, 20_000)  # 2,000 is past the page ceiling (shards x (limit + 1) rows)
DAY = "2026-01-15"
NOON = datetime(2026, 1, 15, 18, 0, tzinfo=UTC)  # the board is live: counting, not caching, matters
PAGE = 50
DEEP_PAGE = 10


def played_run(rng: random.Random) -> tuple[int, int, int]:
    """(score, best combo, longest word) of a plausible Daily run, so the counters hold a
    realistic spread of distinct scores."""
    score = combo = best = longest = 0
    for round_number in range(1, DAILY_ROUNDS + 1):
        if rng.random() < 0.25:
            combo = 0
            continue
        length = min(15, max(3, round(rng.gauss(7, 2))))
        combo += 1
        forbidden = round_number > DAILY_ROUNDS - DAILY_FORBIDDEN_ROUNDS
        per_letter = POINTS_PER_LETTER_FORBIDDEN if forbidden else POINTS_PER_LETTER
        score += length * per_letter + combo_bonus(combo)
        best, longest = max(best, combo), max(longest, length)
    return score, best, longest


def fill(store: DynamoStore, count: int) -> list[OfficialResult]:
    """COUNT official results, written with the store's own item shapes: official items and
    profiles by BatchWriteItem, and each counter item once with the sum of its increments."""
    rng = random.Random(count)
    results, puts, increments = [], [], Counter()
    for i in range(count):
        score, best, longest = played_run(rng)
        player = f"bench-player-{i:06d}"
        result = OfficialResult(
            player=player,
            scope=f"DAILY#{DAY}",
            kind="daily",
            date=DAY,
            challenge_id=None,
            run_id=f"bench-run-{i:06d}",
            score=score,
            best_combo=best,
            longest_word_length=longest,
            completed_at=iso(NOON - timedelta(hours=12) + timedelta(seconds=rng.randrange(12 * 3600))),
            words=["timer", "meteor", "tremor"],
        )
        results.append(result)
        official, *counters = store._official_writes(result)
        puts.append(official["Put"]["Item"])
        puts.append({"pk": {"S": f"PLAYER#{player}"}, "sk": {"S": "PROFILE"}, "display_name": {"S": f"P{i}"}})
        for update in counters:
            key = tuple(sorted((k, v["S"]) for k, v in update["Update"]["Key"].items()))
            attribute = next(iter(update["Update"]["ExpressionAttributeNames"].values()))
            increments[key, attribute] += 1
    for start in range(0, len(puts), 25):
        pending = {store.table: [{"PutRequest": {"Item": item}} for item in puts[start : start + 25]]}
        while pending:
            pending = store.client.batch_write_item(RequestItems=pending).get("UnprocessedItems")
    by_item: dict[tuple, dict[str, int]] = {}
    for (key, attribute), total in increments.items():
        by_item.setdefault(key, {})[attribute] = total
    for key, totals in by_item.items():
        attributes = sorted(totals)
        for start in range(0, len(attributes), 40):  # moto's expression parser recurses per clause
            chunk = attributes[start : start + 40]
            store.client.update_item(
                TableName=store.table,
                Key={k: {"S": v} for k, v in key},
                UpdateExpression="ADD " + ", ".join(f"#a{n} :v{n}" for n in range(len(chunk))),
                ExpressionAttributeNames={f"#a{n}": a for n, a in enumerate(chunk)},
                ExpressionAttributeValues={f":v{n}": {"N": str(totals[a])} for n, a in enumerate(chunk)},
            )
    return results


def value_size(value: dict) -> int:
    """Approximate DynamoDB size of one attribute value (the rules of the DynamoDB docs)."""
    kind, inner = next(iter(value.items()))
    if kind == "S":
        return len(inner.encode())
    if kind == "N":
        return (len(inner.lstrip("-").replace(".", "").strip("0")) + 1) // 2 + 1
    if kind == "L":
        return 3 + sum(1 + value_size(v) for v in inner)
    if kind == "M":
        return 3 + sum(1 + len(k.encode()) + value_size(v) for k, v in inner.items())
    return 1


def item_size(item: dict) -> int:
    return sum(len(name.encode()) + value_size(value) for name, value in item.items())


def read_units(sizes: list[int], summed: bool) -> float:
    """Eventually consistent read units: half a unit per 4 KB (at least one half), of the sum of
    the sizes for a Query or GetItem, of each item for BatchGetItem."""
    if summed:
        return math.ceil(sum(sizes) / 4096) * 0.5 if sizes else 0.5
    return sum(math.ceil(size / 4096) * 0.5 for size in sizes)


class Meter:
    """Counts DynamoDB requests (by operation), items read, their size and the read units they
    would cost, from every response one client receives."""

    def __init__(self, client: Any):
        self.reset()
        client.meta.events.register("after-call.dynamodb", self._count)

    def reset(self) -> None:
        self.calls: Counter = Counter()
        self.items = 0
        self.bytes = 0
        self.units = 0.0

    def _count(self, parsed: dict, model: Any, **_: Any) -> None:
        self.calls[model.name] += 1
        if "Items" in parsed:
            found, query = parsed["Items"], True
            self.items += parsed.get("ScannedCount", parsed.get("Count", len(found)))
        elif "Responses" in parsed:
            found, query = [i for items in parsed["Responses"].values() for i in items], False
            self.items += len(found)
        else:
            found, query = ([parsed["Item"]] if "Item" in parsed else []), True
            self.items += len(found)
        sizes = [item_size(item) for item in found]
        self.bytes += sum(sizes)
        self.units += read_units(sizes, query)

    def figures(self) -> dict[str, Any]:
        calls = " + ".join(f"{n} {op}" for op, n in sorted(self.calls.items()))
        return {
            "requests": sum(self.calls.values()),
            "by operation": calls,
            "items read": self.items,
            "item bytes": self.bytes,
            "read units": self.units,
        }


def counter_sizes(store: DynamoStore) -> tuple[int, int]:
    """The size in bytes of the largest `SCORES` item and of the largest `SCORE#<score>` item:
    every completion of a shard updates one of each, and an update costs by item size."""
    largest = {"SCORES": 0, "SCORE#": 0}
    for shard in range(BOARD_SHARDS):
        items = store.client.query(
            TableName=store.table,
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": f"COUNT#DAILY#{DAY}#{shard}"}},
        )["Items"]
        for item in items:
            kind = "SCORES" if item["sk"]["S"] == "SCORES" else "SCORE#"
            largest[kind] = max(largest[kind], item_size(item))
    return largest["SCORES"], largest["SCORE#"]


def measure(count: int) -> dict[str, dict[str, Any]]:
    table = f"bench-boards-{count}"
    client = boto3.client("dynamodb")
    client.create_table(**create_table_request(table))
    store = DynamoStore(table, client)
    started = time.perf_counter()
    results = fill(store, count)
    filled = time.perf_counter() - started
    boards = Boards(store, lambda: b"benchmark cursor key", now=lambda: NOON)
    meter = Meter(client)
    figures = {}

    meter.reset()
    first = boards.daily_board(DAY, None, PAGE)
    figures["first page"] = meter.figures()
    meter.reset()
    second = boards.daily_board(DAY, first["next_cursor"], PAGE)
    figures["page 2, by its cursor"] = meter.figures()

    # The cursor of page DEEP_PAGE, or of the last page of a small board, from one long page: the
    # service takes any limit (the API caps it at 100), and in-process moto reads its whole table
    # for every Query, so fewer pages run faster.
    cursor, position = first["next_cursor"], PAGE
    if second["next_cursor"]:
        walked = boards.daily_board(DAY, second["next_cursor"], (DEEP_PAGE - 3) * PAGE)
        if walked["next_cursor"]:
            cursor, position = walked["next_cursor"], (DEEP_PAGE - 1) * PAGE
    depth = position // PAGE + 1
    meter.reset()
    deep = boards.daily_board(DAY, cursor, PAGE)
    figures["deep page, by its cursor"] = {**meter.figures(), "page": depth}

    ordered = sorted(results, key=lambda r: (-r.score, -r.best_combo, -r.longest_word_length, r.completed_at))
    middle = ordered[len(ordered) // 2]
    meter.reset()
    mine = boards.daily_rank(DAY, middle.player)
    figures["one player's rank"] = meter.figures()

    expected = 1 + sum(
        1
        for r in results
        if (r.score, r.best_combo, r.longest_word_length)
        > (middle.score, middle.best_combo, middle.longest_word_length)
    )
    print(
        f"{count:>6} results: filled in {filled:.1f}s; {len(first['rows'])} rows on page 1, "
        f"{len(deep['rows'])} on page {depth} (first rank {deep['rows'][0]['rank']}); "
        f"median player's rank {mine['rank']} (expected {expected}); "
        f"{len({r.score for r in results})} distinct scores"
    )
    scores_bytes, score_bytes = counter_sizes(store)
    print(
        f"{'':>15} largest counter items: SCORES {scores_bytes:,} bytes, SCORE#<score> {score_bytes:,} bytes"
    )
    return figures


def main() -> None:
    with mock_aws():
        runs = [measure(count) for count in SIZES]
    small, middle, large = runs
    print()
    print(f"DynamoDB cost of one call: {BOARD_SHARDS} board shards, pages of {PAGE}, in-process moto")
    sizes = "".join(f"{count:>10,}" for count in SIZES)
    header = f"{'call':<26} {'figure':<11}{sizes}   {SIZES[2]:,}/{SIZES[0]}   {SIZES[2]:,}/{SIZES[1]:,}"
    print(header)
    print("-" * len(header))
    for call in large:
        pages = [str(r[call]["page"]) for r in runs if "page" in r[call]]
        print(call + (f" (page {' / '.join(pages)})" if pages else ""))
        for figure in ("requests", "items read", "item bytes", "read units"):
            values = "".join(f"{r[call][figure]:>10,}" for r in runs)
            ratios = [f"{large[call][figure] / r[call][figure]:.2f}" for r in (small, middle)]
            print(f"{'':<26} {figure:<11}{values}   {ratios[0]:>10}   {ratios[1]:>12}")
        operations = {r[call]["by operation"] for r in runs}
        print(f"{'':<26} {'requests':<11}   {' / '.join(operations)}")


if __name__ == "__main__":
    main()
