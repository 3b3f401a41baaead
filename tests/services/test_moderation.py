"""Moderation (SPEC §3e) through real API Gateway v2 events, on the in-memory stores: reports and
their merging into cases, the daily quota, the moderators' routes and their 403, decisions and
their sanctions, the ban, the audit log. The DynamoDB side of the port is tested by
tests/contract/test_moderation_store.py."""

import json
from datetime import timedelta

import pytest

from functions.daily.handler import handler as daily_handler
from local.events import LambdaContext, http_event
from shared.game import clock
from shared.game.cases import name_case_id
from shared.game.clock import iso
from shared.game.moderation import REPORTS_PER_DAY, REVIEW_WINDOW, case_id_for
from tests.fakes.fake_boards import CLOSES, DAY, NOON, completion, official, player, serve_with
from tests.fakes.fake_store import FakePorts, complete_official
from tests.routed import handler  # the leaderboard and moderation functions

MODERATOR = "mo"


@pytest.fixture
def store(monkeypatch, still_clock) -> FakePorts:
    clock.travel_to(NOON)
    fake = FakePorts()
    serve_with(monkeypatch, fake)
    return fake


def call(method, path, body=None, *, user=None, query=None, groups=None, function=handler):
    claims = None
    if user:
        claims = {"sub": player(user), "cognito:username": user, "token_use": "id"}
        if groups is not None:
            claims["cognito:groups"] = groups
        elif user == MODERATOR:
            claims["cognito:groups"] = "[moderators]"  # as API Gateway's HTTP API hands a list claim
    reply = function(http_event(method, path, body, query=query, claims=claims), LambdaContext())
    return reply["statusCode"], json.loads(reply["body"]) if reply.get("body") else None


def named(store, user: str, name: str) -> None:
    store.names.set_display_name(player(user), name)


def report(user, kind, target, reason="looks wrong"):
    return call("POST", "/reports", {"kind": kind, "target": target, "reason": reason}, user=user)


def queue(kind=None, **query):
    return call(
        "GET", "/moderation/cases", user=MODERATOR, query={**({"kind": kind} if kind else {}), **query}
    )


def decide(case_id, action, reason="by the rules", **extra):
    body = {"action": action, "reason": reason, **extra}
    return call("POST", f"/moderation/cases/{case_id}/decision", body, user=MODERATOR)


def played(store, user, score, name=None):
    if name:
        named(store, user, name)
    complete_official(
        store, official(user, score, completed_at=completion(3600 + score), day=DAY.isoformat())
    )


# Reports ----------------------------------------------------------------------------------------


def test_reports_about_one_target_merge_into_one_case_with_a_count_and_the_reporters(store):
    for user in ("ann", "bob", "cat"):
        status, body = report(user, "word", "Lego" if user == "bob" else "lego")
        assert status == 201, body
    status, page = queue("word")
    assert status == 200
    (case,) = page["items"]
    assert case["count"] == 3 and case["case_id"] == case_id_for("word", "lego")
    assert sorted(case["evidence"]["reporters"]) == sorted(player(u) for u in ("ann", "bob", "cat"))
    assert case["evidence"]["in_dictionary"] is False


def test_look_alike_names_are_one_case(store):
    named(store, "zed", "Bill")
    assert report("ann", "name", "Bill")[0] == 201
    assert report("bob", "name", "BiII")[0] == 201
    (case,) = queue("name")[1]["items"]
    assert case["count"] == 2 and case["evidence"]["skeleton"] == "blll"


def test_a_reporter_reports_a_case_once(store):
    assert report("ann", "word", "lego")[0] == 201
    status, body = report("ann", "word", "LEGO")
    assert (status, body["error"]["code"]) == (409, "already_reported")


def test_at_most_20_reports_a_player_a_day_then_429(store):
    for n in range(REPORTS_PER_DAY):
        assert report("ann", "word", "qz" + "a" * (n + 1))[0] == 201
    status, body = report("ann", "word", "qzz")
    assert (status, body["error"]["code"]) == (429, "too_many_reports")
    clock.travel_to(NOON + timedelta(days=1))
    assert report("ann", "word", "qzz")[0] == 201


