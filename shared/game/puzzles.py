"""Puzzles (SPEC §3): the rounds of a Daily or a challenge, generated from a secret seed.

The dictionary build sorts every playable prompt into one of ten *tiers* (dictionary/
puzzle_pool.tsv, rules in shared/game/puzzle_tiers.py): round t of a Daily plays a prompt of tier t, so
its difficulty (common answers left after its forbidden letters) lies in tier t's band, and the
bands go down from round 1 to round 10. Tiers 8-10 are the forbidden rounds; their letters are
chosen here, from the secret, among those that keep the round in its band.

A Daily never reads earlier puzzles: each tier's prompts are walked through secret-seeded
shuffles (one shuffle per *cycle*), one slot a day. Within a cycle no prompt repeats; where two
cycles meet, the new cycle's first `REST_SLOTS` slots skip the prompts of the old cycle's last
`REST_SLOTS`, so no prompt comes back within 60 days, and no prompt is in two tiers, so none comes
twice in a day. The same (secret, date) always gives the same puzzle, so racing generators agree.
"""

import hashlib
import hmac
import random
import re
from collections.abc import Sequence
from datetime import date as Date
from functools import cache, lru_cache
from typing import NamedTuple

from shared.game.constants import DAILY_FORBIDDEN_ROUNDS, DAILY_ROUNDS, PROMPT_REST_DAYS
from shared.game.dictionary import DICTIONARY_DIR
from shared.game.puzzle_tiers import BANDS, CLASSIC_TIERS, FORBIDDEN_TIERS, choose_forbidden

# A prompt used on day d may come back on day d + REST_SLOTS at the earliest (one slot a day).
REST_SLOTS = PROMPT_REST_DAYS + 1


class Round(NamedTuple):
    prompt: str
    forbidden: str  # 3 uppercase letters in a forbidden round, "" in a classic one


class DailySeed(NamedTuple):
    """What a Daily is generated from: a key derived from the deployment's secret (it orders the
    tiers' prompts) and the date (its place in that order)."""

    key: bytes
    date: str


class PuzzleError(Exception):
    """The pool cannot give a puzzle that keeps the rules (a dictionary build broke the pool)."""


class PoolPrompt(NamedTuple):
    tier: int
    common_answers: int


@cache
def pool() -> dict[str, PoolPrompt]:
    """Every prompt a puzzle may use, with its tier and common answers (dictionary/puzzle_pool.tsv)."""
    lines = (DICTIONARY_DIR / "puzzle_pool.tsv").read_text(encoding="ascii").splitlines()
    found = {}
    for line in lines[1:]:
        prompt, tier, common = line.split("\t")
        found[prompt] = PoolPrompt(int(tier), int(common))
    return found


@cache
def tier_prompts(tier: int) -> tuple[str, ...]:
    """The prompts of TIER, in alphabetical order."""
    return tuple(prompt for prompt, entry in pool().items() if entry.tier == tier)


@cache
def _word_text(name: str) -> str:
    return (DICTIONARY_DIR / name).read_text(encoding="ascii")


@cache
def top_words() -> frozenset[str]:
    """The most frequent words of the list (dictionary/top_words.txt), for the round floor."""
    return frozenset(_word_text("top_words.txt").split())


def answers(prompt: str, forbidden: str = "", list_name: str = "words.txt") -> list[str]:
    """Every word of a dictionary file accepted for PROMPT with FORBIDDEN letters (rules 3-5 of
    shared/game/rules.py as one pattern over the file; tests/game/test_puzzles.py checks they agree)."""
    allowed = "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in forbidden.lower())
    letter = f"[{allowed}]*"
    pattern = "^" + letter + letter.join(prompt.lower()) + letter + "$"
    return re.findall(pattern, _word_text(list_name), flags=re.MULTILINE)


def seed_for_date(secret: bytes, date: str) -> DailySeed:
    """The Daily's seed: the secret's key for ordering the tiers, and the date. Nobody without the
    secret can compute tomorrow's puzzle from the source code."""
    return DailySeed(hmac.new(secret, b"daily-prompt-order", hashlib.sha256).digest(), date)


