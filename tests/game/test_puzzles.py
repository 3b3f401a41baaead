"""SPEC §3: the Daily puzzle's rules, each checked over a year of Dailies for a fixed secret, for
random secrets where the walk changes cycle, and for challenges; and `answers`, the count every
rule rests on, checked against `rules.judge`."""

import itertools
import random
import statistics
from datetime import date, timedelta
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.game import puzzle_tiers, puzzles
from shared.game.constants import (
    DAILY_FORBIDDEN_ROUNDS,
    DAILY_ROUNDS,
    DAY_DIFFICULTY_SPREAD,
    MIN_ANSWERS_CLASSIC,
    MIN_ANSWERS_FORBIDDEN,
    MIN_COMMON_ANSWERS_CLASSIC,
    MIN_TOP_ANSWERS,
    PROMPT_REST_DAYS,
    TOP_WORDS,
)
from shared.game.dictionary import DICTIONARY_DIR, words
from shared.game.puzzle_tiers import BANDS, FORBIDDEN_TIERS, band, is_plural
from shared.game.puzzles import (
    REST_SLOTS,
    Round,
    answers,
    daily_prompts,
    generate_puzzle,
    pool,
    round_tiers,
    seed_for_date,
    tier_prompts,
    top_words,
)
from shared.game.rules import judge

SECRET = b"secret"

# One worker for the whole module: the year of Dailies below is generated once and read by most tests.
pytestmark = pytest.mark.xdist_group("puzzles")


def daily(secret: bytes, day: date) -> list[Round]:
    return generate_puzzle(seed_for_date(secret, day.isoformat()), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS)


def walk(secret: bytes, day: date) -> list[str]:
    """The prompts of DAY's Daily without its forbidden letters: the walk alone."""
    return daily_prompts(seed_for_date(secret, day.isoformat()).key, day.toordinal())


@cache
def prompt_counts() -> dict[str, tuple[int, int]]:
    """prompt_counts.tsv (its counts are checked against a recount in test_dictionary.py)."""
    lines = (DICTIONARY_DIR / "prompt_counts.tsv").read_text(encoding="ascii").splitlines()[1:]
    return {p: (int(a), int(c)) for p, a, c in (line.split("\t") for line in lines)}


@cache
def common_index() -> dict[tuple[str, ...], list[str]]:
    """Every prompt's common answers, from one pass over common.txt: a word answers the prompts
    that are 3-letter subsequences of it (a recount independent of `answers`)."""
    index: dict[tuple[str, ...], list[str]] = {}
    for word in sorted(common_words()):
        for letters in set(itertools.combinations(word, 3)):
            index.setdefault(letters, []).append(word)
    return index


def common_answers(prompt: str, forbidden: str = "") -> list[str]:
    banned = set(forbidden.lower())
    return [w for w in common_index().get(tuple(prompt.lower()), []) if not banned & set(w)]


@cache
def common_words() -> frozenset[str]:
    return frozenset((DICTIONARY_DIR / "common.txt").read_text(encoding="ascii").split())


def difficulty(current: Round) -> int:
    """SPEC §3: the round's common answers, counted after its forbidden letters."""
    return len(common_answers(current.prompt, current.forbidden))


def cycle_boundary_day(tier: int, cycle: int) -> date:
    """The date whose slot holds the first prompt of TIER's walk cycle CYCLE."""
    return date.fromordinal(cycle * len(tier_prompts(tier)))


@cache
def smallest_tier() -> int:
    return min(range(1, len(BANDS) + 1), key=lambda t: len(tier_prompts(t)))


@cache
def a_year() -> tuple[list[date], list[list[Round]]]:
    """365 consecutive Dailies of SECRET around a day where the smallest tier's walk moves from
    one shuffle into the next (where the 60-day rule bites)."""
    tier = smallest_tier()
    boundary = next(
        cycle_boundary_day(tier, k) for k in range(1, 5000) if cycle_boundary_day(tier, k).year >= 2027
    )
    days = [boundary + timedelta(days=offset) for offset in range(-182, 183)]
    return days, [daily(SECRET, day) for day in days]


def every_round() -> list[Round]:
    return [current for puzzle in a_year()[1] for current in puzzle]


