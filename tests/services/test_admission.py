"""Admission (SPEC §3e, §6; docs/players.md "Admission"): every player route refuses an erased or
banned caller, and learns it from one read of the caller's profile, made with the route's own
first request where it has one. On the in-memory fake and on DynamoDB alike; the request counts on
DynamoDB are botocore's own calls."""

import json
from collections.abc import Iterator
from datetime import timedelta

import pytest

from functions.daily.handler import handler as daily_handler
from local.events import LambdaContext, http_event
from shared.game import clock
from shared.game.cases import name_case_id
from shared.game.clock import iso
from tests.conftest import Api
from tests.fakes.fake_boards import DAY, NOON, official, player
from tests.fakes.fake_store import complete_official, served_store
from tests.routed import handler as leaderboard_handler  # with the moderation routes

daily = Api(daily_handler)
boards = Api(leaderboard_handler)
MODERATOR = "mo"


def moderate(method: str, path: str, body: dict) -> tuple[int, dict]:
    claims = {
        "sub": player(MODERATOR),
        "cognito:username": MODERATOR,
        "token_use": "id",
        "cognito:groups": "[moderators]",
    }
    reply = leaderboard_handler(http_event(method, path, body, claims=claims), LambdaContext())
    return reply["statusCode"], json.loads(reply["body"])


def ban(user: str, name: str) -> None:
    """USER, who shows NAME, reported and banned (a ban is for good)."""
    assert (
        boards("POST", "/reports", {"kind": "name", "target": name, "reason": "rude"}, user="ann")[0] == 201
    )
    decision = {"action": "ban", "reason": "abuse"}
    case_id = name_case_id(name, player(user))
    status, body = moderate("POST", f"/moderation/cases/{case_id}/decision", decision)
    assert status == 200, body


def answer(user: str, run_id: str, round_number: int, word: str) -> tuple[int, dict]:
    status, body, _ = daily(
        "POST", f"/runs/{run_id}/answers", {"round": round_number, "attempt": 1, "word": word}, user=user
    )
    return status, body


def test_a_ban_refuses_a_start_and_the_answers_of_a_run_in_play_but_not_the_profile(store):
    assert boards("PUT", "/me", {"display_name": "Zed"}, user="zed")[0] == 200
    status, run, _ = daily("POST", "/daily/runs", user="zed")
    assert status == 201
    assert answer("zed", run["run_id"], 1, "qzqzq")[0] == 200  # in play: a refused word, 200
    ban("zed", "Zed")
    status, body = answer("zed", run["run_id"], 1, "qzqzqz")
    assert (status, body["error"]["code"]) == (403, "banned")
    assert daily("GET", f"/runs/{run['run_id']}", user="zed")[0] == 403
    status, body, _ = daily("POST", "/daily/runs", user="zed")
    assert (status, body["error"]["code"]) == (403, "banned")
    assert daily("POST", "/daily/2026-01-10/runs", user="zed")[0] == 403
    assert boards("GET", "/me/history", user="zed")[0] == 403
    status, me, _ = boards("GET", "/me", user="zed")
    assert status == 200 and [s["action"] for s in me["sanctions"]] == ["ban"]
    assert daily("POST", "/daily/runs", user="ann")[0] == 201, "nobody else is refused"


def test_an_erased_player_is_refused_401_by_a_start_and_a_read_route(store):
    assert daily("POST", "/daily/runs", user="gone")[0] == 201
    store.player_data.begin_erasure(player("gone"), iso(clock.now()))  # DELETE /me's first step
    for api, method, path in [
        (daily, "POST", "/daily/runs"),
        (daily, "POST", "/daily/2026-01-10/runs"),
        (boards, "GET", "/me/history"),
        (boards, "GET", "/me"),
        (boards, "GET", "/leaderboard/daily/me"),
    ]:
        status, body, _ = api(method, path, user="gone")
        assert (status, body["error"]["code"]) == (401, "account_erased"), path


