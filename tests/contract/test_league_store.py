"""The leagues port (shared/services/leagues.py LeagueStore): one contract, run against the
in-memory fake (tests/fakes/fake_leagues.py) and the adapter on in-process moto. Races between joins
for the last seat run on moto's server mode (tests/dynamo/test_races.py)."""

import pytest

from shared.game.leagues import League
from shared.game.scope import Scope
from shared.services.leagues import LeagueFull, StaleLeague, TooManyLeagues
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import complete_official

DAY = "2026-01-15"
T0 = "2026-01-15T18:00:00.000Z"


def a_league(creator="ann", league_id="league-0001", code="code-00000001") -> League:
    return League(
        league_id=league_id, name="Office", creator=creator, code=code, created_at=T0, members={creator: T0}
    )


def test_a_created_league_reads_back_by_id_and_by_code_and_is_its_creators(store):
    league = a_league()
    store.leagues.create_league(league, 10)
    assert store.leagues.get_league("league-0001") == league
    assert store.leagues.league_by_code("code-00000001") == league
    assert store.leagues.league_by_code("code-missing1") is None
    assert store.leagues.player_leagues("ann") == [league]


def test_a_join_holds_only_while_the_code_is_unchanged_and_a_seat_is_free(store):
    league = a_league()
    store.leagues.create_league(league, 10)
    store.leagues.join_league(league, "bob", "2026-01-15T18:01:00.000Z", 2, 10)
    assert set(store.leagues.get_league(league.league_id).members) == {"ann", "bob"}
    with pytest.raises(LeagueFull):
        store.leagues.join_league(league, "cat", T0, 2, 10)
    store.leagues.rotate_code(league, "code-00000002")
    with pytest.raises(StaleLeague):
        store.leagues.join_league(league, "cat", T0, 3, 10)
    assert store.leagues.league_by_code("code-00000001") is None


def test_a_player_counts_at_most_the_limit_of_leagues(store):
    for n in range(2):
        store.leagues.create_league(a_league("ann", f"league-000{n}", f"code-0000000{n}"), 2)
    with pytest.raises(TooManyLeagues):
        store.leagues.create_league(a_league("ann", "league-0009", "code-00000009"), 2)
    store.leagues.create_league(a_league("bob", "league-0009", "code-00000009"), 2)
    with pytest.raises(TooManyLeagues):
        store.leagues.join_league(store.leagues.get_league("league-0009"), "ann", T0, 50, 2)


def test_the_creator_leaving_hands_the_league_to_the_first_joined_and_the_last_deletes_it(store):
    league = a_league()
    store.leagues.create_league(league, 10)
    store.leagues.join_league(league, "cat", "2026-01-15T18:02:00.000Z", 50, 10)
    store.leagues.join_league(league, "bob", "2026-01-15T18:01:00.000Z", 50, 10)
    store.leagues.leave_league(store.leagues.get_league(league.league_id), "ann", "ann")
    assert store.leagues.get_league(league.league_id).creator == "bob"
    assert store.leagues.player_leagues("ann") == []
    with pytest.raises(StaleLeague):  # ann is no longer its creator
        store.leagues.leave_league(league, "cat", "ann")
    store.leagues.leave_league(store.leagues.get_league(league.league_id), "cat", "bob")
    store.leagues.leave_league(store.leagues.get_league(league.league_id), "bob", "bob")
    assert (
        store.leagues.get_league(league.league_id) is None
        and store.leagues.league_by_code(league.code) is None
    )


def test_league_rows_are_the_members_ranked_results_of_the_date_with_their_names(store):
    """A member's name is the one their result's row shows (renames reach the rows of live
    boards), and the profile's for a member without a result."""
    for name, chosen in (("ann", "Annie"), ("cat", "Cathy")):
        store.names.set_display_name(player(name), chosen)
    for name, score in (("ann", 300), ("bob", 100), ("eve", 900)):
        complete_official(store, official(name, score, completed_at=T0, day=DAY))
    rows = store.leagues.league_rows([player("ann"), player("bob"), player("cat")], Scope.daily(DAY))
    assert sorted((e.player, e.position.score) for e in rows.entries) == [
        (player("ann"), 300),
        (player("bob"), 100),
    ]
    assert rows.names == {player("ann"): "Annie", player("cat"): "Cathy"}
    assert store.leagues.league_rows([player("ann")], Scope.daily("2026-01-16")).entries == []
