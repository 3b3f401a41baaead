"""`make run`'s embedded store under faults, over HTTP (benchmarks/store_faults.py): whatever
was acknowledged to a player is still there afterwards (SPEC §7): each answer in the stored run,
the completion, the official result, the history entry, the stats, the name and the board row.

The kills land at random moments of the players' completions, each scenario over a few rounds
(it is a race), restarting on the same DATA_DIR."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from store_faults import LOST_KINDS, REPO, scenario  # noqa: E402

pytestmark = pytest.mark.server

PLAYERS = 4


def _nothing_lost(result: dict) -> None:
    assert all(result["lost"][kind] == 0 for kind in LOST_KINDS), result["notes"]
    assert result["completions"] > 0 and result["answers"] > 0, result


@pytest.mark.xdist_group("store_faults_rename")
def test_a_rename_409_loop_against_concurrent_players_loses_no_acknowledged_answer():
    _nothing_lost(scenario("rename-409", REPO, rounds=1, count=PLAYERS, seed=3))


@pytest.mark.xdist_group("store_faults_server")
def test_kill_9_of_the_server_during_official_completions_loses_nothing_acknowledged():
    result = scenario("kill-server", REPO, rounds=2, count=PLAYERS, seed=5)
    _nothing_lost(result)


@pytest.mark.xdist_group("store_faults_store")
def test_kill_9_of_the_store_during_official_completions_loses_nothing_and_the_server_starts_it_again():
    result = scenario("kill-store", REPO, rounds=2, count=PLAYERS, seed=7)
    _nothing_lost(result)
    assert result["by hand"] == 0, "the server did not start its store again"
