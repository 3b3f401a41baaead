"""The find-time pass (SPEC §3b, shared/game/find_time.py) over a year of Dailies: how often it
makes an honest simulated person's run suspect, and how often it catches scripts and rehearsers.
Prints figures, asserts nothing.

    python benchmarks/find_time.py [--secret S] [--start 2026-01-01] [--days 365] [--players 1000]

Each date's puzzle comes from the generator (a fixed secret); its board is `--players` simulated
people (benchmarks/skill.py's model: 60% casual, 30% good, 10% expert) and one of each of:
- `script`: knows every word and answers as soon as the typing floor allows (+20-80 ms network);
- `waiter`: the same words, each sent 1.05 s after the round was shown (+ network);
- `rehearser`: played the Daily as a guest first; waits about a second (lognormal, sigma 0.25),
  then types its prepared word at 150 ms a key;
- `mimic`: the script's words after a person's thinking time (lognormal, median 3 s, sigma 0.5):
  what the pass is not meant to catch (docs/moderation.md).
Then the pass runs over the whole board, as the closing job runs it. Printed: the share of honest
runs made suspect (with a 95% upper bound), each bot's share made suspect, and the days a bot
holds rank 1 once every suspect run is voided. `--sweep` also prints the honest and bot rates for
other values of the two thresholds: how the constants were chosen.
"""

import argparse
import math
import random
import sys
from datetime import date, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.skill import (  # noqa: E402
    LIMIT_MS,
    MIX,
    NETWORK_MS,
    PEOPLE,
    SOLVER_NETWORK_MS,
    Played,
    play,
    round_answers,
    score,
    solver_word,
)
from shared.game import find_time  # noqa: E402
from shared.game.constants import DAILY_FORBIDDEN_ROUNDS, DAILY_ROUNDS  # noqa: E402
from shared.game.fair_play import fastest_plausible_ms  # noqa: E402
from shared.game.find_time import RunTimes, find_time_pass  # noqa: E402
from shared.game.puzzles import Round, generate_puzzle, seed_for_date  # noqa: E402

BOTS = ("script", "waiter", "rehearser", "mimic")


def bot(puzzle: list[Round], kind: str, rng: random.Random) -> Played:
    """One bot's run: the solver's words, each sent after the bot's own wait."""
    used: set[str] = set()
    attempts: list[tuple[int, str | None, int, int]] = []
    now = 0
    for number, current in enumerate(puzzle, start=1):
        candidates = [
            w for w in round_answers(current.prompt, current.forbidden, "words.txt") if w not in used
        ]
        if not candidates:
            continue
        word = solver_word(candidates)
        used.add(word)
        if kind == "script":
            elapsed = fastest_plausible_ms(len(word)) + rng.randint(*SOLVER_NETWORK_MS)
        elif kind == "waiter":
            elapsed = 1050 + rng.randint(*SOLVER_NETWORK_MS)
        elif kind == "rehearser":
            wait = 1000 * math.exp(rng.gauss(0, 0.25))
            elapsed = int(wait + 150 * (len(word) + 1) + rng.uniform(*NETWORK_MS))
        else:  # mimic
            wait = 3000 * math.exp(rng.gauss(0, 0.5))
            elapsed = int(wait + 150 * (len(word) + 1) + rng.uniform(*NETWORK_MS))
        if now + elapsed > LIMIT_MS:
            break
        now += elapsed
        attempts.append((number, word, now, elapsed))
    return score(puzzle, attempts)


def times_of(run_id: str, played: Played) -> RunTimes:
    return RunTimes(run_id, {number: elapsed for number, word, _, elapsed in played.attempts if word})


def difficulty(puzzle: list[Round]) -> list[int]:
    return [len(round_answers(r.prompt, r.forbidden, "common.txt")) for r in puzzle]


