"""Challenge boards follow the Daily's states (SPEC §4, §3b, §3e; docs/moderation.md): `live`
until the challenge closes, `closed` once its runs have completed and the closing job has run its
find-time pass (a suspect's row says `"review": "pending"`), `final` once its review window has
ended with no case pending; a decision after that changes no row and is listed in the board's
corrections. On the in-memory fake and on DynamoDB alike."""

from collections.abc import Iterator
from datetime import timedelta

import pytest

from functions.daily.expire import handler as expire_handler
from functions.daily.handler import handler as daily_handler
from local.events import LambdaContext
from shared.game import clock
from shared.game.boards import SETTLE_SECONDS
from shared.game.clock import parse_iso
from shared.game.constants import TIME_LIMIT_SECONDS
from shared.game.moderation import REVIEW_WINDOW, case_id_for
from tests.conftest import Api
from tests.fakes.dynamo_store import STORES
from tests.fakes.fake_boards import NOON
from tests.fakes.fake_store import served_store
from tests.play import good_word
from tests.routed import handler as leaderboard_handler  # with the moderation routes

daily = Api(daily_handler)
boards = Api(leaderboard_handler)
# Seconds to each accepted answer: two people, and a script that waits the same 2 s every round.
PACES = {  # people take seconds over the (often rare) first answers tests/play.py plays
    "cleo": [6, 14, 8, 24, 10, 18, 8, 12, 30, 16],
    "dex": [10, 8, 18, 12, 22, 6, 16, 28, 10, 14],
    "bot": [2] * 10,
}


@pytest.fixture(params=STORES)
def store(request, monkeypatch, still_clock) -> Iterator:
    with served_store(request.param, monkeypatch) as served:
        yield served


def expire() -> dict:
    """The one-minute job: the expiry pass, then the closing passes."""
    return expire_handler({}, LambdaContext(aws_request_id="job"))


