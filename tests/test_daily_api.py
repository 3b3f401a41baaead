"""SPEC §3, §3a, §5 through the daily function with real API Gateway v2 events, on in-process moto."""

from datetime import UTC, datetime

import pytest

from functions.daily import reset
from functions.daily.handler import handler
from local.events import LambdaContext
from shared import clock, wiring
from shared.boards import SETTLE_SECONDS
from shared.puzzles import answers
from shared.scope import Scope
from shared.store import StaleRun
from tests.conftest import Api

call = Api(handler)


def good_word(run):
    return answers(run["prompt"], run["forbidden"])[0]


def play_out(run, user=None, base="/runs"):
    """Answer every round correctly; returns the last reply."""
    prefix = "/guest/runs" if user is None else base
    reply = None
    while run["status"] == "active":
        status, reply, _ = call(
            "POST",
            f"{prefix}/{run['run_id']}/answers",
            {"round": run["round"], "attempt": run["attempt"], "word": good_word(run)},
            user=user,
        )
        assert status == 200, reply
        run = reply["run"]
    return reply


def test_get_daily_tells_date_rounds_time_limit_status_and_next_reset(table):
    clock.travel_to(datetime(2026, 7, 10, 4, 30, tzinfo=UTC))  # 23:30 CDT on 9 July
    status, body, _ = call("GET", "/daily")
    assert status == 200
    assert body["date"] == "2026-07-09" and body["resets_at"] == "2026-07-10T05:00:00.000Z"
    assert body["rounds"] == 10 and body["time_limit_seconds"] == 180 and body["status"] == "live"
    assert "prompt" not in str(body)


def test_a_guest_plays_a_whole_daily(table):
    status, run, _ = call("POST", "/guest/daily/runs")
    assert status == 201 and run["official"] is False and run["round"] == 1 and run["attempts_left"] == 3
    last = play_out(run)
    final = last["run"]
    assert final["status"] == "completed" and final["ended_by"] == "finished"
    assert [r["outcome"] for r in final["history"]] == ["accepted"] * 10
    assert final["score"] == sum(r["points"] for r in final["history"]) and final["best_combo"] == 10
    assert call("GET", f"/guest/runs/{run['run_id']}")[1] == final


def test_every_player_gets_the_same_puzzle(table):
    first = call("POST", "/daily/runs", user="ann")[1]
    second = call("POST", "/guest/daily/runs")[1]
    assert first["prompt"] == second["prompt"]


def test_first_completed_run_is_official_later_runs_are_practice(table):
    status, run, _ = call("POST", "/daily/runs", user="ann")
    assert status == 201 and run["official"] is True
    assert play_out(run, "ann")["run"]["official"] is True
    status, practice, _ = call("POST", "/daily/runs", user="ann")
    assert status == 201 and practice["official"] is False and practice["run_id"] != run["run_id"]
    assert play_out(practice, "ann")["run"]["official"] is False
    result = wiring.store().official_result("sub-ann", Scope.daily(run["date"]))
    assert result.run_id == run["run_id"]


def test_starting_while_a_run_is_active_returns_the_active_one(table):
    status, run, _ = call("POST", "/daily/runs", user="ann")
    call("POST", f"/runs/{run['run_id']}/answers", {"round": 1, "attempt": 1, "word": "zzzq"}, user="ann")
    status, again, _ = call("POST", "/daily/runs", user="ann")
    assert status == 200 and again["run_id"] == run["run_id"] and again["attempt"] == 2


def test_a_run_is_reached_only_by_its_owner(table):
    run = call("POST", "/daily/runs", user="ann")[1]
    guest = call("POST", "/guest/daily/runs")[1]
    for method, path, body in [
        ("GET", f"/runs/{run['run_id']}", None),
        ("POST", f"/runs/{run['run_id']}/answers", {"round": 1, "attempt": 1, "word": "x"}),
        ("POST", f"/runs/{run['run_id']}/skip", {"round": 1}),
    ]:
        status, reply, _ = call(method, path, body, user="bob")
        assert (status, reply["error"]["code"]) == (404, "run_not_found")
    assert call("GET", f"/guest/runs/{run['run_id']}")[0] == 404  # a player's run is no guest run
    assert call("GET", f"/runs/{guest['run_id']}", user="ann")[0] == 404  # nor the other way round
    assert call("GET", "/guest/runs/AAAAAAAAAAAAAAAAAAAAAA")[0] == 404
    assert call("GET", "/guest/runs/..%2F..")[0] == 404