def test_a_report_about_nothing_is_404_and_a_malformed_one_400(store):
    assert report("ann", "name", "Nobody")[0] == 404
    assert report("ann", "run", f"{DAY.isoformat()}:Nobody")[0] == 404
    assert report("ann", "word", "wi fi")[0] == 400
    assert report("ann", "essay", "x")[0] == 400
    assert call("POST", "/reports", {"kind": "word", "target": "x"}, user="ann")[0] == 400


def test_a_run_is_reported_by_its_row_and_the_case_shows_its_attempts(store):
    played(store, "zed", 900, "Zed")
    status, body = report("ann", "run", f"{DAY.isoformat()}:Zed")
    assert status == 201, body
    (case,) = queue("run")[1]["items"]
    assert case["evidence"]["run_id"] == f"run-zed-{DAY.isoformat()}"


def test_a_guest_reports_a_word_with_its_run_only(store):
    body = {"kind": "word", "target": "lego", "reason": "a word", "run_id": "no-such-run"}
    assert call("POST", "/guest/reports", body)[0] == 404
    assert call("POST", "/guest/reports", {**body, "kind": "name"})[0] == 400


def test_my_reports_lists_the_callers_reports_with_their_outcome(store):
    report("ann", "word", "lego")
    status, mine = call("GET", "/me/reports", user="ann")
    assert status == 200 and mine["items"][0]["outcome"] is None
    decide(case_id_for("word", "lego"), "accept_word")
    (item,) = call("GET", "/me/reports", user="ann")[1]["items"]
    assert item["outcome"]["action"] == "accept_word"
    assert call("GET", "/me/reports", user="bob")[1] == {"items": []}


# Moderators -------------------------------------------------------------------------------------


MODERATION_ROUTES = [
    ("GET", "/moderation/cases", None),
    ("POST", f"/moderation/cases/{'a' * 24}/decision", {"action": "dismiss", "reason": "x"}),
    ("GET", "/moderation/log", None),
]


@pytest.mark.parametrize(("method", "path", "body"), MODERATION_ROUTES)
@pytest.mark.parametrize("groups", [None, "[players]", "[]", "moderatorsx"])
def test_403_for_a_non_moderator_on_every_moderation_route(store, method, path, body, groups):
    status, reply = call(method, path, body, user="ann", groups=groups)
    assert (status, reply["error"]["code"]) == (403, "not_a_moderator")


@pytest.mark.parametrize(("method", "path", "body"), MODERATION_ROUTES)
def test_401_without_a_token_on_every_moderation_route(store, method, path, body):
    assert call(method, path, body)[0] == 401


def test_the_queue_is_oldest_first_by_kind_and_cursor_paged(store):
    for n in range(5):
        clock.travel_to(NOON + timedelta(minutes=n))
        report("ann", "word", "qq" + "z" * (n + 1))
    named(store, "zed", "Zed")
    report("ann", "name", "Zed")
    first = queue("word", limit="2")[1]
    second = queue("word", limit="2", cursor=first["next_cursor"])[1]
    third = queue("word", limit="2", cursor=second["next_cursor"])[1]
    shown = [c["shown"] for page in (first, second, third) for c in page["items"]]
    assert shown == ["qq" + "z" * (n + 1) for n in range(5)] and third["next_cursor"] is None
    assert len(queue()[1]["items"]) == 6
    assert queue(cursor="@@@")[0] == 400


def test_a_decided_case_leaves_the_queue_and_a_second_decision_is_409(store):
    report("ann", "word", "lego")
    case_id = case_id_for("word", "lego")
    assert decide(case_id, "dismiss")[0] == 200
    assert queue()[1]["items"] == []
    status, body = decide(case_id, "accept_word")
    assert (status, body["error"]["code"]) == (409, "case_decided")
    assert decide("f" * 24, "dismiss")[0] == 404
    assert decide("nope", "dismiss")[0] == 404


