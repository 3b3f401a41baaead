"""SPEC §3, §3a, §5 through the daily function with real API Gateway v2 events, on the in-memory
fake store (tests/fakes/fake_store.py): what is tested here is the game and its HTTP shape, not DynamoDB
(tests/contract/ holds the fakes to the adapters' behaviour; tests/dynamo/test_dynamo.py the adapter)."""

import json
from datetime import UTC, datetime

import pytest

from functions.daily import expire, reset
from functions.daily.handler import handler
from local.events import LambdaContext
from shared.dynamo.client import DataError
from shared.game import clock
from shared.game.boards import SETTLE_SECONDS
from shared.game.clock import parse_iso
from shared.game.errors import Throttled
from shared.game.scope import Scope
from shared.runtime import wiring
from shared.services.ports import StaleRun
from tests.conftest import Api
from tests.fakes.fake_boards import player
from tests.fakes.fake_store import FakePorts
from tests.play import good_word, play_out

call = Api(handler)


@pytest.fixture(autouse=True)
def store(monkeypatch):
    """A fresh in-memory store behind the handlers, with fresh cached wiring."""
    fake = FakePorts()
    wiring.reset(fake)
    yield fake
    wiring.reset()


def run_expiry_job():
    return expire.handler({"source": "aws.scheduler"}, LambdaContext(aws_request_id="expire"))


def test_get_daily_tells_date_rounds_time_limit_status_and_next_reset():
    clock.travel_to(datetime(2026, 7, 10, 4, 30, tzinfo=UTC))  # 23:30 CDT on 9 July
    status, body, _ = call("GET", "/daily")
    assert status == 200
    assert body["date"] == "2026-07-09" and body["resets_at"] == "2026-07-10T05:00:00.000Z"
    assert body["rounds"] == 10 and body["time_limit_seconds"] == 180 and body["status"] == "live"
    assert "prompt" not in str(body)


def test_get_daily_may_be_cached_a_minute_but_never_past_the_reset():
    clock.travel_to(datetime(2026, 7, 10, 4, 30, tzinfo=UTC))  # half an hour before the reset
    assert call("GET", "/daily")[2]["headers"]["Cache-Control"] == "public, max-age=60"
    clock.travel_to(datetime(2026, 7, 10, 4, 59, 40, tzinfo=UTC))  # 20 s before the reset
    max_age = int(call("GET", "/daily")[2]["headers"]["Cache-Control"].split("max-age=")[1])
    assert 0 <= max_age <= 20


def test_a_guest_plays_a_whole_daily():
    status, run, _ = call("POST", "/guest/daily/runs")
    assert status == 201 and run["official"] is False and run["round"] == 1 and run["attempts_left"] == 3
    final = play_out(call, run)
    assert final["status"] == "completed" and final["ended_by"] == "finished"
    assert [r["outcome"] for r in final["history"]] == ["accepted"] * 10
    assert final["score"] == sum(r["points"] for r in final["history"]) and final["best_combo"] == 10
    assert call("GET", f"/guest/runs/{run['run_id']}")[1] == final


def test_every_player_gets_the_same_puzzle():
    first = call("POST", "/daily/runs", user="ann")[1]
    second = call("POST", "/guest/daily/runs")[1]
    assert first["prompt"] == second["prompt"]


def test_first_completed_run_is_official_later_runs_are_practice():
    status, run, _ = call("POST", "/daily/runs", user="ann")
    assert status == 201 and run["official"] is True
    assert play_out(call, run, "ann")["official"] is True
    status, practice, _ = call("POST", "/daily/runs", user="ann")
    assert status == 201 and practice["official"] is False and practice["run_id"] != run["run_id"]
    assert play_out(call, practice, "ann")["official"] is False
    result = wiring.ports().results.official_result(player("ann"), Scope.daily(run["date"]))
    assert result.run_id == run["run_id"]


def test_starting_while_a_run_is_active_returns_the_active_one():
    status, run, _ = call("POST", "/daily/runs", user="ann")
    call("POST", f"/runs/{run['run_id']}/answers", {"round": 1, "attempt": 1, "word": "zzzq"}, user="ann")
    status, again, _ = call("POST", "/daily/runs", user="ann")
    assert status == 200 and again["run_id"] == run["run_id"] and again["attempt"] == 2


