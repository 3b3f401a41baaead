"""Puzzles (SPEC §3): the rounds of a Daily or a challenge, generated from a secret seed.

Every prompt comes from one pool: at least 30 answers in the dictionary, at least 15 of them common
(Zipf >= 3.0, dictionary/common.txt). Of a puzzle's prompts, those with the most common answers
take the forbidden rounds, with three forbidden letters that keep at least 10 common answers. The
classic rounds go from the most common answers to the fewest, and so do the forbidden rounds.

A Daily never reads earlier puzzles: its prompts are the date's slots in an endless walk through
secret-seeded shuffles of the pool (one shuffle per *cycle*), `DAILY_ROUNDS` slots a day. Within a
cycle no prompt repeats; where two cycles meet, the new cycle's first `REST_SLOTS` slots skip the
prompts of the old cycle's last `REST_SLOTS`, so no prompt comes back within 60 days. The same
(secret, date) always gives the same puzzle, so racing generators agree.
"""

import hashlib
import hmac
import random
import re
from datetime import date as Date
from functools import cache, lru_cache
from typing import NamedTuple

from shared.constants import (
    DAILY_ROUNDS,
    MIN_ANSWERS_CLASSIC,
    MIN_ANSWERS_FORBIDDEN,
    MIN_COMMON_ANSWERS_CLASSIC,
    PROMPT_REST_DAYS,
)
from shared.dictionary import DICTIONARY_DIR

# A prompt used in slot s may come back no earlier than slot s + REST_SLOTS: that is at least
# PROMPT_REST_DAYS + 1 days later.
REST_SLOTS = (PROMPT_REST_DAYS + 1) * DAILY_ROUNDS
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FORBIDDEN_TRIES = 30


class Round(NamedTuple):
    prompt: str
    forbidden: str  # 3 uppercase letters in a forbidden round, "" in a classic one


class DailySeed(NamedTuple):
    """What a Daily is generated from: a key derived from the deployment's secret (it orders the
    prompt pool) and the date (its place in that order)."""

    key: bytes
    date: str


class PuzzleError(Exception):
    """The pool cannot give a puzzle that keeps the rules (a dictionary build broke the pool)."""


@cache
def common_answer_counts() -> dict[str, int]:
    """Each pool prompt's number of common answers (from dictionary/prompt_counts.tsv)."""
    counts = {}
    lines = (DICTIONARY_DIR / "prompt_counts.tsv").read_text(encoding="ascii").splitlines()
    for line in lines[1:]:
        prompt, answer_count, common_count = line.split("\t")
        if int(answer_count) >= MIN_ANSWERS_CLASSIC and int(common_count) >= MIN_COMMON_ANSWERS_CLASSIC:
            counts[prompt] = int(common_count)
    return counts


def prompt_pool() -> tuple[str, ...]:
    """Every prompt a puzzle may use, in alphabetical order: 30+ answers, 15+ of them common."""
    return tuple(common_answer_counts())


@cache
def _word_text(name: str) -> str:
    return (DICTIONARY_DIR / name).read_text(encoding="ascii")


def answers(prompt: str, forbidden: str = "", list_name: str = "words.txt") -> list[str]:
    """Every word of a dictionary file accepted for PROMPT with FORBIDDEN letters (rules 3-5)."""
    allowed = "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in forbidden.lower())
    letter = f"[{allowed}]*"
    pattern = "^" + letter + letter.join(prompt.lower()) + letter + "$"
    return re.findall(pattern, _word_text(list_name), flags=re.MULTILINE)


def seed_for_date(secret: bytes, date: str) -> DailySeed:
    """The Daily's seed: the secret's key for ordering the pool, and the date. Nobody without the
    secret can compute tomorrow's puzzle from the source code."""
    return DailySeed(hmac.new(secret, b"daily-prompt-order", hashlib.sha256).digest(), date)


