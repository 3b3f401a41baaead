"""Moderation that is just and heard (SPEC §3e), through the handlers, on the in-memory fake and on
DynamoDB (moto) alike: no judge in their own case, a sanctioned player told what, why, until when and
how to appeal, appeals once per sanction and ruled by another moderator, a voided result saying so,
a rank-banned completion replying `ranked: false`, guests' reports bounded, an erasure leaving a
case's evidence, and the log showing names."""

from datetime import timedelta

import pytest

from functions.daily.handler import handler as daily_handler
from shared.game import clock
from shared.game.cases import name_case_id
from shared.game.clock import iso
from shared.game.moderation import REPORTS_PER_DAY
from tests.conftest import Api
from tests.fakes.fake_boards import NOON, player
from tests.play import PERSON_SECONDS, good_word, play_out
from tests.routed import handler as leaderboard_handler  # with the moderation routes

daily = Api(daily_handler)
boards = Api(leaderboard_handler)
MODS = "[moderators]"


def decide(moderator: str, case_id: str, action: str, **extra) -> tuple[int, dict]:
    body = {"action": action, "reason": "by the rules", **extra}
    status, reply, _ = boards(
        "POST", f"/moderation/cases/{case_id}/decision", body, user=moderator, groups=MODS
    )
    return status, reply


def report(user: str, kind: str, target: str) -> int:
    return boards("POST", "/reports", {"kind": kind, "target": target, "reason": "rude"}, user=user)[0]


def appeal(user: str, sanction: str, reason: str) -> tuple[int, dict]:
    body = {"sanction": sanction, "reason": reason}
    status, reply, _ = boards("POST", "/me/appeals", body, user=user)
    return status, reply


def queue(moderator: str, **query) -> list[dict]:
    status, page, _ = boards("GET", "/moderation/cases", user=moderator, groups=MODS, query=query)
    assert status == 200
    return page["items"]


def sanctioned(action: str = "rank_ban", **extra) -> str:
    """Zed, named and reported by Ann, sanctioned by moderator Mo: the sanction's id."""
    assert boards("PUT", "/me", {"display_name": "Zed"}, user="zed")[0] == 200
    assert report("ann", "name", "Zed") == 201
    case_id = name_case_id("Zed", player("zed"))
    assert decide("mo", case_id, action, **extra)[0] == 200
    return case_id


def test_a_moderator_never_decides_a_case_they_reported_or_about_themselves_403_own_case(store):
    assert boards("PUT", "/me", {"display_name": "Mood"}, user="mo")[0] == 200
    assert report("ann", "name", "Mood") == 201
    assert report("mo", "word", "zzqx") == 201
    cases = queue("mo")
    assert [c["evidence"]["own_case"] for c in cases] == [True, True]
    assert [c["evidence"]["own_case"] for c in queue("judy")] == [False, False]
    for case in cases:
        status, reply = decide("mo", case["case_id"], "dismiss")
        assert (status, reply["error"]["code"]) == (403, "own_case")
        assert decide("judy", case["case_id"], "dismiss")[0] == 200


def test_a_sanctioned_player_is_told_what_why_until_and_how_to_appeal_and_appeals_once(store):
    until = iso(NOON + timedelta(days=3))
    sanction = sanctioned("rank_ban", until=until)
    (told,) = boards("GET", "/me", user="zed")[1]["sanctions"]
    assert (told["sanction"], told["until"], told["appeal"]) == (sanction, until, "none")
    assert told["reason"] == "by the rules"
    assert "not placed" in told["what"] and "POST /me/appeals" in told["appeal_how"]
    status, appealed = appeal("zed", sanction, "I was polite")
    assert status == 201 and appealed["state"] == "open"
    status, again = appeal("zed", sanction, "again")
    assert (status, again["error"]["code"]) == (409, "already_appealed")
    assert appeal("zed", "0" * 24, "x")[0] == 404
    (queued,) = queue("judy", kind="appeal")
    assert queued["evidence"]["reason"] == "I was polite"
    assert queued["evidence"]["decided_by"] == player("mo")
    status, reply = decide("mo", appealed["appeal_id"], "lift")
    assert (status, reply["error"]["code"]) == (403, "own_case")  # the one who decided never rules
    assert decide("judy", appealed["appeal_id"], "lift")[0] == 200
    (told,) = boards("GET", "/me", user="zed")[1]["sanctions"]
    assert told["appeal"] == "lifted" and told["lifted_at"] and told["appeal_how"] is None
    (mine,) = boards("GET", "/me/appeals", user="zed")[1]["items"]
    assert mine["state"] == "lifted" and mine["ruling_reason"] == "by the rules"


def test_a_banned_player_can_still_appeal_and_a_lift_admits_them_again(store):
    sanction = sanctioned("ban")
    assert daily("POST", "/daily/runs", user="zed")[0] == 403
    status, appealed = appeal("zed", sanction, "hacked")
    assert status == 201
    assert decide("judy", appealed["appeal_id"], "uphold")[0] == 200
    assert boards("GET", "/me/appeals", user="zed")[1]["items"][0]["state"] == "upheld"
    assert daily("POST", "/daily/runs", user="zed")[0] == 403