def test_player_routes_without_a_token_are_401_before_anything_else(table):
    for method, path in [
        ("POST", "/daily/runs"),
        ("GET", "/runs/x"),
        ("POST", "/runs/x/answers"),
        ("POST", "/challenges"),
    ]:
        status, reply, _ = call(method, path, raw_body="x" * 10_000)
        assert (status, reply["error"]["code"]) == (401, "unauthorized")


@pytest.mark.parametrize(
    "body",
    [
        {"round": 0, "attempt": 1, "word": "timer"},
        {"round": 11, "attempt": 1, "word": "timer"},
        {"round": 1, "attempt": 0, "word": "timer"},
        {"round": 1, "attempt": 4, "word": "timer"},
        {"round": "1", "attempt": 1, "word": "timer"},
        {"round": 1.0, "attempt": 1, "word": "timer"},
        {"round": True, "attempt": 1, "word": "timer"},
        {"round": 1, "attempt": 1, "word": 12},
        {"round": 1, "attempt": 1},
        {"round": 1, "attempt": 1, "word": "timer", "score": 9999},
    ],
)
def test_bad_answers_get_400_with_the_envelope(table, body):
    run = call("POST", "/guest/daily/runs")[1]
    status, reply, _ = call("POST", f"/guest/runs/{run['run_id']}/answers", body)
    assert status == 400 and set(reply["error"]) == {"code", "message"}


def test_a_body_over_4_kib_is_413(table):
    run = call("POST", "/guest/daily/runs")[1]
    body = {"round": 1, "attempt": 1, "word": "a" * 5000}
    assert call("POST", f"/guest/runs/{run['run_id']}/answers", body)[0] == 413


def test_a_repeated_answer_gets_the_same_reply_and_applies_once(table):
    run = call("POST", "/guest/daily/runs")[1]
    body = {"round": 1, "attempt": 1, "word": good_word(run).upper()}
    first = call("POST", f"/guest/runs/{run['run_id']}/answers", body)
    again = call("POST", f"/guest/runs/{run['run_id']}/answers", body)
    assert first[:2] == again[:2] and again[1]["run"]["score"] == first[1]["points"]


def test_a_different_word_for_a_used_slot_or_a_wrong_slot_is_409_with_the_run(table):
    run = call("POST", "/guest/daily/runs")[1]
    path = f"/guest/runs/{run['run_id']}/answers"
    call("POST", path, {"round": 1, "attempt": 1, "word": "qqqq"})
    for body in (
        {"round": 1, "attempt": 1, "word": "zzzz"},
        {"round": 1, "attempt": 3, "word": "x"},
        {"round": 2, "attempt": 1, "word": "x"},
    ):
        status, reply, _ = call("POST", path, body)
        assert status == 409 and reply["run"]["attempt"] == 2 and "code" in reply["error"]


def test_a_repeated_skip_replays_and_a_completed_run_refuses_everything(table):
    run = call("POST", "/guest/daily/runs")[1]
    skip_path = f"/guest/runs/{run['run_id']}/skip"
    first = call("POST", skip_path, {"round": 1})
    assert first[0] == 200 and first[1]["run"]["round"] == 2
    assert call("POST", skip_path, {"round": 1})[:2] == first[:2]
    for r in range(2, 11):
        call("POST", skip_path, {"round": r})
    status, reply, _ = call(
        "POST", f"/guest/runs/{run['run_id']}/answers", {"round": 10, "attempt": 1, "word": "x"}
    )
    assert (
        status == 409 and reply["error"]["code"] == "run_completed" and reply["run"]["status"] == "completed"
    )


def test_an_expired_run_completes_with_what_it_had_when_next_touched(table):
    run = call("POST", "/daily/runs", user="ann")[1]
    reply = call(
        "POST",
        f"/runs/{run['run_id']}/answers",
        {"round": 1, "attempt": 1, "word": good_word(run)},
        user="ann",
    )[1]
    clock.advance(181)
    status, expired, _ = call("GET", f"/runs/{run['run_id']}", user="ann")
    assert status == 200 and expired["status"] == "completed" and expired["ended_by"] == "expired"
    assert expired["completed_at"] == run["deadline"] and expired["score"] == reply["points"]
    result = wiring.store().official_result("sub-ann", Scope.daily(run["date"]))
    assert result is not None and result.score == reply["points"]


def test_starting_after_the_active_run_expired_completes_it_and_starts_practice(table):
    run = call("POST", "/daily/runs", user="ann")[1]
    clock.advance(200)
    status, second, _ = call("POST", "/daily/runs", user="ann")
    assert status == 201 and second["official"] is False
    assert call("GET", f"/runs/{run['run_id']}", user="ann")[1]["official"] is True


