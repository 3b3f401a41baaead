"""The puzzle pool's rules (SPEC §3): which prompts may be played, in which round, and which
forbidden letters fit a forbidden round. Pure logic, used twice: by dictionary/build.py, which
writes every playable prompt's tier into dictionary/puzzle_pool.tsv, and by shared/game/puzzles.py,
which draws each round's prompt from its tier and its forbidden letters at run time.

A round's *difficulty* is its number of common answers (Zipf >= 3.0, dictionary/common.txt) left
after its forbidden letters. Tier t holds the prompts whose round t has a difficulty in BANDS[t-1];
the bands are disjoint and go down, so a puzzle whose round t comes from tier t goes from the
easiest round to the hardest. Classic prompts play tiers 1-7 by their common answers; a forbidden
prompt plays tier 8-10 when some three letters leave it a difficulty in that tier's band while
removing 40-80% of its common answers. Every round keeps MIN_TOP_ANSWERS answers among the most
frequent words (dictionary/top_words.txt): the floor that lets every player finish. Rounds 5 and 6
(the day's median) have narrow bands, so days are alike.
"""

import hashlib
import itertools
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from typing import NamedTuple

from shared.game.constants import (
    FORBIDDEN_REMOVES_AT_LEAST_PERCENT,
    FORBIDDEN_REMOVES_AT_MOST_PERCENT,
    MIN_ANSWERS_CLASSIC,
    MIN_ANSWERS_FORBIDDEN,
    MIN_COMMON_ANSWERS_CLASSIC,
    MIN_TOP_ANSWERS,
)

_ALPHABET = "abcdefghijklmnopqrstuvwxyz"
_PLURAL_AFTER_ES = ("s", "x", "z", "ch", "sh", "o")


class Band(NamedTuple):
    """Difficulties from LOW to HIGH, both included (HIGH None: no upper end)."""

    low: int
    high: int | None

    def __contains__(self, difficulty: object) -> bool:
        if not isinstance(difficulty, int):
            return False
        return self.low <= difficulty and (self.high is None or difficulty <= self.high)


# Tier t (1-10) gives round t of a Daily. Tiers 1-7 are classic, 8-10 forbidden. The edges split
# dictionary/puzzle_pool.tsv into tiers of 460+ prompts each (so a prompt comes back after more
# than a year), with the forbidden rounds below every classic one.
BANDS: tuple[Band, ...] = (
    Band(300, None),
    Band(160, 299),
    Band(110, 159),
    Band(80, 109),
    Band(62, 79),
    Band(50, 61),
    Band(40, 49),
    Band(29, 39),
    Band(20, 28),
    Band(MIN_ANSWERS_FORBIDDEN, 19),
)
CLASSIC_TIERS = (1, 2, 3, 4, 5, 6, 7)
FORBIDDEN_TIERS = (8, 9, 10)


def band(tier: int) -> Band:
    return BANDS[tier - 1]


def is_plural(word: str, words: Set[str]) -> bool:
    """Whether WORD is the plural of another listed word: `cities` of `city`, `boxes` of `box`,
    `dogs` of `dog` (never `glass` of `glas`). Spelling only: `news` counts as `new` + s."""
    if word.endswith("ies") and word[:-3] + "y" in words:
        return True
    if word.endswith("es") and word[:-2].endswith(_PLURAL_AFTER_ES) and word[:-2] in words:
        return True
    return word.endswith("s") and not word.endswith("ss") and word[:-1] in words


def has_few_plurals(common_answers: Sequence[str], words: Set[str]) -> bool:
    """At least two thirds of a prompt's common answers are not plurals of another listed word."""
    singular = sum(not is_plural(word, words) for word in common_answers)
    return 3 * singular >= 2 * len(common_answers)


def removes_a_fair_share(common: int, kept: int) -> bool:
    """Forbidden letters that remove 40-80% of the prompt's COMMON answers, keeping KEPT."""
    removed = 100 * (common - kept)
    return (
        FORBIDDEN_REMOVES_AT_LEAST_PERCENT * common <= removed <= FORBIDDEN_REMOVES_AT_MOST_PERCENT * common
    )


