"""Moderation in the stack (SPEC §3e): the Cognito group that makes a player a moderator, and the
moderation function's grant covering every request its routes send (reports, the queue, decisions
and their effects, the log, appeals and a lift), as IAM would judge them (test_permissions_routes.py's
rules); the leaderboard function's covering the boards and profile a decision changes."""

import json

import pytest

from functions.leaderboard.handler import handler as leaderboard_handler
from functions.moderation.handler import handler as moderation_handler
from infra.permissions import ACCESS, CLOSING_ACCESS
from local.events import LambdaContext, http_event
from shared.game.cases import name_case_id
from shared.game.moderation import MODERATORS_GROUP, case_id_for
from shared.game.scope import Scope
from tests.fakes.fake_boards import player
from tests.infra.test_permissions_routes import daily, denied, game, recording  # noqa: F401 (fixture)
from tests.play import play_out


def _call(method, path, body=None, *, user, moderator=False, function=moderation_handler):
    claims = {"sub": player(user), "cognito:username": user, "token_use": "id"}
    if moderator:
        claims["cognito:groups"] = f"[{MODERATORS_GROUP}]"
    reply = function(http_event(method, path, body, claims=claims), LambdaContext())
    return reply["statusCode"], json.loads(reply["body"])


def test_moderation_routes_stay_inside_the_moderation_grant(game):  # noqa: F811
    run = daily("POST", "/daily/runs", user="zed")[1]
    play_out(daily, run, "zed")
    assert _call("PUT", "/me", {"display_name": "Zed"}, user="zed", function=leaderboard_handler)[0] == 200
    with recording() as sent:
        for user in ("ann", "bob"):
            assert (
                _call(
                    "POST",
                    "/reports",
                    {"kind": "run", "target": f"{run['date']}:Zed", "reason": "x"},
                    user=user,
                )[0]
                == 201
            )
            assert (
                _call("POST", "/reports", {"kind": "word", "target": "lego", "reason": "x"}, user=user)[0]
                == 201
            )
        assert (
            _call("POST", "/reports", {"kind": "name", "target": "Zed", "reason": "x"}, user="ann")[0] == 201
        )
        assert _call("GET", "/me/reports", user="ann")[0] == 200
        assert _call("GET", "/moderation/cases", user="mo", moderator=True)[0] == 200
        for case_id, action in (
            (case_id_for("run", run["run_id"]), "void_result"),
            (case_id_for("word", "lego"), "accept_word"),
            (name_case_id("Zed", player("zed")), "hide_name"),
        ):
            path = f"/moderation/cases/{case_id}/decision"
            status, body = _call("POST", path, {"action": action, "reason": "r"}, user="mo", moderator=True)
            assert status == 200, body
        assert _call("GET", "/moderation/log", user="mo", moderator=True)[0] == 200
        voided = case_id_for("run", run["run_id"])
        status, appeal = _call("POST", "/me/appeals", {"sanction": voided, "reason": "fair"}, user="zed")
        assert status == 201, appeal
        path = f"/moderation/cases/{appeal['appeal_id']}/decision"
        assert _call("POST", path, {"action": "lift", "reason": "r"}, user="judy", moderator=True)[0] == 200
        assert _call("GET", "/me/appeals", user="zed")[0] == 200
    assert denied(ACCESS["moderation"].table, sent) == []
    with recording() as sent:
        for path, user in (
            (f"/leaderboard/daily/{run['date']}/corrections", "ann"),
            (f"/leaderboard/daily/{run['date']}", "ann"),
            ("/me", "zed"),
        ):
            assert _call("GET", path, user=user, function=leaderboard_handler)[0] == 200
    assert denied(ACCESS["leaderboard"].table, sent) == []


@pytest.mark.infra
def test_the_stack_creates_the_moderators_user_pool_group(dev):
    (group,) = dev.resources("AWS::Cognito::UserPoolGroup").values()
    assert group["Properties"]["GroupName"] == MODERATORS_GROUP
    (pool,) = dev.resources("AWS::Cognito::UserPool")
    assert group["Properties"]["UserPoolId"] == {"Ref": pool}


def test_the_closing_pass_stays_inside_the_expire_and_worker_grants(still_clock, game, monkeypatch):  # noqa: F811
    from functions.daily import expire
    from shared.game import clock

    for user in ("ann", "bob"):
        play_out(daily, daily("POST", "/daily/runs", user=user)[1], user)
    clock.travel_to(clock.parse_iso("2026-11-30T06:10:00.000Z"))  # the 29th's board has closed
    monkeypatch.setattr(expire, "run_pieces_here", lambda service: 0)  # the workers run them, below
    with recording() as sent:
        summary = expire.handler({"source": "aws.scheduler"}, LambdaContext(aws_request_id="expire"))
    assert summary["dailies_started"] == 1, summary
    assert denied(ACCESS["expire"].table, sent) == []
    closing = expire.closing_pass()
    with recording() as sent:
        closing.queue.drain(closing.run)
    assert closing.store.pass_state(Scope.daily("2026-11-29")).finished  # judged, scores kept
    queried = [params.get("IndexName") for op, params in sent if op == "Query"]
    assert "board" in queried  # the pieces read the day's rows
    assert denied(CLOSING_ACCESS, sent) == []


@pytest.mark.infra
def test_the_review_queue_pages_on_an_old_case_and_on_a_flood_of_new_ones(dev):
    from infra.moderation_alarms import CASES_OPENED_PER_HOUR, OLDEST_CASE_HOURS

    alarms = {
        a["Properties"]["AlarmName"]: a["Properties"]
        for a in dev.resources("AWS::CloudWatch::Alarm").values()
    }
    oldest = next(a for name, a in alarms.items() if name.endswith("-ModerationQueueOldest"))
    opened = next(a for name, a in alarms.items() if name.endswith("-ModerationCasesOpened"))
    assert (oldest["MetricName"], oldest["Threshold"]) == ("OldestOpenCaseHours", OLDEST_CASE_HOURS)
    assert (opened["MetricName"], opened["Threshold"], opened["Period"]) == (
        "CasesOpened",
        CASES_OPENED_PER_HOUR,
        3600,
    )
    assert oldest["AlarmActions"] and opened["AlarmActions"]