def test_a_voided_result_says_so_on_my_rank_and_in_history(store):
    assert boards("PUT", "/me", {"display_name": "Zed"}, user="zed")[0] == 200
    done = play_out(daily, daily("POST", "/daily/runs", user="zed")[1], "zed")
    body = {"kind": "run", "target": f"{done['date']}:Zed", "reason": "too fast"}
    status, filed, _ = boards("POST", "/reports", body, user="ann")
    assert status == 201, filed
    assert decide("mo", filed["case_id"], "void_result")[0] == 200
    status, body, _ = boards("GET", "/leaderboard/daily/me", user="zed")
    assert (status, body["error"]["code"]) == (404, "result_voided")
    assert "voided" in body["error"]["message"]
    (item,) = boards("GET", "/me/history", user="zed")[1]["items"]
    assert item["unranked_reason"] == "voided" and item["rank"] is None


def test_a_completion_under_a_rank_ban_replies_ranked_false(store):
    sanctioned("rank_ban", until=iso(NOON + timedelta(days=3)))
    status, run, _ = daily("POST", "/daily/runs", user="zed")
    assert status == 201
    done = play_out(daily, run, "zed")
    assert (done["ranked"], done["unranked_reason"]) == (False, "rank_banned")
    assert daily("GET", f"/runs/{done['run_id']}", user="zed")[1]["ranked"] is False


def test_a_guest_reports_only_words_of_their_own_run_and_each_client_is_bounded(store):
    played = [play_out(daily, daily("POST", "/guest/daily/runs")[1]) for _ in range(2)]
    third = daily("POST", "/guest/daily/runs")[1]  # one answer is a word judged in it
    clock.advance(PERSON_SECONDS)
    body = {"round": 1, "attempt": 1, "word": good_word(third)}
    played.append(daily("POST", f"/guest/runs/{third['run_id']}/answers", body)[1]["run"])
    body = {"kind": "word", "target": "qqzzqq", "reason": "a word", "run_id": played[0]["run_id"]}
    status, reply, _ = boards("POST", "/guest/reports", body)
    assert (status, reply["error"]["code"]) == (400, "word_not_in_run")
    answered = []
    for run in played:  # three guest runs from one address (20 words and one): one client's quota
        words = dict.fromkeys(a["word"] for r in run["history"] for a in r["attempts"])
        for word in words:
            body = {"kind": "word", "target": word, "reason": "ok", "run_id": run["run_id"]}
            answered.append(boards("POST", "/guest/reports", body)[0])
    assert answered.count(201) == REPORTS_PER_DAY and set(answered[REPORTS_PER_DAY:]) == {429}


@pytest.mark.parametrize("store", ["dynamo"], indirect=True)  # the erasure is DynamoDB's alone
def test_an_erasure_leaves_the_cases_evidence_snapshot(store):
    assert boards("PUT", "/me", {"display_name": "Zed"}, user="zed")[0] == 200
    status, run, _ = daily("POST", "/daily/runs", user="zed")
    done = play_out(daily, run, "zed")
    store.settle() if hasattr(store, "settle") else None
    assert report("ann", "run", f"{done['date']}:Zed") == 201
    assert boards("DELETE", "/me", user="zed")[0] == 200
    (case,) = queue("mo", kind="run")
    assert len(case["evidence"]["attempts"]) == 10 and case["evidence"]["display_name"] == "Zed"
    assert case["evidence"]["subject"] == player("zed")


def test_the_audit_log_names_its_moderators_and_players(store):
    assert boards("PUT", "/me", {"display_name": "Judy"}, user="judy")[0] == 200
    sanction = sanctioned("ban")
    clock.advance(1)
    status, log, _ = boards("GET", "/moderation/log", user="judy", groups=MODS)
    (entry,) = log["items"]
    assert entry["case_id"] == sanction and entry["subject"] == player("zed")
    assert entry["subject_name"] == "Zed" and entry["moderator_name"].startswith("player-")


def test_a_moderator_removed_from_the_group_is_refused_within_a_minute_whatever_their_token():
    from shared.runtime.roster import ROSTER_SECONDS, CognitoRoster

    class Pool:
        groups = ["moderators"]
        asked = 0

        def admin_list_groups_for_user(self, **_):
            Pool.asked += 1
            return {"Groups": [{"GroupName": g} for g in self.groups]}

    now = [0.0]
    roster = CognitoRoster("us-east-1_pool", Pool(), clock=lambda: now[0])
    assert roster.is_moderator("mo") and roster.is_moderator("mo") and Pool.asked == 1
    Pool.groups = []  # removed (docs/moderation.md, "Removing a moderator")
    now[0] += ROSTER_SECONDS
    assert ROSTER_SECONDS < 60 and not roster.is_moderator("mo")


def test_locally_a_moderator_left_out_of_local_moderators_is_refused(monkeypatch):
    from shared.runtime.roster import LocalRoster

    monkeypatch.setenv("LOCAL_MODERATORS", "judy")
    assert LocalRoster().is_moderator("judy") and not LocalRoster().is_moderator("mo")
