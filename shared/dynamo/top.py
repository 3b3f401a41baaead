"""The top of a board: one item holding its best TOP_ROWS rows, which pages within it read (one
GetItem), kept by the stream consumer (shared/dynamo/counters.py brings each counted batch here).

Consumers run one per stream shard, so at the rush hundreds a second may bring a row for the same
top item. So the item is written at most once per `interval` (a second) per board: a consumer
leaves its entering rows in the board's inbox (shared/dynamo/inbox.py), then whoever takes the
board's lease for the next interval (shared/dynamo/lease.py) folds every row left so far into the
top item (shared/dynamo/top_item.py). The arithmetic is the ranking engine's
(shared/game/ranking.py); the protocol, its states and what a crash leaves are in
docs/leaderboards.md, "The protocol".
"""

from shared.dynamo.board_index import shard_page
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.client import Client
from shared.dynamo.inbox import Inbox
from shared.dynamo.lease import Lease
from shared.dynamo.top_item import StoredRows, TopItem
from shared.game import ranking
from shared.game.boards import TOP_ROWS, BoardEntry
from shared.game.errors import Throttled
from shared.game.results import OfficialResult
from shared.game.scope import Scope

# The top item is written at most once per TOP_INTERVAL_SECONDS per board (plus renames).
TOP_INTERVAL_SECONDS = 1.0
# A consumer waiting for a lease's interval to end tries again this long after its end.
LEASE_MARGIN = 0.01
# Turns at a board's lease, or attempts at a conditional write of a top item (read again after
# each refusal), before giving up: the consumer's batch fails (Lambda delivers it again), a rename
# answers 429.
ATTEMPTS = 10
_BUSY = "The game is busy; try again shortly"
_TRANSACTION_ITEMS = 100  # DynamoDB's limit on items per TransactWriteItems
Candidates = dict[str, list[BoardEntry]]  # player -> the rows left for them


