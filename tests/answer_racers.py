"""The racer processes of tests/dynamo/test_answer_races.py: each has its own DynamoDB client and Game,
as a Lambda container has, and answers a slot once every racer is ready. Kept out of the test
module so that a spawned process imports only this."""

from datetime import datetime
from functools import cache
from typing import Any

import boto3
from botocore.config import Config

from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.game.dictionary import words
from shared.game.errors import Conflict
from shared.http.models import RunView
from shared.services.game import Game

_barrier: Any = None  # every racer's, handed to each process as it starts


def ready(barrier: Any) -> None:
    """A racer process's start: keep the racers' barrier, load the word list."""
    global _barrier
    _barrier = barrier
    words()


@cache
def _client(endpoint: str) -> Any:
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(retries={"mode": "standard", "max_attempts": 3}),
    )


def answer_once(endpoint: str, table: str, at: datetime, call: tuple) -> tuple:
    """Answer CALL (run id, player, Daily date, round, attempt, word) at AT once every racer is
    ready: ("reply", accepted, reason, points, run view), or ("conflict", code, the word the
    slot holds), or ("error", text)."""
    run_id, player, day, number, attempt, word = call
    ports = dynamo_ports(table, _client(endpoint), board_shards=BOARD_SHARDS)
    game = Game(ports.runs, ports.results, lambda: b"seed", words, now=lambda: at)
    game.daily_puzzle(day)  # read before the race, as a warm container has it
    try:
        _barrier.wait(timeout=120)  # a hang guard, not a timing
        result, run = game.answer(run_id, player, number, attempt, word)
        return (
            "reply",
            result.accepted,
            result.reason,
            result.points,
            RunView.from_run(run).model_dump(mode="json"),
        )
    except Conflict as error:
        applied = getattr(error, "run", None)
        return (
            "conflict",
            error.code,
            applied.history[number - 1].attempts[attempt - 1].word if applied else None,
        )
    except Exception as error:  # noqa: BLE001  (the race's outcome, inspected by the test)
        return ("error", repr(error))
