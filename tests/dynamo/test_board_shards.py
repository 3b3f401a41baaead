"""The stage's board shard count (BOARD_SHARDS, shared/runtime/settings.py) is where the adapters
write a board's rows and what they read a board from (moto)."""

from shared.dynamo.board_index import shard_page
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.keys import shard
from shared.dynamo.store import dynamo_ports
from shared.game.puzzles import Round
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
