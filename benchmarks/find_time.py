"""The find-time model (SPEC §3b, shared/game/find_time.py) against bots and simulated people on the
same days: how often it makes an honest run suspect, and whether a bot can win. Prints figures,
asserts nothing.

    python benchmarks/find_time.py [--players 1000] [--days 365] [--start 2026-01-01] [--seed 11]

Each date's puzzle comes from the generator (a fixed secret). Its board: `--players` simulated
people (benchmarks/skill.py: 60% casual, 30% good, 10% expert); one *regular* of each honest model
(casual, good, expert, steady: a fast, even expert, 1.5-3 s for a frequent word; phone: the same
on a phone), who plays every day, so that their running figure over 30 runs counts; and bots, who
know every word (the solver's: the longest that scores) and play every day:
- `floor`: answers at the typing floor + 30 ms;
- `waiter`: each answer 1.05 s after the round was shown (+ network);
- `one_slow`: the floor everywhere but the hardest round, where it waits 3-4 s;
- `mimic`: a person's waits (lognormal, sigma 0.5, median 2.5 s in round 1 to 6.5 s in round 10),
  then types at 150 ms a key;
- `rehearser`: played the Daily as a guest first: waits about a second, then types at 150 ms a key;
- `crowd`: five one_slow bots on the same board (its row: the best of the five);
- `tuned`: reads the find-time model and waits, for each word, the median of the fastest people
  for it (the prior's FAST_LOG_MS plus the word's effort);
- `retuned`: reads the whole model, knowledge included: of the longest scoring words it plays the
  most frequent (the least knowledge), and waits, round by round, what puts its figure half a
  point under the threshold (its own knowledge counted): the model's best adversary.
The closing pass's model runs over the whole board (ScopeStats over every ranked run, then judge).
Printed per model: runs suspect (by the run's figure, and by the 30-run running figure), the day
its running figure first opened a case (one account, every day), days it would have been rank 1,
days suspect among those, days at rank 1 once suspects are voided, and the median margin over the
day's best honest run (not suspect). Then the honest totals: runs suspect (with a 95% upper
bound), and days on which an honest top-10 finisher is suspect.
"""

import argparse
import math
import random
import statistics
import sys
from collections import defaultdict, deque
from datetime import date, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.skill import (  # noqa: E402
    LIMIT_MS,
    MIX,
    NETWORK_MS,
    PEOPLE,
    PHONE,
    SOLVER_NETWORK_MS,
    STEADY,
    Person,
    Played,
    play,
    round_answers,
    score,
    solver_word,
)
from shared.game import find_time  # noqa: E402
from shared.game.constants import DAILY_FORBIDDEN_ROUNDS, DAILY_ROUNDS, SCORED_LENGTH_CAP  # noqa: E402
from shared.game.fair_play import fastest_plausible_ms  # noqa: E402
from shared.game.find_time import FAST_CAP, Answer, RunTimes, ScopeStats, judge, running_evidence  # noqa: E402
from shared.game.find_time_knowledge import KNOWLEDGE_MEAN, knowledge  # noqa: E402
from shared.game.find_time_prior import FAST_LOG_MS, SIGMA, effort, round_difficulty  # noqa: E402
from shared.game.puzzles import Round, generate_puzzle, seed_for_date  # noqa: E402

BOTS = ("floor", "waiter", "one_slow", "mimic", "rehearser", "crowd", "tuned", "retuned")
CROWD = 5
REGULARS: tuple[Person, ...] = (*PEOPLE, STEADY, PHONE)