def test_a_run_belongs_to_the_date_it_started_on_even_after_midnight(table):
    clock.travel_to(datetime(2026, 11, 30, 5, 59, 0, tzinfo=UTC))  # 23:59 CST on 29 November
    run = call("POST", "/daily/runs", user="ann")[1]
    clock.advance(90)  # 00:00:30 on 30 November
    last = play_out(run, "ann")["run"]
    assert last["date"] == "2026-11-29" and last["official"] is True
    assert call("GET", "/daily")[1]["date"] == "2026-11-30"


def test_challenge_create_read_and_play_first_completion_is_official(table):
    status, challenge, _ = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 1}, user="ann")
    assert status == 201 and challenge["rounds"] == 5 and challenge["forbidden_rounds"] == 1
    challenge_id = challenge["challenge_id"]
    assert len(challenge_id) >= 16
    status, run, _ = call("POST", f"/challenges/{challenge_id}/runs", user="bob")
    assert (
        status == 201
        and run["kind"] == "challenge"
        and run["challenge_id"] == challenge_id
        and run["rounds"] == 5
    )
    assert call("POST", f"/challenges/{challenge_id}/runs", user="bob")[1]["run_id"] == run["run_id"]
    final = play_out(run, "bob")["run"]
    assert final["official"] is True
    board = call("GET", f"/challenges/{challenge_id}")[1]
    assert [row["score"] for row in board["rows"]] == [final["score"]] and board["rows"][0]["words"] is None
    assert call("POST", f"/challenges/{challenge_id}/runs", user="bob")[1]["official"] is False


def test_challenge_defaults_are_10_rounds_3_forbidden(table):
    challenge = call("POST", "/challenges", user="ann")[1]
    assert (challenge["rounds"], challenge["forbidden_rounds"]) == (10, 3)


@pytest.mark.parametrize(
    "body",
    [{"rounds": 4}, {"rounds": 11}, {"forbidden_rounds": 4}, {"forbidden_rounds": -1}, {"rounds": "5"}],
)
def test_challenge_bounds_are_5_to_10_rounds_and_0_to_3_forbidden(table, body):
    assert call("POST", "/challenges", body, user="ann")[0] == 400


def test_a_challenge_closes_after_7_days_and_then_shows_words(table):
    challenge = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="ann")[1]
    run = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")[1]
    play_out(run, "bob")
    clock.advance(7 * 24 * 3600)
    status, reply, _ = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="cy")
    assert status == 409 and reply["error"]["code"] == "challenge_closed"
    assert call("GET", f"/challenges/{challenge['challenge_id']}")[1]["rows"][0]["words"] is None
    clock.advance(180)
    clock.advance(SETTLE_SECONDS)
    wiring.store().mark_completed_through(clock.now())  # the expiry job's pass: every run is done
    board = call("GET", f"/challenges/{challenge['challenge_id']}")[1]
    assert board["status"] == "closed" and len(board["rows"][0]["words"]) == 5


def test_unknown_challenge_is_404(table):
    assert call("GET", "/challenges/AAAAAAAAAAAAAAAA")[0] == 404
    assert call("POST", "/challenges/AAAAAAAAAAAAAAAA/runs", user="ann")[0] == 404


def test_reset_job_stores_the_puzzle_and_completes_the_previous_dates_expired_runs(table):
    clock.travel_to(datetime(2026, 11, 30, 5, 58, 0, tzinfo=UTC))  # 23:58 CST on 29 November
    early = call("POST", "/daily/runs", user="ann")[1]
    clock.advance(90)
    late = call("POST", "/daily/runs", user="bob")[1]  # 23:59:30: still in play after midnight
    clock.travel_to(datetime(2026, 11, 30, 6, 0, 0, tzinfo=UTC))  # the schedule fires at 00:00 CST
    waited = []

    def sleep(seconds):
        waited.append(seconds)
        clock.advance(seconds)

    summary = wiring.game().reset(sleep=sleep)
    assert summary == {"date": "2026-11-30", "runs_completed": 2}
    assert waited and max(waited) <= 180
    assert wiring.store().get_puzzle("DAILY#2026-11-30") is not None
    for run, user in ((early, "ann"), (late, "bob")):
        stored = wiring.store().get_run(run["run_id"])
        assert stored.completed and stored.ended_by == "expired"
        assert wiring.store().official_result(f"sub-{user}", Scope.daily("2026-11-29")) is not None
    assert wiring.game().reset(sleep=sleep)["runs_completed"] == 0  # idempotent