def test_an_action_must_fit_the_case_and_a_rank_ban_needs_a_future_until(store):
    named(store, "zed", "Zed")
    report("ann", "name", "Zed")
    case_id = name_case_id("Zed", player("zed"))
    assert decide(case_id, "accept_word")[1]["error"]["code"] == "action_not_allowed"
    assert decide(case_id, "rank_ban")[1]["error"]["code"] == "invalid_until"
    assert decide(case_id, "rank_ban", until=iso(NOON - timedelta(days=1)))[0] == 400
    assert decide(case_id, "dismiss", until=iso(NOON + timedelta(days=1)))[0] == 400
    assert decide(case_id, "rank_ban", until=iso(NOON + timedelta(days=7)))[0] == 200


# Sanctions --------------------------------------------------------------------------------------


def test_hide_name_shows_the_default_name_everywhere_and_frees_the_claim(store):
    played(store, "zed", 900, "Zed")
    report("ann", "name", "Zed")
    assert decide(name_case_id("Zed", player("zed")), "hide_name", "offensive")[0] == 200
    me = call("GET", "/me", user="zed")[1]
    assert me["display_name"].startswith("player-")
    (told,) = me["sanctions"]
    held = [told[k] for k in ("action", "reason", "until", "decided_at")]
    assert held == ["hide_name", "offensive", None, iso(NOON)]
    assert told["what"].startswith("Your display name was hidden") and told["sanction"] in told["appeal_how"]
    row = call("GET", f"/leaderboard/daily/{DAY.isoformat()}")[1]["rows"][0]
    assert row["display_name"] == me["display_name"]
    assert call("PUT", "/me", {"display_name": "Zed"}, user="bob")[0] == 200  # the claim is free


def test_void_result_takes_the_row_off_the_board_and_reranks_the_rows_below(store):
    played(store, "ann", 1500, "Ann")
    played(store, "zed", 2000, "Zed")
    played(store, "bob", 1000, "Bob")
    day = DAY.isoformat()
    assert call("GET", "/leaderboard/daily/me", user="ann")[1]["rank"] == 2
    report("cat", "run", f"{day}:Zed")
    assert decide(case_id_for("run", f"run-zed-{day}"), "void_result", "scripted")[0] == 200
    rows = call("GET", f"/leaderboard/daily/{day}")[1]["rows"]
    assert [(r["rank"], r["display_name"]) for r in rows] == [(1, "Ann"), (2, "Bob")]
    assert call("GET", "/leaderboard/daily/me", user="ann")[1]["rank"] == 1
    assert call("GET", "/leaderboard/daily/me", user="zed")[1]["error"]["code"] == "result_voided"
    me = call("GET", "/me", user="zed")[1]
    assert me["stats"]["played"] == 1 and me["stats"]["best_score"] == 2000  # kept in their stats
    (item,) = call("GET", "/me/history", user="zed")[1]["items"]
    assert item["unranked_reason"] == "voided" and item["rank"] is None


def test_a_ban_refuses_every_player_route_but_the_profile_export_and_erasure(store):
    played(store, "zed", 900, "Zed")
    report("ann", "run", f"{DAY.isoformat()}:Zed")
    assert decide(case_id_for("run", f"run-zed-{DAY.isoformat()}"), "ban", "cheating")[0] == 200
    for method, path, function in [
        ("POST", "/daily/runs", daily_handler),
        ("POST", "/challenges", daily_handler),
        ("GET", "/me/history", handler),
        ("POST", "/leagues", handler),
        ("GET", "/me/reports", handler),
    ]:
        body = {"name": "abcd"} if path == "/leagues" else None
        status, reply = call(method, path, body, user="zed", function=function)
        assert (status, reply["error"]["code"]) == (403, "banned"), path
    me = call("GET", "/me", user="zed")[1]
    assert me["sanctions"][0]["action"] == "ban"
    assert call("GET", "/me/history", user="ann")[0] == 200


