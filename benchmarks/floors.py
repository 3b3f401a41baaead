"""Each call against its floor: `make bench`, which stops when a call is below its floor or above it
with no rule named.

Floor A is the least DynamoDB work this data model needs for the call (nothing read that a
condition expression or a cache could replace; docs/data-model.md, "Floors"). Every call goes
through its real handler on in-process moto, metered by benchmarks/meter.py (requests by
operation; write and read units as DynamoDB bills them). A row's ratio is the larger
of its requests against the floor's and its dollars (units at list prices) against the floor's, over
the figures the floor states: above 1.1, the call does more than it needs (a regression, unless a
rule needs it). A figure below its floor is a meter that missed a charge (or a floor to correct):
the script exits 1 on either, naming the row.

`python benchmarks/floors.py --before <commit>` also measures the code of that commit the same way.
"""

import shutil
import subprocess
import sys
import tempfile
import warnings
from datetime import timedelta
from pathlib import Path

from offline import REPO, use_offline_env

use_offline_env()

import boards  # noqa: E402
import boto3  # noqa: E402
import players  # noqa: E402
from daily import RRU_DOLLARS_PER_MILLION, WRU_DOLLARS_PER_MILLION, Meter, word_for  # noqa: E402
from moto import mock_aws  # noqa: E402

from local.moto_patches import cheaper_requests  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402
from shared.game import clock  # noqa: E402
from shared.runtime import wiring  # noqa: E402

# Floor A per call: (requests, write units, read units); None where the floor states no figure.
FLOORS: dict[str, tuple[float, float | None, float | None]] = {
    "official run (start + 10 accepted)": (12, 24, 1),
    "one answer": (1, 1, 0),
    "player start": (1, 6, 0),
    "one rank": (2, 0, 3.5),
    "board page 1 (live)": (1, 0, 0.5),
    "league board, 5 members": (2, 0, 3),
    "league board, 20 members": (2, 0, 10.5),
    "league board, 50 members": (2, 0, 25.5),
    "GET /me/export, 30 days": (3, 0, 21),
    "DELETE /me, 30 days": (8, 199, None),
}
# Why a row stays above 1.1: the rule that needs the extra work (docs/data-model.md, "Floors").
CAUSES: dict[str, str] = {
    "player start": "the transaction's `admitted` check of the profile (2 WU): erasure and bans hold",
    "one rank": "the profile (admission) and the board's pending-review item, in the same request",
    "board page 1 (live)": "a 101-row top item of random ids is ~7 KB (1 RU), and the pending-review item",
    "league board, 5 members": "the caller's profile (admission), in the same request as the league",
    "GET /me/export, 30 days": "admission: the player's partition read consistently (8 RU; eventually 4)",
    "DELETE /me, 30 days": "a reminder is held under its send minute: one GetItem of its pointer finds it",
}
BOARD_RESULTS = 300  # a full top of the board (101 rows) and more

FIGURES = ("requests", "write units", "read units")
Measured = tuple[int, float, float]  # requests, write units, read units
measured: dict[str, Measured] = {}


def take(label: str) -> None:
    operations, _, writes, _, reads = players.meter.take()
    measured[label] = (sum(operations.values()), writes, reads)


def official_run(user: str) -> dict:
    """A start and ten accepted answers; the start and the second answer also get rows of their own."""
    players.meter.take()
    _, run, _ = players.call("POST", "/daily/runs", user=user)
    take("player start")
    starting = measured["player start"]
    whole = list(starting)
    for number in range(1, 11):
        clock.advance(players.THINK_SECONDS)
        _, reply, _ = players.call(
            "POST",
            f"/runs/{run['run_id']}/answers",
            {"round": number, "attempt": 1, "word": word_for(run)},
            user,
        )
        run = reply["run"]
        take("one answer" if number == 2 else "answer")
        whole = [
            a + b for a, b in zip(whole, measured["one answer" if number == 2 else "answer"], strict=True)
        ]
    measured["official run (start + 10 accepted)"] = (int(whole[0]), whole[1], whole[2])
    return run


