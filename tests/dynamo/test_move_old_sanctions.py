"""scripts/move_old_sanctions.py: sanctions still in an old `SANCTIONS` item move onto the profile,
where admission reads them, once (docs/data-model.md, "Migrations still read")."""

import sys
from pathlib import Path

import pytest

from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import DynamoPorts, dynamo_ports
from shared.game.moderation import BANNED_FOREVER, Sanction

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import move_old_sanctions  # noqa: E402


@pytest.fixture
def store(table) -> DynamoPorts:
    """The game's table on in-process moto (tests/conftest.py)."""
    return dynamo_ports(table, board_shards=BOARD_SHARDS)


def put_old_sanctions(store: DynamoPorts, player: str, *held: Sanction) -> None:
    """A `SANCTIONS` item as the layout before wrote it."""
    store.db.call(
        "put_item",
        Item={
            "pk": {"S": f"PLAYER#{player}"},
            "sk": {"S": "SANCTIONS"},
            "sanctions": {"L": [{"S": s.model_dump_json()} for s in held]},
            "cases": {"SS": [s.case_id for s in held]},
        },
    )


def sanction(action: str, case: str, until: str | None = None) -> Sanction:
    return Sanction.model_validate(
        {
            "action": action,
            "reason": "r",
            "until": until,
            "case_id": case * 24,
            "decided_at": "2026-01-15T18:00:00.000Z",
        }
    )


def test_an_old_ban_and_rank_ban_move_onto_the_profile_and_hold_there(store, capsys):
    put_old_sanctions(store, "zed", sanction("ban", "a"))
    put_old_sanctions(store, "amy", sanction("rank_ban", "b", "2026-02-01T00:00:00.000Z"))
    assert move_old_sanctions.main(["--table", store.table]) == 0
    assert "moved 2 sanctions of 2 players" in capsys.readouterr().out
    assert store.boards.admission("zed").banned_until == BANNED_FOREVER
    assert [s.action for s in store.boards.own_profile("zed")[2]] == ["ban"]
    assert store.results.profile_for_completion("amy").profile.rank_banned_until == "2026-02-01T00:00:00.000Z"
    assert not any(i["sk"]["S"] == "SANCTIONS" for i in store.client.scan(TableName=store.table)["Items"])
    assert move_old_sanctions.main(["--table", store.table]) == 0  # again: nothing left to move
    assert [s.action for s in store.boards.own_profile("zed")[2]] == ["ban"]
