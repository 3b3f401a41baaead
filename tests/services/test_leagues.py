"""Leagues (SPEC §3c, §5) through the leaderboard function with real API Gateway v2 events, on
the table's adapters over in-process moto: creating, joining, leaving, removing, rotating the code, the
limits, members only, and a league's board for a Daily date."""

from datetime import timedelta

import pytest

from shared.game import clock
from shared.game.boards import SETTLE_SECONDS
from shared.game.constants import LEAGUE_MEMBERS_MAX, LEAGUES_PER_PLAYER_MAX
from shared.game.moderation import REVIEW_WINDOW
from shared.runtime import wiring
from tests.fakes.fake_boards import CLOSES, DAY, NOON, completion, official, player
from tests.fakes.fake_store import complete_official as complete_with
from tests.services.league_calls import call, create


@pytest.fixture(autouse=True)
def store(table):
    clock.travel_to(NOON)
    return wiring.ports()


def join(user: str, code: str) -> tuple[int, dict]:
    status, body, _ = call("POST", "/leagues/join", {"code": code}, user=user)
    return status, body


def board(user: str, league_id: str, day: str | None = None) -> tuple[int, dict]:
    status, body, _ = call(
        "GET", f"/leagues/{league_id}/board", user=user, query={"date": day} if day else None
    )
    return status, body


def record(
    store, name: str, score: int, combo: int = 0, longest: int = 0, seconds: int = 60, words=("timer",)
):
    complete_with(
        store,
        official(
            name,
            score,
            combo,
            longest,
            completed_at=completion(seconds),
            day=DAY.isoformat(),
            words=tuple(words),
        ),
    )


# Creating and joining -----------------------------------------------------------------------------


def test_creating_a_league_gives_an_unguessable_invite_code_and_makes_the_creator_its_first_member():
    league = create("ann")
    assert league["name"] == "Office" and league["members"] == 1 and league["creator"] is True
    assert len(league["code"]) >= 16 and league["code"] != create("ann")["code"]


@pytest.mark.parametrize("name", ["ab", "x" * 31, " Office", "Office ", "Off!ce"])
def test_a_league_name_is_3_to_30_letters_digits_spaces_underscores_or_hyphens(name):
    status, body, _ = call("POST", "/leagues", {"name": name}, user="ann")
    assert status == 400 and body["error"]["code"] == "invalid_league_name"


def test_a_league_name_is_checked_for_blocklisted_words_in_its_look_alike_skeleton():
    status, body, _ = call("POST", "/leagues", {"name": "Sh1t Crew"}, user="ann")
    assert status == 400 and body["error"]["code"] == "league_name_not_allowed"


def test_joining_with_the_code_makes_a_member_and_joining_again_changes_nothing():
    league = create("ann")
    status, joined = join("bob", league["code"])
    assert status == 200 and joined["members"] == 2 and joined["creator"] is False
    assert join("bob", league["code"])[1]["members"] == 2
    status, mine, _ = call("GET", "/me/leagues", user="bob")
    assert status == 200 and [item["league_id"] for item in mine["items"]] == [league["league_id"]]


def test_an_unknown_invite_code_is_404():
    status, body = join("bob", "no-such-code-here")
    assert status == 404 and body["error"]["code"] == "league_not_found"


def test_a_league_has_at_most_50_members_and_the_51st_join_is_409_league_full(store):
    league = create("ann")
    for n in range(1, LEAGUE_MEMBERS_MAX):
        assert join(f"p{n}", league["code"])[0] == 200
    status, body = join("late", league["code"])
    assert status == 409 and body["error"]["code"] == "league_full"


def test_a_player_is_in_at_most_10_leagues_and_the_11th_is_429_too_many_leagues():
    codes = [create(f"owner{n}")["code"] for n in range(LEAGUES_PER_PLAYER_MAX)]
    for code in codes:
        assert join("bob", code)[0] == 200
    status, body = join("bob", create("owner-last")["code"])
    assert status == 429 and body["error"]["code"] == "too_many_leagues"
    status, body, _ = call("POST", "/leagues", {"name": "One more"}, user="bob")
    assert status == 429 and body["error"]["code"] == "too_many_leagues"


