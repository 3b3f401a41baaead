"""SPEC §3: the Daily puzzle's shape, its guarantees over many dates, and its secret seed."""

from datetime import date, timedelta
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.constants import (
    DAILY_FORBIDDEN_ROUNDS,
    DAILY_ROUNDS,
    MIN_ANSWERS_CLASSIC,
    MIN_ANSWERS_FORBIDDEN,
    MIN_COMMON_ANSWERS_CLASSIC,
    PROMPT_REST_DAYS,
)
from shared.dictionary import DICTIONARY_DIR
from shared.puzzles import REST_SLOTS, answers, daily_prompts, generate_puzzle, prompt_pool, seed_for_date

SECRET = b"secret"

# One worker for the whole module: the 400 Dailies below are generated once (about 7 s) and read
# by two tests.
pytestmark = pytest.mark.xdist_group("puzzles")


def daily(secret: bytes, day: date):
    return generate_puzzle(seed_for_date(secret, day.isoformat()), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS)


def daily_rounds_prompts(secret: bytes, day: date) -> list[str]:
    """The prompts of the Daily of DAY without building its rounds (forbidden letters, order):
    the same prompts `daily` arranges, for the tests about the walk alone."""
    return daily_prompts(seed_for_date(secret, day.isoformat()).key, day.toordinal())


@cache
def prompt_counts() -> dict[str, tuple[int, int]]:
    """prompt_counts.tsv (its counts are checked against a recount in test_dictionary.py)."""
    lines = (DICTIONARY_DIR / "prompt_counts.tsv").read_text(encoding="ascii").splitlines()[1:]
    return {p: (int(a), int(c)) for p, a, c in (line.split("\t") for line in lines)}


def count(prompt: str) -> int:
    return prompt_counts()[prompt][0]


@cache
def common(prompt: str, forbidden: str = "") -> int:
    if not forbidden:
        return prompt_counts()[prompt][1]
    return len(answers(prompt, forbidden, "common.txt"))


