"""The top of a board: one item holding its best TOP_ROWS rows, which pages within it read (one
GetItem), kept by the stream consumer (shared/dynamo/counters.py brings each counted batch here).

Consumers run one per stream shard, so at the rush hundreds a second may bring a row for the same
top item. So the item is written at most once per `interval` (a second) per board: a consumer
leaves its entering rows in the board's inbox (`_leave_rows`), then whoever claims the board's
next interval (`claim`, a small item) folds every row left so far into the top (`_fold_inbox`).
See docs/leaderboards.md.
"""

import secrets
from collections import defaultdict

from shared.dynamo import keys
from shared.dynamo.board_index import shard_page
from shared.dynamo.client import Client, ConditionFailed, DataError, Item
from shared.dynamo.codec import entry, inbox_item, inbox_rows, top_items, top_rows
from shared.game.boards import TOP_ROWS, BoardEntry, BoardPosition, merge_top
from shared.game.errors import Throttled
from shared.game.results import OfficialResult
from shared.game.scope import Scope

# The top item is written at most once per TOP_INTERVAL_SECONDS per board (plus renames).
TOP_INTERVAL_SECONDS = 1.0
# A consumer waiting for a claim's interval to end tries again this long after its end.
_CLAIM_MARGIN = 0.01
# Attempts at a conditional write of a top-of-board item, read again after each refusal, before
# giving up: the consumer's batch fails (Lambda delivers it again), a rename answers 429.
_ATTEMPTS = 10
_BUSY = "The game is busy; try again shortly"


_TRANSACTION_ITEMS = 100  # DynamoDB's limit on items per TransactWriteItems


def key_id(item: Item) -> tuple[str, str]:
    """An item's key as one hashable value, to find what a BatchGetItem returned."""
    return item["pk"]["S"], item["sk"]["S"]


def renamed_top(scope: Scope, item: Item | None, names: dict[str, str | None]) -> Item | None:
    """The transaction Put that shows NAMES (player -> name) in SCOPE's top ITEM as read, on
    condition that it is still at the version read; None when it shows them already."""
    top, version = top_rows(item)
    if not version or all(e.display_name == names[e.player] for e in top if e.player in names):
        return None
    rows = [e._replace(display_name=names[e.player]) if e.player in names else e for e in top]
    return {
        "Put": {
            "Item": top_items(scope, rows, version + 1)[0],  # names only: its words item stays
            "ConditionExpression": "version = :v",
            "ExpressionAttributeValues": {":v": {"N": str(version)}},
        }
    }