def test_a_run_is_reached_only_by_its_owner():
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


def test_player_routes_without_a_token_are_401_before_anything_else():
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
        {"round": 1.5, "attempt": 1, "word": "timer"},  # 1.0 is the integer 1, as JSON Schema says
        {"round": True, "attempt": 1, "word": "timer"},
        {"round": 1, "attempt": 1, "word": 12},
        {"round": 1, "attempt": 1},
        {"round": 1, "attempt": 1, "word": "timer", "score": 9999},
    ],
)
def test_bad_answers_get_400_with_the_envelope(body):
    run = call("POST", "/guest/daily/runs")[1]
    status, reply, _ = call("POST", f"/guest/runs/{run['run_id']}/answers", body)
    assert status == 400 and set(reply["error"]) == {"code", "message"}


def test_a_body_over_4_kib_is_413():
    run = call("POST", "/guest/daily/runs")[1]
    body = {"round": 1, "attempt": 1, "word": "a" * 5000}
    assert call("POST", f"/guest/runs/{run['run_id']}/answers", body)[0] == 413


def test_a_repeated_answer_gets_the_same_reply_and_applies_once():
    run = call("POST", "/guest/daily/runs")[1]
    body = {"round": 1, "attempt": 1, "word": good_word(run).upper()}
    first = call("POST", f"/guest/runs/{run['run_id']}/answers", body)
    again = call("POST", f"/guest/runs/{run['run_id']}/answers", body)
    assert first[:2] == again[:2] and again[1]["run"]["score"] == first[1]["points"]


def test_a_different_word_for_a_used_slot_or_a_wrong_slot_is_409_with_the_run():
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


def test_a_repeated_skip_replays_and_a_completed_run_refuses_everything():
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


def test_an_expired_run_completes_with_what_it_had_when_next_touched():
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
    result = wiring.ports().results.official_result(player("ann"), Scope.daily(run["date"]))
    assert result is not None and result.score == reply["points"]


def test_starting_after_the_active_run_expired_completes_it_and_starts_practice():
    run = call("POST", "/daily/runs", user="ann")[1]
    clock.advance(200)
    status, second, _ = call("POST", "/daily/runs", user="ann")
    assert status == 201 and second["official"] is False
    assert call("GET", f"/runs/{run['run_id']}", user="ann")[1]["official"] is True


def test_a_run_belongs_to_the_date_it_started_on_even_after_midnight():
    clock.travel_to(datetime(2026, 11, 30, 5, 59, 0, tzinfo=UTC))  # 23:59 CST on 29 November
    run = call("POST", "/daily/runs", user="ann")[1]
    clock.advance(90)  # 00:00:30 on 30 November
    last = play_out(call, run, "ann")
    assert last["date"] == "2026-11-29" and last["official"] is True
    assert call("GET", "/daily")[1]["date"] == "2026-11-30"


def test_challenge_create_read_and_play_first_completion_is_official():
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
    final = play_out(call, run, "bob")
    assert final["official"] is True
    board = call("GET", f"/challenges/{challenge_id}")[1]
    assert [row["score"] for row in board["rows"]] == [final["score"]] and board["rows"][0]["words"] is None
    assert call("POST", f"/challenges/{challenge_id}/runs", user="bob")[1]["official"] is False


def test_challenge_defaults_are_10_rounds_3_forbidden():
    challenge = call("POST", "/challenges", user="ann")[1]
    assert (challenge["rounds"], challenge["forbidden_rounds"]) == (10, 3)


@pytest.mark.parametrize(
    "body",
    [{"rounds": 4}, {"rounds": 11}, {"forbidden_rounds": 4}, {"forbidden_rounds": -1}, {"rounds": "5"}],
)
def test_challenge_bounds_are_5_to_10_rounds_and_0_to_3_forbidden(body):
    assert call("POST", "/challenges", body, user="ann")[0] == 400