def test_accept_word_lists_the_word_with_its_case_for_the_next_build(store):
    report("ann", "word", "Gameplayy")
    decide(case_id_for("word", "gameplayy"), "accept_word", "in use")
    assert store.accepted_words.accepted_words() == [("gameplayy", case_id_for("word", "gameplayy"))]


# The audit log ----------------------------------------------------------------------------------


def test_every_decision_is_in_the_audit_log_newest_first(store):
    for n, word in enumerate(("lego", "vlog", "emoji")):
        clock.travel_to(NOON + timedelta(minutes=n))
        report("ann", "word", word)
        decide(case_id_for("word", word), "dismiss" if n % 2 else "accept_word", f"reason {n}")
    status, page = call("GET", "/moderation/log", user=MODERATOR, query={"limit": "2"})
    assert status == 200
    assert [e["target"] for e in page["items"]] == ["emoji", "vlog"]
    assert page["items"][0] == {
        "case_id": case_id_for("word", "emoji"),
        "moderator": player(MODERATOR),
        "kind": "word",
        "target": "emoji",
        "action": "accept_word",
        "reason": "reason 2",
        "until": None,
        "decided_at": iso(NOON + timedelta(minutes=2)),
        **{"subject": None, "note": None, "subject_name": None},
        "moderator_name": page["items"][0]["moderator_name"],
    }
    assert page["items"][0]["moderator_name"].startswith("player-")
    rest = call("GET", "/moderation/log", user=MODERATOR, query={"cursor": page["next_cursor"]})[1]
    assert [e["target"] for e in rest["items"]] == ["lego"] and rest["next_cursor"] is None


@pytest.mark.parametrize("method", ["PUT", "DELETE", "POST", "PATCH"])
def test_the_audit_log_refuses_edits(store, method):
    status, body = call(method, "/moderation/log", {"items": []}, user=MODERATOR)
    assert (status, body["error"]["code"]) == (405, "method_not_allowed")


def test_locally_the_usernames_in_local_moderators_get_the_moderators_group_claim(monkeypatch, store):
    from local import auth

    monkeypatch.setenv("LOCAL_MODERATORS", "mo, judy")
    token = auth.issue_id_token("judy", "secret", "http://local")
    claims = auth.verified_claims(f"Bearer {token}", "secret")
    assert claims is not None and claims["cognito:groups"] == "[moderators]"
    others = auth.verified_claims(f"Bearer {auth.issue_id_token('ann', 'secret', 'http://local')}", "secret")
    assert others is not None and "cognito:groups" not in others
    claims["sub"] = player("judy")
    event = http_event("GET", "/moderation/log", claims=claims)
    assert handler(event, LambdaContext())["statusCode"] == 200


def test_a_moderators_export_holds_their_decisions_and_a_players_their_reports_and_sanctions(table):
    clock.travel_to(NOON)
    assert call("PUT", "/me", {"display_name": "Zed"}, user="zed")[0] == 200
    assert report("ann", "name", "Zed")[0] == 201
    assert decide(name_case_id("Zed", player("zed")), "hide_name", "offensive")[0] == 200
    status, mine = call("GET", "/me/export", user=MODERATOR)
    assert status == 200
    (entry,) = mine["moderation_log"]
    assert (entry["action"], entry["target"], entry["moderator"]) == ("hide_name", "zed", player(MODERATOR))
    assert [r["target"] for r in call("GET", "/me/export", user="ann")[1]["reports"]] == ["Zed"]
    zed = call("GET", "/me/export", user="zed")[1]
    assert [s["action"] for s in zed["sanctions"]] == ["hide_name"] and zed["moderation_log"] == []


# Boards: live, closed, final ---------------------------------------------------------------------


