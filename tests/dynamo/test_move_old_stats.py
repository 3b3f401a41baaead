"""scripts/move_old_stats.py: stats still in an old `STATS` item move onto the profile, once
(docs/data-model.md, "Migrations still read")."""

import sys
from pathlib import Path

import pytest

from shared.dynamo import migrations
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import DynamoPorts, dynamo_ports
from tests.conftest import put_old_stats

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import move_old_stats  # noqa: E402

from tests.fakes.fake_store import complete_official


@pytest.fixture
def store(table) -> DynamoPorts:
    """The game's table on in-process moto (tests/conftest.py)."""
    return dynamo_ports(table, board_shards=BOARD_SHARDS)


def old_items(store: DynamoPorts) -> list[str]:
    items = store.client.scan(TableName=store.table)["Items"]
    return sorted(i["pk"]["S"] for i in items if i["sk"]["S"] == "STATS")


def test_every_old_stats_item_moves_onto_its_profile_and_is_deleted(store, capsys):
    ann = put_old_stats(store, "ann", "2026-01-13", "2026-01-14")
    bob = put_old_stats(store, "bob", "2026-01-10")
    store.names.set_display_name("bob", "Bobby")  # a profile with a name: the move keeps it

    assert move_old_stats.main(["--table", store.table]) == 0

    assert "moved 2; kept 0" in capsys.readouterr().out
    assert store.boards.player_profile("ann")[:2] == (None, ann)
    assert store.boards.player_profile("bob")[:2] == ("Bobby", bob)
    assert old_items(store) == []
    move_old_stats.main(["--table", store.table])  # again: nothing left to move
    assert "moved 0" in capsys.readouterr().out
    assert store.boards.player_profile("ann").stats == ann


def test_an_old_item_beside_stats_already_on_the_profile_is_kept_and_listed(store, capsys):
    put_old_stats(store, "cy", "2026-01-13")
    assert migrations.move_old_stats(store.db, "cy") == "moved"
    moved = store.boards.player_profile("cy").stats
    put_old_stats(store, "cy", "2026-01-13", "2026-01-14")  # written later by code of the layout before

    move_old_stats.main(["--table", store.table])

    assert "kept: PLAYER#cy" in capsys.readouterr().out
    assert store.boards.player_profile("cy").stats == moved, "the profile's stats win; nothing is merged"
    assert old_items(store) == ["PLAYER#cy"]


def test_a_moved_players_next_completion_counts_from_the_moved_stats(store):
    from tests.fakes.fake_boards import official, player

    put_old_stats(store, player("dee"), "2026-01-13", "2026-01-14")
    assert migrations.move_old_stats(store.db, player("dee")) == "moved"
    complete_official(store, official("dee", 300, completed_at="2026-01-15T07:00:00.000Z", day="2026-01-15"))

    stats = store.boards.player_profile(player("dee")).stats
    assert (stats.played, stats.max_streak, stats.best_score) == (3, 3, 300)
    assert migrations.move_old_stats(store.db, player("dee")) == "none"


def test_an_old_item_changed_after_it_was_read_is_not_deleted_and_is_reported_changed(store):
    put_old_stats(store, "eve", "2026-01-13")
    read = store.db.batch_get

    def read_then_a_completion_of_the_layout_before(keys, consistent=False):
        found = read(keys, consistent)
        put_old_stats(store, "eve", "2026-01-13", "2026-01-14")  # version 1 -> 2 meanwhile
        return found

    store.db.batch_get = read_then_a_completion_of_the_layout_before
    assert migrations.move_old_stats(store.db, "eve") == "changed"
    store.db.batch_get = read
    assert old_items(store) == ["PLAYER#eve"], "left as it was, for the next run"
    assert migrations.move_old_stats(store.db, "eve") == "moved"
    assert store.boards.player_profile("eve").stats.played == 2