def round_tiers(rounds: int, forbidden_rounds: int) -> list[int]:
    """The tier of each round: the classic rounds spread evenly over tiers 1-7, the forbidden ones
    over tiers 8-10 (a Daily: 1, 2, ..., 10; 5 rounds with 1 forbidden: 1, 3, 5, 7, 9)."""

    def spread(tiers: Sequence[int], count: int) -> list[int]:
        return [tiers[(2 * i + 1) * len(tiers) // (2 * count)] for i in range(count)]

    return spread(CLASSIC_TIERS, rounds - forbidden_rounds) + spread(FORBIDDEN_TIERS, forbidden_rounds)


def generate_puzzle(seed: bytes | DailySeed, rounds: int, forbidden_rounds: int) -> list[Round]:
    """`rounds` distinct prompts, the last `forbidden_rounds` of them in forbidden mode, from the
    easiest round to the hardest. A Daily (a DailySeed) takes its date's slot of each tier's walk;
    a challenge (random bytes) any prompts of its rounds' tiers."""
    tiers = round_tiers(rounds, forbidden_rounds)
    if isinstance(seed, DailySeed):
        if (rounds, forbidden_rounds) != (DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS):
            raise PuzzleError(f"a Daily has {DAILY_ROUNDS} rounds, {DAILY_FORBIDDEN_ROUNDS} forbidden")
        prompts = daily_prompts(seed.key, Date.fromisoformat(seed.date).toordinal())
        rng = random.Random(hmac.new(seed.key, f"daily:{seed.date}".encode(), hashlib.sha256).digest())
    else:
        rng = random.Random(seed)
        prompts = []
        for tier in sorted(set(tiers)):
            prompts += rng.sample(tier_prompts(tier), tiers.count(tier))
    return arrange(list(zip(tiers, prompts, strict=True)), rng)


def daily_prompts(key: bytes, day: int) -> list[str]:
    """The prompts of day number DAY, rounds 1-10: slot DAY of each tier's walk."""
    prompts = []
    for tier in range(1, len(BANDS) + 1):
        size = len(tier_prompts(tier))
        prompts.append(cycle_order(key, tier, day // size)[day % size])
    return prompts


@lru_cache(maxsize=4 * len(BANDS))
def cycle_order(key: bytes, tier: int, cycle: int) -> tuple[str, ...]:
    """TIER's prompts in the order cycle CYCLE walks them: its own shuffle, except that its first
    REST_SLOTS slots skip the prompts of the previous cycle's last REST_SLOTS (those move just
    after). The last REST_SLOTS are never moved, so a cycle depends on its own shuffle and the
    previous one's only."""
    order = _shuffled_tier(key, tier, cycle)
    if len(order) < 3 * REST_SLOTS:
        raise PuzzleError(
            f"tier {tier}'s {len(order)} prompts cannot keep {PROMPT_REST_DAYS} days between uses"
        )
    just_used = set(_shuffled_tier(key, tier, cycle - 1)[-REST_SLOTS:])
    movable = order[:-REST_SLOTS]
    head = [p for p in movable if p not in just_used][:REST_SLOTS]
    taken = set(head)
    return (*head, *(p for p in movable if p not in taken), *order[-REST_SLOTS:])


@lru_cache(maxsize=4 * len(BANDS))
def _shuffled_tier(key: bytes, tier: int, cycle: int) -> tuple[str, ...]:
    order = list(tier_prompts(tier))
    random.Random(hmac.new(key, f"tier:{tier}:cycle:{cycle}".encode(), hashlib.sha256).digest()).shuffle(
        order
    )
    return tuple(order)


def arrange(rounds: list[tuple[int, str]], rng: random.Random) -> list[Round]:
    """The rounds (tier, prompt) from the easiest to the hardest: classic ones by their common
    answers, then forbidden ones, with letters RNG chooses, by the common answers they keep.
    Tiers' bands do not overlap, so this is also the order of the tiers."""
    counts = pool()
    classic = sorted(
        (p for t, p in rounds if t in CLASSIC_TIERS), key=lambda p: (-counts[p].common_answers, p)
    )
    forbidden = []
    for tier, prompt in rounds:
        if tier in FORBIDDEN_TIERS:
            common = answers(prompt, "", "common.txt")
            letters, kept = choose_forbidden(prompt, common, tier, rng, top_words())
            forbidden.append((kept, Round(prompt, letters)))
    forbidden.sort(key=lambda pair: (-pair[0], pair[1].prompt))
    return [Round(p, "") for p in classic] + [r for _, r in forbidden]
