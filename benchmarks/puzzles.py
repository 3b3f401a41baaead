"""The puzzle report (make puzzles): a year of Dailies from one secret, measured against the word lists.

    python benchmarks/puzzles.py [SECRET] [--start 2026-01-01] [--days 365] [--dictionary DIR]

A round's difficulty is its common answers (dictionary/common.txt) left after its forbidden
letters (SPEC §3). For each round position: answers and difficulty (min / p10 / median / max);
then the figures of each rule of SPEC §3: whether rounds go from easiest to hardest (days in order,
Spearman's rho of round number against difficulty over all rounds), the share of common answers the
forbidden letters remove, how alike days are (p90 / p10 of a day's median round difficulty), the
share of plurals among a prompt's common answers, and the gaps between two uses of a prompt; the
best score of a player who knows every dictionary word against one who knows only the common words
(capped scoring, no word twice in a run); and the time to generate a puzzle. Figures, not assertions.

The round floor (SPEC §3): per round, the answers among the 10,000 most frequent words
(dictionary/top_words.txt) and the share of rounds a modelled casual player answers within 25 s.
The casual player knows exactly those words and recalls each answer of a round that they know
after an independent, exponentially distributed time of mean RECALL_SECONDS, so they find a first
answer within t seconds with probability 1 - exp(-k t / RECALL_SECONDS) for a round with k such
answers. RECALL_SECONDS is calibrated on benchmarks/skill.py's casual player, who thinks a median
5 s: on the day's median round (round 5, a median of 24 top answers on the lists before the floor)
that median is RECALL_SECONDS * ln 2 / 24. The share printed is the expected share (the mean of
that probability over the rounds).
"""

import argparse
import math
import re
import statistics
import sys
import time
from datetime import date, timedelta
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from shared.game.constants import DAILY_FORBIDDEN_ROUNDS, DAILY_ROUNDS  # noqa: E402
from shared.game.puzzle_tiers import is_plural  # noqa: E402
from shared.game.puzzles import generate_puzzle, seed_for_date  # noqa: E402
from shared.game.scoring import combo_bonus, word_points  # noqa: E402

