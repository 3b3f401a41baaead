"""Erasure racing the erased player's own requests (SPEC §6: no race leaves an item naming them
beyond their official results), against moto's SERVER mode as tests/dynamo/test_races.py explains.

Each racer is what a player route does: the gate (Players.admit, one read of the tombstone), then
the route's writes; the erasure is PlayerData.erase. Whichever wins, afterwards the only items
that name the player are their official results showing "deleted player" and the tombstone, no
name claim is theirs, and no board row shows a name again once the renames are followed.
"""

import secrets
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from functions.leaderboard.counters import count_stream_batch
from local.streams import StreamPoller
from shared.game.names import DELETED_PLAYER_NAME
from shared.game.scope import Scope
from shared.runtime.accounts import LocalAccounts
from shared.runtime.wiring import Services
from shared.services.player_data import PlayerData
from shared.services.players import Players
from tests.dynamo import test_races
from tests.dynamo.test_races import a_name, game_on, race, scan, word_for

# test_races.py's fixtures: a moto server for this module, a table for each test.
client = test_races.client
store = test_races.store

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("moto_server_races")]

ITERATIONS = 16  # of each race (the issue counted 8 of 16 renames and 2 of 16 joins leaving items)


def as_route(players: Players, player: str, call: Callable[[], Any]) -> Callable[[], Any]:
    """CALL as a player route makes it: admitted first (the tombstone read), then its writes."""

    def route() -> Any:
        players.admit(player)
        return call()

    return route


def leftovers(store, player: str) -> list[dict]:
    """Every item that names PLAYER anywhere, except their official results showing "deleted
    player" and the tombstone (the profile with the name and when the erasure began, alone)."""
    found = []
    for item in scan(store, ""):
        if player not in repr(item):
            continue
        sk = item["sk"]["S"]
        own = item["pk"]["S"] == f"PLAYER#{player}"
        if own and sk.startswith("OFFICIAL#") and item["name"]["S"] == DELETED_PLAYER_NAME:
            continue
        if own and sk == "PROFILE" and set(item) == {"pk", "sk", "display_name", "erased_at"}:
            continue
        if item["pk"]["S"].startswith(("TOP#", "COUNT#")):
            continue  # rows of the top item: checked by name below; counters hold no id
        found.append(item)
    return found


def erasure(store, player: str, n: int) -> Callable[[], None]:
    """PLAYER's erasure, after N % 4 reads of their profile: the races start it a request or
    three later in some iterations, so that both orders happen (no sleeping)."""

    def erase() -> None:
        for _ in range(n % 4):
            store.boards.admission(player)
        PlayerData(store.player_data, LocalAccounts).erase(player, player)

    return erase


def follower(store) -> Callable[[], int]:
    """The stream consumer (rank counters, renames followed) over what the table's stream holds,
    from where it last stopped."""
    players = Services(store).players

    def counters(event: dict, context: Any) -> dict:
        return count_stream_batch(event, context, store.ranks.count_official, players.show_current_name)

    return StreamPoller(store.table, handler=counters, endpoint_url=store.client.meta.endpoint_url).drain


def check(store, player: str, results: list[Scope], counts: dict[str, int]) -> None:
    left = leftovers(store, player)
    counts["leftovers"] += len(left)
    assert left == [], left
    for scope in results:
        row = store.boards.board_entry(player, scope)
        assert row is not None and row.display_name == DELETED_PLAYER_NAME, (scope, row)


def test_a_rename_racing_the_erasure_leaves_no_claim_and_no_name_on_a_board(store):
    players = Services(store).players
    follow = follower(store)
    counts = {"renamed": 0, "leftovers": 0}
    for n in range(ITERATIONS):
        player = f"racer-rn-{secrets.token_hex(4)}"
        players.set_display_name(player, a_name("Old", 6))
        game = game_on(store, 11, 1 + n)
        run, _ = game.start_daily(player)
        for number in range(1, len(run.puzzle) + 1):
            _, run = game.answer(run.run_id, player, number, 1, word_for(run))
        follow()
        new_name = a_name("New", 6)
        rename = as_route(players, player, partial(players.set_display_name, player, new_name))

        outcomes = race([rename, erasure(store, player, n)])

        assert not isinstance(outcomes[1], Exception), outcomes[1]
        counts["renamed"] += not isinstance(outcomes[0], Exception)
        follow()  # every rename the table's stream holds, followed
        check(store, player, [run.scope], counts)
        assert not [i for i in scan(store, "") if new_name in repr(i)]  # no claim, row or top shows it
    assert counts["leftovers"] == 0
    print(f"rename vs erase: {ITERATIONS} races, {counts['renamed']} renames first, 0 left")


def test_a_join_racing_the_erasure_leaves_no_seat(store):
    leagues = Services(store).leagues
    players = Services(store).players
    counts = {"joined": 0, "leftovers": 0}
    for n in range(ITERATIONS):
        player = f"racer-jn-{secrets.token_hex(4)}"
        league = leagues.create(f"owner-{secrets.token_hex(4)}", "Office")
        join = as_route(players, player, partial(leagues.join, player, league.code))

        outcomes = race([join, erasure(store, player, n)])

        assert not isinstance(outcomes[1], Exception), outcomes[1]
        counts["joined"] += not isinstance(outcomes[0], Exception)
        check(store, player, [], counts)
        assert player not in store.leagues.get_league(league.league_id).members
    print(f"join vs erase: {ITERATIONS} races, {counts['joined']} joins first, 0 left")


def test_creating_a_league_racing_the_erasure_leaves_no_league_of_theirs(store):
    leagues = Services(store).leagues
    players = Services(store).players
    counts = {"created": 0, "leftovers": 0}
    for n in range(ITERATIONS):
        player = f"racer-lg-{secrets.token_hex(4)}"
        create = as_route(players, player, partial(leagues.create, player, "Ghosts"))

        outcomes = race([create, erasure(store, player, n)])

        assert not isinstance(outcomes[1], Exception), outcomes[1]
        counts["created"] += not isinstance(outcomes[0], Exception)
        check(store, player, [], counts)
    print(f"create league vs erase: {ITERATIONS} races, {counts['created']} created first, 0 left")


def test_starting_a_run_racing_the_erasure_leaves_no_run_and_no_slot(store):
    players = Services(store).players
    counts = {"started": 0, "leftovers": 0}
    for n in range(ITERATIONS):
        player = f"racer-st-{secrets.token_hex(4)}"
        game = game_on(store, 12, 1 + n)
        game.start_daily(f"warm-{n}")  # the date's puzzle exists: the start is one transaction
        start = as_route(players, player, partial(game.start_daily, player))

        outcomes = race([start, erasure(store, player, n)])

        assert not isinstance(outcomes[1], Exception), outcomes[1]
        counts["started"] += not isinstance(outcomes[0], Exception)
        check(store, player, [], counts)
    print(f"start run vs erase: {ITERATIONS} races, {counts['started']} starts first, 0 left")
