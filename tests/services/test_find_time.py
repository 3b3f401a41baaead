"""Find time (SPEC §3b): the pass over a closed scope's official runs (shared/game/find_time.py),
against the project's own simulated people and bots (benchmarks/skill.py, benchmarks/find_time.py),
and the closing job that runs it and opens review cases whose rows show `"review": "pending"`."""

import random
from datetime import timedelta

import pytest

from benchmarks.find_time import bot, difficulty, times_of
from benchmarks.skill import MIX, PEOPLE, play
from functions.leaderboard.handler import handler
from shared.game import clock
from shared.game.clock import iso
from shared.game.constants import DAILY_FORBIDDEN_ROUNDS, DAILY_ROUNDS
from shared.game.find_time import (
    EVEN_MIN_ANSWERS,
    EVEN_PACING_CV,
    HARD_QUANTILE,
    RunTimes,
    evenly_paced,
    find_time_pass,
    hardest_rounds,
    quantile,
    run_times,
)
from shared.game.moderation import case_id_for
from shared.game.puzzles import Round, generate_puzzle, seed_for_date
from shared.game.runs import Attempt, RoundRecord, Run
from shared.game.scope import Scope
from shared.services.leaderboard import Boards
from tests.conftest import Api
from tests.fakes.fake_boards import CLOSES, DAY, NOON, official, player, serve_with
from tests.fakes.fake_store import FakePorts, complete_official

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

call = Api(handler)


# The rule ---------------------------------------------------------------------------------------


def test_the_hard_rounds_are_the_three_with_the_fewest_common_answers():
    assert hardest_rounds([90, 80, 70, 60, 50, 40, 30, 12, 10, 11]) == [8, 9, 10]
    assert hardest_rounds([40, 12, 40, 12, 40, 12, 40, 40, 40, 40]) == [2, 4, 6]
    assert hardest_rounds([5, 5, 5, 5]) == [2, 3, 4]  # ties go to the later (harder) round


def test_a_quantile_is_the_nearest_rank_value():
    assert quantile(list(range(1, 1001)), 0.002) == 2
    assert quantile([7], 0.002) == 7


def test_evenly_paced_needs_enough_answers_all_about_as_long():
    even = RunTimes("r", {n: 1_100 + 10 * n for n in range(1, 11)})
    assert evenly_paced(even)
    assert not evenly_paced(RunTimes("r", dict(list(even.found_ms.items())[: EVEN_MIN_ANSWERS - 1])))
    person = RunTimes("p", {n: 1_000 * (1 + n % 4) for n in range(1, 11)})
    assert not evenly_paced(person) and EVEN_PACING_CV < 0.2


def people_like(count: int) -> list[RunTimes]:
    """COUNT runs of people: a find time per round from a lognormal (median 5 s, sigma 0.6)."""
    rng = random.Random(count)
    return [
        RunTimes(f"p{i}", {r: int(rng.lognormvariate(8.5, 0.6)) for r in range(1, 11)}) for i in range(count)
    ]


def test_a_run_faster_than_everyone_on_every_hard_round_is_suspect_and_one_hard_round_is_not():
    hard = [8, 9, 10]
    people = people_like(999)
    fast = RunTimes("fast", {**people[0].found_ms, 8: 500, 9: 400, 10: 450})
    one_round = RunTimes("one", {**people[1].found_ms, 10: 300})
    result = find_time_pass([*people, fast, one_round], [90, 80, 70, 60, 50, 40, 30, 12, 11, 10])
    assert result.hard_rounds == hard
    assert [s for s in result.suspects] == [("fast", "hard_rounds_too_fast")]
    assert set(result.quantiles) == set(hard)
    assert HARD_QUANTILE <= 0.01


def test_even_scripts_do_not_drag_the_hard_round_quantiles_down_to_their_speed():
    people = people_like(500)
    scripts = [RunTimes(f"s{i}", dict.fromkeys(range(1, 11), 1_050 + i)) for i in range(50)]
    result = find_time_pass([*people, *scripts], list(range(100, 0, -10)))
    assert {s.run_id for s in result.suspects} == {f"s{i}" for i in range(50)}
    assert result.quantiles == find_time_pass(people, list(range(100, 0, -10))).quantiles


def test_a_waiting_script_is_suspect_and_simulated_humans_are_not():
    """Three days of a fixed seed: each day's board of 300 simulated people (benchmarks/skill.py)
    with a script that waits out the typing floor, one that waits 1.05 s, and a rehearser. The
    year-long figures (benchmarks/find_time.py) are in docs/moderation.md."""
    rng = random.Random(5)
    honest_suspects = 0
    for day in ("2026-03-01", "2026-03-02", "2026-03-03"):
        seed = seed_for_date(b"find-time-test", day)
        puzzle = generate_puzzle(seed, DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS)
        runs = [times_of(f"p{i}", play(puzzle, rng.choices(PEOPLE, MIX)[0], rng)) for i in range(300)]
        runs += [times_of(kind, bot(puzzle, kind, rng)) for kind in ("script", "waiter", "rehearser")]
        suspects = {s.run_id for s in find_time_pass(runs, difficulty(puzzle)).suspects}
        assert {"script", "waiter"} <= suspects, day
        honest_suspects += sum(1 for run_id in suspects if run_id.startswith("p"))
    assert honest_suspects == 0


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
        run = played_run(name, [int(rng.lognormvariate(8.3, 0.6)) for _ in PUZZLE])
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
    from functions.leaderboard import handler as module

    moderation = module.moderation()
    boards = Boards(
        store.boards,
        store.ranks,
        store.names,
        store.runs,
        now=clock.now,
        monotonic=lambda: clock.now().timestamp(),
    )
    assert moderation.review_daily(DAY, boards) == []  # live: no pass yet
    clock.travel_to(CLOSES + timedelta(minutes=5))
    store.runs.mark_completed_through(CLOSES + timedelta(minutes=2))
    (case,) = moderation.review_daily(DAY, boards)
    assert (case.run_id, case.source) == (f"run-bot-{DAY.isoformat()}", "find_time")
    assert moderation.review_daily(DAY, boards) == []  # once per scope
    rows = call("GET", f"/leaderboard/daily/{DAY.isoformat()}")[1]["rows"]
    assert rows[0]["score"] == 2000 and rows[0]["review"] == "pending"
    assert all(row["review"] is None for row in rows[1:])
    moderation.decide(player("mo"), case_id_for("run", case.run_id), "void_result", "scripted", None)
    rows = call("GET", f"/leaderboard/daily/{DAY.isoformat()}")[1]["rows"]
    assert rows[0]["score"] == 1039 and all(row["review"] is None for row in rows)


def test_run_times_are_each_accepted_answers_elapsed_ms():
    run = played_run("x", list(range(1_000, 11_000, 1_000)))
    assert run_times(run).found_ms == {n: 1_000 * n for n in range(1, 11)}
