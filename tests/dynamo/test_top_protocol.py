"""The top-of-board protocol (docs/leaderboards.md, "The protocol"), one named interleaving per
test, on its parts (shared/dynamo/top.py's TopOfBoard over `lease`, `inbox`, `item` and
`stored`), on in-process moto and once more on moto's server. Each consumer is a TopOfBoard of
its own over the same table, as each stream shard's consumer is; an interleaving is made by
handing a consumer a part that does one thing more (a stale read, a rename, a crash) and by the
hand clock's waits, never by patching the engine. The same protocol raced by real threads on
moto's server: tests/dynamo/test_boards_races.py.
"""

from collections.abc import Callable

import pytest

from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.client import Client
from shared.dynamo.inbox import Inbox, Left
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.lease import Lease
from shared.dynamo.store import DynamoPorts, dynamo_ports
from shared.dynamo.table import create_table_request
from shared.dynamo.top import ATTEMPTS, TopOfBoard
from shared.dynamo.top_item import StoredRows, TopItem
from shared.game.boards import BoardEntry, BoardPosition
from shared.game.errors import Throttled
from shared.game.results import OfficialResult
from shared.game.scope import Scope
from tests.dynamo.test_races import client  # noqa: F401 (the moto server's fixture)
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import complete_official

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

DAY = "2026-01-15"
SCOPE = Scope.daily(DAY)
INTERVAL = 1.0