class TopOfBoard:
    """Each board's top item, kept through its parts: `item` (the top item), `inbox`, `lease` and
    `stored` (the official results a fold checks). `rows` is how many rows a top holds (the
    contract tests lower it, so that paging past the top needs tens of results, not hundreds);
    `interval` the seconds between two folds into one top item (tests lower it, or drive the
    client's `wall` by hand). A test may hand in its own parts, to name an interleaving."""

    def __init__(
        self,
        db: Client,
        board_keys: BoardKeys,
        rows: int = TOP_ROWS,
        interval: float = TOP_INTERVAL_SECONDS,
        *,
        item: TopItem | None = None,
        inbox: Inbox | None = None,
        lease: Lease | None = None,
        stored: StoredRows | None = None,
    ):
        self.db, self.board_keys = db, board_keys
        self.rows = rows
        self.interval = interval
        self.item = item or TopItem(db)
        self.inbox = inbox or Inbox(db)
        self.lease = lease or Lease(db)
        self.stored = stored or StoredRows(db)

    def read(self, scope: Scope, consistent: bool = True, words: bool = True) -> tuple[list[BoardEntry], int]:
        """The top item's rows and version; their words too unless WORDS is False."""
        return self.item.read(scope, consistent, words)

    def merge(self, scope: Scope, results: list[OfficialResult]) -> None:
        """Bring RESULTS into SCOPE's top item. Rows that cannot enter it (it is full of better
        rows, or they are there already: a record delivered again) are dropped at once, against an
        eventually consistent read (a stale top is never better than the stored one, so nothing
        that could enter is dropped). The rest are left in one inbox item, and the consumer
        returns only once that item is gone (a fold deletes the items it read only after its
        write of the top succeeded) or once it has folded them in itself. After ATTEMPTS turns,
        Throttled: the batch fails and comes again, and the rows are left again."""
        top, _ = self.item.read(scope, consistent=False, words=False)
        entering = ranking.entering(top, [ranking.arrival(r) for r in results], self.rows)
        if not entering:
            return
        left = self.inbox.leave(scope, entering)
        for attempt in range(ATTEMPTS):
            if attempt and not self.inbox.holds(left):
                return  # a fold read these rows, wrote the top, then deleted the inbox item
            if self.turn(scope):
                return
        raise Throttled(_BUSY)

    def turn(self, scope: Scope) -> bool:
        """One turn at SCOPE's lease: while it is held for this interval, wait for its end; free
        (or taken by a clock far ahead), take it and fold. True once this consumer folded; False
        after a wait, or when another consumer took the lease since it was read (its fold may
        have taken this consumer's rows)."""
        holder = self.lease.holder(scope)
        now = self.db.wall()
        wait = ranking.lease_wait(now, holder.until, self.interval, LEASE_MARGIN)
        if wait is not None:
            self.db.sleep(wait)
            return False
        if not self.lease.take(scope, holder.token, now + self.interval):
            return False
        self.fold(scope)
        return True

    def fold(self, scope: Scope) -> None:
        """Fold every row left in SCOPE's inbox into its top item, then delete the inbox items
        read. A fold that fails raises, and leaves the inbox as it was."""
        left = self.inbox.read(scope)
        self.fold_rows(scope, left.rows)
        self.inbox.clear(left)

    def fold_rows(self, scope: Scope, candidates: Candidates) -> None:
        """Merge CANDIDATES (player -> the rows left for them) into SCOPE's top item, written only
        if a row enters it, on condition that nobody wrote it since it was read (else read again
        and merge again). Each entering row is checked against the stored result first: one that
        is not it (moto's stream carries cancelled transactions' records) is dropped, and the
        player's other rows tried; it takes the name the result shows. Rows left for players the
        top holds already (a fold that died after its write, before it cleared the inbox) have
        their names read again. The first fold into a board also takes the board index's best
        rows (a board live before top items existed)."""
        for _ in range(ATTEMPTS):
            top, version = self.item.read(scope)
            if not version:
                candidates = self._with_index(scope, candidates)
            fold = ranking.plan_fold(top, candidates, self.rows)
            if not fold.entering:
                self._catch_renames(scope, top, fold.settled)
                return
            stored = self.stored.rows(scope, list(fold.entering))
            wrong = ranking.not_stored(fold, stored)
            if wrong:
                candidates = ranking.ruled_out(candidates, wrong, stored)
                continue
            written = ranking.with_stored(fold, stored)
            if self.item.write(scope, written, version):
                self._catch_renames(scope, written, [*fold.entering, *fold.settled])
                return
        raise Throttled(_BUSY)

    def rename(self, scope: Scope, names: dict[str, str | None]) -> None:
        """Show NAMES (player -> name) on their rows in SCOPE's top item, if they are there."""
        for _ in range(ATTEMPTS):
            top, _ = self.item.read(scope, words=False)
            if ranking.with_names(top, names) is None:
                return
            top, version = self.item.read(scope)  # with the words it writes back
            rows = ranking.with_names(top, names)
            if rows is None or self.item.write(scope, rows, version):
                return
        raise Throttled(_BUSY)  # 429: PUT /me again is idempotent

    def rename_all(self, scopes: list[Scope], names: dict[str, str | None]) -> None:
        """`rename` over SCOPES in few requests: one BatchGetItem of their top items, then the
        tops that show one of NAMES' players under another name put again, in transactions of up
        to 100 puts, each on condition that its top is still at the version read (a transaction
        that fails is read and written again)."""
        pending = list(dict.fromkeys(scopes))
        for _ in range(ATTEMPTS):
            changes = [
                (scope, rows, version)
                for scope, (top, version) in self.item.read_many(pending).items()
                if version and (rows := ranking.with_names(top, names)) is not None
            ]
            pending = []
            for start in range(0, len(changes), _TRANSACTION_ITEMS):
                chunk = changes[start : start + _TRANSACTION_ITEMS]
                if not self.item.write_names(chunk):
                    pending += [scope for scope, _, _ in chunk]
            if not pending:
                return
        raise Throttled(_BUSY)

    def drop(self, scope: Scope, player: str) -> None:
        """Take PLAYER's row out of SCOPE's top item (a voided result, SPEC §3e), refilled from the
        board index so the item still holds the board's best rows (PLAYER's row left out of them:
        the index may trail the void)."""
        for _ in range(ATTEMPTS):
            top, version = self.item.read(scope)
            if all(e.player != player for e in top):
                return
            below = shard_page(self.db, self.board_keys, scope, None, self.rows + 1)
            if self.item.write(scope, ranking.refilled(top, below, player, self.rows), version):
                return
        raise Throttled(_BUSY)

    def _with_index(self, scope: Scope, candidates: Candidates) -> Candidates:
        """CANDIDATES and the board index's best rows, for a board's first top item: a new board,
        or one live before top items existed (once per board)."""
        seeded = {row.player: [row] for row in shard_page(self.db, self.board_keys, scope, None, self.rows)}
        return {**seeded, **candidates}

    def _catch_renames(self, scope: Scope, written: list[BoardEntry], players: list[str]) -> None:
        """Read PLAYERS' names again after a fold wrote WRITTEN: a rename that updated a result
        after the fold read it, but looked at the top before the write, is caught here (one after
        the write finds the row itself)."""
        if not players:
            return
        renamed = ranking.renamed_since(written, self.stored.rows(scope, players))
        if renamed:
            self.rename(scope, renamed)
