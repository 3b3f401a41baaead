"""Find time (SPEC §3b): the model of what a person can know in the time (shared/game/find_time.py)."""

import json
import random

from shared.game.find_time import (
    RUNNING_RUNS,
    THRESHOLD,
    Answer,
    RunTimes,
    ScopeStats,
    describe,
    judge,
    running_evidence,
    running_suspect,
)
from shared.game.puzzles import Round

PUZZLE = [Round("TMR", "")] * 7 + [Round("BRD", "AEO"), Round("CLT", "AEI"), Round("PNT", "AEU")]


def times(run_id: str, found: list[tuple[str, int]]) -> RunTimes:
    return RunTimes(run_id, "p", tuple(Answer(n, w, ms) for n, (w, ms) in enumerate(found, start=1)))


def test_a_run_at_the_typing_floor_is_suspect_on_a_board_of_one():
    floor = times("bot", [("timer", 530)] * 10)
    evidence = judge(floor, PUZZLE, ScopeStats.empty(10))
    assert evidence.suspect and evidence.score >= THRESHOLD
    assert [r.round for r in evidence.reasons] == list(range(1, 11))


def test_a_person_paced_run_of_common_words_is_not_suspect():
    rng = random.Random(3)
    person = times("p", [("timer", int(rng.lognormvariate(8.5, 0.5))) for _ in range(10)])
    assert not judge(person, PUZZLE, ScopeStats.empty(10)).suspect


def test_even_pacing_alone_never_makes_a_run_suspect():
    steady = times("steady", [("timer", 4_000)] * 10)
    assert not judge(steady, PUZZLE, ScopeStats.empty(10)).suspect


def test_scope_stats_merge_in_any_order_and_survive_json():
    rng = random.Random(1)
    runs = [times(f"p{i}", [("timer", int(rng.lognormvariate(8.5, 0.6)))] * 10) for i in range(30)]
    a, b, c = ScopeStats.empty(10), ScopeStats.empty(10), ScopeStats.empty(10)
    for i, run in enumerate(runs):
        (a, b, c)[i % 3].add(run)
    assert a.merge(b).merge(c) == c.merge(a.merge(b))
    whole = ScopeStats.empty(10)
    for run in runs:
        whole.add(run)
    assert a.merge(b).merge(c) == whole
    assert ScopeStats.from_json(json.loads(json.dumps(whole.to_json()))) == whole


def test_runs_each_just_under_the_threshold_add_up_across_days():
    assert not running_suspect([THRESHOLD - 0.5])
    assert running_suspect([THRESHOLD - 0.5] * 3)
    assert not running_suspect([0.5] * RUNNING_RUNS)
    assert running_evidence([9.0] * 40).runs == RUNNING_RUNS


def test_a_suspect_runs_reason_says_round_by_round_what_was_implausible():
    evidence = judge(times("bot", [("timer", 530)] * 10), PUZZLE, ScopeStats.empty(10))
    text = describe(evidence, running_evidence([evidence.score]))
    assert "timer, 5 letters, found 0.0 s after the prompt; people need a median" in text
    assert f"suspect from {THRESHOLD:.2f}" in text
