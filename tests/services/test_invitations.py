"""A league's invitation (SPEC §4a): `GET /leagues/invitations/{code}` shows anyone, without a
token, the league's name, its creator's display name, its member count and today's leader, and
nothing else; on the adapters over in-process moto, like tests/services/test_leagues.py."""

import pytest

from shared.game import clock
from shared.runtime import wiring
from tests.fakes.fake_boards import DAY, NOON, completion, official
from tests.fakes.fake_store import complete_official
from tests.services.league_calls import call, create


@pytest.fixture(autouse=True)
def store(table):
    clock.travel_to(NOON)
    return wiring.ports()


def invitation(code: str) -> tuple[int, dict, dict]:
    return call("GET", f"/leagues/invitations/{code}")


def test_a_guest_sees_the_leagues_name_creator_members_and_todays_leader_and_nothing_else(store):
    assert call("PUT", "/me", {"display_name": "Ann Creates"}, user="ann")[0] == 200
    league = create("ann")
    for user in ("bob", "cat"):
        assert call("POST", "/leagues/join", {"code": league["code"]}, user=user)[0] == 200
    assert call("PUT", "/me", {"display_name": "Bob Leads"}, user="bob")[0] == 200
    for user, score in (("ann", 300), ("bob", 900)):
        result = official(user, score, completed_at=completion(60), day=DAY.isoformat(), words=("secret",))
        complete_official(store, result)

    status, body, raw = invitation(league["code"])
    assert status == 200, body
    assert body == {
        "name": "Office",
        "creator_name": "Ann Creates",
        "members": 3,
        "date": DAY.isoformat(),
        "leader": {"display_name": "Bob Leads", "score": 900},
    }
    assert "secret" not in str(body) and league["league_id"] not in str(body)
    assert raw["headers"]["Cache-Control"] == "public, max-age=5"


def test_before_anyone_has_played_today_there_is_no_leader():
    league = create("ann")
    status, body, _ = invitation(league["code"])
    assert status == 200 and body["leader"] is None and body["members"] == 1
    assert body["creator_name"].startswith("player-")


def test_an_unknown_or_rotated_code_is_404_league_not_found():
    league = create("ann")
    assert call("POST", f"/leagues/{league['league_id']}/code", user="ann")[0] == 200
    for code in (league["code"], "NoSuchCode123", "bad!"):
        status, body, _ = invitation(code)
        assert status == 404 and body["error"]["code"] == "league_not_found", code
