"""A player's data (SPEC §5 `GET /me/export`, `DELETE /me`) on the adapters over in-process moto:
the export holds every item the player owns, checked against the table's own items; the erasure
leaves, of the items keyed by the player, only their official results showing "deleted player",
boards keep their ranks, and an erasure interrupted between any two steps completes when run again.
"""

import json
from datetime import UTC, datetime, timedelta

import pytest
from boto3.dynamodb.types import TypeDeserializer

from functions.daily.handler import handler as daily_handler
from functions.leaderboard.counters import count_stream_batch
from functions.leaderboard.handler import handler as leaderboard_handler
from local.streams import StreamPoller
from shared.game import clock
from shared.game.names import DELETED_PLAYER_NAME
from shared.runtime import wiring
from tests.conftest import Api
from tests.contract.test_board_store import wound_by_hand
from tests.fakes.fake_boards import player
from tests.play import play_out

daily = Api(daily_handler)
boards = Api(leaderboard_handler)
DAY1 = datetime(2026, 1, 14, 18, tzinfo=UTC)  # noon Central
DAY2 = DAY1 + timedelta(days=1)
SUB = player("ann")


def start(path: str, user: str = "ann") -> dict:
    status, run, _ = daily("POST", path, user=user)
    assert status in (200, 201), run
    return run


@pytest.fixture
def store(table):
    dynamo = wiring.ports()
    wound_by_hand(dynamo)
    return dynamo


def settle(store) -> None:
    """Let the rank counters and the tops of the boards catch up (the stream consumer)."""
    follow = wiring.players().show_current_name
    StreamPoller(
        store.table, handler=lambda e, c: count_stream_batch(e, c, store.ranks.count_official, follow)
    ).drain()


@pytest.fixture
def everything(store):
    """Ann has used every feature: a name, official Daily results on two dates, a practice run,
    a past Daily, a challenge created and played, a league created and one joined."""
    clock.travel_to(DAY1)
    assert boards("PUT", "/me", {"display_name": "Annie"}, user="ann")[0] == 200
    play_out(daily, start("/daily/runs"), "ann")
    play_out(daily, start("/daily/runs", user="bob"), "bob")
    clock.travel_to(DAY2)
    play_out(daily, start("/daily/runs"), "ann")
    play_out(daily, start("/daily/runs"), "ann")  # practice
    play_out(daily, start("/daily/2026-01-10/runs"), "ann")  # a past Daily
    status, challenge, _ = daily("POST", "/challenges", user="ann")
    assert status == 201
    play_out(daily, start(f"/challenges/{challenge['challenge_id']}/runs"), "ann")
    status, own, _ = boards("POST", "/leagues", {"name": "Office"}, user="ann")
    status, other, _ = boards("POST", "/leagues", {"name": "Bobs"}, user="bob")
    assert boards("POST", "/leagues/join", {"code": other["code"]}, user="ann")[0] == 200
    assert boards("POST", "/leagues/join", {"code": own["code"]}, user="bob")[0] == 200
    settle(store)
    return store


def table_items(store) -> list[dict]:
    items, page = [], {}
    while True:
        reply = store.client.scan(TableName=store.table, **page)
        items += reply["Items"]
        if "LastEvaluatedKey" not in reply:
            return items
        page = {"ExclusiveStartKey": reply["LastEvaluatedKey"]}


def plain(item: dict) -> dict:
    return {k: TypeDeserializer().deserialize(v) for k, v in item.items()}


def owned(store, sub: str = SUB) -> list[dict]:
    """The items that are the player's: keyed by them, or naming them anywhere in their values."""
    return [i for i in table_items(store) if i["pk"]["S"] == f"PLAYER#{sub}" or sub in repr(plain(i))]


def results_and_tombstone(left: list[dict]) -> list[dict]:
    """LEFT's official results, after checking that the rest is the tombstone alone: the profile
    with "deleted player" and when the erasure began, nothing else."""
    profiles = [i for i in left if i["sk"]["S"] == "PROFILE"]
    assert len(profiles) == 1 and set(profiles[0]) == {"pk", "sk", "display_name", "erased_at"}
    assert profiles[0]["display_name"]["S"] == DELETED_PLAYER_NAME and profiles[0]["erased_at"]["S"]
    return [i for i in left if i["sk"]["S"] != "PROFILE"]