def percentile(values: list[float], p: int) -> float:
    """The P-th percentile, nearest rank (as benchmarks/puzzles.py)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, len(ordered) * p // 100)]


def assert_keeps_the_rules(puzzle: list[Round], rounds: int, forbidden_rounds: int) -> None:
    """Every rule of SPEC §3 that holds for one puzzle (a Daily or a challenge)."""
    classic = rounds - forbidden_rounds
    assert [bool(r.forbidden) for r in puzzle] == [False] * classic + [True] * forbidden_rounds
    assert len({r.prompt for r in puzzle}) == rounds
    for current in puzzle:
        answer_count, common_count = prompt_counts()[current.prompt]
        assert answer_count >= MIN_ANSWERS_CLASSIC and common_count >= MIN_COMMON_ANSWERS_CLASSIC
        singular = [w for w in common_answers(current.prompt) if not is_plural(w, words())]
        assert 3 * len(singular) >= 2 * common_count, current
        if current.forbidden:
            assert len(set(current.forbidden)) == 3 and not set(current.forbidden) & set(current.prompt)
            assert current.forbidden == "".join(sorted(current.forbidden)) and current.forbidden.isupper()
            assert difficulty(current) >= MIN_ANSWERS_FORBIDDEN
            assert 0.4 * common_count <= common_count - difficulty(current) <= 0.8 * common_count, current
    difficulties = [difficulty(r) for r in puzzle]
    assert difficulties == sorted(difficulties, reverse=True), puzzle


# The rules, over a year of Dailies


def test_a_daily_has_ten_rounds_the_last_three_forbidden():
    for puzzle in a_year()[1]:
        assert len(puzzle) == DAILY_ROUNDS
        assert [bool(r.forbidden) for r in puzzle] == [False] * 7 + [True] * 3


def test_every_classic_prompt_has_30_answers_and_15_common_ones():
    for current in every_round():
        answer_count, common_count = prompt_counts()[current.prompt]
        assert answer_count >= MIN_ANSWERS_CLASSIC and common_count >= MIN_COMMON_ANSWERS_CLASSIC


def test_a_forbidden_round_keeps_at_least_10_common_answers():
    for current in every_round():
        if current.forbidden:
            assert difficulty(current) >= MIN_ANSWERS_FORBIDDEN, current


def test_forbidden_letters_are_three_sorted_uppercase_letters_none_in_the_prompt():
    for current in every_round():
        if current.forbidden:
            assert len(set(current.forbidden)) == 3 and not set(current.forbidden) & set(current.prompt)
            assert current.forbidden == "".join(sorted(current.forbidden)) and current.forbidden.isupper()


def test_the_forbidden_letters_remove_40_to_80_percent_of_the_prompts_common_answers():
    shares = []
    for current in every_round():
        if current.forbidden:
            common_count = len(common_answers(current.prompt))
            shares.append((common_count - difficulty(current)) / common_count)
    assert min(shares) >= 0.4 and max(shares) <= 0.8
    assert statistics.median(shares) > 0.45  # not all at the edge: the letters take a real share


def test_at_least_two_thirds_of_a_prompts_common_answers_are_not_plurals():
    for prompt in {current.prompt for current in every_round()}:
        found = common_answers(prompt)
        singular = [w for w in found if not is_plural(w, words())]
        assert 3 * len(singular) >= 2 * len(found), prompt


def test_the_round_floor_every_round_keeps_8_answers_among_the_10000_most_frequent_words():
    # Over the year of a fixed secret, forbidden rounds included: the round a player can finish.
    # The accepted words among wordfreq's TOP_WORDS most frequent clean ones (an outside measure).
    assert 0.9 * TOP_WORDS < len(top_words()) < TOP_WORDS and top_words() <= common_words()
    for current in every_round():
        kept = [w for w in common_answers(current.prompt, current.forbidden) if w in top_words()]
        assert len(kept) >= MIN_TOP_ANSWERS == 8, current


def test_the_round_floor_refuses_forbidden_letters_that_leave_fewer_than_8_top_answers():
    with_a = ["ab" + c for c in "bcdefghijklm"]  # 12 answers forbidding A removes
    without_a = ["bc" + c for c in "bcdefghijklmnoprst"]  # it keeps these 18 (40% removed, tier 10)
    found = with_a + without_a
    assert list(puzzle_tiers.fitting_forbidden(found, 10, ["AQW"], set(with_a + without_a[:8])))
    assert not list(puzzle_tiers.fitting_forbidden(found, 10, ["AQW"], set(with_a + without_a[:7])))


def test_the_ten_rounds_go_from_easiest_to_hardest_the_forbidden_ones_last_and_hardest():
    for puzzle in a_year()[1]:
        difficulties = [difficulty(r) for r in puzzle]
        assert difficulties == sorted(difficulties, reverse=True), puzzle
        assert max(difficulties[7:]) <= min(difficulties[:7])


def test_days_are_alike_p90_of_a_days_median_round_difficulty_at_most_1_5_times_its_p10():
    medians = [statistics.median(difficulty(r) for r in puzzle) for puzzle in a_year()[1]]
    assert percentile(medians, 90) <= DAY_DIFFICULTY_SPREAD * percentile(medians, 10)


def test_no_prompt_twice_in_a_day():
    for puzzle in a_year()[1]:
        assert len({r.prompt for r in puzzle}) == DAILY_ROUNDS


def test_no_prompt_is_used_again_within_60_days_of_its_last_use():
    days, puzzles_of_year = a_year()
    assert_no_prompt_again_within_60_days(days, [[r.prompt for r in p] for p in puzzles_of_year])


def test_the_year_does_cross_a_cycle_boundary_and_reuse_prompts():
    # The 60-day rule bites only where a tier's walk starts a new shuffle: the year holds one.
    days, puzzles_of_year = a_year()
    seen = [r.prompt for puzzle in puzzles_of_year for r in puzzle]
    assert len(seen) > len(set(seen))


def assert_no_prompt_again_within_60_days(days: list[date], prompts_by_day: list[list[str]]) -> None:
    last_use: dict[str, date] = {}
    for day, prompts in zip(days, prompts_by_day, strict=True):
        for prompt in prompts:
            if prompt in last_use:
                assert (day - last_use[prompt]).days > PROMPT_REST_DAYS, (prompt, day)
            last_use[prompt] = day


@settings(max_examples=25)
@given(
    secret=st.binary(min_size=1, max_size=32),
    tier=st.integers(min_value=1, max_value=len(BANDS)),
    cycle=st.integers(min_value=900, max_value=1600),
)
def test_any_secret_keeps_60_days_between_uses_where_a_tiers_cycles_meet(secret, tier, cycle):
    middle = cycle_boundary_day(tier, cycle)
    days = [middle + timedelta(days=offset) for offset in range(-PROMPT_REST_DAYS - 3, PROMPT_REST_DAYS + 3)]
    assert_no_prompt_again_within_60_days(days, [walk(secret, day) for day in days])


def test_a_daily_round_plays_a_prompt_of_its_own_tier():
    for puzzle in a_year()[1][:30]:
        assert [pool()[r.prompt].tier for r in puzzle] == list(range(1, DAILY_ROUNDS + 1))


def test_the_puzzle_is_deterministic_from_date_and_seed_so_racing_generators_agree():
    first = daily(SECRET, date(2026, 11, 29))
    # A second generator: another process, with none of the first one's caches.
    for cached in (puzzles.pool, puzzles.tier_prompts, puzzles.cycle_order, puzzles._shuffled_tier):
        cached.cache_clear()
    assert daily(SECRET, date(2026, 11, 29)) == first


def test_the_puzzle_cannot_be_predicted_without_the_secret_seed():
    assert daily(SECRET, date(2026, 11, 29)) != daily(b"another secret", date(2026, 11, 29))
    assert daily(SECRET, date(2026, 11, 29)) != daily(SECRET, date(2026, 11, 30))


# Challenges follow the same rules


@pytest.mark.parametrize(
    ("rounds", "forbidden_rounds"), [(5, 0), (5, 3), (6, 3), (7, 2), (10, 0), (10, 1), (10, 3)]
)
def test_challenges_choose_their_round_counts_and_keep_the_same_rules(rounds, forbidden_rounds):
    for seed in (b"fresh", b"another", b"third"):
        assert_keeps_the_rules(generate_puzzle(seed, rounds, forbidden_rounds), rounds, forbidden_rounds)


def test_round_tiers_spread_a_puzzles_rounds_over_the_tiers():
    assert round_tiers(DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS) == list(range(1, 11))
    assert round_tiers(5, 1) == [1, 3, 5, 7, 9]
    assert round_tiers(10, 0) == [1, 2, 2, 3, 4, 4, 5, 6, 6, 7]
    assert round_tiers(5, 2) == [2, 4, 6, 8, 10]


# The pool the build wrote (dictionary/puzzle_pool.tsv)


def test_every_tier_keeps_60_days_between_uses_and_a_year_before_a_prompt_returns():
    for tier in range(1, len(BANDS) + 1):
        assert len(tier_prompts(tier)) >= max(3 * REST_SLOTS, 365), tier


def test_every_pool_prompt_plays_a_tier_it_is_eligible_for():
    for prompt in sorted(pool())[::60]:  # recounted from the word lists
        found = common_answers(prompt)
        assert pool()[prompt].common_answers == len(found) == prompt_counts()[prompt][1]
        eligible = puzzle_tiers.eligible_tiers(prompt, len(answers(prompt)), found, words(), top_words())
        assert pool()[prompt].tier in eligible, prompt


def test_the_bands_are_disjoint_and_go_down_from_round_1_to_round_10():
    for easier, harder in zip(BANDS, BANDS[1:], strict=False):
        assert harder.high is not None and harder.high < easier.low
    assert band(len(BANDS)).low == MIN_ANSWERS_FORBIDDEN
    assert BANDS[6].low >= MIN_COMMON_ANSWERS_CLASSIC


def test_a_forbidden_prompts_letters_are_drawn_among_those_that_fit_its_band():
    prompt = next(p for p in tier_prompts(FORBIDDEN_TIERS[0]))
    found = common_answers(prompt)
    letters, kept = puzzle_tiers.choose_forbidden(
        prompt, found, FORBIDDEN_TIERS[0], random.Random(1), top_words()
    )
    assert kept == len(common_answers(prompt, letters)) and kept in band(FORBIDDEN_TIERS[0])
    draws = {
        puzzle_tiers.choose_forbidden(prompt, found, FORBIDDEN_TIERS[0], random.Random(s), top_words())[0]
        for s in range(8)
    }
    assert len(draws) > 1  # the secret picks among them


@pytest.mark.parametrize(
    ("word", "plural"),
    [("cities", True), ("boxes", True), ("dogs", True), ("glass", False), ("grass", False), ("city", False)],
)
def test_a_plural_is_another_listed_word_with_s_es_or_ies(word, plural):
    assert is_plural(word, words()) is plural


@pytest.mark.parametrize(
    ("kept", "fair"), [(60, True), (20, True), (61, False), (19, False), (100, False), (0, False)]
)
def test_forbidden_letters_remove_a_fair_share_from_40_to_80_percent_included(kept, fair):
    assert puzzle_tiers.removes_a_fair_share(100, kept) is fair


# `answers` counts what `rules.judge` accepts


def judged(prompt: str, forbidden: str, dictionary: frozenset[str]) -> list[str]:
    return sorted(w for w in dictionary if judge(w, prompt, dictionary, forbidden).valid)


letters = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


@st.composite
def prompts_and_forbidden(draw: st.DrawFn) -> tuple[str, str]:
    prompt = draw(st.one_of(st.sampled_from(sorted(pool())), st.text(letters, min_size=3, max_size=3)))
    others = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in prompt]
    forbidden = draw(
        st.one_of(st.just(""), st.lists(st.sampled_from(others), min_size=3, max_size=3, unique=True))
    )
    return prompt, "".join(sorted(forbidden))


@settings(max_examples=10)
@given(case=prompts_and_forbidden())
def test_answers_agrees_with_rules_judge_on_prompts_and_forbidden_letters(case):
    prompt, forbidden = case
    assert answers(prompt, forbidden) == judged(prompt, forbidden, words())
    assert answers(prompt, forbidden, "common.txt") == judged(prompt, forbidden, common_words())


@pytest.mark.parametrize(("prompt", "forbidden"), [("ALL", ""), ("TMR", "AEO"), ("EEE", ""), ("BRD", "AIU")])
def test_answers_agrees_with_rules_judge_on_repeated_letters_and_vowels_forbidden(prompt, forbidden):
    assert answers(prompt, forbidden) == judged(prompt, forbidden, words())
