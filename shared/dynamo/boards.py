"""Board reads on DynamoDB (the BoardStore port): pages (from the top of the board,
shared/dynamo/top.py, while it holds them, else from the `board` index), a player's row, and
profiles.
Items and keys are described in docs/leaderboards.md.
"""

from shared.dynamo import keys
from shared.dynamo.board_index import shard_page
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.client import Client
from shared.dynamo.codec import display_name, entry, pending_of, stats_of, top_rows
from shared.dynamo.moderation_keys import pending_runs_key
from shared.dynamo.tombstone import admission_of, read_admission, sanctions_of
from shared.dynamo.top import TopOfBoard
from shared.dynamo.top_item import key_id
from shared.game.boards import BoardEntry, BoardPosition, PlayerProfile, page_from_top
from shared.game.moderation import Sanction
from shared.game.scope import Scope
from shared.services.ports import Admission


class BoardReads:
    def __init__(self, db: Client, top: TopOfBoard, board_keys: BoardKeys):
        self.db = db
        self.top = top
        self.board_keys = board_keys

    def board_page(
        self, scope: Scope, after: BoardPosition | None, limit: int, shown: int = 0, words: bool = True
    ) -> list[BoardEntry]:
        """The best LIMIT rows after AFTER (SHOWN rows before it): from the top-of-board item
        when it holds them (one GetItem; with its words item, one BatchGetItem), else a lazy
        merge of the shards."""
        if shown + limit <= self.top.rows:
            top, _ = self.top.read(scope, consistent=False, words=words)
            page = page_from_top(top, after, limit, self.top.rows)
            if page is not None:
                return page
        return shard_page(self.db, self.board_keys, scope, after, limit)

    def board_entry(self, player: str, scope: Scope) -> BoardEntry | None:
        item = self.db.get(keys.official_key(player, scope))
        return entry(item) if item and "board_sk" in item else None

    def admitted_entry(
        self, player: str, scope: Scope
    ) -> tuple[Admission, BoardEntry | None, frozenset[str]]:
        """One BatchGetItem, eventually consistent as a board's reads are (a read-only route: its
        admission may trail a tombstone or a ban by under a second, docs/players.md): the
        player's profile (their admission), their result and the board's runs under review."""
        official, pending = keys.official_key(player, scope), pending_runs_key(scope)
        found = {key_id(i): i for i in self.db.batch_get([official, keys.profile_key(player), pending])}
        item = found.get(key_id(official))
        return (
            admission_of(found.get(key_id(keys.profile_key(player)))),
            entry(item) if item and "board_sk" in item else None,
            pending_of(found.get(key_id(pending))),
        )

    def top_page(
        self, scope: Scope, limit: int, words: bool
    ) -> tuple[list[BoardEntry], frozenset[str]] | None:
        """One BatchGetItem (eventually consistent): the top-of-board item, its words item if
        WORDS, and the board's runs under review; None when the top does not hold the page."""
        if limit > self.top.rows:
            return None
        wanted = [keys.top_key(scope), pending_runs_key(scope)] + (
            [keys.top_words_key(scope)] if words else []
        )
        found = {key_id(i): i for i in self.db.batch_get(wanted)}
        top, _ = top_rows(
            found.get(key_id(keys.top_key(scope))), found.get(key_id(keys.top_words_key(scope)))
        )
        page = page_from_top(top, None, limit, self.top.rows)
        return None if page is None else (page, pending_of(found.get(key_id(pending_runs_key(scope)))))

    def admission(self, player: str) -> Admission:
        """PLAYER's tombstone and ban: one consistent GetItem of two attributes of their profile
        (shared/dynamo/tombstone.py)."""
        return read_admission(self.db, player)

    def own_profile(self, player: str) -> tuple[Admission, PlayerProfile, list[Sanction]]:
        """One consistent GetItem of the profile: its admission, name, stats and sanctions."""
        item = self.db.get(keys.profile_key(player), consistent=True) or {}
        profile = PlayerProfile(display_name(item), stats_of(item)[0])
        return admission_of(item), profile, sanctions_of(item)

    def player_profile(self, player: str) -> PlayerProfile:
        """One consistent GetItem of the profile, which holds the name and the stats."""
        item = self.db.get(keys.profile_key(player), consistent=True) or {}
        return PlayerProfile(display_name(item), stats_of(item)[0])