def board_reply():
    reply = handler(http_event("GET", f"/leaderboard/daily/{DAY.isoformat()}"), LambdaContext())
    return reply["statusCode"], json.loads(reply["body"]), reply


def test_a_closed_board_becomes_final_after_its_review_window_and_no_pending_case(store):
    played(store, "ann", 900, "Ann")
    played(store, "zed", 2000, "Zed")
    report("bob", "run", f"{DAY.isoformat()}:Zed")
    clock.travel_to(CLOSES + timedelta(minutes=5))
    store.runs.mark_completed_through(CLOSES + timedelta(minutes=2))
    _, body, raw = board_reply()
    assert body["status"] == "closed" and body["corrections"] is None
    assert raw["headers"]["Cache-Control"] == "public, max-age=60"
    assert body["rows"][0]["review"] == "pending"
    clock.travel_to(CLOSES + REVIEW_WINDOW + timedelta(minutes=2))
    assert board_reply()[1]["status"] == "closed"  # the window is over, but a case is pending
    assert decide(case_id_for("run", f"run-zed-{DAY.isoformat()}"), "dismiss")[0] == 200
    _, body, raw = board_reply()
    assert body["status"] == "final" and body["rows"][0]["review"] is None
    assert raw["headers"]["Cache-Control"] == "public, max-age=31536000, immutable"
    assert body["corrections"] == f"/leaderboard/daily/{DAY.isoformat()}/corrections"


def test_a_void_during_the_review_window_moves_the_rows_below_it_up(store):
    played(store, "ann", 900, "Ann")
    played(store, "zed", 2000, "Zed")
    clock.travel_to(CLOSES + timedelta(hours=2))
    store.runs.mark_completed_through(CLOSES + timedelta(minutes=2))
    report("bob", "run", f"{DAY.isoformat()}:Zed")
    assert decide(case_id_for("run", f"run-zed-{DAY.isoformat()}"), "void_result", "scripted")[0] == 200
    _, body, _ = board_reply()
    assert body["status"] == "closed" and [(r["rank"], r["display_name"]) for r in body["rows"]] == [
        (1, "Ann")
    ]


def test_a_decision_after_final_leaves_the_page_byte_identical_and_adds_a_correction(store):
    played(store, "ann", 900, "Ann")
    played(store, "zed", 2000, "Zed")
    clock.travel_to(CLOSES + REVIEW_WINDOW + timedelta(minutes=2))
    store.runs.mark_completed_through(CLOSES + timedelta(minutes=2))
    _, before, raw_before = board_reply()
    assert before["status"] == "final"
    assert call("GET", f"/leaderboard/daily/{DAY.isoformat()}/corrections")[1] == {
        "date": DAY.isoformat(),
        "items": [],
    }
    report("bob", "run", f"{DAY.isoformat()}:Zed")
    case_id = case_id_for("run", f"run-zed-{DAY.isoformat()}")
    assert board_reply()[2]["body"] == raw_before["body"]  # a report on a final board marks no row
    assert decide(case_id, "void_result", "scripted")[0] == 200
    assert board_reply()[2]["body"] == raw_before["body"]
    mine = call("GET", "/leaderboard/daily/me", user="zed", query={"date": DAY.isoformat()})[1]
    assert mine["rank"] == 1  # the row stays
    (item,) = call("GET", f"/leaderboard/daily/{DAY.isoformat()}/corrections")[1]["items"]
    assert item == {
        "rank": 1,
        "display_name": "Zed",
        "action": "void_result",
        "reason_code": "report",
        "decided_at": iso(CLOSES + REVIEW_WINDOW + timedelta(minutes=2)),
        "case_id": case_id,
    }


def test_accepted_words_are_written_to_additions_with_their_case_ids_once():
    from scripts.accepted_words import merged

    text, added = merged("# words moderators accepted\nwifi\tc1\n", [("vlog", "c2"), ("wifi", "c1")])
    assert (text, added) == ("# words moderators accepted\nwifi\tc1\nvlog\tc2\n", 1)
