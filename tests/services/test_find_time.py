"""Find time (SPEC §3b): the closing job that runs the pass over a closed scope's official runs
(the model: tests/game/test_find_time.py) and opens review cases whose rows show `"review": "pending"`;
the player's own row and history say only that, never the case's reasons."""

import json
import random
from datetime import timedelta

import pytest

from functions.leaderboard.handler import handler
from local.events import LambdaContext
from shared.game import clock
from shared.game.clock import iso
from shared.game.find_time import Answer, run_times
from shared.game.moderation import case_id_for
from shared.game.puzzles import Round
from shared.game.runs import Attempt, RoundRecord, Run
from shared.game.scope import Scope
from tests.conftest import Api
from tests.fakes.fake_boards import CLOSES, DAY, NOON, official, player, serve_with
from tests.fakes.fake_store import FakePorts, complete_official

call = Api(handler)


# The closing job and the board ------------------------------------------------------------------

PUZZLE = [Round("TMR", "")] * 7 + [Round("BRD", "AEO"), Round("CLT", "AEI"), Round("PNT", "AEU")]


def played_run(name: str, found_ms: list[int]) -> Run:
    start = NOON - timedelta(hours=1)
    history = [
        RoundRecord(
            round=n,
            prompt=r.prompt,
            forbidden=r.forbidden,
            attempts=[Attempt(word="timer", accepted=True, reason=None, elapsed_ms=ms)],
            outcome="accepted",
        )
        for n, (r, ms) in enumerate(zip(PUZZLE, found_ms, strict=True), start=1)
    ]
    return Run(
        run_id=f"run-{name}-{DAY.isoformat()}", kind="daily", date=DAY.isoformat(), player=player(name),
        official=True, puzzle=PUZZLE, history=history, started_at=iso(start),
        deadline=iso(start + timedelta(seconds=180)), completed_at=iso(start + timedelta(seconds=60)),
    )  # fmt: skip


@pytest.fixture
def store(monkeypatch, still_clock) -> FakePorts:
    clock.travel_to(NOON)
    fake = FakePorts()
    serve_with(monkeypatch, fake)
    fake.table.puzzles[Scope.daily(DAY.isoformat())] = PUZZLE
    rng = random.Random(2)
    for n in range(40):
        name = f"p{n}"
        run = played_run(name, [int(rng.lognormvariate(8.8, 0.5)) for _ in PUZZLE])
        keep(fake, name, 1000 + n, run)
    keep(fake, "bot", 2000, played_run("bot", [1_050] * 10))
    return fake


def keep(store: FakePorts, name: str, score: int, run: Run) -> None:
    """NAME's official result of SCORE, whose stored run is RUN (its attempts, for the pass)."""
    result = official(
        name, score, completed_at=run.completed_at or "", day=DAY.isoformat(), run_id=run.run_id
    )
    complete_official(store, result)
    store.table.runs[run.run_id] = (run, 1)


def test_the_closing_job_opens_a_case_for_each_suspect_and_their_row_shows_review_pending(store):
    from functions.daily.expire import handler as expire
    from functions.leaderboard import handler as module

    moderation = module.moderation()
    store.runs.put_puzzle(Scope.daily(DAY.isoformat()), PUZZLE)
    expire({}, LambdaContext(aws_request_id="job"))  # the day before's pass (nobody played it)
    assert store.table.cases == {}  # live: no pass yet
    clock.travel_to(CLOSES + timedelta(minutes=5))
    store.runs.mark_completed_through(CLOSES + timedelta(minutes=2))
    assert expire({}, LambdaContext(aws_request_id="job"))["dailies_started"] == 1
    (case,) = store.table.cases.values()
    assert (case.run_id, case.source) == (f"run-bot-{DAY.isoformat()}", "find_time")
    assert expire({}, LambdaContext(aws_request_id="job"))["dailies_started"] == 0  # once per scope
    rows = call("GET", f"/leaderboard/daily/{DAY.isoformat()}")[1]["rows"]
    assert rows[0]["score"] == 2000 and rows[0]["review"] == "pending"
    assert all(row["review"] is None for row in rows[1:])
    mine = call("GET", "/leaderboard/daily/me", user="bot", query={"date": DAY.isoformat()})[1]
    (item,) = call("GET", "/me/history", user="bot")[1]["items"]
    assert (mine["review"], item["review"]) == ("pending", "pending")  # the player's own view
    assert "find-time" not in json.dumps([mine, item]) and "found" not in json.dumps([mine, item])
    moderation.decide(player("mo"), case_id_for("run", case.run_id), "void_result", "scripted", None)
    rows = call("GET", f"/leaderboard/daily/{DAY.isoformat()}")[1]["rows"]
    assert rows[0]["score"] == 1039 and all(row["review"] is None for row in rows)


def test_run_times_are_each_accepted_answers_elapsed_ms():
    run = played_run("x", list(range(1_000, 11_000, 1_000)))
    assert run_times(run).answers == tuple(Answer(n, "timer", 1_000 * n) for n in range(1, 11))
