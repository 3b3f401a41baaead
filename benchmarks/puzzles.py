"""The puzzle report (make puzzles): a year of Dailies from one secret, measured against the word lists.

    python benchmarks/puzzles.py [SECRET] [--start 2026-01-01] [--days 365] [--dictionary DIR]

For each round position: answers and common answers (min / p10 / median); how often a prompt comes
back within 60 days; the hardest rounds; whether rounds go from easiest to hardest; the best score of
a player who knows every dictionary word against one who knows only the common words (capped
scoring, no word twice in a run); and the time to generate a puzzle. Figures, not assertions.
"""

import argparse
import re
import statistics
import sys
import time
from datetime import date, timedelta
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from shared.constants import DAILY_FORBIDDEN_ROUNDS, DAILY_ROUNDS  # noqa: E402
from shared.puzzles import generate_puzzle, seed_for_date  # noqa: E402
from shared.scoring import combo_bonus, word_points  # noqa: E402

REPEAT_WINDOW_DAYS = 60


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
    common = frozenset((args.dictionary / "common.txt").read_text(encoding="ascii").split())

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
    rounds = []  # (common, answers, day, position, prompt, forbidden)
    ramp_ok = {"classic": 0, "forbidden": 0}
    best_all, best_common = [], []
    last_use: dict[str, date] = {}
    repeats = {"same day": 0, "next day": 0, "within 7 days": 0, f"within {REPEAT_WINDOW_DAYS} days": 0}
    for day, puzzle in zip(days, puzzles, strict=True):
        counts = []
        for position, current in enumerate(puzzle):
            found = round_answers(current.prompt, current.forbidden)
            pair = (len(found), sum(w in common for w in found))
            counts.append(pair)
            per_position[position].append(pair)
            rounds.append((pair[1], pair[0], day, position + 1, current.prompt, current.forbidden))
        classic = [c for (_, c), r in zip(counts, puzzle, strict=True) if not r.forbidden]
        forbidden = [c for (_, c), r in zip(counts, puzzle, strict=True) if r.forbidden]
        ramp_ok["classic"] += classic == sorted(classic, reverse=True)
        ramp_ok["forbidden"] += forbidden == sorted(forbidden, reverse=True)
        best_all.append(best_score(puzzle, round_answers, lambda w: True))
        best_common.append(best_score(puzzle, round_answers, common.__contains__))
        prompts = [r.prompt for r in puzzle]
        repeats["same day"] += len(prompts) - len(set(prompts))
        for prompt in set(prompts):
            if prompt in last_use:
                gap = (day - last_use[prompt]).days
                repeats["next day"] += gap == 1
                repeats["within 7 days"] += gap <= 7
                repeats[f"within {REPEAT_WINDOW_DAYS} days"] += gap <= REPEAT_WINDOW_DAYS
            last_use[prompt] = day

    print(
        f"{len(days)} Dailies from {days[0]} to {days[-1]}, secret {args.secret!r}, lists {args.dictionary}"
    )
    print()
    print("round | mode      | answers min / p10 / median | common answers min / p10 / median")
    for position, pairs in enumerate(per_position, 1):
        mode = "forbidden" if position > DAILY_ROUNDS - DAILY_FORBIDDEN_ROUNDS else "classic"
        print(
            f"{position:>5} | {mode:<9} | {summary([a for a, _ in pairs]):>26} | "
            f"{summary([c for _, c in pairs]):>34}"
        )
    print()
    print("prompt repeats: " + ", ".join(f"{name} {count}" for name, count in repeats.items()))
    print(
        f"days ordered easiest to hardest (common answers): classic rounds {ramp_ok['classic']}/{len(days)}, "
        f"forbidden rounds {ramp_ok['forbidden']}/{len(days)}"
    )
    print(f"rounds with fewer than 10 common answers: {sum(c < 10 for c, *_ in rounds)} of {len(rounds)}")
    print()
    print("hardest rounds (fewest common answers):")
    for common_count, answer_count, day, position, prompt, forbidden in sorted(rounds)[:10]:
        mode = f"{prompt} forbidding {forbidden}" if forbidden else prompt
        print(f"  {day} round {position:>2}: {mode:<18} {answer_count:>5} answers, {common_count:>4} common")
    print()
    print("best score (every round answered, longest unused word, capped scoring):")
    print(f"  knows every dictionary word: {summary(best_all, ' / ', True)}")
    print(f"  knows only common words:     {summary(best_common, ' / ', True)}")
    print()
    ms = [t * 1000 for t in timings]
    print(
        f"generation time: first {ms[0]:.1f} ms (loads the pool), then median "
        f"{statistics.median(ms[1:]):.2f} ms, max {max(ms[1:]):.2f} ms per puzzle"
    )


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


def summary(values: list[int], sep: str = " / ", with_max: bool = False) -> str:
    ordered = sorted(values)
    p10 = ordered[len(ordered) // 10]
    parts = [ordered[0], p10, int(statistics.median(ordered))] + ([ordered[-1]] if with_max else [])
    text = sep.join(f"{v:,}" for v in parts)
    return f"min/p10/median/max {text}" if with_max else text


if __name__ == "__main__":
    main()
