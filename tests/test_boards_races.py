"""Races on the top-of-board item (docs/leaderboards.md), against moto's SERVER mode like
tests/test_races.py (whose server, store fixture and `race` it uses): in-process moto can let
two racing conditional puts both succeed.

Several stream consumers (one per stream shard on AWS) bring rows for one board's top item at
once, while players in it rename themselves. One consumer claims the board's interval and folds
the rows in; the others leave theirs in the inbox and wait for the interval to end (a short one
here). No row and no rename may be lost, and the folds are an interval apart.
"""

import time
from functools import partial

import pytest

from shared.boards import BoardPosition
from shared.scope import Scope
from tests.fake_boards import official
from tests.test_races import client, race, store  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("moto_server_board_races")]  # its own server

ROUNDS = 3  # repetitions of the race
CONSUMERS = 6
PER_CONSUMER = 5
INTERVAL = 0.25  # seconds between folds into one top item (a second in production)


def test_consumers_merging_into_one_top_at_once_and_renames_lose_nothing(store):  # noqa: F811
    store.top_interval = INTERVAL
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
        store._record_official(seed)
        store.count_official([seed])
        written = [seed, *(r for batch in batches for r in batch)]
        for result in written[1:]:
            store._record_official(result)
        # a player renames while the consumer holding their result merges it into the top
        renamer = batches[0][0].player
        store.set_display_name(renamer, f"Racer {repetition}")
        calls = [partial(store.count_official, batch) for batch in batches]
        calls.append(partial(store.rename_rows, renamer, [scope], f"Racer {repetition}"))

        folds: list[float] = []
        fold = store._fold_inbox

        def timed_fold(scope: Scope, folds: list[float] = folds, fold=fold) -> None:
            folds.append(time.monotonic())
            fold(scope)

        store._fold_inbox = timed_fold
        try:
            outcomes = race(calls)
        finally:
            del store._fold_inbox

        assert [o for o in outcomes if isinstance(o, Exception)] == [], f"repetition {repetition}"
        page = store.board_page(scope, None, 100)
        expected = sorted(written, key=lambda r: BoardPosition.of(r).order())
        assert [e.player for e in page] == [r.player for r in expected], f"repetition {repetition}"
        assert {e.player: e.display_name for e in page if e.display_name} == {renamer: f"Racer {repetition}"}
        assert 1 <= len(folds) < CONSUMERS, f"repetition {repetition}: a fold per consumer"
        assert all(b - a >= INTERVAL * 0.9 for a, b in zip(folds, folds[1:], strict=False)), folds
