"""DynamoDB requests and capacity units per API call of the Daily (figures, no assertions): `make bench`.

Every call goes through the real Lambda handler (functions/daily/handler.py; `/me` through
functions/leaderboard/handler.py) with an API Gateway v2 event, on in-process moto, metered by
benchmarks/meter.py (each request charged as DynamoDB bills it, from the request itself and the
items it touched: moto does not meter). A TransactWriteItems also shows how many items it wrote.

A container's first call also reads the day's puzzle, and stores it when neither the reset job
nor another container has: the first rows show that cold start; the rest run in a warm container.
"""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
import warnings
from collections import Counter
from pathlib import Path

from offline import REPO, use_offline_env

use_offline_env()

import boto3  # noqa: E402
from meter import Meter, item_size  # noqa: E402
from moto import mock_aws  # noqa: E402

from functions.daily.handler import handler  # noqa: E402
from functions.leaderboard.handler import handler as leaderboard_handler  # noqa: E402
from local.events import LambdaContext, http_event  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402
from shared.game import clock  # noqa: E402
from shared.game.constants import TIME_LIMIT_SECONDS  # noqa: E402
from shared.game.puzzles import answers  # noqa: E402
from shared.runtime import wiring  # noqa: E402

WRU_DOLLARS_PER_MILLION = 0.625  # on-demand, us-east-1 list price (since November 2024)
RRU_DOLLARS_PER_MILLION = 0.125

COLUMNS = ["GetItem", "PutItem", "TransactWriteItems", "BatchGetItem", "Query", "UpdateItem", "DeleteItem"]


meter: Meter  # made inside moto (main)
rows: list[tuple[str, int | str, Counter[str], list[int], float, float, float]] = []


def cold_container() -> None:
    """Forget what a container caches (the store's client, the Game and its puzzles)."""
    wiring.reset()
    meter.attach(wiring.ports().client)


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

    whole_run("whole run: player start + 10 answers (official)", "cy")
    whole_run("whole run: guest start + 10 answers", None)
    clock.advance(24 * 3600)  # the next Daily: a guest's run stores and reads its puzzle, uncharged
    guest = call(None, "POST", "/guest/daily/runs")
    call(None, "GET", runs_path(guest, True))
    meter.take()
    whole_run("whole run, the next day (a returning player)", "cy")
    clock.reset()


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
        meter = Meter()
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
        for script in ("offline.py", "meter.py"):
            shutil.copy(Path(__file__).with_name(script), Path(tree, "benchmarks", script))
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