def identity(item: dict) -> str:
    """What names an item among its kind: the rest of its key after the kind (for the player's
    own items the sort key's, for others the partition key's), or the kind itself."""
    key = identity_key(item)
    return key.split("#")[-1] if "#" in key else key.lower()


def identity_key(item: dict) -> str:
    pk, sk = item["pk"]["S"], item["sk"]["S"]
    return sk if pk.startswith("PLAYER#") else pk


def test_the_export_holds_every_item_the_player_owns(everything):
    status, export, _ = boards("GET", "/me/export", user="ann")
    assert status == 200
    text = json.dumps(export)
    mine = owned(everything)
    kinds = {identity_key(i).split("#")[0] for i in mine}
    assert len(kinds) >= 9  # the fixture touched every feature
    for item in mine:
        ident = identity(item)
        assert ident in text or export.get(ident), (item["pk"]["S"], item["sk"]["S"])
    assert export["other"] == []


def test_the_export_has_every_run_with_its_words_and_timings(everything):
    export = boards("GET", "/me/export", user="ann")[1]
    assert len(export["runs"]) == 5 and len(export["official_results"]) == 3
    for run in export["runs"]:
        assert run["started_at"] and run["completed_at"]
        assert all(a["word"] for r in run["history"] for a in r["attempts"])
    assert [r["archive"] for r in export["runs"]].count(True) == 1
    assert export["profile"]["display_name"] == "Annie" and export["profile"]["stats"]["played"] == 2


def test_deletion_leaves_of_the_players_items_only_their_official_results_with_no_name(everything):
    status, body, _ = boards("DELETE", "/me", user="ann")
    assert status == 200 and body == {"erased": True}
    left = results_and_tombstone(owned(everything))
    assert left and {i["sk"]["S"].split("#")[0] for i in left} == {"OFFICIAL"}
    assert {i["name"]["S"] for i in left} == {DELETED_PLAYER_NAME}
    assert wiring.accounts().signed_out == ["ann"]  # its refresh tokens revoked (LocalAccounts)
    assert wiring.accounts().deleted == ["ann"]


def test_deletion_keeps_the_players_rows_and_ranks_on_every_board_as_deleted_player(everything):
    before = boards("GET", "/leaderboard/daily/2026-01-14")[1]["rows"]
    boards("DELETE", "/me", user="ann")
    settle(everything)
    after = boards("GET", "/leaderboard/daily/2026-01-14")[1]["rows"]
    assert [(r["rank"], r["score"]) for r in after] == [(r["rank"], r["score"]) for r in before]
    assert DELETED_PLAYER_NAME in {r["display_name"] for r in after}
    assert "Annie" not in {r["display_name"] for r in after}


def test_deletion_takes_the_player_out_of_every_league_and_frees_the_name(everything):
    boards("DELETE", "/me", user="ann")
    leagues = boards("GET", "/me/leagues", user="bob")[1]["items"]
    assert {league["name"]: league["members"] for league in leagues} == {"Bobs": 1, "Office": 1}
    assert next(league for league in leagues if league["name"] == "Office")["creator"] is True
    assert boards("PUT", "/me", {"display_name": "Annie"}, user="cat")[0] == 200


def test_deletion_is_idempotent(everything):
    boards("DELETE", "/me", user="ann")
    after_once = sorted(json.dumps(plain(i), default=str, sort_keys=True) for i in owned(everything))
    assert boards("DELETE", "/me", user="ann")[0] == 200
    assert sorted(json.dumps(plain(i), default=str, sort_keys=True) for i in owned(everything)) == after_once


@pytest.mark.parametrize("interrupted_at", range(1, 4))
def test_deletion_interrupted_between_steps_completes_when_run_again(everything, interrupted_at):
    for step in wiring.player_data().erasure_steps(SUB, "ann")[:interrupted_at]:
        step()  # and then the function stops (a timeout, a crash)
    assert boards("DELETE", "/me", user="ann")[0] == 200
    left = results_and_tombstone(owned(everything))
    assert {i["sk"]["S"].split("#")[0] for i in left} == {"OFFICIAL"}
    assert {i["name"]["S"] for i in left} == {DELETED_PLAYER_NAME}
    assert len(left) == 3


def test_a_deleted_players_name_cannot_be_taken_by_anyone(store):
    status, body, _ = boards("PUT", "/me", {"display_name": "Deleted Player"}, user="cat")
    assert status == 400 and body["error"]["code"] == "invalid_display_name"
