"""DynamoDB requests and capacity units per API call of the Daily (figures, no assertions): `make bench`.

Every call goes through the real Lambda handler (functions/daily/handler.py; `/me` through
functions/leaderboard/handler.py) with an API Gateway v2 event, on in-process moto. Hooks on the
store's botocore client count the requests each call makes, by operation (a TransactWriteItems
also shows how many items it wrote), and the capacity units DynamoDB would charge, computed from
item sizes by DynamoDB's rules (moto does not meter):

- a write: 1 WRU per started KB of the larger of the item before and after; twice that inside a
  transaction (ConditionCheck included); plus, per GSI, 1 WRU to add or remove the item's index
  entry (2 when its index key changes, 1 when only attributes projected into it change);
- a read: 1 RRU per started 4 KB read strongly consistent, 0.5 eventually; a missing item costs
  the minimum, in a BatchGetItem too (each of its keys is charged as a GetItem); a Query's items
  add up before rounding; transactional reads cost twice.

A container's first call also reads the day's puzzle, and stores it when neither the reset job
nor another container has: the first rows show that cold start; the rest run in a warm container.
"""

import contextlib
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
import warnings
from collections import Counter
from datetime import date
from pathlib import Path

from offline import REPO, use_offline_env

use_offline_env()

import boto3  # noqa: E402
from moto import mock_aws  # noqa: E402

from functions.daily.handler import handler  # noqa: E402
from functions.leaderboard.handler import handler as leaderboard_handler  # noqa: E402
from local.events import LambdaContext, http_event  # noqa: E402
from shared.dynamo.table import INDEXES, create_table_request  # noqa: E402
from shared.game import clock  # noqa: E402
from shared.game.constants import TIME_LIMIT_SECONDS  # noqa: E402
from shared.game.puzzles import answers  # noqa: E402
from shared.game.stats import with_daily_result  # noqa: E402
from shared.runtime import wiring  # noqa: E402

WRU_DOLLARS_PER_MILLION = 0.625  # on-demand, us-east-1 list price (since November 2024)
RRU_DOLLARS_PER_MILLION = 0.125

COLUMNS = ["GetItem", "PutItem", "TransactWriteItems", "BatchGetItem", "Query", "UpdateItem", "DeleteItem"]


def attribute_size(name: str, value: dict) -> int:
    return len(name.encode()) + value_size(value)


def value_size(value: dict) -> int:
    """DynamoDB's size of one attribute value (numbers about one byte per two digits, plus one)."""
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(inner.encode())
    if kind == "N":
        return len(inner.lstrip("-").replace(".", "")) // 2 + 1
    if kind == "B":
        return len(inner)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(1 + value_size(v) for v in inner)
    if kind == "M":
        return 3 + sum(1 + attribute_size(k, v) for k, v in inner.items())
    return sum(len(str(v)) for v in inner)  # sets


def item_size(item: dict | None) -> int:
    return sum(attribute_size(name, value) for name, value in (item or {}).items())


def index_entry(item: dict | None, index: str) -> dict | None:
    """The item's entry in a GSI (None when the item is not in it)."""
    pk, sk, projection = INDEXES[index]
    if not item or pk not in item or sk not in item:
        return None
    if projection == "ALL":
        return item
    return {name: item[name] for name in ("pk", "sk", pk, sk)}


