"""Puzzles (SPEC §3): the rounds of a Daily or a challenge, generated from a secret seed.

Policy (docs/game.md): a classic prompt must have at least 30 answers in the dictionary and at
least 100 among the common words (SCOWL size 35, dictionary/common.txt), so a person can solve
it; a forbidden round takes a prompt from the same pool and three forbidden letters that leave
at least 10 answers in the dictionary and 10 among the common words. No prompt repeats in a
puzzle. The same seed always gives the same puzzle, so racing generators agree.
"""

import hashlib
import hmac
import random
import re
from functools import cache
from typing import NamedTuple

from shared.constants import MIN_ANSWERS_CLASSIC, MIN_ANSWERS_FORBIDDEN
from shared.dictionary import DICTIONARY_DIR

MIN_COMMON_ANSWERS_CLASSIC = 100
MIN_COMMON_ANSWERS_FORBIDDEN = 10
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Round(NamedTuple):
    prompt: str
    forbidden: str  # 3 uppercase letters in a forbidden round, "" in a classic one


@cache
def prompt_pool() -> tuple[str, ...]:
    """Every prompt the generator may choose, in alphabetical order (from prompt_counts.tsv)."""
    pool = []
    lines = (DICTIONARY_DIR / "prompt_counts.tsv").read_text(encoding="ascii").splitlines()
    for line in lines[1:]:
        prompt, answers, common = line.split("\t")
        if int(answers) >= MIN_ANSWERS_CLASSIC and int(common) >= MIN_COMMON_ANSWERS_CLASSIC:
            pool.append(prompt)
    return tuple(pool)


@cache
def _word_text(name: str) -> str:
    return (DICTIONARY_DIR / name).read_text(encoding="ascii")


def answers(prompt: str, forbidden: str = "", list_name: str = "words.txt") -> list[str]:
    """Every word of a dictionary file accepted for PROMPT with FORBIDDEN letters (rules 3-5)."""
    allowed = (
        "a-z"
        if not forbidden
        else "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in forbidden.lower())
    )
    letter = f"[{allowed}]*"
    pattern = "^" + letter + letter.join(prompt.lower()) + letter + "$"
    return re.findall(pattern, _word_text(list_name), flags=re.MULTILINE)


def seed_for_date(secret: bytes, date: str) -> bytes:
    """The Daily's seed: an HMAC of the date under the deployment's secret, so the source code
    cannot predict tomorrow's puzzle."""
    return hmac.new(secret, f"daily:{date}".encode(), hashlib.sha256).digest()


def generate_puzzle(seed: bytes, rounds: int, forbidden_rounds: int) -> list[Round]:
    """`rounds` distinct prompts, the last `forbidden_rounds` of them in forbidden mode."""
    rng = random.Random(seed)
    prompts = list(prompt_pool())
    rng.shuffle(prompts)
    chosen: list[Round] = [Round(p, "") for p in prompts[: rounds - forbidden_rounds]]
    for prompt in prompts[rounds - forbidden_rounds :]:
        if len(chosen) == rounds:
            break
        forbidden = _forbidden_letters_for(prompt, rng)
        if forbidden:
            chosen.append(Round(prompt, forbidden))
    return chosen


def _forbidden_letters_for(prompt: str, rng: random.Random, tries: int = 20) -> str | None:
    """Three letters outside the prompt that still leave enough answers, or None."""
    others = [c for c in _ALPHABET if c not in prompt]
    for _ in range(tries):
        forbidden = "".join(sorted(rng.sample(others, 3)))
        if (
            len(answers(prompt, forbidden)) >= MIN_ANSWERS_FORBIDDEN
            and len(answers(prompt, forbidden, "common.txt")) >= MIN_COMMON_ANSWERS_FORBIDDEN
        ):
            return forbidden
    return None
