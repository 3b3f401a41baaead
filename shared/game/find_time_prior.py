"""The find-time prior (SPEC §3b): how long people need to find a word, before any run is seen.

A person's find time is their own pace times the word's *effort*, a factor for how rare the word is
(the dictionary's frequency classes: the 10,000 most frequent words, the other common words, the
rest), how long it is, and how hard its round is (its common answers: the fewer, the harder).
The simulated people of benchmarks/skill.py find words this way, and the figures here were
measured on them (benchmarks/find_time.py prints them); docs/moderation.md has the numbers.
"""

import math
from functools import cache
from typing import Literal

from shared.game.dictionary import DICTIONARY_DIR
from shared.game.puzzles import Round, answers, top_words

WordClass = Literal["top", "common", "rare"]

# log factor of a word's class: people need about e^0.5 = 1.6 times longer to come up with a
# common word outside the 10,000 most frequent, e^1.1 = 3 times longer for a rare one.
CLASS_EFFORT: dict[WordClass, float] = {"top": 0.0, "common": 0.5, "rare": 1.1}
# log factor per letter from REFERENCE_LETTERS (a 12-letter word: e^0.6 = 1.8 times a 6-letter one).
LETTER_EFFORT = 0.1
REFERENCE_LETTERS = 6
LETTERS_COUNTED = (3, 15)
# log factor of a round's difficulty: (REFERENCE_COMMON / common answers) ^ DIFFICULTY_EFFORT,
# within DIFFICULTY_BOUNDS (a round of 12 common answers: 1.7 times one of 100).
DIFFICULTY_EFFORT = 0.25
REFERENCE_COMMON = 100
DIFFICULTY_BOUNDS = (-0.5, 1.0)

# People's find times at effort 1 (log ms): the fastest people's median (the simulated experts',
# whose scores centre on 0) and the whole board's (60% casual, 30% good, 10% expert).
FAST_LOG_MS = math.log(2000)
POPULATION_LOG_MS = math.log(5500)
# A board's middle find time grows more slowly with the round's difficulty than one person's
# (DIFFICULTY_EFFORT): the slowest players run out of time before the hardest rounds.
POPULATION_DIFFICULTY_EFFORT = 0.13
# The spread of one person's find times from round to round (log): skill.py's thinking time.
SIGMA = 0.5


@cache
def common_words() -> frozenset[str]:
    """The words with a Zipf frequency >= 3.0 (dictionary/common.txt)."""
    return frozenset((DICTIONARY_DIR / "common.txt").read_text(encoding="ascii").split())


def word_class(word: str) -> WordClass:
    if word in top_words():
        return "top"
    return "common" if word in common_words() else "rare"


def word_effort(word: str) -> float:
    """The log factor of WORD's rarity and length."""
    low, high = LETTERS_COUNTED
    letters = max(low, min(high, len(word)))
    return CLASS_EFFORT[word_class(word)] + LETTER_EFFORT * (letters - REFERENCE_LETTERS)


def round_effort(difficulty: int, slope: float = DIFFICULTY_EFFORT) -> float:
    """The log factor of a round with DIFFICULTY common answers."""
    low, high = DIFFICULTY_BOUNDS
    return max(low, min(high, slope * math.log(REFERENCE_COMMON / max(1, difficulty))))


def population_middle(difficulty: int) -> float:
    """The log find time (less the word's effort) that a board's middle half sits around, in a
    round of DIFFICULTY."""
    return POPULATION_LOG_MS + round_effort(difficulty, POPULATION_DIFFICULTY_EFFORT)


@cache
def round_difficulty(played: Round) -> int:
    """A round's common answers left after its forbidden letters."""
    return len(answers(played.prompt, played.forbidden, "common.txt"))


def effort(word: str, difficulty: int) -> float:
    """The log factor of finding WORD in a round of DIFFICULTY: a person whose pace is p ms needs a
    median p x e^effort."""
    return word_effort(word) + round_effort(difficulty)
