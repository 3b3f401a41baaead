"""Find time (SPEC §3b): the model of what a person can know in the time (shared/game/find_time.py),
rule by rule, and against the project's simulated people and bots (benchmarks/find_time.py) on a
fixed seed; the year-long figures are in docs/moderation.md."""

import json
import math
import random

import pytest

from benchmarks.find_time import BOTS, REGULARS, bot, times_of
from benchmarks.skill import MIX, PEOPLE, play
from shared.game.constants import DAILY_FORBIDDEN_ROUNDS, DAILY_ROUNDS
from shared.game.find_time import (
    MAX_SHIFT,
    REFINE_MIN_RUNS,
    RUNNING_RUNS,
    THRESHOLD,
    Answer,
    RunTimes,
    ScopeStats,
    describe,
    describe_running,
    find_time_pass,
    judge,
    round_shift,
    running_evidence,
    running_suspect,
    typical_ms,
)
from shared.game.find_time_knowledge import (
    KNOWLEDGE_COMMON,
    KNOWLEDGE_MEAN,
    KNOWLEDGE_PICKS,
    found_at_least,
    knowledge,
)
from shared.game.find_time_prior import POPULATION_LOG_MS, SIGMA, round_difficulty, round_effort, word_class
from shared.game.puzzles import Round, generate_puzzle, seed_for_date

PUZZLE = [Round("TMR", "")] * 7 + [Round("BRD", "AEO"), Round("CLT", "AEI"), Round("PNT", "AEU")]
RARE = "antidisestablishmentarianism"  # holds T, M, R in that order; rare


def times(run_id: str, found: list[tuple[str, int]]) -> RunTimes:
    return RunTimes(run_id, "p", tuple(Answer(n, w, ms) for n, (w, ms) in enumerate(found, start=1)))


def people(count: int, median_ms: float, seed: int) -> list[RunTimes]:
    rng = random.Random(seed)
    return [
        times(f"p{i}", [("timer", int(median_ms * rng.lognormvariate(0, 0.5))) for _ in range(10)])
        for i in range(count)
    ]


def stats_of(runs: list[RunTimes]) -> ScopeStats:
    stats = ScopeStats.empty(10)
    for run in runs:
        stats.add(run)
    return stats


def test_a_run_at_the_typing_floor_is_suspect_on_a_board_of_one():
    floor = times("bot", [("timer", 530)] * 10)
    evidence = judge(floor, PUZZLE, ScopeStats.empty(10))
    assert evidence.suspect and evidence.score >= THRESHOLD
    assert [r.round for r in evidence.reasons] == list(range(1, 11))


def test_one_slow_round_does_not_hide_the_others():
    one_slow = times("bot", [("timer", 560)] * 9 + [("timer", 60_000)])
    assert judge(one_slow, PUZZLE, ScopeStats.empty(10)).suspect


def test_a_rare_long_word_found_in_a_second_weighs_more_than_a_common_one():
    assert (word_class("time"), word_class("timer"), word_class(RARE)) == ("top", "common", "rare")
    common, rare = judge(times("r", [("timer", 2_500), (RARE, 3_500)]), PUZZLE, ScopeStats.empty(10)).reasons
    assert rare.found_ms < 3_500 - 1_000 < common.found_ms + 1_000
    assert rare.typical_ms > 4 * common.typical_ms and rare.contribution > common.contribution + 1


def test_a_word_that_long_and_rare_is_knowledge_a_person_rarely_has():
    """TMR: 797 accepted words, 336 scoring 12 letters (327 of them rare), 58 common answers."""
    chances = [found_at_least("TMR", "", letters, 0) for letters in range(3, 13)]
    assert chances == sorted(chances, reverse=True) and chances[0] == 1.0
    assert found_at_least("TMR", "", 12, 2) < found_at_least("TMR", "", 12, 0) / 3
    assert knowledge("timer", PUZZLE[0]) < KNOWLEDGE_MEAN < knowledge("timberland", PUZZLE[0])


def test_the_knowledgeable_person_is_the_simulated_expert():
    expert = next(p for p in PEOPLE if p.name == "expert")
    assert (expert.picks, expert.common) == (KNOWLEDGE_PICKS, KNOWLEDGE_COMMON)


def test_a_rare_long_find_adds_its_knowledge_and_a_frequent_word_earns_no_credit():
    for word, extra in (("timer", 0.0), ("timberland", knowledge("timberland", PUZZLE[0]) - KNOWLEDGE_MEAN)):
        (reason,) = judge(times("r", [(word, 3_000)]), PUZZLE, ScopeStats.empty(10)).reasons
        speed = -(math.log(reason.found_ms) - math.log(reason.fastest_ms)) / SIGMA
        assert reason.contribution == pytest.approx(speed + extra, abs=1e-3)
        assert reason.one_in == round(math.exp(knowledge(word, PUZZLE[0])))
    assert extra > 0.4


def test_typical_ms_is_each_rounds_board_median_find_time():
    typical = typical_ms(PUZZLE, ScopeStats.empty(10))
    assert typical == find_time_pass([], PUZZLE).quantiles
    difficulty = round_difficulty(PUZZLE[0])
    assert typical[1] == round(math.exp(POPULATION_LOG_MS + round_effort(difficulty)))
    slow = stats_of(people(REFINE_MIN_RUNS, 60_000, seed=4))
    assert typical_ms(PUZZLE, slow)[1] == pytest.approx(typical[1] * math.exp(MAX_SHIFT), abs=1)