# Leaving, removing, rotating ----------------------------------------------------------------------


def member_ids(user: str, league_id: str) -> dict[str, str]:
    status, body = board(user, league_id)
    assert status == 200, body
    return {m["display_name"]: m["member_id"] for m in body["members"]}


def test_a_member_leaves_with_me_and_the_league_frees_their_seat():
    league = create("ann")
    join("bob", league["code"])
    status, body, _ = call("DELETE", f"/leagues/{league['league_id']}/members/me", user="bob")
    assert status == 200, body
    assert call("GET", "/me/leagues", user="bob")[1]["items"] == []
    assert call("GET", "/me/leagues", user="ann")[1]["items"][0]["members"] == 1


def test_a_removed_member_can_no_longer_read_the_league_board():
    league = create("ann")
    join("bob", league["code"])
    call("PUT", "/me", {"display_name": "Bobby"}, user="bob")
    bob = member_ids("ann", league["league_id"])["Bobby"]
    status, _, _ = call("DELETE", f"/leagues/{league['league_id']}/members/{bob}", user="ann")
    assert status == 200
    status, body = board("bob", league["league_id"])
    assert status == 404 and body["error"]["code"] == "league_not_found"


def test_only_the_creator_removes_a_member_or_rotates_the_code_others_get_403():
    league = create("ann")
    join("bob", league["code"])
    ann = next(m["member_id"] for m in board("bob", league["league_id"])[1]["members"] if m["creator"])
    status, body, _ = call("DELETE", f"/leagues/{league['league_id']}/members/{ann}", user="bob")
    assert status == 403 and body["error"]["code"] == "not_league_creator"
    status, body, _ = call("POST", f"/leagues/{league['league_id']}/code", user="bob")
    assert status == 403 and body["error"]["code"] == "not_league_creator"


def test_a_rotated_code_stops_letting_anyone_in_and_the_new_one_does():
    league = create("ann")
    status, rotated, _ = call("POST", f"/leagues/{league['league_id']}/code", user="ann")
    assert status == 200 and rotated["code"] != league["code"]
    assert join("bob", league["code"])[0] == 404
    assert join("bob", rotated["code"])[0] == 200


def test_when_the_creator_leaves_the_member_who_joined_first_holds_the_league():
    league = create("ann")
    join("bob", league["code"])
    clock.travel_to(NOON + timedelta(minutes=1))
    join("cat", league["code"])
    call("DELETE", f"/leagues/{league['league_id']}/members/me", user="ann")
    mine = {u: call("GET", "/me/leagues", user=u)[1]["items"][0]["creator"] for u in ("bob", "cat")}
    assert mine == {"bob": True, "cat": False}


def test_the_last_member_leaving_deletes_the_league_and_its_code():
    league = create("ann")
    call("DELETE", f"/leagues/{league['league_id']}/members/me", user="ann")
    assert join("bob", league["code"])[0] == 404


def test_a_league_is_members_only_everyone_else_gets_404():
    league = create("ann")
    for method, path in [
        ("GET", f"/leagues/{league['league_id']}/board"),
        ("POST", f"/leagues/{league['league_id']}/code"),
        ("DELETE", f"/leagues/{league['league_id']}/members/me"),
    ]:
        status, body, _ = call(method, path, user="eve")
        assert status == 404 and body["error"]["code"] == "league_not_found", (method, path)


# The league board --------------------------------------------------------------------------------


