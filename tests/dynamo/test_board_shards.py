"""The stage's board shard count (BOARD_SHARDS, shared/runtime/settings.py) is where the adapters
write a board's rows and what they read a board from; the `due` index's count (keys.DUE_SHARDS)
where the expiry job finds runs (moto)."""

from datetime import UTC, datetime, timedelta

import pytest

from shared.dynamo.board_index import shard_page
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.keys import BOARD_SHARDS, shard
from shared.dynamo.store import dynamo_ports
from shared.game.puzzles import Round
from shared.game.runs import new_run
from shared.game.scope import Scope
from tests.fakes.fake_boards import official
from tests.fakes.fake_store import complete_official

DAY = "2026-11-29"
PUZZLE = [Round("TMR", "")] * 7 + [Round("BRD", "AEO")] * 3


def test_rows_land_in_the_configured_shards_and_a_page_merges_all_of_them(table):
    store = dynamo_ports(table, board_shards=5)
    store.runs.put_puzzle(Scope.daily(DAY), PUZZLE)
    results = [
        official(f"p{i}", 100 + i, 0, 5, completed_at=f"{DAY}T18:00:{i:02d}.000Z", day=DAY) for i in range(12)
    ]
    for result in results:
        complete_official(store, result)
    players = [result.player for result in results]
    items = store.client.scan(TableName=table, IndexName="board")["Items"]
    partitions = {item["board_pk"]["S"].rsplit("#", 1)[1] for item in items}
    assert len(items) == 12 and partitions == {str(shard(p, 5)) for p in players} and len(partitions) > 1
    assert partitions <= {str(n) for n in range(5)} and any(shard(p, 32) >= 5 for p in players)

    page = shard_page(store.db, store.board_keys, Scope.daily(DAY), None, 20)
    assert [row.player for row in page] == list(reversed(players))  # best score first, from all 5
    # Rows never move: more shards read them all still (raising is safe), fewer miss some.
    assert shard_page(store.db, BoardKeys(32), Scope.daily(DAY), None, 20) == page
    assert len(shard_page(store.db, BoardKeys(2), Scope.daily(DAY), None, 20)) < 12


def test_a_raised_due_shard_count_still_finds_the_runs_started_before_it(table, monkeypatch):
    """keys.DUE_SHARDS is a constant: raised in code (docs/operations.md, "The ten-million night"),
    runs started before still sit in their partition, which the expiry job still reads."""
    store = dynamo_ports(table, board_shards=BOARD_SHARDS)
    store.runs.put_puzzle(Scope.daily(DAY), PUZZLE)
    now = datetime(2026, 11, 29, 18, tzinfo=UTC)
    monkeypatch.setattr("shared.dynamo.keys.DUE_SHARDS", 4)
    started = {f"run-{i:08d}" for i in range(16)}
    for run_id in started:
        store.runs.create_run(new_run(run_id, "daily", DAY, PUZZLE, now, f"p-{run_id}", True))
    later = now + timedelta(seconds=181)
    assert {due.run_id for due in store.runs.due_runs(later)} == started
    assert {shard(run_id, 4) for run_id in started} == {0, 1, 2, 3}
    monkeypatch.setattr("shared.dynamo.keys.DUE_SHARDS", 8)
    assert {due.run_id for due in store.runs.due_runs(later)} == started
    monkeypatch.setattr("shared.dynamo.keys.DUE_SHARDS", 2)  # lowered: runs in 2 and 3 are lost
    assert {due.run_id for due in store.runs.due_runs(later)} == {r for r in started if shard(r, 4) < 2}


def test_the_wiring_builds_the_board_keys_once_from_the_stages_setting(monkeypatch):
    from shared.runtime.settings import settings
    from shared.runtime.wiring import Services

    monkeypatch.setenv("BOARD_SHARDS", "37")
    settings.cache_clear()
    try:
        ports = Services().ports
    finally:
        settings.cache_clear()
    assert ports.board_keys == BoardKeys(37)
    assert ports.top.board_keys is ports.boards.board_keys is ports.results.board_keys is ports.board_keys
    assert ports.sanctions.board_keys is ports.board_keys
    with pytest.raises(ValueError, match="at least one shard"):
        BoardKeys(0)
