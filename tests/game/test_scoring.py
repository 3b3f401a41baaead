"""SPEC §3 scoring: 10 × min(n, 12) per accepted word (20 × in forbidden mode) plus the combo bonus
plus the speed bonus."""

from datetime import UTC, datetime, timedelta

import pytest

from shared.game.constants import DAILY_FORBIDDEN_ROUNDS, DAILY_ROUNDS, MAX_SCORE, SCORED_LENGTH_CAP
from shared.game.puzzles import Round
from shared.game.runs import answer, new_run, skip
from shared.game.scoring import points_for, speed_bonus, word_points

LONGEST = "pneumonoultramicroscopicsilicovolcanoconiosis"  # 45 letters, in the dictionary
START = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


def test_scoring_caps_word_length_at_12():
    assert SCORED_LENGTH_CAP == 12
    assert len(LONGEST) == 45
    assert word_points(45, False) == 10 * 12 == word_points(12, False)
    assert word_points(11, False) == 110 and word_points(13, False) == 120


def test_scoring_caps_word_length_at_12_in_forbidden_mode_too():
    assert word_points(45, True) == 20 * 12 == word_points(12, True)
    assert word_points(3, True) == 60


def test_scoring_caps_only_the_word_points_not_the_combo_bonus():
    assert points_for(45, False, 11, 10_000) == 120 + 50
    assert points_for(45, True, 3, 10_000) == 240 + 10


def test_scoring_a_45_letter_word_in_a_run_scores_as_12_but_longest_word_is_uncapped():
    puzzle = [Round("PNS", "")] * 7 + [Round("PNS", "BDF")] * 3
    run = new_run("run-cap", "daily", "2026-11-29", puzzle, START)
    result = answer(run, 1, 1, LONGEST, START + timedelta(seconds=10), frozenset({LONGEST}))
    assert result.accepted and result.points == 120
    assert run.score == 120 and run.longest_word_length == 45


# The speed bonus: 3 × max(0, 10 − s), s the whole seconds since the round was shown ------------

WORDS = frozenset({"timer", "tamer", "tumor", "timers"})
PUZZLE = [Round("TMR", "")] * 7 + [Round("TMR", "ABC")] * 3


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def test_speed_bonus_is_30_at_0_s_21_at_3_s_3_at_9_99_s_and_0_from_10_s():
    assert [speed_bonus(ms) for ms in (0, 999, 3_000, 3_999, 9_990, 10_000, 60_000)] == [
        30,
        30,
        21,
        21,
        3,
        0,
        0,
    ]


@pytest.mark.parametrize(("seconds", "bonus"), [(0.5, 30), (3, 21), (9.99, 3), (10, 0)])
def test_speed_bonus_of_an_accepted_answer_counts_from_the_runs_start_in_round_1(seconds, bonus):
    run = new_run("run-speed", "daily", "2026-11-29", PUZZLE, START)
    result = answer(run, 1, 1, "timer", at(seconds), WORDS)
    assert result.speed_bonus == bonus and result.points == 50 + bonus == run.score
    assert run.history[0].speed_bonus == bonus
    assert run.history[0].attempts[0].elapsed_ms == round(seconds * 1000)


def test_speed_bonus_counts_from_the_reply_that_ended_the_previous_round():
    run = new_run("run-speed", "daily", "2026-11-29", PUZZLE, START)
    answer(run, 1, 1, "timer", at(20), WORDS)  # round 2 is shown at 20 s
    result = answer(run, 2, 1, "tamer", at(23), WORDS)
    assert result.speed_bonus == 21 and run.history[1].attempts[0].elapsed_ms == 3_000
    skip(run, 3, at(40))  # a skip ends a round too: round 4 is shown at 40 s
    assert answer(run, 4, 1, "tumor", at(40.5), WORDS).speed_bonus == 30


def test_speed_bonus_a_rejected_attempt_does_not_restart_the_rounds_clock():
    run = new_run("run-speed", "daily", "2026-11-29", PUZZLE, START)
    answer(run, 1, 1, "meter", at(4), WORDS)  # rejected at 4 s
    result = answer(run, 1, 2, "timer", at(6), WORDS)  # 6 s after the round was shown, not 2
    assert result.speed_bonus == 3 * (10 - 6)
    assert [a.elapsed_ms for a in run.history[0].attempts] == [4_000, 6_000]


def test_speed_bonus_is_never_doubled_in_forbidden_mode():
    run = new_run("run-speed", "daily", "2026-11-29", PUZZLE, START)
    for number in range(1, 8):
        skip(run, number, at(number))
    result = answer(run, 8, 1, "timer", at(8), frozenset({"timer"}))  # 1 s after round 8 was shown
    assert result.speed_bonus == 27 and result.points == 20 * 5 + 27


def test_speed_bonus_a_replayed_answer_replays_its_bonus():
    run = new_run("run-speed", "daily", "2026-11-29", PUZZLE, START)
    answer(run, 1, 1, "timer", at(2), WORDS)
    again = answer(run, 1, 1, "timer", at(30), WORDS)
    assert again.replayed and (again.points, again.speed_bonus) == (50 + 24, 24)


def test_scoring_the_maximum_is_2085():
    """Ten rounds (seven classic, three forbidden), each a 12-letter word answered at once, in one
    combo: the constant docs and the rank key's widths are built on."""
    classic, forbidden = DAILY_ROUNDS - DAILY_FORBIDDEN_ROUNDS, DAILY_FORBIDDEN_ROUNDS
    best = sum(
        points_for(SCORED_LENGTH_CAP, number > classic, number, 0)
        for number in range(1, classic + forbidden + 1)
    )
    assert best == MAX_SCORE == 2085