def generate_puzzle(seed: bytes | DailySeed, rounds: int, forbidden_rounds: int) -> list[Round]:
    """`rounds` distinct prompts, the last `forbidden_rounds` of them in forbidden mode. A Daily
    (a DailySeed) takes its date's slots of the walk; a challenge (random bytes) any prompts."""
    if isinstance(seed, DailySeed):
        day = Date.fromisoformat(seed.date).toordinal()
        prompts = daily_prompts(seed.key, day, rounds)
        rng = random.Random(hmac.new(seed.key, f"daily:{seed.date}".encode(), hashlib.sha256).digest())
    else:
        rng = random.Random(seed)
        prompts = rng.sample(prompt_pool(), rounds)
    return arrange(prompts, forbidden_rounds, rng)


def daily_prompts(key: bytes, day: int, rounds: int = DAILY_ROUNDS) -> list[str]:
    """The prompts of day number DAY: slots day × rounds … day × rounds + rounds − 1 of the walk."""
    size = len(prompt_pool())
    slots = range(day * rounds, day * rounds + rounds)
    return [cycle_order(key, slot // size)[slot % size] for slot in slots]


@lru_cache(maxsize=8)
def cycle_order(key: bytes, cycle: int) -> tuple[str, ...]:
    """The pool in the order cycle CYCLE walks it: its own shuffle, except that its first
    REST_SLOTS slots skip the prompts of the previous cycle's last REST_SLOTS (those move just
    after). The last REST_SLOTS are never moved, so a cycle depends on its own shuffle and the
    previous one's only."""
    order = _shuffled_pool(key, cycle)
    if len(order) < 3 * REST_SLOTS:
        raise PuzzleError(f"a pool of {len(order)} prompts cannot keep {PROMPT_REST_DAYS} days between uses")
    just_used = set(_shuffled_pool(key, cycle - 1)[-REST_SLOTS:])
    movable = order[:-REST_SLOTS]
    head = [p for p in movable if p not in just_used][:REST_SLOTS]
    taken = set(head)
    return (*head, *(p for p in movable if p not in taken), *order[-REST_SLOTS:])


@lru_cache(maxsize=8)
def _shuffled_pool(key: bytes, cycle: int) -> tuple[str, ...]:
    order = list(prompt_pool())
    random.Random(hmac.new(key, f"cycle:{cycle}".encode(), hashlib.sha256).digest()).shuffle(order)
    return tuple(order)


def arrange(prompts: list[str], forbidden_rounds: int, rng: random.Random) -> list[Round]:
    """Classic rounds, then forbidden ones, each from the most common answers to the fewest. The
    prompts with the most common answers take the forbidden rounds, since forbidding letters
    takes answers away."""
    counts = common_answer_counts()
    by_ease = sorted(prompts, key=lambda p: (-counts[p], p))
    forbidden: list[tuple[int, Round]] = []
    for prompt in by_ease:
        if len(forbidden) == forbidden_rounds:
            break
        choice = forbidden_letters_for(prompt, rng)
        if choice:
            letters, left = choice
            forbidden.append((left, Round(prompt, letters)))
    if len(forbidden) < forbidden_rounds:
        raise PuzzleError(f"no forbidden letters keep {MIN_ANSWERS_FORBIDDEN} common answers for {prompts}")
    in_forbidden = {r.prompt for _, r in forbidden}
    classic = [Round(p, "") for p in by_ease if p not in in_forbidden]
    forbidden.sort(key=lambda pair: (-pair[0], pair[1].prompt))
    return classic + [r for _, r in forbidden]


def forbidden_letters_for(prompt: str, rng: random.Random) -> tuple[str, int] | None:
    """Three letters outside PROMPT that keep at least 10 common answers, and how many they keep:
    a random draw, or else the three letters fewest common answers use."""
    common = [frozenset(word.upper()) for word in answers(prompt, "", "common.txt")]
    others = [c for c in _ALPHABET if c not in prompt]

    def kept(letters: str) -> int:
        banned = set(letters)
        return sum(not banned & word for word in common)

    for _ in range(_FORBIDDEN_TRIES):
        letters = "".join(sorted(rng.sample(others, 3)))
        if kept(letters) >= MIN_ANSWERS_FORBIDDEN:
            return letters, kept(letters)
    rarest = "".join(sorted(sorted(others, key=lambda c: (sum(c in word for word in common), c))[:3]))
    return (rarest, kept(rarest)) if kept(rarest) >= MIN_ANSWERS_FORBIDDEN else None
