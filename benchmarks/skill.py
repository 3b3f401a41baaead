"""What wins a Daily board: a year of Dailies from the generator, played by a solver and by
simulated people, scored by the game's rules (SPEC §3, §3b, §4). Prints figures, asserts nothing.

    python benchmarks/skill.py [--secret S] [--start 2026-01-01] [--days 365] [--players 1000]

For each date's puzzle (the current generator, a fixed secret): the highest score a ranked run can
reach; a solver's score; the scores of three kinds of simulated people (medians over the year);
and, for a board of simulated people (and for the same board with solver scripts on it), the share
of days on which the top rows tie: rank 1 shared (equal score, best combo and longest word up to
12), and tied even on the run's duration (only the completion time left to order them). The same
players are also scored by the rules before speed counted (no speed bonus, longest word uncapped in
the order), side by side.

The models (assumptions, not measurements):
- The solver knows every accepted word; in each round it answers the shortest word of the longest
  length that scores (12 letters, else the longest it has), never one the run used, as soon as
  fair play allows (its threshold plus 20-80 ms of network), so it is ranked and earns every speed
  bonus a ranked run can. Scripts that play like this are what fair play cannot catch. By the
  rules before speed counted, it answers the longest word it has (the order counted its length).
- A person reads the prompt and thinks for a lognormal time (median `think` seconds times the
  word's effort, sigma `spread`), then types the word at `key_ms` per key, Enter included, plus
  40-150 ms of network (`network`). The effort (shared/game/find_time_prior.py) is how much longer
  a rarer, longer word in a harder round takes to come up with: 1 for one of the 10,000 most
  frequent words of 6 letters in a round of 100 common answers, 3 for a rare one, 1.8 for 12
  letters, 1.7 in a round of 12 common answers (a miss takes the round's effort alone). Each
  attempt finds a valid word with probability `find` (less in forbidden rounds: times 0.8); the word
  is a common answer with probability `common` (else any accepted answer), the longest of `picks`
  random candidates, never one the run used. A miss is a wrong word (a rejection) typed the same
  way; the third miss loses the round. The run stops at the 180 s time limit.
  casual: think 5 s, 260 ms a key, find 0.60, common 0.97, picks 1;
  good:   think 3 s, 190 ms a key, find 0.80, common 0.90, picks 3;
  expert: think 1.8 s, 140 ms a key, find 0.92, common 0.75, picks 8;
  steady: a fast, even expert: 1.5-3 s for a frequent word (think 2.1 s, spread 0.2), 140 ms a key;
  phone:  the steady expert on a phone: 250 ms a key, 100-400 ms of network.
  A board's people are 60% casual, 30% good, 10% expert (steady and phone: benchmarks/find_time.py).
Scores come from the game's own rule functions (shared/game/scoring.py, shared/game/fair_play.py); a sample
of the simulated runs is replayed through the run engine (shared/game/runs.py) as a check.
"""

import argparse
import math
import random
import re
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from shared.game.constants import (  # noqa: E402
    DAILY_FORBIDDEN_ROUNDS,
    DAILY_ROUNDS,
    SCORED_LENGTH_CAP,
    TIME_LIMIT_SECONDS,
)
from shared.game.dictionary import DICTIONARY_DIR, words  # noqa: E402
from shared.game.fair_play import fastest_plausible_ms, ranked  # noqa: E402
from shared.game.find_time_prior import round_effort, word_effort  # noqa: E402
from shared.game.puzzles import Round, generate_puzzle, seed_for_date  # noqa: E402
from shared.game.runs import answer, new_run, skip  # noqa: E402
from shared.game.scoring import combo_bonus, speed_bonus, word_points  # noqa: E402

LIMIT_MS = TIME_LIMIT_SECONDS * 1000
NETWORK_MS = (40, 150)
SOLVER_NETWORK_MS = (20, 80)


@dataclass(frozen=True)
class Person:
    name: str
    think: float  # median seconds from the round shown to starting to type
    key_ms: int
    find: float
    common: float
    picks: int
    spread: float = 0.5  # sigma of the thinking time (log)
    network: tuple[int, int] = NETWORK_MS


PEOPLE = (
    Person("casual", 5.0, 260, 0.60, 0.97, 1),
    Person("good", 3.0, 190, 0.80, 0.90, 3),
    Person("expert", 1.8, 140, 0.92, 0.75, 8),
)
MIX = (0.6, 0.3, 0.1)
STEADY = Person("steady", 2.1, 140, 0.92, 0.75, 8, spread=0.2)
PHONE = Person("phone", 2.1, 250, 0.92, 0.75, 8, spread=0.2, network=(100, 400))


@cache
def _text(name: str) -> str:
    return (DICTIONARY_DIR / name).read_text(encoding="ascii")