class HandClock:
    """The consumers' wall clock, moved only by their waits; `meanwhile` runs once at the next
    wait, after the clock has moved: what other consumers do while one waits."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.waits: list[float] = []
        self.meanwhile: list[Callable[[], None]] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds
        if self.meanwhile:
            self.meanwhile.pop(0)()


@pytest.fixture(
    params=[
        "in-process",
        pytest.param("server", marks=[pytest.mark.server, pytest.mark.xdist_group("moto_server_protocol")]),
    ]
)
def store(request) -> DynamoPorts:
    """The game's table on in-process moto, and once more on moto's server (tests/dynamo/test_races.py's,
    over real HTTP), where each request is applied atomically as DynamoDB applies it."""
    if request.param == "in-process":
        return dynamo_ports(request.getfixturevalue("table"), board_shards=BOARD_SHARDS)
    server = request.getfixturevalue("client")
    name = request.node.name.replace("[", "-").replace("]", "")
    server.create_table(**create_table_request(name))
    return dynamo_ports(name, server, board_shards=BOARD_SHARDS)


@pytest.fixture
def clock() -> HandClock:
    return HandClock()


@pytest.fixture
def db(store: DynamoPorts, clock: HandClock) -> Client:
    """The consumers' client: the store's table, on the hand clock."""
    return Client(store.table, store.client, sleep=clock.sleep, wall=clock)


def consumer(db: Client, **parts) -> TopOfBoard:
    return TopOfBoard(db, BoardKeys(BOARD_SHARDS), interval=INTERVAL, **parts)


def completed(store: DynamoPorts, name: str, score: int, second: int = 0, **kw) -> OfficialResult:
    result = official(name, score, completed_at=f"{DAY}T06:00:{second:02d}.000Z", day=DAY, **kw)
    complete_official(store, result)
    return result


def top_of(db: Client) -> list[tuple[str, str | None]]:
    return [(e.player, e.display_name) for e in TopItem(db).read(SCOPE)[0]]


def players(*names: str) -> list[tuple[str, None]]:
    return [(player(name), None) for name in names]


def inbox_items(db: Client) -> list:
    return Inbox(db).read(SCOPE).items


def test_two_consumers_the_one_that_finds_the_lease_held_waits_and_anothers_fold_takes_its_rows(
    store, db, clock
):
    """A folds and holds the lease for this interval; B leaves its rows and waits for the
    interval's end; meanwhile C takes the next interval and folds B's rows with its own. B finds
    its inbox item gone and returns without a write: two writes of the top, not three."""
    consumer(db).merge(SCOPE, [completed(store, "a", 100)])
    b, c = completed(store, "b", 110, 1), completed(store, "c", 120, 2)  # after: not seeded from the index
    clock.meanwhile.append(lambda: consumer(db).merge(SCOPE, [c]))

    consumer(db).merge(SCOPE, [b])

    assert clock.waits == [pytest.approx(INTERVAL + 0.01)], "B waited once, for the interval's end"
    assert top_of(db) == players("c", "b", "a")
    assert TopItem(db).read(SCOPE)[1] == 2, "one write per interval"
    assert inbox_items(db) == []


class StaleOnce(TopItem):
    """A top item whose first read for a fold returns what it held before (a stale read)."""

    def __init__(self, db: Client, stale: tuple[list[BoardEntry], int]):
        super().__init__(db)
        self.stale: tuple[list[BoardEntry], int] | None = stale
        self.reads = 0

    def read(self, scope, consistent=True, words=True):
        self.reads += 1
        if consistent and words and self.stale is not None:
            stale, self.stale = self.stale, None
            return stale
        return super().read(scope, consistent, words)


def test_a_fold_from_a_stale_read_of_the_top_is_refused_and_merges_again_losing_no_row(store, db):
    consumer(db).merge(SCOPE, [completed(store, "a", 100, 1)])
    before = TopItem(db).read(SCOPE)  # what the slower consumer read
    consumer(db).merge(SCOPE, [completed(store, "c", 50, 3)])
    b = completed(store, "b", 200, 2)
    stale = StaleOnce(db, before)

    consumer(db, item=stale).merge(SCOPE, [b])

    assert stale.reads >= 3, "the filter's read, the stale read, the read after the refusal"
    assert top_of(db) == players("b", "a", "c")
    assert TopItem(db).read(SCOPE)[1] == 3


class RenamedAfterTheRead(StoredRows):
    """Stored rows whose player renames right after the fold first reads them."""

    def __init__(self, db: Client, rename: Callable[[], None]):
        super().__init__(db)
        self.rename: Callable[[], None] | None = rename

    def rows(self, scope, players):
        read = super().rows(scope, players)
        if self.rename is not None:
            rename, self.rename = self.rename, None
            rename()
        return read


def test_a_rename_between_the_folds_read_and_its_write_shows_on_the_top_after_the_write(store, db):
    """The fold reads Annie; the rename updates the row and finds no top row to change; the fold
    writes Annie. It reads the names again after its write and shows the new one."""
    store.names.set_display_name(player("ann"), "Annie")
    result = completed(store, "ann", 300)

    def rename() -> None:
        store.names.set_display_name(player("ann"), "Renamed")
        store.names.rename_rows(player("ann"), [SCOPE], "Renamed")

    consumer(db, stored=RenamedAfterTheRead(db, rename)).merge(SCOPE, [result])

    assert top_of(db) == [(player("ann"), "Renamed")]


class CrashAfterWrite(TopItem):
    """A top item whose consumer dies right after its write."""

    def write(self, scope, rows, version):
        super().write(scope, rows, version)
        raise RuntimeError("the consumer died")


def test_a_rename_then_a_crash_before_the_names_are_read_again_shows_at_the_boards_next_fold(store, db):
    """The rename lands between the fold's read and its write, and the consumer dies before it
    reads the names again: its inbox item is still there, so the board's next fold, which finds
    the player in the top, reads their name again."""
    store.names.set_display_name(player("ann"), "Annie")
    result = completed(store, "ann", 300)

    def rename() -> None:
        store.names.set_display_name(player("ann"), "Renamed")
        store.names.rename_rows(player("ann"), [SCOPE], "Renamed")

    dying = consumer(db, item=CrashAfterWrite(db), stored=RenamedAfterTheRead(db, rename))
    with pytest.raises(RuntimeError):
        dying.merge(SCOPE, [result])
    assert top_of(db) == [(player("ann"), "Annie")], "the gap, until the next fold"

    consumer(db).merge(SCOPE, [completed(store, "bob", 100, 1)])

    assert top_of(db) == [(player("ann"), "Renamed"), (player("bob"), None)]
    assert inbox_items(db) == []


class CrashOnClear(Inbox):
    """An inbox whose consumer dies after the fold's write, before it deletes what it read."""

    def clear(self, left: Left) -> None:
        raise RuntimeError("the consumer died")


def test_a_crash_after_the_folds_write_leaves_inbox_items_that_the_next_fold_clears(store, db):
    a = completed(store, "a", 100, 1)
    with pytest.raises(RuntimeError):
        consumer(db, inbox=CrashOnClear(db)).merge(SCOPE, [a])
    assert top_of(db) == players("a"), "the write happened"
    assert len(inbox_items(db)) == 1

    consumer(db).merge(SCOPE, [a])  # the batch comes again: a is in the top, nothing is left
    assert len(inbox_items(db)) == 1
    consumer(db).merge(SCOPE, [completed(store, "b", 200, 2)])  # its fold reads the leftover: a stays once

    assert top_of(db) == players("b", "a")
    assert inbox_items(db) == []