def test_reset_handler_runs_as_the_schedule_invokes_it(table):
    summary = reset.handler({"source": "aws.scheduler"}, LambdaContext(aws_request_id="r"))
    assert summary["runs_completed"] == 0 and wiring.store().get_puzzle(f"DAILY#{summary['date']}")


def test_a_write_that_loses_a_race_while_expiring_a_run_is_retried_not_a_500(table, monkeypatch):
    run = call("POST", "/daily/runs", user="ann")[1]
    store = wiring.store()
    original, lost = store.complete_run, []

    def lose_first_race(stored_run, official):
        if not lost:
            lost.append(stored_run.run_id)
            raise StaleRun(stored_run.run_id)
        return original(stored_run, official)

    monkeypatch.setattr(store, "complete_run", lose_first_race)
    clock.advance(181)
    body = {"round": 1, "attempt": 1, "word": good_word(run)}
    status, reply, _ = call("POST", f"/runs/{run['run_id']}/answers", body, user="ann")
    assert lost and status == 409 and reply["error"]["code"] == "run_completed"
    assert reply["run"]["ended_by"] == "expired"


def test_a_player_has_at_most_one_active_run_at_a_time_across_midnight_and_challenges(table):
    challenge = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="bob")[1]
    clock.travel_to(datetime(2026, 11, 30, 5, 59, 0, tzinfo=UTC))  # 23:59 CST on 29 November
    run = call("POST", "/daily/runs", user="ann")[1]
    clock.advance(90)  # 30 November has begun; the run is still in play
    status, again, _ = call("POST", "/daily/runs", user="ann")
    assert (status, again["run_id"], again["date"]) == (200, run["run_id"], "2026-11-29")
    status, same, _ = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="ann")
    assert (status, same["run_id"]) == (200, run["run_id"])
    clock.advance(91)  # its time limit has passed: it completes, and a new run may start
    status, today, _ = call("POST", "/daily/runs", user="ann")
    assert status == 201 and today["date"] == "2026-11-30" and today["official"] is True


def test_a_closed_challenge_still_returns_the_callers_active_run_of_it(table):
    challenge = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="ann")[1]
    clock.advance(7 * 24 * 3600 - 60)
    run = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")[1]
    clock.advance(90)  # closed now, with 90 s left on bob's run
    status, again, _ = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")
    assert (status, again["run_id"], again["status"]) == (200, run["run_id"], "active")


def test_a_run_started_at_midnight_reads_the_clock_once(table):
    instants = iter(
        datetime(2026, 11, 30, 5, 59, 59, 970000 + i * 20000, tzinfo=UTC)
        if i < 2
        else datetime(2026, 11, 30, 6, 0, 0, (i - 2) * 20000 + 10000, tzinfo=UTC)
        for i in range(1000)
    )
    game = wiring.game()
    game.now = lambda: next(instants)
    run, _ = game.start_daily("sub-ann")
    assert run.date == "2026-11-29" and run.started_at.startswith("2026-11-30T05:59:59")


def test_guest_runs_are_gone_2_days_after_they_start(table):
    run = call("POST", "/guest/daily/runs")[1]
    clock.advance(2 * 24 * 3600 - 1)
    assert call("GET", f"/guest/runs/{run['run_id']}")[0] == 200
    clock.advance(1)
    assert call("GET", f"/guest/runs/{run['run_id']}")[0] == 404


def test_a_huge_rejected_word_is_stored_cut_and_its_retry_still_replays(table):
    run = call("POST", "/guest/daily/runs")[1]
    path = f"/guest/runs/{run['run_id']}/answers"
    huge = {"round": 1, "attempt": 1, "word": "q" * 4000}
    first = call("POST", path, huge)
    assert first[0] == 200 and first[1]["reason"] == "too_long"
    assert len(first[2]["body"]) < 2000
    assert call("POST", path, huge)[:2] == first[:2]
    other = {"round": 1, "attempt": 1, "word": "q" * 3999 + "x"}
    assert call("POST", path, other)[0] == 409


def test_a_lone_surrogate_in_an_answer_is_400_not_500(table):
    run = call("POST", "/guest/daily/runs")[1]
    raw = '{"round": 1, "attempt": 1, "word": "\\ud800x"}'
    assert call("POST", f"/guest/runs/{run['run_id']}/answers", raw_body=raw)[0] == 400