@cache
def round_answers(prompt: str, forbidden: str, list_name: str) -> tuple[str, ...]:
    """The words of LIST_NAME the game accepts for PROMPT without FORBIDDEN letters (§2 rules 3-5;
    only words the game's dictionary holds, whatever the list)."""
    allowed = "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in forbidden.lower())
    letter = f"[{allowed}]*"
    pattern = "^" + letter + letter.join(prompt.lower()) + letter + "$"
    accepted = words()
    return tuple(w for w in re.findall(pattern, _text(list_name), flags=re.MULTILINE) if w in accepted)


@dataclass
class Played:
    """One simulated run: per attempt (round, word or None for a miss, arrival ms since the run's
    start, elapsed ms since the round was shown), and what it scored."""

    attempts: list[tuple[int, str | None, int, int]]
    score: int = 0
    old_score: int = 0  # by the rules before speed counted
    best_combo: int = 0
    longest: int = 0
    duration_ms: int = 0
    ranked: bool = True

    def tie(self) -> tuple[int, int, int]:
        return (self.score, self.best_combo, min(self.longest, SCORED_LENGTH_CAP))

    def old_tie(self) -> tuple[int, int, int]:
        return (self.old_score, self.best_combo, self.longest)


def score(puzzle: list[Round], attempts: list[tuple[int, str | None, int, int]]) -> Played:
    """Score ATTEMPTS by the rules: word points, combo and speed bonuses; fair play's flag."""
    played = Played(attempts)
    combo = 0
    for number, word, _, elapsed in attempts:
        if word is None:
            combo = 0
            continue
        combo += 1
        forbidden = bool(puzzle[number - 1].forbidden)
        base = word_points(len(word), forbidden) + combo_bonus(combo)
        played.score += base + speed_bonus(elapsed)
        played.old_score += base
        played.best_combo = max(played.best_combo, combo)
        played.longest = max(played.longest, len(word))
        played.ranked &= elapsed >= fastest_plausible_ms(len(word))
    played.duration_ms = attempts[-1][2] if attempts else LIMIT_MS
    return played


def solver_word(candidates: list[str], old: bool = False) -> str:
    """The shortest of the longest scoring words: full word points, the least typing. By the rules
    before speed counted, the longest word of all (the order counted its whole length)."""
    if old:
        return max(candidates, key=lambda w: (len(w), w))
    best = max(min(len(w), SCORED_LENGTH_CAP) for w in candidates)
    return min((w for w in candidates if min(len(w), SCORED_LENGTH_CAP) == best), key=lambda w: (len(w), w))


def solve(puzzle: list[Round], rng: random.Random, old: bool = False) -> Played:
    used: set[str] = set()
    attempts: list[tuple[int, str | None, int, int]] = []
    now = 0
    for number, current in enumerate(puzzle, start=1):
        candidates = [
            w for w in round_answers(current.prompt, current.forbidden, "words.txt") if w not in used
        ]
        if not candidates:
            continue  # no answer left: the solver skips (a skip ends the round at once)
        word = solver_word(candidates, old)
        used.add(word)
        elapsed = fastest_plausible_ms(len(word)) + rng.randint(*SOLVER_NETWORK_MS)
        now += elapsed
        attempts.append((number, word, now, elapsed))
    return score(puzzle, attempts)


def play(puzzle: list[Round], person: Person, rng: random.Random) -> Played:
    used: set[str] = set()
    attempts: list[tuple[int, str | None, int, int]] = []
    now = 0
    for number, current in enumerate(puzzle, start=1):
        shown = now
        common = round_answers(current.prompt, current.forbidden, "common.txt")
        every = round_answers(current.prompt, current.forbidden, "words.txt")
        find = person.find * (0.8 if current.forbidden else 1.0)
        hard = round_effort(len(common))
        for _ in range(3):
            pool = common if common and rng.random() < person.common else every
            known = [w for w in rng.sample(pool, min(person.picks + len(used), len(pool))) if w not in used]
            word = max(known[: person.picks], key=len) if known else None
            if word is not None and rng.random() >= find:
                word = None  # a miss: a wrong word, typed all the same
            typed = len(word) if word else rng.randint(4, 8)
            effort = hard + (word_effort(word) if word else 0.0)
            think = person.think * math.exp(effort + rng.gauss(0, person.spread)) * 1000
            now += int(think + person.key_ms * (typed + 1) + rng.uniform(*person.network))
            if now > LIMIT_MS:
                return score(puzzle, attempts)
            attempts.append((number, word, now, now - shown))
            if word is not None:
                used.add(word)
                break
    return score(puzzle, attempts)


def engine_check(puzzle: list[Round], played: Played) -> bool:
    """Replay PLAYED through the run engine on a clock of its own; True if it scores the same."""
    start = datetime(2026, 1, 1, 12, tzinfo=UTC)
    run = new_run("check", "daily", "2026-01-01", puzzle, start, player="p", official=True)
    attempt_of: dict[int, int] = {}
    dictionary = words()
    before = start
    for number, word, at_ms, _ in played.attempts:
        while run.round_number < number:  # a round with no answer left was skipped at once
            skip(run, run.round_number, before)
        attempt_of[number] = attempt_of.get(number, 0) + 1
        before = start + timedelta(milliseconds=at_ms)
        answer(run, number, attempt_of[number], word or "qqqqq", before, dictionary)
    return run.score == played.score and ranked(run) == played.ranked