def bot(puzzle: list[Round], kind: str, rng: random.Random) -> Played:
    """One bot's run: the solver's words, each sent after the bot's own wait."""
    used: set[str] = set()
    attempts: list[tuple[int, str | None, int, int]] = []
    difficulty = [round_difficulty(r) for r in puzzle]
    hardest = min(range(len(puzzle)), key=lambda i: (difficulty[i], -i)) + 1
    now = 0
    for number, current in enumerate(puzzle, start=1):
        candidates = [
            w for w in round_answers(current.prompt, current.forbidden, "words.txt") if w not in used
        ]
        if not candidates:
            continue
        word = solver_word(candidates)
        if kind == "retuned":  # the longest that scores, the most frequent of those
            scored = min(len(word), SCORED_LENGTH_CAP)
            word = min(
                (w for w in candidates if min(len(w), SCORED_LENGTH_CAP) == scored),
                key=lambda w: (knowledge(w, current), len(w), w),
            )
        used.add(word)
        floor = fastest_plausible_ms(len(word))
        typed = 150 * (len(word) + 1) + rng.uniform(*NETWORK_MS)
        if kind == "floor" or (kind in ("one_slow", "crowd") and number != hardest):
            elapsed = floor + 30 + rng.randint(*SOLVER_NETWORK_MS)
        elif kind in ("one_slow", "crowd"):
            elapsed = rng.randint(3000, 4000)
        elif kind == "waiter":
            elapsed = 1050 + rng.randint(*SOLVER_NETWORK_MS)
        elif kind == "rehearser":
            elapsed = int(1000 * math.exp(rng.gauss(0, 0.25)) + typed)
        elif kind == "mimic":
            median = 2500 + 4000 * (number - 1) / max(1, len(puzzle) - 1)
            elapsed = int(median * math.exp(rng.gauss(0, 0.5)) + typed)
        else:  # tuned: the fastest people's median for this word, then the floor's typing
            spreads = 0.0  # how many spreads under the fastest people's median
            if kind == "retuned":  # each round's part of a figure half a point under the threshold
                target = (find_time.THRESHOLD - 0.5) / math.sqrt(len(puzzle))
                spreads = min(FAST_CAP, target - max(0.0, knowledge(word, current) - KNOWLEDGE_MEAN))
            log_found = FAST_LOG_MS + effort(word, difficulty[number - 1]) - SIGMA * spreads
            found = math.exp(log_found + rng.gauss(0, 0.1))
            elapsed = int(found + floor + rng.randint(*SOLVER_NETWORK_MS))
        elapsed = max(elapsed, floor)
        if now + elapsed > LIMIT_MS:
            break
        now += elapsed
        attempts.append((number, word, now, elapsed))
    return score(puzzle, attempts)


def times_of(run_id: str, played: Played) -> RunTimes:
    return RunTimes(
        run_id,
        run_id,
        tuple(Answer(number, word, elapsed) for number, word, _, elapsed in played.attempts if word),
    )


def upper_95(hits: int, total: int) -> float:
    """A one-sided 95% upper bound of a rate seen HITS times in TOTAL (the rule of three at 0)."""
    if hits == 0:
        return 3 / total
    rate = hits / total
    return rate + 1.645 * math.sqrt(rate * (1 - rate) / total)


def order(played: Played) -> tuple[tuple[int, ...], int]:
    return (tuple(-v for v in played.tie()), played.duration_ms)


