"""The ranks port's counting (shared/services/board_ports.py RankStore `count_official`, what the
stream consumer calls): one contract, run against the in-memory fake (tests/fakes/fake_boards.py) and the
adapter on in-process moto. Ranks and bands themselves are in tests/contract/test_board_store.py."""

from tests.fakes.fake_boards import official
from tests.fakes.fake_store import complete_official

DAY = "2026-01-15"
T0 = "2026-01-15T18:00:00.000Z"


def test_a_result_is_counted_once_however_often_it_is_delivered(store):
    ann, bob = official("ann", 300, completed_at=T0, day=DAY), official("bob", 200, completed_at=T0, day=DAY)
    complete_official(store, ann)
    complete_official(store, bob)
    assert store.ranks.count_official([ann]) == 1
    assert store.ranks.count_official([ann, bob]) == 1
    assert store.ranks.count_official([ann, bob]) == 0


def test_an_unranked_result_and_one_never_stored_are_not_counted(store):
    bot = official("bot", 2085, completed_at=T0, day=DAY, unranked_reason="implausible_speed")
    complete_official(store, bot)
    assert store.ranks.count_official([bot]) == 0
    assert store.ranks.count_official([official("ghost", 100, completed_at=T0, day=DAY)]) == 0