def forbidden_candidates(prompt: str) -> list[str]:
    """Every set of three letters outside PROMPT, uppercase and sorted, in alphabetical order."""
    others = [c for c in _ALPHABET.upper() if c not in prompt.upper()]
    return ["".join(letters) for letters in itertools.combinations(others, 3)]


def keeps_the_round_floor(top_answers: int) -> bool:
    """Every round, forbidden ones included, keeps at least 8 answers among the 10,000 most
    frequent clean words."""
    return top_answers >= MIN_TOP_ANSWERS


def fitting_forbidden(
    common_answers: Sequence[str], tier: int, order: Iterable[str], top: Set[str]
) -> Iterator[tuple[str, int]]:
    """The letter sets of ORDER that give round TIER its band, remove a fair share of
    COMMON_ANSWERS and keep the round floor among the TOP words, each with the common answers it
    keeps: one bit per answer and letter, so a set costs three ORs."""
    holders = {letter: 0 for letter in _ALPHABET.upper()}
    top_mask = 0
    for index, word in enumerate(common_answers):
        for letter in set(word.upper()):
            holders[letter] |= 1 << index
        if word in top:
            top_mask |= 1 << index
    total, wanted = len(common_answers), band(tier)
    if wanted.high is not None and 5 * wanted.high < total or 5 * wanted.low > 3 * total:
        return  # no kept count in the band removes 40-80% (quick exit for the build)
    for letters in order:
        a, b, c = letters[0], letters[1], letters[2]
        removed = holders[a] | holders[b] | holders[c]
        kept = total - removed.bit_count()
        if (
            kept in wanted
            and removes_a_fair_share(total, kept)
            and keeps_the_round_floor((top_mask & ~removed).bit_count())
        ):
            yield letters, kept


def choose_forbidden(
    prompt: str, common_answers: Sequence[str], tier: int, rng: random.Random, top: Set[str]
) -> tuple[str, int]:
    """The forbidden letters of PROMPT in round TIER, and the common answers they keep: the first
    fitting set in an order RNG shuffles. The build put PROMPT in TIER only if one fits."""
    order = forbidden_candidates(prompt)
    rng.shuffle(order)
    found = next(fitting_forbidden(common_answers, tier, order, top), None)
    if found is None:
        raise ValueError(f"no forbidden letters fit {prompt} in tier {tier}: rebuild the dictionary")
    return found


def eligible_tiers(
    prompt: str, answer_count: int, common_answers: Sequence[str], words: Set[str], top: Set[str]
) -> list[int]:
    """The tiers PROMPT may play: none unless it has 30+ answers, 15+ common ones, few plurals
    and the round floor among the TOP words; then its classic tier (by its common answers) and
    every forbidden tier some letters fit."""
    common = len(common_answers)
    if answer_count < MIN_ANSWERS_CLASSIC or common < MIN_COMMON_ANSWERS_CLASSIC:
        return []
    if not has_few_plurals(common_answers, words):
        return []
    if not keeps_the_round_floor(sum(word in top for word in common_answers)):
        return []
    tiers = [tier for tier in CLASSIC_TIERS if common in band(tier)]
    candidates = forbidden_candidates(prompt)
    tiers += [t for t in FORBIDDEN_TIERS if next(fitting_forbidden(common_answers, t, candidates, top), None)]
    return tiers


def assign_tiers(eligible: Mapping[str, Sequence[int]]) -> dict[str, int]:
    """One tier per prompt, keeping the tiers' sizes even: prompts with the fewest choices choose
    first (ties in an order fixed by a hash, so no tier gets one end of the alphabet), each the
    eligible tier with the fewest prompts so far (ties: the lower tier)."""
    sizes = dict.fromkeys(range(1, len(BANDS) + 1), 0)
    chosen = {}

    def turn(prompt: str) -> tuple[int, bytes]:
        return len(eligible[prompt]), hashlib.sha256(prompt.encode()).digest()

    for prompt in sorted((p for p in eligible if eligible[p]), key=turn):
        tier = min(eligible[prompt], key=lambda t: (sizes[t], t))
        sizes[tier] += 1
        chosen[prompt] = tier
    return chosen
