"""A board's top item (`TOP#<scope>` / `TOP`, its best rows, and `WORDS`, their words: written
together, on condition of the version read), and the stored rows a fold checks its rows against
(docs/leaderboards.md, "The protocol")."""

from shared.dynamo import keys
from shared.dynamo.client import Client, DataError, Item
from shared.dynamo.codec import entry, top_items, top_rows
from shared.game.boards import BoardEntry
from shared.game.ranking import with_names
from shared.game.scope import Scope


def key_id(item: Item) -> tuple[str, str]:
    """An item's key as one hashable value, to find what a BatchGetItem returned."""
    return item["pk"]["S"], item["sk"]["S"]


def versioned_put(scope: Scope, rows: list[BoardEntry], version: int) -> Item:
    """The transaction Put of SCOPE's top item holding ROWS at VERSION + 1, on condition that it
    is still at VERSION (0: absent)."""
    put: Item = {"Item": top_items(scope, rows, version + 1)[0]}
    if version:
        put["ConditionExpression"] = "version = :v"
        put["ExpressionAttributeValues"] = {":v": {"N": str(version)}}
    else:
        put["ConditionExpression"] = "attribute_not_exists(pk)"
    return {"Put": put}


class TopItem:
    def __init__(self, db: Client):
        self.db = db

    def read(self, scope: Scope, consistent: bool = True, words: bool = True) -> tuple[list[BoardEntry], int]:
        """The top item's rows and version (0: none yet); their words too (a second item, in the
        same request) unless WORDS is False."""
        if not words:
            return top_rows(self.db.get(keys.top_key(scope), consistent=consistent))
        wanted = [keys.top_key(scope), keys.top_words_key(scope)]
        found = {item["sk"]["S"]: item for item in self.db.batch_get(wanted, consistent)}
        return top_rows(found.get("TOP"), found.get("WORDS"))

    def read_many(self, scopes: list[Scope]) -> dict[Scope, tuple[list[BoardEntry], int]]:
        """SCOPES' top items' rows (without words) and versions, consistently, in one request."""
        found = {key_id(item): item for item in self.db.batch_get([keys.top_key(s) for s in scopes], True)}
        return {scope: top_rows(found.get(key_id(keys.top_key(scope)))) for scope in scopes}

    def write(self, scope: Scope, rows: list[BoardEntry], version: int) -> bool:
        """Put SCOPE's top item holding ROWS at VERSION + 1 if it is still at VERSION (0: absent),
        and its words item, in one transaction; False if it is not."""
        words = top_items(scope, rows, version + 1)[1]
        codes = self.db.transact([versioned_put(scope, rows, version), {"Put": {"Item": words}}])
        if codes[:1] == ["ConditionalCheckFailed"]:
            return False
        if codes:
            raise DataError(f"The top of a board was refused: {codes}")
        return True

    def write_names(self, tops: list[tuple[Scope, list[BoardEntry], int]]) -> bool:
        """Put each top item (scope, rows, version read) in one transaction, on condition that
        every one is still at its version; its words item stays (names only). False if one is
        not."""
        return not self.db.transact([versioned_put(scope, rows, version) for scope, rows, version in tops])


class StoredRows:
    """The board rows of official results as stored: what a fold checks its rows against."""

    def __init__(self, db: Client):
        self.db = db

    def rows(self, scope: Scope, players: list[str]) -> dict[str, BoardEntry]:
        """The board rows of PLAYERS' official results of SCOPE, read consistently."""
        items = self.db.batch_get([keys.official_key(p, scope) for p in players], consistent=True)
        # A voided result (SPEC §3e) keeps its item but has no board row: it never enters a top.
        return {row.player: row for row in (entry(item) for item in items if "board_sk" in item)}


def renamed_top(scope: Scope, item: Item | None, names: dict[str, str | None]) -> Item | None:
    """The transaction Put that shows NAMES (player -> name) in SCOPE's top ITEM as read, on
    condition that it is still at the version read; None when it shows them already."""
    top, version = top_rows(item)
    rows = with_names(top, names) if version else None
    return None if rows is None else versioned_put(scope, rows, version)