def top_tie(board: list[Played], tie: Callable[[Played], tuple[int, ...]], old: bool) -> tuple[bool, bool]:
    """Whether the board's top two rows share rank 1, and whether they are equal on the duration
    too (the rules before speed counted had no duration in the order: equal ties were left to the
    completion time)."""
    placed = [p for p in board if p.ranked or old]
    ordered = sorted(placed, key=lambda p: (tuple(-v for v in tie(p)), 0 if old else p.duration_ms))
    if len(ordered) < 2 or tie(ordered[0]) != tie(ordered[1]):
        return False, False
    return True, old or ordered[0].duration_ms == ordered[1].duration_ms


def share(flags: list[bool]) -> str:
    return f"{100 * sum(flags) / len(flags):.1f}%"


def figures(values: list[int]) -> str:
    ordered = sorted(values)
    median = int(statistics.median(ordered))
    return (
        f"min {ordered[0]:,} / p10 {ordered[len(ordered) // 10]:,} / median {median:,} / max {ordered[-1]:,}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--secret", default="skill-benchmark", help="the secret seed the puzzles come from")
    parser.add_argument("--start", default="2026-01-01")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--players", type=int, default=1000, help="simulated people on each day's board")
    parser.add_argument("--scripts", type=int, default=5, help="solver scripts added to the second board")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    first = date.fromisoformat(args.start)
    solver, solver_old, people = [], [], {p.name: [] for p in PEOPLE}
    ties = {
        "new": [],
        "new_duration": [],
        "old": [],
        "scripts_new": [],
        "scripts_new_duration": [],
        "scripts_old": [],
    }
    unranked_people = 0
    checked = agreed = 0
    for offset in range(args.days):
        day = (first + timedelta(days=offset)).isoformat()
        puzzle = generate_puzzle(
            seed_for_date(args.secret.encode(), day), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS
        )
        best = solve(puzzle, rng)
        solver.append(best.score)
        solver_old.append(solve(puzzle, rng, old=True).old_score)
        board = []
        for _ in range(args.players):
            person = rng.choices(PEOPLE, MIX)[0]
            played = play(puzzle, person, rng)
            people[person.name].append(played.score)
            unranked_people += not played.ranked
            board.append(played)
        if offset % 30 == 0:
            for played in [best, *board[:5]]:
                checked += 1
                agreed += engine_check(puzzle, played)
        scripts = [best] + [solve(puzzle, rng) for _ in range(args.scripts - 1)]
        old_scripts = [solve(puzzle, rng, old=True) for _ in range(args.scripts)]
        for prefix, players, old_players in (
            ("", board, board),
            ("scripts_", board + scripts, board + old_scripts),
        ):
            shared_rank, same_duration = top_tie(players, Played.tie, old=False)
            ties[prefix + "new"].append(shared_rank)
            ties[prefix + "new_duration"].append(same_duration)
            ties[prefix + "old"].append(top_tie(old_players, Played.old_tie, old=True)[0])

    total = args.days * args.players
    print(f"A year of Dailies: {args.days} days from {args.start}, secret {args.secret!r}, seed {args.seed}")
    print(f"Engine check: {agreed} of {checked} sampled runs score the same through shared/game/runs.py")
    print()
    print("Scores (speed bonus counted; before: the rules without it)")
    reached = share([s == max(solver) for s in solver])
    print(f"  highest ranked score possible:  {max(solver):,} (reached on {reached} of days)")
    print(f"  solver:                         {figures(solver)}")
    print(f"  solver, rules before speed:     {figures(solver_old)}")
    for person in PEOPLE:
        print(f"  {person.name + ':':<31} {figures(people[person.name])}")
    every = sorted(s for scores in people.values() for s in scores)
    print(f"  best of {total:,} simulated people: {every[-1]:,}")
    print(f"  simulated people's runs flagged implausible: {unranked_people} of {total:,}")
    print()
    print(f"Top of a board of {args.players} simulated people (rank 1 shared / also equal in duration):")
    print(f"  new order:                      {share(ties['new'])} / {share(ties['new_duration'])}")
    print(
        f"  order before (no speed bonus, longest word uncapped): {share(ties['old'])} (then completion time)"
    )
    print(f"The same board with {args.scripts} solver scripts on it:")
    print(f"  new order:                      {share(ties['scripts_new'])} / ", end="")
    print(share(ties["scripts_new_duration"]))
    print(f"  order before (scripts playing the longest words): {share(ties['scripts_old'])}")


if __name__ == "__main__":
    main()
