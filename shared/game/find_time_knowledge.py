"""What a person can know (SPEC §3b): how unlikely it is that a person plays a word as long and as
rare as the one a run played in a round, whatever the time it took.

The most knowledgeable people the model knows (benchmarks/skill.py's experts) think of
KNOWLEDGE_PICKS candidate words in a round, from the round's common answers (with probability
KNOWLEDGE_COMMON) or from all its accepted words, and play the longest. A round's *knowledge* is
-log of the probability that such a person plays a word of at least this scored length (up to the
scoring cap: a 15-letter word is no rarer a find than the round's 12-letter ones) and at least this
rare (top, common, rare). For a person who plays like that it is about an exponential of mean 1 or
less; a bot that plays the solver's word (the longest, often a rare one) earns it round after
round. shared/game/find_time.py counts it beyond KNOWLEDGE_MEAN. Pure: the dictionary's lists only.
"""

import math
from functools import cache

from shared.game.constants import SCORED_LENGTH_CAP
from shared.game.find_time_prior import word_class
from shared.game.puzzles import Round, answers

KNOWLEDGE_PICKS = 8
KNOWLEDGE_COMMON = 0.75
# A round's knowledge counts in a run's figure beyond this: the mean of an exponential, above that
# of a knowledgeable person (simulated experts: 0.6), so that a frequent word earns no credit.
KNOWLEDGE_MEAN = 1.0
# -log of the smallest probability counted (a find one person in e^8 = 3,000 makes).
KNOWLEDGE_CAP = 8.0


def scored(word: str) -> int:
    return min(len(word), SCORED_LENGTH_CAP)


# How rare a word is, in order: the 10,000 most frequent words, the other common words, the rest.
RARITY = {"top": 0, "common": 1, "rare": 2}


@cache
def _words(prompt: str, forbidden: str, list_name: str) -> tuple[tuple[int, int], ...]:
    """The round's answers in LIST_NAME as (scored length, rarity)."""
    return tuple((scored(w), RARITY[word_class(w)]) for w in answers(prompt, forbidden, list_name))


def _longest_of_picks(found: tuple[tuple[int, int], ...], at_least: int, rarity: int) -> float:
    """The probability that the longest of KNOWLEDGE_PICKS words drawn from FOUND (without
    replacement) scores AT_LEAST letters and is of RARITY or rarer: the chance the longest scores
    that much, times the share of that rarity among the words that do."""
    total = len(found)
    if total == 0:
        return 0.0
    long = [r for n, r in found if n >= at_least]
    if not long:
        return 0.0
    picks = min(KNOWLEDGE_PICKS, total)
    longest = 1.0 - math.comb(total - len(long), picks) / math.comb(total, picks)
    return longest * sum(1 for r in long if r >= rarity) / len(long)


@cache
def found_at_least(prompt: str, forbidden: str, length: int, rarity: int) -> float:
    """The probability that a knowledgeable person plays a word scoring at least LENGTH letters in
    the round PROMPT, FORBIDDEN."""
    every = _longest_of_picks(_words(prompt, forbidden, "words.txt"), length, rarity)
    common = _words(prompt, forbidden, "common.txt")
    if not common:
        return every
    return KNOWLEDGE_COMMON * _longest_of_picks(common, length, rarity) + (1 - KNOWLEDGE_COMMON) * every


def knowledge(word: str, played: Round) -> float:
    """-log of the probability that a knowledgeable person plays a word as long as WORD in PLAYED,
    up to KNOWLEDGE_CAP."""
    p = found_at_least(played.prompt, played.forbidden, scored(word), RARITY[word_class(word)])
    return min(KNOWLEDGE_CAP, -math.log(p)) if p > 0 else KNOWLEDGE_CAP
