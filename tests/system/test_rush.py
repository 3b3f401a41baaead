"""`make rush`, scaled down: 20 players against the local server (python -m local.server), then
the closed board checked: every completed official run once, every rank as /me gives it, a
second read byte-identical (benchmarks/rush.py)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from rush import rush  # noqa: E402

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("rush")]


def test_a_rush_of_20_players_leaves_a_closed_board_with_every_official_run_once_and_ranks_as_me_says():
    result = rush(20, seed=7)

    assert result["problems"] == []
    assert result["official runs"] == 20
    assert set(result["statuses"]) <= {200, 201, 409}, result["statuses"]
