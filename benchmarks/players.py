"""What leagues, past Dailies and a player's data cost in DynamoDB (figures, no assertions):
`python benchmarks/players.py`.

Through the real handlers on in-process moto, metered by benchmarks/meter.py (requests by
operation, units as DynamoDB bills them). Prints:
- the read units and requests of a league board at 5, 20 and 50 members (every member with an
  official result of the date, the costliest case);
- the writes an official completion makes for a player in no league and in 10 (the difference is
  what leagues add to a completion; the goal is 0);
- the requests `DELETE /me` makes for a player with 30 days of official results (and a name, a
  league, a practice run), by operation, its write units, and the size of that player's
  `GET /me/export`.

`python benchmarks/players.py erasure` prints the last part alone.
"""

import contextlib
import io
import json
import sys
from datetime import UTC, datetime, timedelta

from offline import use_offline_env

use_offline_env()

import boto3  # noqa: E402
from daily import player_id, word_for  # noqa: E402
from meter import Meter  # noqa: E402
from moto import mock_aws  # noqa: E402

from functions.daily.handler import handler as daily_handler  # noqa: E402
from functions.leaderboard.handler import handler as leaderboard_handler  # noqa: E402
from local.events import LambdaContext, http_event  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402
from shared.game import clock  # noqa: E402
from shared.runtime import wiring  # noqa: E402

NOON = datetime(2026, 1, 15, 18, tzinfo=UTC)  # noon Central
meter: Meter


def call(method: str, path: str, body=None, user: str | None = None) -> tuple[int, dict, str]:
    claims = {"sub": player_id(user), "cognito:username": user, "token_use": "id"} if user else None
    event = http_event(method, path, body, claims=claims)
    daily_routes = path.startswith(("/daily", "/guest", "/runs", "/challenges"))
    with contextlib.redirect_stdout(io.StringIO()):  # the metrics' EMF lines
        reply = (daily_handler if daily_routes else leaderboard_handler)(
            event, LambdaContext(aws_request_id="b")
        )
    body_text = reply.get("body") or ""
    return reply["statusCode"], json.loads(body_text) if body_text else {}, body_text


THINK_SECONDS = 2  # game-clock seconds before each answer


def play(user: str, start: str = "/daily/runs", last_round_only: bool = False) -> tuple[float, dict]:
    """Play a run through; returns the write units of its completing answer and their requests."""
    _, run, _ = call("POST", start, user=user)
    while True:
        number = run["round"]
        if number == run["rounds"]:
            meter.take()
        clock.advance(THINK_SECONDS)  # a person's pace: fair play ranks the run (SPEC §3b)
        status, reply, _ = call(
            "POST",
            f"/runs/{run['run_id']}/answers",
            {"round": number, "attempt": 1, "word": word_for(run)},
            user,
        )
        run = reply["run"]
        if run["status"] == "completed":
            operations, transactions, writes, _, _ = meter.take()
            return writes, {"operations": dict(operations), "transaction items": transactions}


def league_board(members: int) -> tuple[float, dict]:
    _, league, _ = call("POST", "/leagues", {"name": f"League {members}"}, user=f"owner{members}")
    for n in range(1, members):
        call("POST", "/leagues/join", {"code": league["code"]}, user=f"m{members}-{n}")
    for n in range(members):
        user = f"owner{members}" if n == 0 else f"m{members}-{n}"
        play(user)
    meter.take()
    status, body, _ = call("GET", f"/leagues/{league['league_id']}/board", user=f"owner{members}")
    operations, _, _, _, reads = meter.take()
    assert status == 200 and len(body["rows"]) == members
    return reads, dict(operations)


def main() -> None:
    global meter
    with mock_aws():
        table = wiring.settings().table_name
        boto3.client("dynamodb").create_table(**create_table_request(table))
        meter = Meter().attach(wiring.ports().client)
        clock.travel_to(NOON)
        if sys.argv[1:] == ["erasure"]:
            _, league, _ = call("POST", "/leagues", {"name": "Club"}, user="club")
            thirty_days(league)
            return

        print("League board (every member with an official result of the date)")
        for members in (5, 20, 50):
            reads, operations = league_board(members)
            print(f"  {members:>2} members: {reads:5.1f} read units, requests {operations}")

        print("Writes of an official completion")
        alone, alone_requests = play("loner")
        for n in range(10):
            _, league, _ = call("POST", "/leagues", {"name": f"Club {n}"}, user=f"club{n}")
            call("POST", "/leagues/join", {"code": league["code"]}, user="joiner")
        joined, joined_requests = play("joiner")
        print(f"  in no league: {alone:.0f} write units {alone_requests}")
        print(f"  in 10 leagues: {joined:.0f} write units {joined_requests}")
        print(f"  added by leagues: {joined - alone:.0f} write units")

        thirty_days(league)


def thirty_days(league: dict) -> None:
    """A player with 30 days of official results, a name, a league and a practice run: the
    export's size and requests, the erasure's requests and write units."""
    print("A player with 30 days of official results")
    call("PUT", "/me", {"display_name": "Thirty Days"}, user="thirty")
    call("POST", "/leagues/join", {"code": league["code"]}, user="thirty")
    for day in range(30):
        clock.travel_to(NOON + timedelta(days=day))
        play("thirty")
    play("thirty")  # and a practice run
    meter.take()
    _, _, text = call("GET", "/me/export", user="thirty")
    operations, _, _, _, reads = meter.take()
    size = len(text.encode())
    print(f"  GET /me/export: {size:,} bytes; {sum(operations.values())} requests {dict(operations)}")
    status, _, _ = call("DELETE", "/me", user="thirty")
    operations, transactions, writes, _, reads = meter.take()
    print(
        f"  DELETE /me ({status}): {sum(operations.values())} requests {dict(operations)}, "
        f"transactions of {transactions} items, {writes:.0f} write units"
    )


if __name__ == "__main__":
    main()