def test_a_challenge_closes_after_7_days_and_then_shows_words():
    challenge = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="ann")[1]
    run = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")[1]
    play_out(call, run, "bob")
    clock.advance(7 * 24 * 3600)
    status, reply, _ = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="cy")
    assert status == 409 and reply["error"]["code"] == "challenge_closed"
    assert call("GET", f"/challenges/{challenge['challenge_id']}")[1]["rows"][0]["words"] is None
    clock.advance(180)
    clock.advance(SETTLE_SECONDS)
    wiring.ports().runs.mark_completed_through(clock.now())  # the expiry job's pass: every run is done
    board = call("GET", f"/challenges/{challenge['challenge_id']}")[1]
    assert board["status"] == "closed" and len(board["rows"][0]["words"]) == 5


def test_a_creator_lists_their_challenges_newest_first_open_or_closed():
    first = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="ann")[1]
    clock.advance(7 * 24 * 3600)  # the first has closed
    second = call("POST", "/challenges", {"rounds": 6, "forbidden_rounds": 2}, user="ann")[1]
    call("POST", "/challenges", user="bob")
    status, mine, _ = call("GET", "/me/challenges", user="ann")
    assert status == 200
    assert [(c["challenge_id"], c["rounds"], c["forbidden_rounds"], c["open"]) for c in mine["items"]] == [
        (second["challenge_id"], 6, 2, True),
        (first["challenge_id"], 5, 0, False),
    ]
    assert set(mine["items"][0]) == {
        "challenge_id",
        "rounds",
        "forbidden_rounds",
        "created_at",
        "closes_at",
        "open",
    }
    assert call("GET", "/me/challenges", user="cy")[1] == {"items": []}
    assert call("GET", "/me/challenges")[0] == 401


def test_unknown_challenge_is_404():
    assert call("GET", "/challenges/AAAAAAAAAAAAAAAA")[0] == 404
    assert call("POST", "/challenges/AAAAAAAAAAAAAAAA/runs", user="ann")[0] == 404


def test_reset_job_stores_the_new_dates_puzzle_and_is_idempotent(store):
    clock.travel_to(datetime(2026, 11, 30, 6, 0, 0, tzinfo=UTC))  # the schedule fires at 00:00 CST
    summary = reset.handler({"source": "aws.scheduler"}, LambdaContext(aws_request_id="r"))
    assert summary == {"date": "2026-11-30"}
    puzzle = store.runs.get_puzzle(Scope.daily("2026-11-30"))
    assert puzzle is not None and len(puzzle) == 10
    assert reset.handler({}, LambdaContext(aws_request_id="r2")) == summary
    assert store.runs.get_puzzle(Scope.daily("2026-11-30")) == puzzle