def board_reads() -> None:
    """Page 1 of a live board with BOARD_RESULTS results, and one of its players' rank."""
    store = wiring.ports()
    results = boards.results_for(BOARD_RESULTS)
    boards.fill(store, results)
    middle = sorted(results, key=lambda r: -r.score)[BOARD_RESULTS // 2].player
    players.meter.take()
    players.call("GET", f"/leaderboard/daily/{boards.DAY}")
    take("board page 1 (live)")
    status, _, _ = call_as(middle, "GET", "/leaderboard/daily/me")  # today: the board is live
    take("one rank")
    assert status == 200, status


def call_as(sub: str, method: str, path: str) -> tuple[int, dict, str]:
    """A call by the player whose Cognito sub is SUB (a filled board's players have no user name)."""
    original = players.player_id
    players.player_id = lambda _user: sub
    try:
        return players.call(method, path, user="board-player")
    finally:
        players.player_id = original


def thirty_days(user: str) -> None:
    """USER's 30 days of official Dailies, a name and a league, then the export and the erasure."""
    players.call("PUT", "/me", {"display_name": "Thirty Days"}, user=user)
    players.call("POST", "/leagues", {"name": "Thirty"}, user=user)
    for day in range(30):
        clock.travel_to(players.NOON + timedelta(days=day + 1))
        players.play(user)
    players.play(user)  # and a practice run
    players.meter.take()
    players.call("GET", "/me/export", user=user)
    take("GET /me/export, 30 days")
    players.call("DELETE", "/me", user=user)
    take("DELETE /me, 30 days")


def measure() -> None:
    cheaper_requests()  # `make run`'s moto: a transaction copies the items it touches, not the table
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    with mock_aws():
        table = wiring.settings().table_name
        boto3.client("dynamodb").create_table(**create_table_request(table))
        players.meter = Meter().attach(wiring.ports().client)
        clock.travel_to(players.NOON)
        players.call("POST", "/guest/daily/runs")  # a warm container: the day's puzzle stored and cached
        official_run("floor-a")
        for members in (5, 20, 50):
            reads, operations = players.league_board(members)
            measured[f"league board, {members} members"] = (sum(operations.values()), 0.0, reads)
        thirty_days("thirty")
        clock.travel_to(players.NOON)
        board_reads()  # last: in-process moto copies the whole table at each transaction
        clock.reset()


def ratio(label: str) -> float:
    requests, writes, reads = measured[label]
    floor_requests, floor_writes, floor_reads = FLOORS[label]
    dollars = floor_dollars = 0.0
    if floor_writes is not None:
        dollars += writes * WRU_DOLLARS_PER_MILLION
        floor_dollars += floor_writes * WRU_DOLLARS_PER_MILLION
    if floor_reads is not None:
        dollars += reads * RRU_DOLLARS_PER_MILLION
        floor_dollars += floor_reads * RRU_DOLLARS_PER_MILLION
    by_dollars = dollars / floor_dollars if floor_dollars else 1.0
    return max(requests / floor_requests, by_dollars)


def failures() -> list[str]:
    """Rows below their floor in any figure it states (the meter missed a charge) or above 1.1
    with no rule named (a regression)."""
    found = []
    for label, floor in FLOORS.items():
        below = [
            what
            for what, got, least in zip(FIGURES, measured[label], floor, strict=True)
            if least is not None and got < least
        ]
        if below:
            found.append(f"{label}: below floor A in {', '.join(below)} (a meter bug, or a floor to correct)")
        elif ratio(label) > 1.1 and label not in CAUSES:
            found.append(f"{label}: {ratio(label):.2f} over floor A with no rule named (a regression)")
    return found


def print_table() -> None:
    def units(writes: float | None, reads: float | None) -> str:
        return f"{'-' if writes is None else f'{writes:g}'} WU, {'-' if reads is None else f'{reads:g}'} RU"

    print("Each call against floor A (requests, write units, read units; ratio: the larger of requests")
    print("and dollars over floor A's; above 1.1 the call does more than the data model needs)")
    print()
    width = max(map(len, FLOORS))
    print(f"{'call':<{width}}  {'measured':>26}  {'floor A':>26}  ratio")
    for label, (requests, writes, reads) in FLOORS.items():
        got = measured[label]
        print(
            f"{label:<{width}}  {f'{got[0]} requests, {units(got[1], got[2])}':>26}  "
            f"{f'{requests:g} requests, {units(writes, reads)}':>26}  {ratio(label):.2f}"
        )
    above = [label for label in FLOORS if ratio(label) > 1.1]
    if above:
        print()
        print("Above 1.1, and the rule that needs it:")
    for label in above:
        print(f"  {label}: {CAUSES.get(label, 'NO RULE NAMED: a regression')}")


def print_before(revision: str) -> None:
    """The same table on the code of REVISION: its tree exported, these scripts copied in."""
    with tempfile.TemporaryDirectory() as tree:
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", revision], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tree], input=archive.stdout, check=True)
        for script in ("floors.py", "offline.py", "daily.py", "players.py", "meter.py"):
            shutil.copy(Path(__file__).with_name(script), Path(tree, "benchmarks", script))
        before = subprocess.run(
            [sys.executable, str(Path(tree, "benchmarks", "floors.py"))],
            capture_output=True,
            text=True,
            check=False,  # the code before may fail its floors: its table is what is wanted
            env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"},
        ).stdout
    print()
    print(f"Measured the same way on the code of {revision}:")
    print(before)


if __name__ == "__main__":
    measure()
    print_table()
    if len(sys.argv) > 2 and sys.argv[1] == "--before":
        print_before(sys.argv[2])
    failed = failures()
    for line in failed:
        print(f"FAILED {line}", file=sys.stderr)
    sys.exit(1 if failed else 0)
