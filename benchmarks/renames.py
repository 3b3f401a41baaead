"""What a rename costs in DynamoDB requests, with 0, 5 and 50 live boards (SPEC §5: `PUT /me`
answers in a bounded number of requests whatever the number of live boards), and what following
it costs the stream consumer (functions/leaderboard/counters.py), which shows the name on each
live board's row and top item. `PUT /me` goes through the real handler
(functions/leaderboard/handler.py) with an API Gateway v2 event; the consumer's part through its
real entry point with the stream batch `make run`'s poller (local/streams.py) hands it. In-process
moto; requests counted on the store's botocore client. Figures, not assertions. `make bench`.
"""

import contextlib
import io
import json
import os
import time
import uuid
import warnings
from collections import Counter
from datetime import timedelta

from offline import use_offline_env

use_offline_env()

import boto3  # noqa: E402
from moto import mock_aws  # noqa: E402

from functions.leaderboard import counters  # noqa: E402
from functions.leaderboard.handler import handler  # noqa: E402
from local.events import LambdaContext, http_event  # noqa: E402
from local.streams import StreamPoller  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402
from shared.game import clock  # noqa: E402
from shared.game.clock import iso  # noqa: E402
from shared.game.daily_date import daily_date  # noqa: E402
from shared.game.puzzles import Round  # noqa: E402
from shared.game.results import Challenge, OfficialResult  # noqa: E402
from shared.game.scope import Scope  # noqa: E402
from shared.runtime import wiring  # noqa: E402
from tests.fakes.fake_store import complete_official  # noqa: E402

BOARDS = (0, 5, 50)


def player_id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"wordsqd-bench:{name}"))


class Requests:
    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def __call__(self, model, **_: object) -> None:
        self.seen[model.name] += 1

    def take(self) -> Counter[str]:
        taken, self.seen = self.seen, Counter()
        return taken


def live_boards(who: str, count: int) -> None:
    """COUNT live challenge boards with WHO's official result, in the board's top item too."""
    store = wiring.ports()
    now = clock.now()
    day = daily_date(now).isoformat()
    for n in range(count):
        challenge_id = f"{who}-{n:04d}"
        challenge = Challenge(
            challenge_id=challenge_id,
            creator=player_id("maker"),
            puzzle=[Round("TMR", "")] * 5,
            created_at=iso(now),
            closes_at=iso(now + timedelta(days=7)),
        )
        store.runs.create_challenge(challenge, day, 10_000)
        result = OfficialResult(
            player=player_id(who), kind="challenge", date=day, challenge_id=challenge_id,
            run_id=f"run-{challenge_id}", score=300, best_combo=3, longest_word_length=7,
            started_at=iso(now - timedelta(seconds=60)), completed_at=iso(now), words=["timer"],
        )  # fmt: skip
        complete_official(store, result)
        store.top.merge(Scope.challenge(challenge_id), [result])  # as the counters consumer does


def rename(who: str, name: str) -> int:
    claims = {"sub": player_id(who), "cognito:username": who, "token_use": "id"}
    event = http_event("PUT", "/me", {"display_name": name}, claims=claims)
    with contextlib.redirect_stdout(io.StringIO()):
        reply = handler(event, LambdaContext(aws_request_id="bench"))
    return int(reply["statusCode"])


def main() -> None:
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    table = os.environ["TABLE_NAME"]
    rows = []
    with mock_aws():
        boto3.client("dynamodb").create_table(**create_table_request(table))
        counting = Requests()
        wiring.ports().client.meta.events.register("before-call.dynamodb", counting)
        following = [False]

        def consumer(event: dict, context: object) -> dict:
            if not following[0]:
                return {}
            with contextlib.redirect_stdout(io.StringIO()):
                return counters.handler(event, LambdaContext(aws_request_id="bench"))

        poller = StreamPoller(table, handler=consumer)
        for boards in BOARDS:
            who = f"player-{boards}"
            live_boards(who, boards)
            rename(who, f"First {boards}")
            poller.drain()  # the set-up's records, passed by
            counting.take()
            status = rename(who, f"Second {boards}")
            put = counting.take()
            following[0] = True
            started = time.process_time()
            poller.drain()
            cpu = time.process_time() - started
            following[0] = False
            follow = counting.take()
            shown = {
                wiring.ports()
                .boards.board_entry(player_id(who), Scope.challenge(f"{who}-{n:04d}"))
                .display_name
                for n in range(boards)
            }
            rows.append((boards, status, put, follow, cpu, shown))
    print("A rename's DynamoDB requests (in-process moto): PUT /me, then the stream consumer's part")
    print()
    header = ["live boards", "PUT /me", "of which".ljust(40), "consumer", "consumer CPU", "names shown"]
    print("  ".join(header))
    for boards, status, put, follow, cpu, shown in rows:
        kinds = ", ".join(f"{n} {op}" for op, n in sorted(put.items()))
        print(
            f"{boards:>11}  {sum(put.values()):>7}  {kinds:<40}  {sum(follow.values()):>8}  "
            f"{cpu * 1000:>9.0f} ms  {sorted(shown, key=str) if shown else '-'} (status {status})"
        )
    print()
    print("consumer: requests of the stream consumer's invocation that follows the rename (the")
    print("profile, the player's results, their challenges, the rows' transaction, each top item).")
    print(json.dumps({str(b): dict(f) for b, _, _, f, _, _ in rows}))


if __name__ == "__main__":
    main()
