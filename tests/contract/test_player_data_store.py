"""The player data port (shared/services/player_data.py PlayerDataStore): one contract, run against
the in-memory fake (tests/fakes/fake_player_data.py) and the adapter on in-process moto. The export's
whole item list and an erasure interrupted between its steps are tested on DynamoDB alone
(tests/services/test_player_data.py)."""

import pytest

from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.game.leagues import League
from shared.game.names import DELETED_PLAYER_NAME, name_skeleton
from shared.game.puzzles import Round
from shared.game.scope import Scope
from shared.services.player_data import SlotRecord, erase_holdings
from shared.services.ports import Admission
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import FakePorts, complete_official

DAY = "2026-01-15"
T0 = "2026-01-15T18:00:00.000Z"
ANN, BOB = player("ann"), player("bob")
SCOPE = Scope.daily(DAY)


@pytest.fixture(params=["fake", "dynamo"])
def ports(request):
    if request.param == "fake":
        return FakePorts()
    return dynamo_ports(request.getfixturevalue("table"), board_shards=BOARD_SHARDS)


@pytest.fixture
def held(ports):
    """Ann has a name, an official Daily result, and a league she made that Bob joined."""
    ports.runs.put_puzzle(SCOPE, [Round("TMR", "")])  # a run is read with its puzzle
    ports.names.set_display_name(ANN, "Annie")
    complete_official(ports, official("ann", 300, completed_at=T0, day=DAY))
    league = League(
        league_id="league-0001",
        name="Office",
        creator=ANN,
        code="code-00000001",
        created_at=T0,
        members={ANN: T0},
    )
    ports.leagues.create_league(league, 10)
    ports.leagues.join_league(league, BOB, T0, 50, 10)
    return ports


def test_the_holdings_are_the_players_profile_claim_slot_result_run_and_leagues(held):
    result = official("ann", 300, completed_at=T0, day=DAY)
    holdings = held.player_data.holdings(ANN)
    assert holdings.profile.display_name == "Annie" and holdings.name_claim == name_skeleton("Annie")
    assert holdings.slots == [SlotRecord(SCOPE, result.run_id, result.run_id)]
    assert [r.run_id for r in holdings.official_results] == [result.run_id]
    assert [r.run_id for r in holdings.runs] == [result.run_id]
    assert [league.league_id for league in holdings.leagues] == ["league-0001"]
    assert holdings.admission == Admission(False, None)


def test_an_erasure_begun_refuses_the_player_and_shows_the_deleted_name(held):
    held.player_data.begin_erasure(ANN, T0)
    holdings = held.player_data.holdings(ANN)
    assert holdings.admission.erased and holdings.profile.display_name == DELETED_PLAYER_NAME
    assert held.boards.admission(ANN).erased


def test_an_erasure_keeps_the_official_result_under_the_deleted_name_and_nothing_else(held):
    held.player_data.begin_erasure(ANN, T0)
    erase_holdings(held.player_data, ANN)
    erase_holdings(held.player_data, ANN)  # idempotent
    holdings = held.player_data.holdings(ANN)
    assert holdings.name_claim is None and holdings.slots == [] and holdings.runs == []
    assert holdings.leagues == [] and len(holdings.official_results) == 1
    entry = held.boards.board_entry(ANN, SCOPE)
    assert entry is not None and entry.display_name == DELETED_PLAYER_NAME
    league = held.leagues.get_league("league-0001")
    assert league is not None and list(league.members) == [BOB] and league.creator == BOB
    held.names.set_display_name(BOB, "Annie")  # the released name is free