def test_a_person_paced_run_of_common_words_is_not_suspect():
    for run in people(50, 5_000, seed=3):
        assert not judge(run, PUZZLE, ScopeStats.empty(10)).suspect


def test_even_pacing_alone_never_makes_a_run_suspect():
    """A run as even as a clock scores what a run as fast on the whole, but uneven, scores."""
    steady = judge(times("steady", [("timer", 4_000)] * 10), PUZZLE, ScopeStats.empty(10))
    floor = 490  # the typing floor of a 5-letter word
    uneven = [("timer", floor + (3_510 * 2 if n % 2 else 3_510 // 2)) for n in range(10)]
    varied = judge(times("varied", uneven), PUZZLE, ScopeStats.empty(10))
    assert not steady.suspect and abs(steady.score - varied.score) < 1e-9


def test_the_scope_refines_the_prior_only_once_it_has_enough_runs_and_by_a_bounded_shift():
    slow = people(REFINE_MIN_RUNS - 1, 60_000, seed=4)
    assert round_shift(stats_of(slow), 1, round_difficulty(PUZZLE[0])) == 0
    slow += people(1, 60_000, seed=5)
    assert round_shift(stats_of(slow), 1, round_difficulty(PUZZLE[0])) == MAX_SHIFT


def test_a_crowd_of_fast_runs_cannot_drag_the_scopes_estimate():
    crowd = [times(f"bot{i}", [("timer", 540)] * 10) for i in range(150)]
    honest = stats_of(people(500, 5_000, seed=6))
    dragged = stats_of(people(500, 5_000, seed=6) + crowd)
    for number, played in enumerate(PUZZLE, start=1):
        difficulty = round_difficulty(played)
        assert abs(round_shift(dragged, number, difficulty) - round_shift(honest, number, difficulty)) < 0.2
    assert all(judge(run, PUZZLE, dragged).suspect for run in crowd)


def test_scope_stats_merge_in_any_order_survive_json_and_keep_one_size():
    runs = people(30, 5_000, seed=1)
    a, b, c = ScopeStats.empty(10), ScopeStats.empty(10), ScopeStats.empty(10)
    for i, run in enumerate(runs):
        (a, b, c)[i % 3].add(run)
    assert a.merge(b).merge(c) == c.merge(a.merge(b)) == stats_of(runs)
    assert ScopeStats.from_json(json.loads(json.dumps(stats_of(runs).to_json()))) == stats_of(runs)
    many = stats_of(people(2_000, 5_000, seed=2))
    assert len(json.dumps(many.to_json())) < 2 * len(json.dumps(ScopeStats.empty(10).to_json()))


def test_runs_each_just_under_the_threshold_add_up_across_days():
    assert not running_suspect([THRESHOLD - 0.5])
    assert running_suspect([THRESHOLD - 0.5] * 4)
    assert not running_suspect([0.5] * RUNNING_RUNS)
    assert not running_suspect([9.0] + [-1.0] * (RUNNING_RUNS - 1))  # one day counts up to the threshold
    assert running_evidence([9.0] * 40).runs == RUNNING_RUNS
    days = [(f"2026-01-{d:02}", THRESHOLD - 0.1) for d in range(1, 4)]
    assert describe_running(days) == (
        "last 3 official runs: 5.02 (suspect from 3.50): 2026-01-01 2.90, 2026-01-02 2.90, 2026-01-03 2.90"
    )


def test_a_suspect_runs_reason_says_round_by_round_what_was_implausible():
    evidence = judge(times("bot", [(RARE, 1_900)] + [("timer", 530)] * 9), PUZZLE, ScopeStats.empty(10))
    text = describe(evidence, running_evidence([1.0, evidence.score]))
    assert f"{RARE}, 28 letters, found 0.5 s after the prompt; people need a median" in text
    assert f"find-time figure {evidence.score:.2f} (suspect from {THRESHOLD:.2f})" in text
    assert "last 2 official runs" in text


def test_bots_are_suspect_and_simulated_people_are_not():
    """Three days of a fixed seed: a board of 100 simulated people, one regular of each honest model
    and every bot of benchmarks/find_time.py but the tuned ones (what the model cannot catch). The
    mimic is the hardest: above every honest run each day, suspect on most days (about 49 in 50 in
    the benchmark)."""
    rng = random.Random(5)
    mimic_days = 0
    for day in ("2026-03-01", "2026-03-02", "2026-03-03"):
        puzzle = generate_puzzle(seed_for_date(b"find-time-test", day), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS)
        honest = [times_of(f"p{i}", play(puzzle, rng.choices(PEOPLE, MIX)[0], rng)) for i in range(100)]
        honest += [times_of(person.name, play(puzzle, person, rng)) for person in REGULARS]
        bots = [times_of(kind, bot(puzzle, kind, rng)) for kind in BOTS if kind not in ("tuned", "retuned")]
        stats = stats_of(honest + bots)
        figures = {run.run_id: judge(run, puzzle, stats) for run in honest + bots}
        assert [r.run_id for r in bots if r.run_id != "mimic" and not figures[r.run_id].suspect] == [], day
        assert [r.run_id for r in honest if figures[r.run_id].suspect] == [], day
        assert figures["mimic"].score > max(figures[r.run_id].score for r in honest), day
        mimic_days += figures["mimic"].suspect
    assert mimic_days == 3