@pytest.mark.usefixtures("still_clock")
def test_the_expiry_job_completes_untouched_daily_and_challenge_runs_at_their_deadline(store):
    challenge = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="cy")[1]
    clock.travel_to(datetime(2026, 11, 30, 5, 59, 50, tzinfo=UTC))  # 23:59:50 CST on 29 November
    daily = call("POST", "/daily/runs", user="ann")[1]
    first = {"round": 1, "attempt": 1, "word": good_word(daily)}
    scored = call("POST", f"/runs/{daily['run_id']}/answers", first, user="ann")[1]["points"]
    practice = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")[1]
    guest = call("POST", "/guest/daily/runs")[1]
    clock.advance(179)
    assert run_expiry_job()["runs_completed"] == 0
    assert store.runs.completed_through() < parse_iso(daily["deadline"])
    clock.advance(61)  # a minute later: every deadline has passed
    before = clock.now()

    summary = run_expiry_job()

    assert summary["runs_completed"] == 2 and summary["failed"] == 0
    assert parse_iso(daily["deadline"]) < store.runs.completed_through() <= clock.now()
    assert store.runs.completed_through() >= before.replace(microsecond=before.microsecond // 1000 * 1000)
    for run in (daily, practice):
        stored = store.runs.get_run(run["run_id"]).run
        assert stored.completed and stored.ended_by == "expired" and stored.completed_at == run["deadline"]
    result = store.results.official_result(player("ann"), Scope.daily("2026-11-29"))
    assert result is not None and result.score == scored and result.completed_at == daily["deadline"]
    assert (
        store.results.official_result(player("bob"), Scope.challenge(challenge["challenge_id"])) is not None
    )
    assert not store.runs.get_run(guest["run_id"]).run.completed, "guest runs complete when next read"
    assert run_expiry_job()["runs_completed"] == 0  # idempotent


def test_a_write_that_loses_a_race_while_expiring_a_run_is_retried_not_a_500(store, monkeypatch):
    run = call("POST", "/daily/runs", user="ann")[1]
    original, lost = store.results.complete_run, []

    def lose_first_race(stored_run, version, completion=None):
        if not lost:
            lost.append(stored_run.run_id)
            raise StaleRun(stored_run.run_id)
        return original(stored_run, version, completion)

    monkeypatch.setattr(store.results, "complete_run", lose_first_race)
    clock.advance(181)
    body = {"round": 1, "attempt": 1, "word": good_word(run)}
    status, reply, _ = call("POST", f"/runs/{run['run_id']}/answers", body, user="ann")
    assert lost and status == 409 and reply["error"]["code"] == "run_completed"
    assert reply["run"]["ended_by"] == "expired"


def test_the_daily_route_never_returns_a_challenge_run_nor_a_challenge_route_another_challenges(store):
    first = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="bob")[1]
    second = call("POST", "/challenges", {"rounds": 6, "forbidden_rounds": 0}, user="bob")[1]
    status, in_first, _ = call("POST", f"/challenges/{first['challenge_id']}/runs", user="ann")
    assert status == 201 and in_first["challenge_id"] == first["challenge_id"]

    status, daily, _ = call("POST", "/daily/runs", user="ann")
    assert (status, daily["kind"], daily["challenge_id"], daily["official"]) == (201, "daily", None, True)
    status, in_second, _ = call("POST", f"/challenges/{second['challenge_id']}/runs", user="ann")
    assert status == 201 and in_second["challenge_id"] == second["challenge_id"] and in_second["rounds"] == 6

    for path, expected in (
        ("/daily/runs", daily),
        (f"/challenges/{first['challenge_id']}/runs", in_first),
        (f"/challenges/{second['challenge_id']}/runs", in_second),
    ):
        status, again, _ = call("POST", path, user="ann")
        assert (status, again["run_id"]) == (200, expected["run_id"]), path


def test_a_run_started_before_midnight_does_not_block_the_new_dates_daily(store):
    clock.travel_to(datetime(2026, 11, 30, 5, 59, 0, tzinfo=UTC))  # 23:59 CST on 29 November
    run = call("POST", "/daily/runs", user="ann")[1]
    clock.advance(90)  # 30 November has begun; the run is still in play
    status, today, _ = call("POST", "/daily/runs", user="ann")
    assert (status, today["date"], today["official"]) == (201, "2026-11-30", True)
    assert today["run_id"] != run["run_id"]
    status, again, _ = call("GET", f"/runs/{run['run_id']}", user="ann")
    assert (status, again["status"], again["date"]) == (200, "active", "2026-11-29")


def test_a_slot_naming_a_missing_run_repairs_itself_and_the_start_succeeds(store):
    day = call("GET", "/daily")[1]["date"]
    store.table.slots[(player("ann"), Scope.daily(day))] = {"run_id": "run-that-is-gone"}
    status, run, _ = call("POST", "/daily/runs", user="ann")
    assert status == 201 and run["official"] is True
    assert store.runs.slot(player("ann"), Scope.daily(day)).run_id == run["run_id"]


def test_the_21st_challenge_of_a_daily_date_is_429_too_many_challenges(store):
    for _ in range(20):
        assert call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="ann")[0] == 201
    status, reply, _ = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="ann")
    assert (status, reply["error"]["code"]) == (429, "too_many_challenges")
    assert call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="bob")[0] == 201
    clock.advance(24 * 3600)  # the next Daily date
    assert call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="ann")[0] == 201


