"""Races on the top-of-board item (docs/leaderboards.md), against moto's SERVER mode like
tests/test_races.py (whose server, store fixture and `race` it uses): in-process moto can let
two racing conditional puts both succeed.

Several stream consumers (one per stream shard on AWS) merge their batches into one board's top
item at once, while players in it rename themselves: the item is written on condition of the
version read, so no merge and no rename may be lost.
"""

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
        written = [r for batch in batches for r in batch]
        for result in written:
            store._record_official(result)
        # a player renames while the consumer holding their result merges it into the top
        renamer = batches[0][0].player
        store.set_display_name(renamer, f"Racer {repetition}")
        calls = [partial(store.count_official, batch) for batch in batches]
        calls.append(partial(store.rename_rows, renamer, [scope], f"Racer {repetition}"))

        outcomes = race(calls)

        assert [o for o in outcomes if isinstance(o, Exception)] == [], f"repetition {repetition}"
        page = store.board_page(scope, None, 100)
        expected = sorted(written, key=lambda r: BoardPosition.of(r).order())
        assert [e.player for e in page] == [r.player for r in expected], f"repetition {repetition}"
        assert {e.player: e.display_name for e in page if e.display_name} == {renamer: f"Racer {repetition}"}