def test_the_league_board_ranks_members_by_the_daily_order_with_shared_ranks(store):
    league = create("ann")
    for user in ("bob", "cat", "dan"):
        join(user, league["code"])
    record(store, "ann", 500, 3, 7, seconds=60)
    record(store, "bob", 500, 3, 7, seconds=30)  # equal: shares the rank, the earlier first
    record(store, "cat", 500, 4, 5)  # a better combo beats the score's tie
    record(store, "dan", 200)
    record(store, "eve", 900)  # not a member: not on the league board
    status, body = board("ann", league["league_id"])
    assert status == 200 and body["status"] == "live"
    assert [(r["rank"], r["score"], r["best_combo"]) for r in body["rows"]] == [
        (1, 500, 4),
        (2, 500, 3),
        (2, 500, 3),
        (4, 200, 0),
    ]
    assert body["my_rank"] == 2 and len(body["members"]) == 4


def test_the_league_board_hides_words_until_the_daily_closes(store):
    league = create("ann")
    record(store, "ann", 100, words=("timer",))
    assert board("ann", league["league_id"])[1]["rows"][0]["words"] is None
    clock.travel_to(CLOSES + timedelta(seconds=SETTLE_SECONDS + 1))
    store.runs.mark_completed_through(CLOSES + timedelta(seconds=SETTLE_SECONDS))
    status, body = board("ann", league["league_id"], DAY.isoformat())
    assert body["status"] == "closed" and body["rows"][0]["words"] == ["timer"]
    clock.travel_to(CLOSES + REVIEW_WINDOW + timedelta(minutes=2))  # one status for a date (SPEC §4a)
    assert board("ann", league["league_id"], DAY.isoformat())[1]["status"] == "final"


def test_the_league_board_leaves_out_unranked_results(store):
    league = create("ann")
    join("bob", league["code"])
    record(store, "ann", 100)
    record(store, "bob", 300)
    store.client.update_item(
        TableName=store.table,
        Key={"pk": {"S": f"PLAYER#{player('bob')}"}, "sk": {"S": f"OFFICIAL#DAILY#{DAY.isoformat()}"}},
        UpdateExpression="SET unranked_reason = :r",
        ExpressionAttributeValues={":r": {"S": "implausible_speed"}},
    )
    rows = board("ann", league["league_id"])[1]["rows"]
    assert [(r["rank"], r["score"]) for r in rows] == [(1, 100)]


def test_a_league_board_for_a_future_date_or_a_malformed_one_is_400():
    league = create("ann")
    assert board("ann", league["league_id"], (DAY + timedelta(days=1)).isoformat())[0] == 400
    assert board("ann", league["league_id"], "2026-02-30")[0] == 400


def test_a_league_board_at_50_members_reads_the_league_and_the_results_whose_rows_carry_the_names(store):
    """A row carries its player's name, so the profiles are read (in a second batch) only for the
    members whose row names none: here the one member without a result."""
    league = create("ann")
    for n in range(1, LEAGUE_MEMBERS_MAX):
        join(f"p{n}", league["code"])
        assert call("PUT", "/me", {"display_name": f"Leaguer {n}"}, user=f"p{n}")[0] == 200
        record(store, f"p{n}", 10 * n)
    sent: list[tuple[str, int]] = []
    real = store.client._make_api_call

    def counted(operation, params):
        asked = sum(len(r["Keys"]) for r in params.get("RequestItems", {}).values())
        sent.append((operation, asked))
        return real(operation, params)

    store.client._make_api_call = counted
    try:
        status, body = board("ann", league["league_id"])
    finally:
        store.client._make_api_call = real
    assert status == 200 and len(body["rows"]) == LEAGUE_MEMBERS_MAX - 1
    # The league with the caller's profile (their admission), every member's result, then the
    # profile of the one member whose row names nobody.
    assert sent == [("BatchGetItem", 2), ("BatchGetItem", LEAGUE_MEMBERS_MAX), ("BatchGetItem", 1)]
    names = {m["display_name"] for m in body["members"]}
    assert {f"Leaguer {n}" for n in range(1, LEAGUE_MEMBERS_MAX)} < names and len(names) == LEAGUE_MEMBERS_MAX