class Meter:
    """Counts DynamoDB requests by operation and the capacity units DynamoDB would charge for them."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.peek = boto3.client("dynamodb")  # reads items around each write, unmetered
        self.operations: Counter[str] = Counter()
        self.transaction_items: list[int] = []
        self.write_units = 0.0
        self.index_units = 0.0  # the GSI share of the write units
        self.read_units = 0.0
        self._before: list[tuple[dict, dict | None, bool]] = []
        self._consistent = self._batch_consistent = False
        self._batch_keys = 0  # keys asked for by the BatchGetItem in flight

    def _item(self, key: dict) -> dict | None:
        found = self.peek.get_item(TableName=self.table, Key=key, ConsistentRead=True)
        return found.get("Item")

    def before(self, params: dict, model, **_: object) -> None:
        """Before a request: note the items it may write, as they are now."""
        self.operations[model.name] += 1
        self._consistent = bool(params.get("ConsistentRead"))
        writes: list[tuple[dict, bool]] = []  # (key, transactional)
        if model.name == "PutItem":
            writes.append(({"pk": params["Item"]["pk"], "sk": params["Item"]["sk"]}, False))
        elif model.name in ("UpdateItem", "DeleteItem"):
            writes.append((params["Key"], False))
        elif model.name == "BatchGetItem":
            self._batch_consistent = any(r.get("ConsistentRead") for r in params["RequestItems"].values())
            self._batch_keys = sum(len(r["Keys"]) for r in params["RequestItems"].values())
        elif model.name == "TransactWriteItems":
            self.transaction_items.append(len(params["TransactItems"]))
            for entry in params["TransactItems"]:
                ((kind, body),) = entry.items()
                key = {"pk": body["Item"]["pk"], "sk": body["Item"]["sk"]} if kind == "Put" else body["Key"]
                writes.append((key, True))
        self._before = [(key, self._item(key), transactional) for key, transactional in writes]

    def after(self, parsed: dict, model, **_: object) -> None:
        """After a request: charge its writes (items before and after, their index entries) and reads."""
        for key, before, transactional in self._before:
            after = self._item(key)
            units = max(1, math.ceil(max(item_size(before), item_size(after)) / 1024))
            self.write_units += units * (2 if transactional else 1)
            for index in INDEXES:
                old, new = index_entry(before, index), index_entry(after, index)
                pk, sk, _ = INDEXES[index]
                if old is None and new is None:
                    continue
                if old is None or new is None:
                    self.index_units += math.ceil(item_size(new or old) / 1024)
                elif (old[pk], old[sk]) != (new[pk], new[sk]):
                    self.index_units += 2
                elif old != new:
                    self.index_units += math.ceil(item_size(new) / 1024)
        self._before = []
        if model.name == "GetItem":
            self.read_units += _read_units([parsed.get("Item")], consistent=self._consistent)
        elif model.name == "BatchGetItem":
            found = [item for items in parsed.get("Responses", {}).values() for item in items]
            unprocessed = sum(len(r["Keys"]) for r in (parsed.get("UnprocessedKeys") or {}).values())
            missing = self._batch_keys - len(found) - unprocessed
            self.read_units += sum(_read_units([item], consistent=self._batch_consistent) for item in found)
            self.read_units += missing * _read_units([None], consistent=self._batch_consistent)
        elif model.name == "Query":
            self.read_units += _read_units(parsed.get("Items", []), consistent=False, summed=True)
        elif model.name == "TransactGetItems":
            self.read_units += 2 * sum(
                _read_units([r.get("Item")], True) for r in parsed.get("Responses", [])
            )

    def take(self) -> tuple[Counter[str], list[int], float, float, float]:
        """(operations, transaction sizes, write units with the GSIs', the GSIs' share, read units)."""
        taken = (
            self.operations,
            self.transaction_items,
            self.write_units + self.index_units,
            self.index_units,
            self.read_units,
        )
        self.operations, self.transaction_items = Counter(), []
        self.write_units = self.index_units = self.read_units = 0.0
        return taken


def _read_units(items: list, consistent: bool, summed: bool = False) -> float:
    size = sum(item_size(item) for item in items) if summed else item_size(items[0] if items else None)
    per_4kb = max(1, math.ceil(size / 4096))
    return per_4kb * (1.0 if consistent else 0.5)


meter: Meter  # made inside moto (main)
rows: list[tuple[str, int | str, Counter[str], list[int], float, float, float]] = []


def cold_container() -> None:
    """Forget what a container caches (the store's client, the Game and its puzzles)."""
    wiring.reset()
    events = wiring.ports().client.meta.events
    events.register("before-parameter-build.dynamodb", meter.before)
    events.register("after-call.dynamodb", meter.after)


THINK_SECONDS = 2  # game-clock seconds before each answer


def player_id(user: str) -> str:
    """USER's player id: a UUID, as Cognito's `sub` is (the API refuses any other)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"wordsqd-bench:{user}"))


def call(label: str | None, method: str, path: str, body=None, user: str | None = None) -> dict:
    """Call the handler; record a row of what it cost unless LABEL is None (the cost then adds
    up until the next recorded call takes it)."""
    claims = {"sub": player_id(user), "cognito:username": user, "token_use": "id"} if user else None
    if path.endswith("/answers"):
        clock.advance(THINK_SECONDS)  # a person's pace: fair play ranks the run (SPEC §3b)
    event = http_event(method, path, body, claims=claims)
    serving = leaderboard_handler if path == "/me" else handler
    with contextlib.redirect_stdout(io.StringIO()):  # the metrics' EMF lines
        reply = serving(event, LambdaContext(aws_request_id="bench"))
    if label is not None:
        rows.append((label, reply["statusCode"], *meter.take()))
    return json.loads(reply["body"]) if reply.get("body") else {}


def word_for(run: dict, choice: int = 0) -> str:
    used = {a["word"] for record in run["history"] for a in record["attempts"] if a["accepted"]}
    return [w for w in answers(run["prompt"], run["forbidden"]) if w not in used][choice]


def runs_path(run: dict, guest: bool) -> str:
    return f"/guest/runs/{run['run_id']}" if guest else f"/runs/{run['run_id']}"


def play_to_last_round(run: dict, user: str | None) -> dict:
    """Answer rounds 1-9 correctly without recording them; returns the run at round 10."""
    for number in range(1, 10):
        run = call(
            None,
            "POST",
            runs_path(run, user is None) + "/answers",
            {"round": number, "attempt": 1, "word": word_for(run)},
            user,
        )["run"]
    meter.take()
    return run


def whole_run(label: str, user: str | None) -> None:
    """A start and 10 accepted answers, summed into one row."""
    start = "/daily/runs" if user else "/guest/daily/runs"
    run = call(None, "POST", start, None, user)
    for number in range(1, 11):
        path = runs_path(run, user is None) + "/answers"
        run = call(None, "POST", path, {"round": number, "attempt": 1, "word": word_for(run)}, user)["run"]
    rows.append((label, run["status"], *meter.take()))


def scenarios() -> None:
    cold_container()
    call("GET /daily (cold container)", "GET", "/daily")
    call("guest start: cold, puzzle not stored yet", "POST", "/guest/daily/runs")
    cold_container()
    call("guest start: cold, puzzle stored", "POST", "/guest/daily/runs")
    call("guest start: warm", "POST", "/guest/daily/runs")
    cold_container()
    call("player start, first run: cold, puzzle stored", "POST", "/daily/runs", user="cold")
    run = call("player start, first run: warm", "POST", "/daily/runs", user="ana")
    call("player start again: resumes the active run", "POST", "/daily/runs", user="ana")
    call("GET /runs/{id}", "GET", runs_path(run, False), user="ana")
    answers_path = runs_path(run, False) + "/answers"
    good = word_for(run)
    run = call("answer, accepted", "POST", answers_path, {"round": 1, "attempt": 1, "word": good}, "ana")[
        "run"
    ]
    call("answer, repeated (replay)", "POST", answers_path, {"round": 1, "attempt": 1, "word": good}, "ana")
    call(
        "answer, used slot, other word (409)",
        "POST",
        answers_path,
        {"round": 1, "attempt": 1, "word": "x"},
        "ana",
    )
    call(
        "answer, not the next slot (409)",
        "POST",
        answers_path,
        {"round": 5, "attempt": 1, "word": good},
        "ana",
    )
    bad = {"round": 2, "attempt": 1, "word": "qzqzq"}
    run = call("answer, rejected", "POST", answers_path, bad, "ana")["run"]
    skip_path = runs_path(run, False) + "/skip"
    run = call("skip", "POST", skip_path, {"round": 2}, "ana")["run"]
    call("skip, repeated (replay)", "POST", skip_path, {"round": 2}, "ana")
    for number in range(3, 10):
        run = call(None, "POST", answers_path, {"round": number, "attempt": 1, "word": word_for(run)}, "ana")[
            "run"
        ]
    meter.take()
    last = {"round": 10, "attempt": 1, "word": word_for(run)}
    call("answer completing the run (official)", "POST", answers_path, last, "ana")
    call("answer completing it, repeated (replay)", "POST", answers_path, last, "ana")

    practice = call("player start after completing: practice", "POST", "/daily/runs", user="ana")
    practice = play_to_last_round(practice, "ana")
    last = {"round": 10, "attempt": 1, "word": word_for(practice)}
    call("answer completing a practice run", "POST", runs_path(practice, False) + "/answers", last, "ana")

    guest = play_to_last_round(call(None, "POST", "/guest/daily/runs"), None)
    last = {"round": 10, "attempt": 1, "word": word_for(guest)}
    call("answer completing a guest run", "POST", runs_path(guest, True) + "/answers", last)

    expiring = call(None, "POST", "/daily/runs", user="bo")
    meter.take()
    clock.advance(TIME_LIMIT_SECONDS + 1)
    call("GET /runs/{id} after its time limit (expires)", "GET", runs_path(expiring, False), user="bo")
    clock.reset()

    call("GET /me (a player who has completed a Daily)", "GET", "/me", user="ana")
    call("PUT /me (rename: claim, profile name)", "PUT", "/me", {"display_name": "Ana Banana"}, "ana")
    call("GET /me (a player with no profile yet)", "GET", "/me", user="nobody")
    put_old_stats_item("dee")
    call("GET /me (stats in an old STATS item)", "GET", "/me", user="dee")

    whole_run("whole run: player start + 10 answers (official)", "cy")
    whole_run("whole run: guest start + 10 answers", None)
    whole_run("whole run, stats in an old STATS item (a player of the layout before)", "dee")
    clock.advance(24 * 3600)  # the next Daily: a guest's run stores and reads its puzzle, uncharged
    guest = call(None, "POST", "/guest/daily/runs")
    call(None, "GET", runs_path(guest, True))
    meter.take()
    whole_run("whole run, the next day (a returning player)", "cy")
    clock.reset()


def put_old_stats_item(user: str) -> None:
    """A `STATS` item as the layout before the stats moved onto the profile wrote it (one past
    Daily result), for USER, written without metering."""
    stats = with_daily_result(None, date(2026, 1, 15), 300)
    meter.peek.put_item(
        TableName=os.environ["TABLE_NAME"],
        Item={
            "pk": {"S": f"PLAYER#{player_id(user)}"},
            "sk": {"S": "STATS"},
            "data": {"S": stats.model_dump_json()},
            "version": {"N": "1"},
        },
    )


def print_table() -> None:
    shown = [c for c in COLUMNS if any(row[2][c] for row in rows)]
    others = sorted({op for row in rows for op in row[2]} - set(COLUMNS))
    header = ["call", "status", *shown, *others, "tx items", "requests", "WRU", "of which GSI", "RRU"]
    table = []
    for label, status, ops, transactions, wru, gsi, rru in rows:
        items = "+".join(str(n) for n in transactions) if transactions else "-"
        counts = [str(ops[c]) if ops[c] else "." for c in shown + others]
        units = [f"{wru:g}", f"{gsi:g}", f"{rru:g}"]
        table.append([label, str(status), *counts, items, str(sum(ops.values())), *units])
    widths = [max(len(line[i]) for line in [header, *table]) for i in range(len(header))]
    print("DynamoDB requests per API call (in-process moto, through functions/daily/handler.py)")
    print()
    for line in [header, ["-" * w for w in widths], *table]:
        print(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(line, widths, strict=True))
            )
        )
    print()
    print("tx items: the number of items in each TransactWriteItems. A whole run's status is the run's.")
    print("WRU/RRU: write and read request units DynamoDB on-demand would charge (GSI writes included).")
    print()
    for label, _, ops, _, wru, gsi, rru in rows:
        if label.startswith("whole run"):
            dollars = wru * WRU_DOLLARS_PER_MILLION + rru * RRU_DOLLARS_PER_MILLION
            print(
                f"{label}: {sum(ops.values())} requests, {wru:g} WRU ({gsi:g} of them GSI writes)"
                f" + {rru:g} RRU = ${dollars:.2f} per million runs at list prices"
            )


def run_item_sizes() -> tuple[int, int]:
    """Approximate DynamoDB sizes (attribute names + values, bytes) of a fresh and a completed
    run item: each answer rewrites the whole item, so its size sets the write units it costs."""
    client = wiring.ports().client
    table = os.environ["TABLE_NAME"]
    fresh = call(None, "POST", "/guest/daily/runs")
    done = play_to_last_round(call(None, "POST", "/guest/daily/runs"), None)
    call(
        None, "POST", runs_path(done, True) + "/answers", {"round": 10, "attempt": 1, "word": word_for(done)}
    )
    meter.take()
    sizes = []
    for run in (fresh, done):
        item = client.get_item(TableName=table, Key={"pk": {"S": f"RUN#{run['run_id']}"}, "sk": {"S": "RUN"}})
        sizes.append(item_size(item["Item"]))
    meter.take()
    return sizes[0], sizes[1]


def main() -> None:
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    global meter
    with mock_aws():
        boto3.client("dynamodb").create_table(**create_table_request(os.environ["TABLE_NAME"]))
        meter = Meter(os.environ["TABLE_NAME"])
        scenarios()
        fresh, done = run_item_sizes()
    print_table()
    print(
        f"A run item is about {fresh:,} bytes when started and {done:,} bytes when completed "
        f"(a write costs 1 WCU per started KB; each item of a transaction costs twice that)."
    )
    if len(sys.argv) > 2 and sys.argv[1] == "--before":
        print_before(sys.argv[2])


def print_before(revision: str) -> None:
    """The whole runs measured the same way on the code of REVISION (a git commit): its tree is
    exported to a temporary directory, this script copied in and run there."""
    with tempfile.TemporaryDirectory() as tree:
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", revision], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tree], input=archive.stdout, check=True)
        shutil.copy(__file__, Path(tree, "benchmarks", "daily.py"))
        shutil.copy(Path(__file__).with_name("offline.py"), Path(tree, "benchmarks", "offline.py"))
        before = subprocess.run(
            [sys.executable, str(Path(tree, "benchmarks", "daily.py"))],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": tree},
        ).stdout
    print()
    print(f"Measured the same way on the code of {revision}:")
    for line in before.splitlines():
        if line.startswith(("call ", "GET /me")) or (line.startswith("whole run") and "$" in line):
            print(line)


if __name__ == "__main__":
    main()