def cycle_boundary_day(cycle: int) -> date:
    """The date whose slots hold the first prompt of walk cycle CYCLE."""
    first_slot = cycle * len(prompt_pool())
    return date.fromordinal(first_slot // DAILY_ROUNDS)


def days_around(middle: date, before: int, after: int) -> list[date]:
    return [middle + timedelta(days=offset) for offset in range(-before, after)]


def assert_puzzle_keeps_the_rules(puzzle) -> None:
    assert len(puzzle) == DAILY_ROUNDS
    assert [bool(r.forbidden) for r in puzzle] == [False] * 7 + [True] * 3
    assert len({r.prompt for r in puzzle}) == DAILY_ROUNDS  # never twice in a day
    classic, forbidden = puzzle[:7], puzzle[7:]
    for current in classic:
        assert count(current.prompt) >= MIN_ANSWERS_CLASSIC
        assert common(current.prompt) >= MIN_COMMON_ANSWERS_CLASSIC
    for current in forbidden:
        assert len(set(current.forbidden)) == 3 and not set(current.forbidden) & set(current.prompt)
        assert current.forbidden == "".join(sorted(current.forbidden)) and current.forbidden.isupper()
        assert common(current.prompt, current.forbidden) >= MIN_ANSWERS_FORBIDDEN
    # Easiest to hardest: most common answers first, within classic and within forbidden rounds.
    classic_counts = [common(r.prompt) for r in classic]
    forbidden_counts = [common(r.prompt, r.forbidden) for r in forbidden]
    assert classic_counts == sorted(classic_counts, reverse=True)
    assert forbidden_counts == sorted(forbidden_counts, reverse=True)


def assert_no_prompt_again_within_60_days(days: list[date], prompts_by_day: list[list[str]]) -> None:
    last_use: dict[str, date] = {}
    for day, prompts in zip(days, prompts_by_day, strict=True):
        for prompt in prompts:
            if prompt in last_use:
                assert (day - last_use[prompt]).days > PROMPT_REST_DAYS, (prompt, day)
            last_use[prompt] = day


@cache
def year_across_a_cycle_boundary() -> tuple[list[date], list]:
    """400 consecutive Dailies whose walk crosses from one shuffle of the pool into the next."""
    boundary = next(
        cycle_boundary_day(k) for k in range(1, 2000) if cycle_boundary_day(k) >= date(2027, 1, 1)
    )
    days = days_around(boundary, 200, 200)
    return days, [daily(SECRET, day) for day in days]


def test_400_consecutive_dailies_keep_every_puzzle_rule():
    days, puzzles = year_across_a_cycle_boundary()
    for puzzle in puzzles:
        assert_puzzle_keeps_the_rules(puzzle)


def test_no_prompt_is_used_again_within_60_days_across_the_permutation_boundary():
    days, puzzles = year_across_a_cycle_boundary()
    assert_no_prompt_again_within_60_days(days, [[r.prompt for r in puzzle] for puzzle in puzzles])


def test_the_walk_does_reuse_prompts_once_a_whole_cycle_has_passed():
    # The rule bites only at cycle boundaries; this shows the walk does come round again.
    pool = len(prompt_pool())
    assert pool >= 3 * REST_SLOTS  # room to keep 60 days between uses
    days = [date(2027, 1, 1) + timedelta(days=i) for i in range(pool // DAILY_ROUNDS + 2)]
    seen = [prompt for day in days for prompt in daily_rounds_prompts(SECRET, day)]
    assert len(seen) > len(set(seen))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(secret=st.binary(min_size=1, max_size=32), cycle=st.integers(min_value=900, max_value=1100))
def test_any_secret_keeps_60_days_between_uses_where_two_cycles_meet(secret, cycle):
    days = days_around(cycle_boundary_day(cycle), PROMPT_REST_DAYS + 3, PROMPT_REST_DAYS + 3)
    assert_no_prompt_again_within_60_days(days, [daily_rounds_prompts(secret, day) for day in days])
    for day in (days[0], days[-1]):
        puzzle = daily(secret, day)
        assert sorted(r.prompt for r in puzzle) == sorted(daily_rounds_prompts(secret, day))
        assert_puzzle_keeps_the_rules(puzzle)


def test_the_puzzle_is_deterministic_from_date_and_seed_so_racing_generators_agree():
    assert daily(SECRET, date(2026, 11, 29)) == daily(SECRET, date(2026, 11, 29))


def test_the_puzzle_cannot_be_predicted_without_the_secret_seed():
    assert daily(SECRET, date(2026, 11, 29)) != daily(b"another secret", date(2026, 11, 29))
    assert daily(SECRET, date(2026, 11, 29)) != daily(SECRET, date(2026, 11, 30))


def test_prompt_pool_is_every_prompt_with_30_answers_and_15_common_ones():
    pool = prompt_pool()
    assert len(pool) > 3 * REST_SLOTS and "TMR" in pool and "ALL" in pool
    assert "ZZZ" not in pool and "QXJ" not in pool
    for prompt in pool[::250]:  # recounted from the word lists, not taken from the .tsv
        assert len(answers(prompt)) >= MIN_ANSWERS_CLASSIC
        assert len(answers(prompt, "", "common.txt")) >= MIN_COMMON_ANSWERS_CLASSIC


@pytest.mark.parametrize(("rounds", "forbidden_rounds"), [(5, 0), (6, 3), (10, 3), (10, 1)])
def test_challenges_choose_their_round_counts_and_keep_the_same_rules(rounds, forbidden_rounds):
    for seed in (b"fresh", b"another", b"third"):
        puzzle = generate_puzzle(seed, rounds, forbidden_rounds)
        classic = rounds - forbidden_rounds
        assert [bool(r.forbidden) for r in puzzle] == [False] * classic + [True] * forbidden_rounds
        assert len({r.prompt for r in puzzle}) == rounds
        classic_counts = [common(r.prompt) for r in puzzle[:classic]]
        forbidden_counts = [common(r.prompt, r.forbidden) for r in puzzle[classic:]]
        assert classic_counts == sorted(classic_counts, reverse=True)
        assert forbidden_counts == sorted(forbidden_counts, reverse=True)
        assert all(c >= MIN_ANSWERS_FORBIDDEN for c in forbidden_counts)
