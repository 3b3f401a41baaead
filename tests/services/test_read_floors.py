"""Reads and a skip at their floor on DynamoDB, metered as DynamoDB bills them (benchmarks/meter.py):
once its board is final a day's public recap is its own item alone, and a read writes nothing but
the first note that it is final; `/recap/me` reads the caller's result with their admission, their
run and the rounds they answered (docs/leaderboards.md, "After close"); a skip is one write."""

from collections.abc import Callable
from datetime import timedelta

import pytest

from benchmarks.meter import Meter
from functions.daily.handler import handler as daily_handler
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.game import clock
from shared.game.moderation import REVIEW_WINDOW
from tests.conftest import Api
from tests.fakes.fake_boards import DAY, serve_with
from tests.fakes.fake_store import store_at_noon
from tests.services.test_boards import close_day
from tests.services.test_recap import BOARD, PUZZLE, SCOPE, call, closing_pass, play, recap


@pytest.fixture
def metered(monkeypatch, table) -> Callable[..., tuple[dict, float, float]]:
    """DAY's board of tests/services/test_recap.py closed and recapped on DynamoDB (no stream
    consumer: nothing here reads the ranks); returns `cold_read` on it, metered."""
    store = store_at_noon(monkeypatch, dynamo_ports(table, board_shards=BOARD_SHARDS))
    store.runs.put_puzzle(SCOPE, PUZZLE)
    for name, rounds in BOARD.items():
        play(store, name, rounds)
    close_day(store)
    closing_pass(store)
    meter = Meter().attach(store.client)
    return lambda path, **kw: cold_read(monkeypatch, store, meter, path, **kw)


def cold_read(
    monkeypatch, store, meter: Meter, path: str, cold: bool = True, **kw
) -> tuple[dict, float, float]:
    """PATH read by a new container (or by the last one, not COLD): (requests by operation,
    write units, read units)."""
    if cold:
        serve_with(monkeypatch, store)
        store.runs.puzzles.known.clear()  # a new container's puzzle cache
    meter.take()
    status, body, _ = call("GET", path, **kw)
    assert status == 200, body
    operations, _, writes, _, reads = meter.take()
    return dict(operations), writes, reads


def test_a_final_recap_is_one_get_item_and_its_reads_write_nothing_after_the_first(metered):
    cold_read, path = metered, f"/daily/{DAY.isoformat()}/recap"
    operations, writes, _ = cold_read(path)
    assert recap()[1]["status"] == "closed" and writes == 0, "closed: the status is read, nothing written"
    assert operations == {"GetItem": 3}

    clock.travel_to(clock.now() + REVIEW_WINDOW + timedelta(minutes=1))
    operations, writes, _ = cold_read(path)
    assert recap()[1]["status"] == "final"
    assert writes == 2, "the board's final marker and the recap's note, once"

    for _ in range(2):  # any container from then on
        assert cold_read(path) == ({"GetItem": 1}, 0, 0.5)
    assert recap()[1]["status"] == "final"
    board = cold_read(f"/leaderboard/daily/{DAY.isoformat()}")  # a new container finds it final
    assert board[1] == 0, "a final board's read writes nothing"


def test_my_recap_reads_the_result_the_run_and_the_rounds_answered(metered):
    operations, writes, reads = metered(f"/daily/{DAY.isoformat()}/recap/me", user="ann")
    assert (operations, writes) == ({"BatchGetItem": 2, "GetItem": 2}, 0)
    # eventually consistent, half a unit each: the profile (admission) and the result in one
    # request, the run, the puzzle (a new container's), the 3 rounds ann answered in one request
    assert reads == 3.5
    warm = metered(f"/daily/{DAY.isoformat()}/recap/me", user="ann", cold=False)
    assert warm == ({"BatchGetItem": 2, "GetItem": 1}, 0, 3.0)


def test_a_skip_is_one_update_item_and_its_replay_writes_nothing_more(monkeypatch, table):
    daily = Api(daily_handler)
    meter = Meter().attach(store_at_noon(monkeypatch, dynamo_ports(table, board_shards=BOARD_SHARDS)).client)
    status, run, _ = daily("POST", "/daily/runs", user="skipper")
    assert status == 201, run
    meter.take()
    status, body, _ = daily("POST", f"/runs/{run['run_id']}/skip", {"round": 1}, user="skipper")
    assert status == 200 and body["run"]["round"] == 2
    assert meter.take()[0] == {"UpdateItem": 1}
    status, body, _ = daily("POST", f"/runs/{run['run_id']}/skip", {"round": 1}, user="skipper")
    assert status == 200 and body["run"]["round"] == 2  # a replay: the refused write, then the read
    operations, _, writes, _, _ = meter.take()
    assert operations == {"UpdateItem": 1, "BatchGetItem": 1} and writes == 1
