"""Erasure holds (SPEC §6): from the moment `DELETE /me` begins, every player route refuses the
erased player, whatever token they hold (401 `account_erased`), and nothing they send afterwards
puts an item naming them back, nor a name on a board row. Through the real handlers on in-process
moto; the races are in tests/dynamo/test_races.py (moto's server mode)."""

import base64
from datetime import UTC, datetime

import pytest

from functions.daily.handler import handler as daily_handler
from functions.leaderboard.handler import handler as leaderboard_handler
from functions.moderation.handler import handler as moderation_handler
from shared.game import clock
from shared.game.names import DELETED_PLAYER_NAME
from shared.http.routes import ROUTES
from shared.runtime import wiring
from tests.conftest import Api
from tests.fakes.fake_boards import player
from tests.play import play_out
from tests.services.test_player_data import owned, results_and_tombstone, settle

daily = Api(daily_handler)
boards = Api(leaderboard_handler)
HANDLERS = {"daily": daily, "leaderboard": boards, "moderation": Api(moderation_handler)}
NOON = datetime(2026, 1, 14, 18, tzinfo=UTC)
GHOST = "ghost"
PLAYER_ROUTES = [r for r in ROUTES if r.access == "player" and (r.method, r.path) != ("DELETE", "/me")]


@pytest.fixture
def ghost(table):
    """Ghost has a name, an official Daily result, a run in play, a challenge and a league; Bob
    shares the board and the league. Returns the ids a request of Ghost's could name."""
    clock.travel_to(NOON)
    assert boards("PUT", "/me", {"display_name": "Ghost"}, user=GHOST)[0] == 200
    play_out(daily, daily("POST", "/daily/runs", user=GHOST)[1], GHOST)
    play_out(daily, daily("POST", "/daily/runs", user="bob")[1], "bob")
    active = daily("POST", "/daily/runs", user=GHOST)[1]  # practice, in play
    status, challenge, _ = daily("POST", "/challenges", user=GHOST)
    assert status == 201
    status, league, _ = boards("POST", "/leagues", {"name": "Bobs"}, user="bob")
    assert boards("POST", "/leagues/join", {"code": league["code"]}, user=GHOST)[0] == 200
    settle(wiring.ports())
    return {
        "run_id": active["run_id"],
        "challenge_id": challenge["challenge_id"],
        "league_id": league["league_id"],
        "code": league["code"],
        "date": "2026-01-10",
        "player": "me",
        "case_id": "0" * 24,  # well formed (a sha256 prefix), naming no case
    }


# A Web Push subscription as a browser gives it: a P-256 public key (65 bytes) and a 16-byte secret.
PUSH_SUBSCRIPTION = {
    "endpoint": "https://push.example/s/1",
    "keys": {
        "p256dh": base64.urlsafe_b64encode(b"\x04" + bytes(64)).decode().rstrip("="),
        "auth": base64.urlsafe_b64encode(bytes(16)).decode().rstrip("="),
    },
}


def request_of(route, ids: dict) -> tuple[str, dict | None]:
    """ROUTE's path with Ghost's ids, and a body it would accept from a player in good standing."""
    path = route.path
    for name, value in ids.items():
        path = path.replace("{" + name + "}", value)
    bodies = {
        "/runs/{run_id}/answers": {"round": 1, "attempt": 1, "word": "timer"},
        "/runs/{run_id}/skip": {"round": 1},
        "/me": {"display_name": "Ghoste2"},
        "/leagues": {"name": "Ghost club"},
        "/leagues/join": {"code": ids["code"]},
        "/reports": {"kind": "word", "target": "zzqx", "reason": "this is a word"},
        "/moderation/cases/{case_id}/decision": {"action": "dismiss", "reason": "no case"},
        "/me/appeals": {"sanction": "0" * 24, "reason": "not me"},
        "/me/reminder": {"subscription": PUSH_SUBSCRIPTION, "hour": 19},
    }
    return path, bodies.get(route.path) if route.body != "none" else None


def board_names(day: str = "2026-01-14") -> set[str]:
    return {row["display_name"] for row in boards("GET", f"/leaderboard/daily/{day}")[1]["rows"]}


@pytest.mark.parametrize("moment", ["begun", "done"])
def test_every_player_route_refuses_an_erased_player_from_the_moment_the_erasure_begins(ghost, moment):
    """Each route of the route table that a player calls (a new one too), with the old token."""
    if moment == "begun":
        wiring.player_data().erasure_steps(player(GHOST), GHOST)[0]()  # the tombstone, and then a crash
    else:
        assert boards("DELETE", "/me", user=GHOST)[:2] == (200, {"erased": True})
    answered = {}
    for route in PLAYER_ROUTES:
        path, body = request_of(route, ghost)
        status, reply, _ = HANDLERS[route.function](route.method, path, body, user=GHOST)
        answered[f"{route.method} {route.path}"] = (status, reply["error"]["code"] if status >= 400 else None)
    assert answered == {name: (401, "account_erased") for name in answered}
    assert len(answered) == len(PLAYER_ROUTES) >= 18
    assert boards("GET", "/me", user="bob")[0] == 200  # everyone else plays on


def test_after_an_erasure_nothing_the_old_token_sends_brings_the_account_back(ghost):
    """The issue's own sequence: rename, start a run, create and join leagues with the old token;
    then the only items naming the player are their official results and the tombstone, and the
    board row keeps "deleted player"."""
    assert boards("DELETE", "/me", user=GHOST)[0] == 200
    settle(wiring.ports())
    for route in PLAYER_ROUTES:
        path, body = request_of(route, ghost)
        HANDLERS[route.function](route.method, path, body, user=GHOST)
    settle(wiring.ports())
    left = results_and_tombstone(owned(wiring.ports(), player(GHOST)))
    assert {i["sk"]["S"].split("#")[0] for i in left} == {"OFFICIAL"}
    assert {i["name"]["S"] for i in left} == {DELETED_PLAYER_NAME}
    assert "Ghoste2" not in board_names() and DELETED_PLAYER_NAME in board_names()
    assert boards("PUT", "/me", {"display_name": "Ghoste2"}, user="cat")[0] == 200  # nobody holds it


def test_delete_me_again_with_the_old_token_finishes_an_interrupted_erasure(ghost):
    steps = wiring.player_data().erasure_steps(player(GHOST), GHOST)
    for step in steps[:2]:
        step()  # the tombstone and the runs, then the function times out
    assert boards("GET", "/me", user=GHOST)[1]["error"]["code"] == "account_erased"
    assert boards("DELETE", "/me", user=GHOST)[:2] == (200, {"erased": True})
    left = results_and_tombstone(owned(wiring.ports(), player(GHOST)))
    assert {i["sk"]["S"].split("#")[0] for i in left} == {"OFFICIAL"}


def test_the_refusal_reads_the_tombstone_in_one_request_and_a_player_in_good_standing_passes(ghost):
    store = wiring.ports()
    requests: list[str] = []
    store.client.meta.events.register(
        "before-call.dynamodb", lambda model, **_: requests.append(model.name), unique_id="count-admit"
    )
    try:
        wiring.players().admit(player("bob"))
    finally:
        store.client.meta.events.unregister("before-call.dynamodb", unique_id="count-admit")
    assert requests == ["GetItem"]
