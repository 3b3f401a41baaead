"""Races on the top-of-board item (docs/leaderboards.md), against moto's SERVER mode like
tests/dynamo/test_races.py (whose server, store fixture and `race` it uses): in-process moto can let
two racing conditional puts both succeed.

Several stream consumers (one per stream shard on AWS) bring rows for one board's top item at
once, while players in it rename themselves. One consumer claims the board's interval and folds
the rows in; the others leave theirs in the inbox and wait for the interval to end. No row and no
rename may be lost, and the folds are an interval apart.

Each consumer is a Counters over a TopOfBoard of its own, as each stream shard's Lambda is, with
parts that report to the race's clock (`ObservedInbox`, `ObservedLease`, `ObservedTop`): public
steps, extended, never patched. The leases' clock is injected (`ClaimClock`), never the machine's:
on a loaded machine a thread may stall for longer than an interval anywhere, so wall-clock gaps
prove nothing there.
"""

import threading
from functools import partial

import pytest

from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.client import Client
from shared.dynamo.counters import Counters
from shared.dynamo.inbox import Inbox
from shared.dynamo.lease import Lease
from shared.dynamo.store import DynamoPorts
from shared.dynamo.top import TopOfBoard
from shared.game.boards import BoardPosition
from shared.game.scope import Scope
from tests.dynamo.test_races import client, race, store  # noqa: F401 (fixtures)
from tests.fakes.fake_boards import official
from tests.fakes.fake_store import complete_official

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("moto_server_board_races")]  # its own server

ROUNDS = 3  # repetitions of the race
CONSUMERS = 6
PER_CONSUMER = 5
INTERVAL = 1.0  # seconds between folds into one top item, on the injected clock
# A guard against a test bug (a consumer that never arrives), in real seconds; never reached.
STALL_GUARD_SECONDS = 60


class ClaimClock:
    """The consumers' `wall` and `sleep` for one race, in which every consumer arrives within the
    first interval (what the race means to show):
    - the clock moves only when a consumer waits (`sleep`), to the end of its wait;
    - no claim is made before every consumer has left its rows in the inbox (`arrived`);
    - a wait ends only once no fold is running: a fold takes far less than an interval (a
      second in production), however slowly a loaded machine runs the test's threads.
    `claims` records the clock at each claim that was granted."""

    def __init__(self, consumers: int) -> None:
        self.now = 1_900_000_000.0
        self.consumers = consumers
        self.left = 0
        self.folding: set[int] = set()  # threads inside a fold
        self.claims: list[float] = []
        self.changed = threading.Condition()

    def __call__(self) -> float:
        with self.changed:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self.changed:
            until = self.now + seconds
            if threading.get_ident() not in self.folding:
                self.changed.wait_for(lambda: not self.folding, STALL_GUARD_SECONDS)
            self.now = max(self.now, until)

    def arrived(self) -> None:
        with self.changed:
            self.left += 1
            self.changed.notify_all()

    def all_arrived(self) -> None:
        with self.changed:
            self.changed.wait_for(lambda: self.left >= self.consumers, STALL_GUARD_SECONDS)

    def granted(self, now: float) -> None:
        with self.changed:
            self.claims.append(now)

    def folding_now(self, folding: bool) -> None:
        with self.changed:
            if folding:
                self.folding.add(threading.get_ident())
            else:
                self.folding.discard(threading.get_ident())
                self.changed.notify_all()


class ObservedInbox(Inbox):
    def __init__(self, db: Client, clock: ClaimClock):
        super().__init__(db)
        self.clock = clock

    def leave(self, scope, rows):
        key = super().leave(scope, rows)
        self.clock.arrived()
        return key


class ObservedLease(Lease):
    def __init__(self, db: Client, clock: ClaimClock):
        super().__init__(db)
        self.clock = clock

    def take(self, scope, holder, until):
        self.clock.all_arrived()
        granted = super().take(scope, holder, until)
        if granted:
            self.clock.granted(until - INTERVAL)
        return granted


class ObservedTop(TopOfBoard):
    def __init__(self, db: Client, board_keys: BoardKeys, clock: ClaimClock):
        super().__init__(
            db, board_keys, interval=INTERVAL, inbox=ObservedInbox(db, clock), lease=ObservedLease(db, clock)
        )
        self.clock = clock

    def fold(self, scope):
        self.clock.folding_now(True)
        try:
            super().fold(scope)
        finally:
            self.clock.folding_now(False)


def consumer(table: DynamoPorts, clock: ClaimClock) -> Counters:
    """One stream shard's consumer (counting, then the top), on CLOCK."""
    db = Client(table.table, table.client, sleep=clock.sleep, wall=clock)
    return Counters(db, ObservedTop(db, table.board_keys, clock))


def test_consumers_merging_into_one_top_at_once_and_renames_lose_nothing(store):  # noqa: F811
    for repetition in range(ROUNDS):
        day = f"2031-03-{repetition + 1:02d}"
        scope = Scope.daily(day)
        batches = [
            [
                official(
                    f"c{c}-p{i}-{repetition}",
                    100 + 5 * ((c * 7 + i * 3) % 40),
                    i % 3,
                    4 + c % 2,
                    completed_at=f"{day}T06:{c:02d}:{i:02d}.000Z",
                    day=day,
                )
                for i in range(PER_CONSUMER)
            ]
            for c in range(CONSUMERS)
        ]
        # the board's top item exists before the race (else the first fold would seed it from
        # the board index, every racing row included)
        seed = official(f"seed-{repetition}", 50, completed_at=f"{day}T06:00:00.000Z", day=day)
        complete_official(store, seed)
        store.ranks.count_official([seed])
        written = [seed, *(r for batch in batches for r in batch)]
        for result in written[1:]:
            complete_official(store, result)
        # a player renames while the consumer holding their result merges it into the top
        renamer = batches[0][0].player
        store.names.set_display_name(renamer, f"Racer {repetition}")
        clock = ClaimClock(CONSUMERS)
        calls = [partial(consumer(store, clock).count_official, batch) for batch in batches]
        calls.append(partial(store.names.rename_rows, renamer, [scope], f"Racer {repetition}"))

        outcomes = race(calls)

        assert [o for o in outcomes if isinstance(o, Exception)] == [], f"repetition {repetition}"
        page = store.boards.board_page(scope, None, 100)
        expected = sorted(written, key=lambda r: BoardPosition.of(r).order())
        assert [e.player for e in page] == [r.player for r in expected], f"repetition {repetition}"
        assert {e.player: e.display_name for e in page if e.display_name} == {renamer: f"Racer {repetition}"}
        folds = clock.claims  # each granted claim is followed by its fold
        assert 1 <= len(folds) < CONSUMERS, f"repetition {repetition}: a fold per consumer"
        # An interval apart, up to the millisecond the claim's end is stored to.
        assert all(b - a >= INTERVAL - 0.001 for a, b in zip(folds, folds[1:], strict=False)), folds