def upper_95(hits: int, total: int) -> float:
    """A one-sided 95% upper bound of a rate seen HITS times in TOTAL (the rule of three at 0)."""
    if hits == 0:
        return 3 / total
    rate = hits / total
    return rate + 1.645 * math.sqrt(rate * (1 - rate) / total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--secret", default="skill-benchmark")
    parser.add_argument("--start", default="2026-01-01")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--sweep", action="store_true")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    first = date.fromisoformat(args.start)
    honest_runs = honest_suspect = 0
    bot_suspect = dict.fromkeys(BOTS, 0)
    bot_rank1 = dict.fromkeys(BOTS, 0)
    rank1_before = dict.fromkeys(BOTS, 0)
    sweeps: dict[tuple[float, float], list[int]] = {}
    for offset in range(args.days):
        day = (first + timedelta(days=offset)).isoformat()
        puzzle = generate_puzzle(
            seed_for_date(args.secret.encode(), day), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS
        )
        board: dict[str, Played] = {}
        for n in range(args.players):
            board[f"p{n}"] = play(puzzle, rng.choices(PEOPLE, MIX)[0], rng)
        for kind in BOTS:
            board[kind] = bot(puzzle, kind, rng)
        ranked = {run_id: p for run_id, p in board.items() if p.ranked}
        runs = [times_of(run_id, p) for run_id, p in ranked.items()]
        hard = difficulty(puzzle)
        suspects = {s.run_id for s in find_time_pass(runs, hard).suspects}
        honest_runs += sum(1 for run_id in ranked if run_id.startswith("p"))
        honest_suspect += sum(1 for run_id in suspects if run_id.startswith("p"))
        for kind in BOTS:
            bot_suspect[kind] += kind in suspects
        for counts, kept in (
            (rank1_before, ranked),
            (bot_rank1, {r: p for r, p in ranked.items() if r not in suspects}),
        ):
            first_row = min(
                kept.items(), key=lambda item: (tuple(-v for v in item[1].tie()), item[1].duration_ms)
            )
            if first_row[0] in counts:
                counts[first_row[0]] += 1
        if args.sweep:
            cv0, q0 = find_time.EVEN_PACING_CV, find_time.HARD_QUANTILE
            for cv in (0.06, 0.08, 0.10, 0.12):
                for q in (0.002, 0.01, 0.05):
                    find_time.EVEN_PACING_CV, find_time.HARD_QUANTILE = cv, q
                    flagged = {s.run_id for s in find_time_pass(runs, hard).suspects}
                    row = sweeps.setdefault((cv, q), [0] * (1 + len(BOTS)))
                    row[0] += sum(1 for run_id in flagged if run_id.startswith("p"))
                    for i, kind in enumerate(BOTS, start=1):
                        row[i] += kind in flagged
            find_time.EVEN_PACING_CV, find_time.HARD_QUANTILE = cv0, q0

    print(
        f"Find-time pass over {args.days} Dailies from {args.start}, secret {args.secret!r}, seed {args.seed}"
    )
    print(
        f"  rules: even pacing CV < {find_time.EVEN_PACING_CV} over >= {find_time.EVEN_MIN_ANSWERS} answers;"
    )
    print(f"         {find_time.HARD_ROUNDS} hardest rounds all under the {find_time.HARD_QUANTILE} quantile")
    bound = upper_95(honest_suspect, honest_runs)
    print(
        f"  honest runs suspect: {honest_suspect} of {honest_runs:,} "
        f"({honest_suspect / honest_runs:.6f}; 95% upper bound {bound:.6f})"
    )
    for kind in BOTS:
        print(
            f"  {kind:<10} suspect on {bot_suspect[kind]} of {args.days} days; "
            f"rank 1 on {rank1_before[kind]} days before review, {bot_rank1[kind]} after voiding suspects"
        )
    if args.sweep:
        print("  sweep (CV, quantile): honest suspects / " + " / ".join(BOTS) + " suspect days")
        for (cv, q), row in sorted(sweeps.items()):
            print(f"    {cv:.2f} {q:.3f}: {row[0]} / " + " / ".join(str(v) for v in row[1:]))


if __name__ == "__main__":
    main()