def test_a_closed_challenge_still_returns_the_callers_active_run_of_it():
    challenge = call("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="ann")[1]
    clock.advance(7 * 24 * 3600 - 60)
    run = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")[1]
    clock.advance(90)  # closed now, with 90 s left on bob's run
    status, again, _ = call("POST", f"/challenges/{challenge['challenge_id']}/runs", user="bob")
    assert (status, again["run_id"], again["status"]) == (200, run["run_id"], "active")


def test_a_run_started_at_midnight_reads_the_clock_once():
    instants = iter(
        datetime(2026, 11, 30, 5, 59, 59, 970000 + i * 20000, tzinfo=UTC)
        if i < 2
        else datetime(2026, 11, 30, 6, 0, 0, (i - 2) * 20000 + 10000, tzinfo=UTC)
        for i in range(1000)
    )
    game = wiring.game()
    game.now = lambda: next(instants)
    run, _ = game.start_daily(player("ann"))
    assert run.date == "2026-11-29" and run.started_at.startswith("2026-11-30T05:59:59")


@pytest.mark.usefixtures("still_clock")
def test_guest_runs_are_gone_2_days_after_they_start():
    run = call("POST", "/guest/daily/runs")[1]
    clock.advance(2 * 24 * 3600 - 1)
    assert call("GET", f"/guest/runs/{run['run_id']}")[0] == 200
    clock.advance(1)
    assert call("GET", f"/guest/runs/{run['run_id']}")[0] == 404


def test_a_huge_rejected_word_is_stored_cut_and_its_retry_still_replays():
    run = call("POST", "/guest/daily/runs")[1]
    path = f"/guest/runs/{run['run_id']}/answers"
    huge = {"round": 1, "attempt": 1, "word": "q" * 4000}
    first = call("POST", path, huge)
    assert first[0] == 200 and first[1]["reason"] == "too_long"
    assert len(first[2]["body"]) < 2000
    assert call("POST", path, huge)[:2] == first[:2]
    other = {"round": 1, "attempt": 1, "word": "q" * 3999 + "x"}
    assert call("POST", path, other)[0] == 409


def test_a_lone_surrogate_in_an_answer_is_400_not_500():
    run = call("POST", "/guest/daily/runs")[1]
    raw = '{"round": 1, "attempt": 1, "word": "\\ud800x"}'
    assert call("POST", f"/guest/runs/{run['run_id']}/answers", raw_body=raw)[0] == 400


def test_a_storage_failure_that_is_no_conflict_is_a_logged_500_not_a_429(store, monkeypatch, caplog):
    run = call("POST", "/guest/daily/runs")[1]

    def refuse(run_id, caller=None):
        raise DataError("Transaction cancelled: ['None', 'ValidationError']")

    monkeypatch.setattr(store.runs, "get_run", refuse)
    status, reply, _ = call("GET", f"/guest/runs/{run['run_id']}")
    assert (status, reply["error"]["code"]) == (500, "internal_error")
    assert "ValidationError" not in json.dumps(reply)
    logged = [r for r in caplog.records if r.levelname == "ERROR" and r.exc_info]
    assert [r.exc_info[0] for r in logged] == [DataError], "logged with its trace"


def test_an_expiry_pass_that_could_not_complete_a_run_holds_the_watermark_below_its_deadline(
    store, monkeypatch
):
    run = call("POST", "/daily/runs", user="ann")[1]
    run_expiry_job()
    clock.advance(240)

    def throttled(stored_run, version, completion=None):
        raise Throttled("The game is busy; try again shortly")

    with monkeypatch.context() as patch:
        patch.setattr(store.results, "complete_run", throttled)
        summary = run_expiry_job()
    assert (summary["runs_completed"], summary["failed"]) == (0, 1)
    assert summary["failed_runs"][0]["error"] == "Throttled"
    assert store.runs.completed_through() < parse_iso(run["deadline"]), "its board waits for it"
    assert run_expiry_job()["runs_completed"] == 1  # the next pass completes it
    assert store.runs.completed_through() > parse_iso(run["deadline"])
