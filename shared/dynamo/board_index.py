"""A board's rows from the `board` index, whose partitions (shared/dynamo/board_keys.py) each hold
a share of the board in rank order: pages past the top of the board, and the seed of a new top
item."""

from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.client import Client, Item
from shared.dynamo.codec import entry
from shared.dynamo.keys import rank_key
from shared.game.boards import BoardEntry, BoardPosition
from shared.game.scope import Scope


def shard_page(
    db: Client, board_keys: BoardKeys, scope: Scope, after: BoardPosition | None, limit: int
) -> list[BoardEntry]:
    """The best LIMIT rows after AFTER: a lazy merge of the shards of BOARD_KEYS. Each shard is read a few
    rows at a time (about its share of the page, plus two), and read again only when the merge has
    used up what it read while it may still hold a better row."""
    shards = board_keys.shards
    chunk = -(-limit // shards) + 2
    start = rank_key(after) if after else None
    buffers: dict[int, list[BoardEntry]] = {}
    more: dict[int, Item | None] = {}
    for number in range(shards):
        buffers[number], more[number] = _board_query(
            db, board_keys.partition(scope, number), start, None, chunk
        )
    rows: list[BoardEntry] = []
    while len(rows) < limit:
        for number in range(shards):
            if not buffers[number] and more[number]:
                buffers[number], more[number] = _board_query(
                    db, board_keys.partition(scope, number), start, more[number], chunk
                )
        candidates = [number for number in buffers if buffers[number]]
        if not candidates:
            break
        best = min(candidates, key=lambda number: buffers[number][0].position.order())
        rows.append(buffers[best].pop(0))
    return rows


def _board_query(
    db: Client, partition: str, after: str | None, start: Item | None, limit: int
) -> tuple[list[BoardEntry], Item | None]:
    condition = "board_pk = :p" + (" AND board_sk > :a" if after else "")
    values = {":p": {"S": partition}}
    if after:
        values[":a"] = {"S": after}
    query: Item = {
        "IndexName": "board",
        "KeyConditionExpression": condition,
        "ExpressionAttributeValues": values,
        "Limit": limit,
    }
    if start:
        query["ExclusiveStartKey"] = start
    items, last = db.query_page(**query)
    return [entry(item) for item in items], last