class Requests:
    """The DynamoDB requests a store's client sends: (operation, sort key of a key it names)."""

    def __init__(self, dynamo) -> None:
        self.seen: list[tuple[str, str]] = []
        dynamo.client.meta.events.register("before-parameter-build.dynamodb", self._record)

    def _record(self, model, params, **_) -> None:
        key = params.get("Key", {}).get("sk", {}).get("S", "")
        self.seen.append((model.name, key))

    def take(self) -> list[tuple[str, str]]:
        seen, self.seen = self.seen, []
        return seen


@pytest.fixture
def dynamo(monkeypatch) -> Iterator:
    with served_store("dynamo", monkeypatch) as served:
        yield served


def test_a_read_route_admits_its_caller_with_one_getitem_of_the_profile(dynamo):
    requests = Requests(dynamo)
    assert boards("GET", "/me/history", user="ann")[0] == 200
    seen = requests.take()
    assert seen[0] == ("GetItem", "PROFILE") and ("GetItem", "SANCTIONS") not in seen
    assert sum(1 for operation, key in seen if key == "PROFILE") == 1


def test_a_start_admits_its_caller_in_its_own_transaction(dynamo):
    assert daily("POST", "/guest/daily/runs")[0] == 201  # the day's puzzle stored and cached
    requests = Requests(dynamo)
    assert daily("POST", "/daily/runs", user="ann")[0] == 201
    assert [operation for operation, _ in requests.take()] == ["TransactWriteItems"]


def test_a_rank_ban_keeps_results_completed_under_it_off_the_board_but_in_the_stats(store):
    assert boards("PUT", "/me", {"display_name": "Zed"}, user="zed")[0] == 200
    reported = {"kind": "name", "target": "Zed", "reason": "rude"}
    assert boards("POST", "/reports", reported, user="ann")[0] == 201
    case_id = name_case_id("Zed", player("zed"))
    decision = {"action": "rank_ban", "reason": "abuse", "until": iso(NOON + timedelta(days=2))}
    assert moderate("POST", f"/moderation/cases/{case_id}/decision", decision)[0] == 200
    day = DAY.isoformat()
    complete_official(store, official("zed", 900, completed_at=iso(NOON + timedelta(hours=1)), day=day))
    complete_official(store, official("ann", 500, completed_at=iso(NOON + timedelta(hours=1)), day=day))
    rows = boards("GET", f"/leaderboard/daily/{day}")[1]["rows"]
    assert [r["display_name"] for r in rows] == [boards("GET", "/me", user="ann")[1]["display_name"]]
    status, body, _ = boards("GET", "/leaderboard/daily/me", user="zed")
    assert (status, body["error"]["code"]) == (404, "result_rank_banned")
    (item,) = boards("GET", "/me/history", user="zed")[1]["items"]
    assert item["unranked_reason"] == "rank_banned" and item["rank"] is None
    assert boards("GET", "/me", user="zed")[1]["stats"]["played"] == 1


def test_a_write_of_a_run_read_before_a_ban_cannot_undo_the_stop_of_its_answers(dynamo):
    """The stop moves the run's version: a skip or a refused answer that read the run before the
    ban (a whole versioned put, which would drop the mark) fails and reads again, and is refused."""
    from shared.game.moderation import Sanction
    from shared.services.cases import add_sanction
    from shared.services.ports import StaleRun

    status, run, _ = daily("POST", "/daily/runs", user="zed")
    assert status == 201
    before = dynamo.runs.get_run(run["run_id"], player("zed"))
    ban_decision = Sanction(action="ban", reason="abuse", until=None, case_id="c" * 24, decided_at=iso(NOON))
    add_sanction(dynamo.sanctions, dynamo.player_data, player("zed"), ban_decision)
    with pytest.raises(StaleRun):
        dynamo.runs.save_run(before.run, before.version)
    status, body = answer("zed", run["run_id"], 1, "qzqzq")
    assert (status, body["error"]["code"]) == (403, "banned")