class Tally:
    """One model's figures over the days."""

    def __init__(self) -> None:
        self.runs = self.suspect = self.running = 0
        self.first_case: int | None = None  # the first day its running figure opened a case
        self.would_win = self.caught_winning = self.rank1 = 0
        self.margins: list[int] = []
        self.scores: list[float] = []

    def case(self, offset: int, suspect: bool) -> None:
        """Day OFFSET's running figure (over the account's last runs): a case or not."""
        self.running += suspect
        if suspect and self.first_case is None:
            self.first_case = offset + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--secret", default="skill-benchmark")
    parser.add_argument("--start", default="2026-01-01")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    first = date.fromisoformat(args.start)
    tally: dict[str, Tally] = defaultdict(Tally)
    history: dict[str, deque[float]] = defaultdict(lambda: deque(maxlen=find_time.RUNNING_RUNS))
    honest_runs = honest_suspect = top10_days = 0
    honest_scores: list[float] = []
    for offset in range(args.days):
        day = (first + timedelta(days=offset)).isoformat()
        puzzle = generate_puzzle(
            seed_for_date(args.secret.encode(), day), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS
        )
        board: dict[str, Played] = {}
        model: dict[str, str] = {}
        for n in range(args.players):
            person = rng.choices(PEOPLE, MIX)[0]
            board[f"p{n}"], model[f"p{n}"] = play(puzzle, person, rng), person.name
        for person in REGULARS:
            name = f"regular-{person.name}"
            board[name], model[name] = play(puzzle, person, rng), name
        for kind in BOTS:
            for n in range(CROWD if kind == "crowd" else 1):
                name = f"bot-{kind}-{n}"
                board[name], model[name] = bot(puzzle, kind, rng), kind
        ranked = {run_id: p for run_id, p in board.items() if p.ranked}
        runs = {run_id: times_of(run_id, p) for run_id, p in ranked.items()}
        stats = ScopeStats.empty(len(puzzle))
        for times in runs.values():
            stats.add(times)
        evidence = {run_id: judge(times, puzzle, stats) for run_id, times in runs.items()}
        suspect = {run_id for run_id, e in evidence.items() if e.suspect}
        for run_id, e in evidence.items():
            if not run_id.startswith("p"):
                history[run_id].append(e.score)
        honest = sorted((r for r in ranked if not r.startswith("bot-")), key=lambda r: order(ranked[r]))
        honest_runs += len(honest)
        honest_suspect += sum(r in suspect for r in honest)
        top10_days += any(r in suspect for r in honest[:10])
        honest_scores += [evidence[r].score for r in honest]
        best_honest = next((ranked[r] for r in honest if r not in suspect), None)
        for run_id in honest:
            figures = tally[model[run_id]]
            figures.runs += 1
            figures.suspect += run_id in suspect
            figures.scores.append(evidence[run_id].score)
            if run_id.startswith("regular-"):
                figures.case(offset, running_evidence(list(history[run_id])).suspect)
        kept = [r for r in honest if r not in suspect]
        if kept:
            tally[model[kept[0]]].rank1 += 1
        for kind in BOTS:
            figures = tally[kind]
            names = [n for n in ranked if model[n] == kind]
            figures.runs += 1
            if not names:
                continue
            best = min(names, key=lambda n: order(ranked[n]))
            caught = all(n in suspect for n in names)
            figures.suspect += caught
            figures.case(offset, all(running_evidence(list(history[n])).suspect for n in names))
            figures.scores.append(evidence[best].score)
            if best_honest is None:
                continue
            figures.margins.append(ranked[best].score - best_honest.score)
            if order(ranked[best]) < order(best_honest):
                figures.would_win += 1
                figures.caught_winning += caught
                uncaught = [n for n in names if n not in suspect]
                figures.rank1 += bool(uncaught)

    print(
        f"Find-time model over {args.days} Dailies from {args.start}, {args.players:,} people a day "
        f"+ 5 regulars + bots; secret {args.secret!r}, seed {args.seed}"
    )
    print(
        f"  threshold {find_time.THRESHOLD}, running threshold {find_time.RUNNING_THRESHOLD} over "
        f"{find_time.RUNNING_RUNS} runs"
    )
    header = f"  {'model':<17}{'runs':>9}{'suspect':>9}{'running':>9}{'case day':>9}{'would win':>10}"
    print(header + f"{'caught':>8}{'rank 1':>8}{'margin':>8}{'score p5':>9}{'p50':>7}{'p99.9':>7}")
    for name in [*(p.name for p in PEOPLE), *(f"regular-{p.name}" for p in REGULARS), *BOTS]:
        f = tally[name]
        margin = f"{statistics.median(f.margins):+.0f}" if f.margins else "-"
        ordered = sorted(f.scores)
        p5, p50, p999 = (ordered[int(q * len(ordered))] if ordered else 0.0 for q in (0.05, 0.5, 0.999))
        would = f"{f.would_win}" if name in BOTS else "-"
        caught = f"{f.caught_winning}" if name in BOTS else "-"
        first = f"{f.first_case}" if f.first_case else "-"
        print(
            f"  {name:<17}{f.runs:>9,}{f.suspect:>9,}{f.running:>9,}{first:>9}{would:>10}{caught:>8}"
            f"{f.rank1:>8}{margin:>8}{p5:>9.2f}{p50:>7.2f}{p999:>7.2f}"
        )
    bound = upper_95(honest_suspect, honest_runs)
    print(
        f"  honest runs suspect: {honest_suspect} of {honest_runs:,} "
        f"({honest_suspect / honest_runs:.6f}; 95% upper bound {bound:.6f})"
    )
    print(f"  days an honest top-10 finisher is suspect: {top10_days} of {args.days}")
    ordered = sorted(honest_scores)
    tail = ", ".join(f"p{100 * q:g} {ordered[int(q * len(ordered))]:.2f}" for q in (0.99, 0.999, 0.9999))
    print(f"  honest figures: {tail}, max {ordered[-1]:.2f}")


if __name__ == "__main__":
    main()
