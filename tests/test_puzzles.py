"""SPEC §3: the Daily puzzle's shape, and that it comes from the date and a secret seed."""

from datetime import date, timedelta

import pytest

from shared.constants import DAILY_FORBIDDEN_ROUNDS, DAILY_ROUNDS, MIN_ANSWERS_CLASSIC, MIN_ANSWERS_FORBIDDEN
from shared.puzzles import answers, generate_puzzle, prompt_pool, seed_for_date

DATES = [(date(2026, 11, 1) + timedelta(days=i)).isoformat() for i in range(20)]


def daily(secret: bytes, day: str):
    return generate_puzzle(seed_for_date(secret, day), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS)


@pytest.mark.parametrize("day", DATES)
def test_each_date_has_10_rounds_1_to_7_classic_8_to_10_forbidden(day):
    puzzle = daily(b"secret", day)
    assert len(puzzle) == 10
    assert [bool(r.forbidden) for r in puzzle] == [False] * 7 + [True] * 3


@pytest.mark.parametrize("day", DATES)
def test_every_prompt_has_30_answers_10_in_forbidden_mode_and_none_repeats(day):
    puzzle = daily(b"secret", day)
    assert len({r.prompt for r in puzzle}) == 10
    for current in puzzle:
        assert len(current.prompt) == 3 and current.prompt.isupper()
        if current.forbidden:
            assert len(set(current.forbidden)) == 3 and not set(current.forbidden) & set(current.prompt)
            assert len(answers(current.prompt, current.forbidden)) >= MIN_ANSWERS_FORBIDDEN
        else:
            assert len(answers(current.prompt)) >= MIN_ANSWERS_CLASSIC


def test_the_puzzle_is_deterministic_from_date_and_seed_so_racing_generators_agree():
    assert daily(b"secret", "2026-11-29") == daily(b"secret", "2026-11-29")


def test_the_puzzle_cannot_be_predicted_without_the_secret_seed():
    assert daily(b"secret", "2026-11-29") != daily(b"another secret", "2026-11-29")
    assert daily(b"secret", "2026-11-29") != daily(b"secret", "2026-11-30")


def test_prompt_pool_policy_is_prompts_a_person_can_solve():
    pool = prompt_pool()
    assert len(pool) > 1000 and "TMR" in pool and "ALL" in pool
    assert "ZZZ" not in pool and "QXJ" not in pool


def test_challenges_choose_their_forbidden_round_count():
    puzzle = generate_puzzle(b"fresh", 5, 0)
    assert len(puzzle) == 5 and not any(r.forbidden for r in puzzle)
    assert [bool(r.forbidden) for r in generate_puzzle(b"fresh", 6, 3)] == [False] * 3 + [True] * 3