def test_a_consumer_that_takes_the_lease_and_dies_before_folding_loses_no_row(store, db, clock):
    """B waits for the lease; meanwhile another consumer takes the next interval and dies. B's
    rows are still in the inbox, so it waits that interval out, takes the lease and folds."""
    consumer(db).merge(SCOPE, [completed(store, "a", 100, 1)])
    b = completed(store, "b", 300, 2)
    lease = Lease(db)

    def take_and_die() -> None:
        assert lease.take(SCOPE, lease.holder(SCOPE).token, clock.now + INTERVAL)

    clock.meanwhile.append(take_and_die)
    consumer(db).merge(SCOPE, [b])

    assert len(clock.waits) == 2, "the first holder's interval, then the dead one's"
    assert top_of(db) == players("b", "a")
    assert inbox_items(db) == []


def test_a_lease_taken_by_a_clock_far_ahead_is_not_waited_on(store, db, clock):
    result = completed(store, "ann", 300)
    assert Lease(db).take(SCOPE, None, clock.now + 3600)  # an hour ahead

    consumer(db).merge(SCOPE, [result])

    assert clock.waits == []
    assert top_of(db) == players("ann")


class Throttling(StoredRows):
    def rows(self, scope, players):
        raise Throttled("The game is busy; try again shortly")


def test_a_fold_that_fails_leaves_the_rows_in_the_inbox_and_the_batch_again_brings_them_in(store, db):
    result = completed(store, "ann", 300)
    with pytest.raises(Throttled):
        consumer(db, stored=Throttling(db)).merge(SCOPE, [result])
    assert top_of(db) == []
    assert len(inbox_items(db)) == 1

    consumer(db).merge(SCOPE, [result])

    assert top_of(db) == players("ann")
    assert inbox_items(db) == []


class NeverGranted(Lease):
    """A lease another consumer always takes first."""

    def take(self, scope, holder, until):
        return False


def test_a_consumer_that_never_gets_the_lease_is_throttled_and_its_rows_wait_in_the_inbox(store, db):
    result = completed(store, "ann", 300)
    lease = NeverGranted(db)

    with pytest.raises(Throttled):
        consumer(db, lease=lease).merge(SCOPE, [result])

    assert top_of(db) == []
    assert len(inbox_items(db)) == 1
    assert ATTEMPTS > 1


def test_a_player_left_twice_keeps_the_stored_row_whichever_is_read_first(store, db):
    """moto's stream carries records of cancelled transactions: a player's row may be left once
    as stored and once as a result the table never held, or only as one the table never held."""
    consumer(db).merge(SCOPE, [completed(store, "zed", 50)])  # the top exists: no seed from the index
    stored = completed(store, "ann", 100, 5)
    ghost = official("ann", 900, completed_at=f"{DAY}T06:00:06.000Z", day=DAY, run_id="cancelled-run")
    nobody = official("bob", 800, completed_at=f"{DAY}T06:00:07.000Z", day=DAY)  # no stored result
    for result in (ghost, nobody, stored):  # the ghosts first: they must not win by being read first
        Inbox(db).leave(SCOPE, [BoardEntry(result.player, BoardPosition.of(result), result.words, None)])

    consumer(db).fold(SCOPE)

    assert [(e.player, e.position.score) for e in TopItem(db).read(SCOPE)[0]] == [
        (player("ann"), 100),
        (player("zed"), 50),
    ]


class AlwaysBeaten(TopItem):
    """A top item another writer always writes first (the rush's folds)."""

    def write(self, scope, rows, version):
        return False

    def write_names(self, tops):
        return False


def test_a_rename_that_the_folds_always_beat_is_throttled_never_a_data_error(store, db):
    """PUT /me answers 429 then (shared/http maps Throttled); trying again is idempotent."""
    consumer(db).merge(SCOPE, [completed(store, "ann", 300)])
    beaten = consumer(db, item=AlwaysBeaten(db))

    with pytest.raises(Throttled):
        beaten.rename_all([SCOPE], {player("ann"): "Renamed"})
    with pytest.raises(Throttled):
        beaten.rename(SCOPE, {player("ann"): "Renamed"})
    assert top_of(db) == players("ann")
