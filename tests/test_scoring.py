"""SPEC §3 scoring: 10 × min(n, 12) per accepted word (20 × in forbidden mode) plus the combo bonus."""

from datetime import UTC, datetime, timedelta

from shared.constants import SCORED_LENGTH_CAP
from shared.puzzles import Round
from shared.runs import answer, new_run
from shared.scoring import points_for, word_points

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
    assert points_for(45, False, 11) == 120 + 50
    assert points_for(45, True, 3) == 240 + 10


def test_scoring_a_45_letter_word_in_a_run_scores_as_12_but_longest_word_is_uncapped():
    puzzle = [Round("PNS", "")] * 7 + [Round("PNS", "BDF")] * 3
    run = new_run("run-cap", "daily", "2026-11-29", puzzle, START)
    result = answer(run, 1, 1, LONGEST, START + timedelta(seconds=1), frozenset({LONGEST}))
    assert result.accepted and result.points == 120
    assert run.score == 120 and run.longest_word_length == 45