def moderate(method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    status, reply, _ = boards(method, path, body, user="mo", groups="[moderators]")
    return status, reply


def run_evidence() -> dict[str, dict]:
    """The open run cases' evidence, by run id, as the moderators' queue shows it."""
    status, reply, _ = boards(
        "GET", "/moderation/cases", user="mo", groups="[moderators]", query={"kind": "run"}
    )
    assert status == 200, reply
    return {case["evidence"]["run_id"]: case["evidence"] for case in reply["items"]}


def played_challenge() -> tuple[dict, dict[str, str]]:
    """A 10-round challenge cleo made, played by cleo, dex and bot at their PACES; and each
    player's official run id."""
    status, challenge, _ = daily("POST", "/challenges", {"rounds": 10, "forbidden_rounds": 0}, user="cleo")
    assert status == 201, challenge
    runs = {}
    for user, paces in PACES.items():
        assert boards("PUT", "/me", {"display_name": user.title()}, user=user)[0] == 200
        status, run, _ = daily("POST", f"/challenges/{challenge['challenge_id']}/runs", user=user)
        assert status == 201, run
        for seconds in paces:
            clock.advance(seconds)
            body = {"round": run["round"], "attempt": run["attempt"], "word": good_word(run)}
            status, reply, _ = daily("POST", f"/runs/{run['run_id']}/answers", body, user=user)
            assert status == 200, reply
            run = reply["run"]
        assert run["status"] == "completed"
        runs[user] = run["run_id"]
    return challenge, runs


def board(challenge: dict) -> dict:
    status, view, _ = daily("GET", f"/challenges/{challenge['challenge_id']}")
    assert status == 200, view
    return view


def after_close(challenge: dict, extra: timedelta = timedelta(minutes=1)) -> None:
    """The clock past the challenge's board close (its close, the time limit and the settle)."""
    closes = parse_iso(challenge["closes_at"])
    clock.travel_to(closes + timedelta(seconds=TIME_LIMIT_SECONDS + SETTLE_SECONDS) + extra)


def settle(store) -> None:
    if hasattr(store, "settle"):
        store.settle()


def test_a_challenge_board_is_live_then_closed_with_a_waiting_scripts_row_pending_review(store):
    challenge, runs = played_challenge()
    settle(store)
    assert board(challenge)["status"] == "live"
    assert expire()["challenges_started"] == 0  # not closed yet: no pass
    after_close(challenge)
    assert expire()["challenges_started"] == 1  # the expiry pass marks the watermark, then the closing pass
    view = board(challenge)
    assert view["status"] == "closed" and view["corrections"] is None
    assert {row["display_name"]: row["review"] for row in view["rows"]} == {
        "Cleo": None,
        "Dex": None,
        "Bot": "pending",
    }
    assert expire()["challenges_started"] == 0  # once per challenge


def test_a_reported_run_shows_the_quantiles_of_its_boards_pass_as_evidence(store):
    challenge, runs = played_challenge()
    target = f"{challenge['challenge_id']}:Dex"
    report = {"kind": "run", "target": target, "reason": "x"}
    assert boards("POST", "/reports", report, user="cleo")[0] == 201
    evidence = run_evidence()
    assert evidence[runs["dex"]]["hard_round_quantiles_ms"] is None  # live: no pass yet
    after_close(challenge)
    expire()
    evidence = run_evidence()
    found = evidence[runs["bot"]]["hard_round_quantiles_ms"]  # the pass's own case
    assert found and evidence[runs["dex"]]["hard_round_quantiles_ms"] == found


def test_a_void_during_the_review_window_re_ranks_the_rows_below_it(store):
    challenge, runs = played_challenge()
    settle(store)
    after_close(challenge)
    expire()
    before = board(challenge)["rows"]
    bot = next(row for row in before if row["display_name"] == "Bot")
    below = [row for row in before if row["rank"] > bot["rank"]]
    run_id = runs["bot"]
    status, body = moderate(
        "POST",
        f"/moderation/cases/{case_id_for('run', run_id)}/decision",
        {"action": "void_result", "reason": "script"},
    )
    assert status == 200, body
    settle(store)
    after = board(challenge)["rows"]
    assert [row["display_name"] for row in after] == [row["display_name"] for row in before if row is not bot]
    assert all(row["review"] is None for row in after)
    for row in below:
        moved = next(r for r in after if r["display_name"] == row["display_name"])
        assert moved["rank"] == row["rank"] - 1


def test_a_challenge_board_becomes_final_and_a_later_decision_only_adds_a_correction(store):
    challenge, runs = played_challenge()
    settle(store)
    after_close(challenge)
    expire()
    run_id = runs["bot"]
    case_id = case_id_for("run", run_id)
    after_close(challenge, REVIEW_WINDOW + timedelta(minutes=5))
    assert board(challenge)["status"] == "closed"  # a case is pending: never final while it is
    status, body = moderate(
        "POST", f"/moderation/cases/{case_id}/decision", {"action": "dismiss", "reason": "ok"}
    )
    assert status == 200, body
    final = board(challenge)
    raw = daily("GET", f"/challenges/{challenge['challenge_id']}")[2]["body"]
    path = f"/challenges/{challenge['challenge_id']}/corrections"
    assert final["status"] == "final" and final["corrections"] == path
    assert daily("GET", path)[1] == {"challenge_id": challenge["challenge_id"], "items": []}
    # A run reported after it is final: the decision lists a correction and moves no row.
    target = f"{challenge['challenge_id']}:Dex"
    status, _, _ = boards("POST", "/reports", {"kind": "run", "target": target, "reason": "x"}, user="cleo")
    assert status == 201
    decision = {"action": "void_result", "reason": "script"}
    status, body = moderate("POST", f"/moderation/cases/{case_id_for('run', runs['dex'])}/decision", decision)
    assert status == 200, body
    settle(store)
    assert daily("GET", f"/challenges/{challenge['challenge_id']}")[2]["body"] == raw  # byte-identical
    (correction,) = daily("GET", path)[1]["items"]
    dex = next(row for row in final["rows"] if row["display_name"] == "Dex")
    assert (correction["rank"], correction["display_name"], correction["action"]) == (
        dex["rank"],
        "Dex",
        "void_result",
    )


def test_the_closing_step_finds_each_challenge_once_by_close_time_across_hours(store):
    made = []
    for minutes in (0, 40, 75, 190):  # closes 7 days on, over four hours
        clock.travel_to(NOON + timedelta(minutes=minutes))
        status, challenge, _ = daily("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, user="cleo")
        assert status == 201, challenge
        made.append((parse_iso(challenge["closes_at"]), challenge["challenge_id"]))
    first, last = made[0][0], made[-1][0]
    ids = [challenge_id for _, challenge_id in made]
    assert store.closing.challenges_closing(first - timedelta(milliseconds=1), last) == ids
    assert store.closing.challenges_closing(first, made[2][0]) == ids[1:3]  # after AFTER, up to THROUGH
    assert store.closing.challenges_closing(last, last + timedelta(hours=5)) == []