class TopOfBoard:
    """Each board's top item. `rows` is how many rows it holds (the contract tests lower it, so
    that paging past the top needs tens of results, not hundreds); `interval` the seconds between
    two folds into one top item (tests lower it, or drive the client's `wall` by hand)."""

    def __init__(self, db: Client, rows: int = TOP_ROWS, interval: float = TOP_INTERVAL_SECONDS):
        self.db = db
        self.rows = rows
        self.interval = interval

    def read(self, scope: Scope, consistent: bool = True, words: bool = True) -> tuple[list[BoardEntry], int]:
        """The top item's rows and version; their words too (a second item, in the same request)
        unless WORDS is False."""
        if not words:
            return top_rows(self.db.get(keys.top_key(scope), consistent=consistent))
        found = {
            item["sk"]["S"]: item
            for item in self.db.batch_get([keys.top_key(scope), keys.top_words_key(scope)], consistent)
        }
        return top_rows(found.get("TOP"), found.get("WORDS"))

    def merge(self, scope: Scope, results: list[OfficialResult]) -> None:
        """Bring RESULTS into SCOPE's top-of-board item. Rows that cannot enter it (it is full of
        better rows, or they are there already: a record delivered again) are dropped at once,
        against an eventually consistent read (a stale top is never better than the stored one,
        so nothing that could enter is dropped). The rest are left in one inbox item, and the
        consumer returns only once that item is gone: a fold deletes the inbox items it read only
        after its write of the top succeeded, so then the rows are in (or were beaten). Until
        then, in turns:
        - the board's claim is held for this interval: wait for its end;
        - it is free: claim it and fold (the fold reads the inbox after claiming, so it reads
          these rows); a claim that fails means another consumer claimed it since it was read:
          look again whether its fold took the rows.
        A claim that ends more than an interval from now was set by a clock far ahead: it counts
        as free, so no consumer waits on it. A fold that fails raises: the batch fails and comes
        again, and the rows are left again. After _ATTEMPTS turns, Throttled (the same)."""
        top, _ = self.read(scope, consistent=False, words=False)
        present = {e.player for e in top}
        arrivals = [
            BoardEntry(r.player, BoardPosition.of(r), r.words, None)
            for r in results
            if r.player not in present
        ]
        entering = [e for e in merge_top(top, arrivals, self.rows) if e.player not in present]
        if not entering:
            return
        left = self._leave_rows(scope, entering)
        for attempt in range(_ATTEMPTS):
            if attempt and not self.db.get(left, consistent=True):
                return  # a fold read these rows, wrote the top, then deleted the inbox item
            holder, until = self._claim_of(scope)
            now = self.db.wall()
            if now < until <= now + self.interval:  # claimed for this interval: wait for its end
                self.db.sleep(until - now + _CLAIM_MARGIN)
            elif self.claim(scope, holder, now):  # free (or set by a clock far ahead)
                self._fold_inbox(scope)
                return
            # else another consumer claimed it since it was read: see whether its fold took them
        raise Throttled(_BUSY)  # the batch fails and comes again

    def rename(self, scope: Scope, names: dict[str, str | None]) -> None:
        """Show NAMES (player -> name) on their rows in SCOPE's top item, if they are there."""
        for _ in range(_ATTEMPTS):
            top, version = self.read(scope, words=False)
            if all(e.display_name == names[e.player] for e in top if e.player in names):
                return
            top, version = self.read(scope)  # with the words it writes back
            rows = [e._replace(display_name=names[e.player]) if e.player in names else e for e in top]
            if self._write(scope, rows, version):
                return
        raise Throttled(_BUSY)  # 429: PUT /me again is idempotent

    def rename_all(self, scopes: list[Scope], names: dict[str, str | None]) -> None:
        """`rename` over SCOPES in few requests: one BatchGetItem of their top items, then the
        tops that show one of NAMES' players under another name put again, in transactions of
        up to 100 puts, each on condition that its top is still at the version read (a
        transaction that fails is read and written again)."""
        pending = list(dict.fromkeys(scopes))
        for _ in range(_ATTEMPTS):
            wanted = {key_id(keys.top_key(scope)): scope for scope in pending}
            tops = self.db.batch_get([keys.top_key(scope) for scope in pending], consistent=True)
            found = {key_id(item): item for item in tops}
            puts: list[tuple[Scope, Item]] = []
            for key, scope in wanted.items():
                put = renamed_top(scope, found.get(key), names)
                if put is not None:
                    puts.append((scope, put))
            pending = []
            for start in range(0, len(puts), _TRANSACTION_ITEMS):
                chunk = puts[start : start + _TRANSACTION_ITEMS]
                if self.db.transact([put for _, put in chunk]):
                    pending += [scope for scope, _ in chunk]
            if not pending:
                return
        raise Throttled(_BUSY)

    def drop(self, scope: Scope, player: str) -> None:
        """Take PLAYER's row out of SCOPE's top item (a voided result, SPEC §3e), refilled from the
        board index so the item still holds the board's best rows (PLAYER's row left out of them:
        the index may trail the void)."""
        for _ in range(_ATTEMPTS):
            top, version = self.read(scope)
            if all(e.player != player for e in top):
                return
            rest = [e for e in top if e.player != player]
            below = [e for e in shard_page(self.db, scope, None, self.rows + 1) if e.player != player]
            if self._write(scope, merge_top(rest, below, self.rows), version):
                return
        raise Throttled(_BUSY)

    def claim(self, scope: Scope, holder: str | None, now: float) -> bool:
        """Claim SCOPE's top item for `interval` seconds from NOW, if the claim is still HOLDER's
        (expired, as read): only one of the consumers that read it gets it."""
        claim: Item = {
            "Item": {
                **keys.top_claim_key(scope),
                "until": {"N": f"{now + self.interval:.3f}"},
                "token": {"S": secrets.token_hex(8)},
            }
        }
        if holder is None:
            claim["ConditionExpression"] = "attribute_not_exists(pk)"
        else:
            claim["ConditionExpression"] = "#token = :holder"
            claim["ExpressionAttributeNames"] = {"#token": "token"}
            claim["ExpressionAttributeValues"] = {":holder": {"S": holder}}
        try:
            self.db.call("put_item", **claim)
            return True
        except ConditionFailed:
            return False

    def _leave_rows(self, scope: Scope, rows: list[BoardEntry]) -> Item:
        """One new, never-changed inbox item holding ROWS (without names: the fold reads those),
        in one of TOP_INBOXES partitions, so that no partition takes every consumer's write.
        Returns its key."""
        item = inbox_item(scope, rows, self.db.wall(), secrets.token_hex(8))
        self.db.call("put_item", Item=item)
        return keys.key_of(item)

    def _claim_of(self, scope: Scope) -> tuple[str | None, float]:
        """Who holds SCOPE's claim (a token; None: never claimed) and until when, read
        consistently: a read, so the many consumers waiting at the rush write nothing."""
        item = self.db.get(keys.top_claim_key(scope), consistent=True)
        return (item["token"]["S"], float(item["until"]["N"])) if item else (None, 0.0)

    def _fold_inbox(self, scope: Scope) -> None:
        """Fold every row left in SCOPE's inbox into its top item, then delete the inbox items
        read: each was written once and never changed, so deleting it loses nothing left since."""
        left: list[Item] = []
        for inbox in range(keys.TOP_INBOXES):
            left += self.db.query(
                KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": keys.inbox_partition(scope, inbox)}},
                ConsistentRead=True,
            )
        rows: dict[str, list[BoardEntry]] = defaultdict(list)
        for item in left:
            for row in inbox_rows(item):
                rows[row.player].append(row)
        self._merge_into_top(scope, rows)
        self.db.batch_delete([keys.key_of(item) for item in left])

    def _merge_into_top(self, scope: Scope, candidates: dict[str, list[BoardEntry]]) -> None:
        """Merge CANDIDATES (player -> the rows left for them) into SCOPE's top-of-board item,
        written back only if a row entered it, on condition that nobody wrote it since it was read
        (else read again and merge again).

        Idempotent: a row is keyed by its player, so a row left twice changes nothing. Each
        entering row is read from its official item first (consistently): a row that is not the
        stored result (moto's stream carries cancelled transactions' records, so a player may
        have been left two different rows) is dropped, the player's other rows tried, and the row
        takes the name the item shows. After the write the names are read again: a rename that
        updated the official item after that first read, but looked at the top before this
        write, is caught here (and one after the write finds the row itself). The first merge
        into a board also takes the board index's best rows, read the same way."""
        for _ in range(_ATTEMPTS):
            top, version = self.read(scope)
            if not version:
                # No top item yet: a new board, or one that was live before top items existed.
                # Seed it from the board index (once per board) so it holds every earlier row.
                for row in shard_page(self.db, scope, None, self.rows):
                    candidates.setdefault(row.player, [row])
            present = {e.player for e in top}
            best = {  # each player's best row not yet ruled out
                p: min(rows, key=lambda e: e.position.order())
                for p, rows in candidates.items()
                if rows and p not in present
            }
            merged = merge_top(top, list(best.values()), self.rows)
            entering = [e.player for e in merged if e.player not in present]
            if not entering:
                return
            stored = self._stored_rows(scope, entering)
            wrong = [p for p in entering if p not in stored or stored[p].position != best[p].position]
            if wrong:  # not the stored results: never on the board
                for player in wrong:
                    kept = stored.get(player)
                    candidates[player] = [
                        e for e in candidates[player] if kept and e.position == kept.position
                    ]
                continue
            if self._write(scope, [stored.get(e.player, e) for e in merged], version):
                written = {player: stored[player].display_name for player in entering}
                again = self._stored_rows(scope, entering)
                renamed = {p: e.display_name for p, e in again.items() if e.display_name != written[p]}
                if renamed:
                    self.rename(scope, renamed)
                return
        raise Throttled(_BUSY)  # the batch fails and comes again

    def _write(self, scope: Scope, rows: list[BoardEntry], version: int) -> bool:
        """Put SCOPE's top item at VERSION + 1 if it is still at VERSION (0: absent), and its
        words item, in one transaction."""
        top, words = top_items(scope, rows, version + 1)
        put: Item = {"Item": top}
        if version:
            put["ConditionExpression"] = "version = :v"
            put["ExpressionAttributeValues"] = {":v": {"N": str(version)}}
        else:
            put["ConditionExpression"] = "attribute_not_exists(pk)"
        codes = self.db.transact([{"Put": put}, {"Put": {"Item": words}}])
        if codes[:1] == ["ConditionalCheckFailed"]:
            return False
        if codes:
            raise DataError(f"The top of a board was refused: {codes}")
        return True

    def _stored_rows(self, scope: Scope, players: list[str]) -> dict[str, BoardEntry]:
        """The board rows of PLAYERS' official results of SCOPE, read consistently."""
        items = self.db.batch_get([keys.official_key(p, scope) for p in players], consistent=True)
        # A voided result (SPEC §3e) keeps its item but has no board row: it never enters a top.
        return {row.player: row for row in (entry(item) for item in items if "board_sk" in item)}