REPEAT_WINDOW_DAYS = 60
CASUAL_THINK_SECONDS = 5.0  # benchmarks/skill.py's casual player: median time to start typing
CALIBRATION_TOP_ANSWERS = 24  # round 5's median top answers on the lists before the floor
RECALL_SECONDS = CASUAL_THINK_SECONDS * CALIBRATION_TOP_ANSWERS / math.log(2)
CASUAL_WINDOW_SECONDS = 25


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("secret", nargs="?", default="puzzle-report", help="the deployment's secret seed")
    parser.add_argument("--start", default="2026-01-01", help="first date (YYYY-MM-DD)")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument(
        "--dictionary", type=Path, default=REPO / "dictionary", help="word lists to count with"
    )
    args = parser.parse_args()

    text = (args.dictionary / "words.txt").read_text(encoding="ascii")
    words = frozenset(text.split())
    common = frozenset((args.dictionary / "common.txt").read_text(encoding="ascii").split())
    top = frozenset((args.dictionary / "top_words.txt").read_text(encoding="ascii").split())

    @cache
    def answers_of(prompt: str) -> tuple[str, ...]:
        letter = "[a-z]*"
        pattern = "^" + letter + letter.join(prompt.lower()) + letter + "$"
        return tuple(re.findall(pattern, text, flags=re.MULTILINE))

    def round_answers(prompt: str, forbidden: str) -> list[str]:
        banned = set(forbidden.lower())
        return [w for w in answers_of(prompt) if not banned & set(w)]

    first = date.fromisoformat(args.start)
    days = [first + timedelta(days=i) for i in range(args.days)]
    secret = args.secret.encode()

    timings, puzzles = [], []
    for day in days:
        started = time.perf_counter()
        puzzle = generate_puzzle(seed_for_date(secret, day.isoformat()), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS)
        timings.append(time.perf_counter() - started)
        puzzles.append(puzzle)

    per_position: list[list[tuple[int, int]]] = [[] for _ in range(DAILY_ROUNDS)]
    top_per_position: list[list[int]] = [[] for _ in range(DAILY_ROUNDS)]
    positions, difficulties, day_medians, removed_shares = [], [], [], []
    ordered_days = 0
    plural_shares: dict[str, float] = {}
    best_all, best_common = [], []
    last_use: dict[str, date] = {}
    gaps: list[int] = []
    same_day = 0
    for day, puzzle in zip(days, puzzles, strict=True):
        day_difficulties = []
        for position, current in enumerate(puzzle, 1):
            found = round_answers(current.prompt, current.forbidden)
            difficulty = sum(w in common for w in found)
            per_position[position - 1].append((len(found), difficulty))
            top_per_position[position - 1].append(sum(w in top for w in found))
            positions.append(position)
            difficulties.append(difficulty)
            day_difficulties.append(difficulty)
            prompt_common = [w for w in answers_of(current.prompt) if w in common]
            if current.forbidden:
                removed_shares.append(1 - difficulty / len(prompt_common))
            plural_shares[current.prompt] = sum(is_plural(w, words) for w in prompt_common) / len(
                prompt_common
            )
        ordered_days += day_difficulties == sorted(day_difficulties, reverse=True)
        day_medians.append(statistics.median(day_difficulties))
        best_all.append(best_score(puzzle, round_answers, lambda w: True))
        best_common.append(best_score(puzzle, round_answers, common.__contains__))
        prompts = [r.prompt for r in puzzle]
        same_day += len(prompts) - len(set(prompts))
        for prompt in set(prompts):
            if prompt in last_use:
                gaps.append((day - last_use[prompt]).days)
            last_use[prompt] = day

    print(
        f"{len(days)} Dailies from {days[0]} to {days[-1]}, secret {args.secret!r}, lists {args.dictionary}"
    )
    print()
    print("round | mode      | answers min / p10 / median / max | difficulty min / p10 / median / max")
    for position, pairs in enumerate(per_position, 1):
        mode = "forbidden" if position > DAILY_ROUNDS - DAILY_FORBIDDEN_ROUNDS else "classic"
        print(
            f"{position:>5} | {mode:<9} | {summary([a for a, _ in pairs]):>32} | "
            f"{summary([c for _, c in pairs]):>35}"
        )
    print()
    print(
        f"round floor: answers among the {len(top):,} most frequent words, and the casual player "
        f"(recalls a known answer in {RECALL_SECONDS:.0f} s on average) answering within "
        f"{CASUAL_WINDOW_SECONDS} s"
    )
    print("round | top answers min / p10 / median / max | fewer than 8 | casual answers within 25 s")
    for position, tops in enumerate(top_per_position, 1):
        chance = statistics.mean(casual_finds(k) for k in tops)
        print(f"{position:>5} | {summary(tops):>37} | {sum(k < 8 for k in tops):>12} | {chance:.0%}")
    print()
    print("easiest to hardest:")
    print(f"  days whose ten rounds never get easier: {ordered_days} of {len(days)}")
    rho = spearman(positions, difficulties)
    print(f"  Spearman's rho, round number against difficulty, all rounds: {rho:.3f}")
    scarce = sum(d < 10 for d in difficulties)
    print(f"  rounds with fewer than 10 common answers: {scarce} of {len(difficulties)}")
    shares = sorted(removed_shares)
    print(
        f"forbidden letters' share of the prompt's common answers removed: min {shares[0]:.0%}, "
        f"median {statistics.median(shares):.0%}, max {shares[-1]:.0%}; "
        f"outside 40-80%: {sum(not 0.4 <= s <= 0.8 for s in shares)} of {len(shares)}"
    )
    p10, p90 = percentile(day_medians, 10), percentile(day_medians, 90)
    print(f"days alike: a day's median round difficulty p10 {p10:g}, p90 {p90:g}, p90/p10 {p90 / p10:.2f}")
    plural = sorted(plural_shares.values())
    print(
        f"plurals among a prompt's common answers ({len(plural)} prompts used): median "
        f"{statistics.median(plural):.0%}, max {plural[-1]:.0%}; over a third: "
        f"{sum(s > 1 / 3 for s in plural)}"
    )
    within = sum(g <= REPEAT_WINDOW_DAYS for g in gaps)
    print(
        f"reuse: prompts used twice in a day {same_day}; {len(gaps)} prompts came back, the soonest after "
        f"{min(gaps, default=0)} days, {within} within {REPEAT_WINDOW_DAYS} days"
    )
    print()
    print("best score (every round answered, longest unused word, capped scoring):")
    print(f"  knows every dictionary word: {summary(best_all)}")
    print(f"  knows only common words:     {summary(best_common)}")
    print()
    ms = [t * 1000 for t in timings]
    print(
        f"generation time: first {ms[0]:.1f} ms (loads the pool), then median "
        f"{statistics.median(ms[1:]):.2f} ms, max {max(ms[1:]):.2f} ms per puzzle"
    )


def casual_finds(top_answers: int) -> float:
    """The chance the modelled casual player finds an answer within the window (module docstring)."""
    return 1 - math.exp(-top_answers * CASUAL_WINDOW_SECONDS / RECALL_SECONDS)


def best_score(puzzle, round_answers, knows) -> int:
    """The score of a player who answers every round with the longest word they know that the run has
    not used (a repeat would be rejected), so the combo runs through all rounds."""
    used: set[str] = set()
    score, combo = 0, 0
    for current in puzzle:
        known = [w for w in round_answers(current.prompt, current.forbidden) if knows(w) and w not in used]
        if not known:
            combo = 0
            continue
        word = max(known, key=lambda w: (len(w), w))
        used.add(word)
        combo += 1
        score += word_points(len(word), bool(current.forbidden)) + combo_bonus(combo)
    return score


def ranks(values: list[float]) -> list[float]:
    """1-based ranks, ties sharing their average rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for index in order[start : end + 1]:
            result[index] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks."""
    return statistics.correlation(ranks(xs), ranks(ys))


def percentile(values: list[float], p: int) -> float:
    """The P-th percentile, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, len(ordered) * p // 100)]


def summary(values: list[int]) -> str:
    ordered = sorted(values)
    parts = [ordered[0], percentile(ordered, 10), int(statistics.median(ordered)), ordered[-1]]
    return " / ".join(f"{v:,}" for v in parts)


if __name__ == "__main__":
    main()
