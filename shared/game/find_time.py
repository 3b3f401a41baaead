"""Find time (SPEC §3b): people are slow where the puzzle is hard. When a scope closes, one pass
over its official runs flags the runs no person could have played, to be reviewed (never dropped).

Two rules, each calibrated on the project's own simulated people (benchmarks/find_time.py) so that
at most 1 honest run in 10,000 is suspect; docs/moderation.md gives the figures:
- *even pacing*: a run whose accepted answers (at least EVEN_MIN_ANSWERS of them) all took about
  the same time, their coefficient of variation under EVEN_PACING_CV. A person's time to find a
  word swings with the round; a script that waits a fixed time does not.
- *hard rounds too fast*: a run whose accepted answers on the scope's HARD_ROUNDS hardest rounds
  (fewest common answers) all came sooner than the HARD_QUANTILE of everyone's accepted answers
  on that round. The quantiles are taken over the runs the first rule left, so a crowd of even
  scripts cannot drag them down to their own speed.
"""

import math
from collections.abc import Sequence
from typing import Literal, NamedTuple

from shared.game.runs import Run

SuspectReason = Literal["even_pacing", "hard_rounds_too_fast"]

HARD_ROUNDS = 3
HARD_QUANTILE = 0.002
EVEN_PACING_CV = 0.08
EVEN_MIN_ANSWERS = 8


class RunTimes(NamedTuple):
    """One official run as the pass sees it: its id and, per round number, the milliseconds from
    the round being shown to its accepted answer (a round lost or skipped is absent)."""

    run_id: str
    found_ms: dict[int, int]


class Suspect(NamedTuple):
    run_id: str
    reason: SuspectReason


class FindTimes(NamedTuple):
    """The pass's result over one scope: the hard rounds, the quantile of each (ms), the suspects."""

    hard_rounds: list[int]
    quantiles: dict[int, int]
    suspects: list[Suspect]


def run_times(run: Run) -> RunTimes:
    """RUN's accepted answers' find times (elapsed ms of the accepted attempt, which counts from
    the round being shown, rejected attempts included)."""
    found = {
        record.round: attempt.elapsed_ms
        for record in run.history
        for attempt in record.attempts
        if attempt.accepted
    }
    return RunTimes(run.run_id, found)


def hardest_rounds(difficulty: Sequence[int], count: int = HARD_ROUNDS) -> list[int]:
    """The COUNT round numbers (1-based) with the fewest common answers; ties go to the later round
    (a Daily's rounds go from easiest to hardest)."""
    ranked = sorted(range(len(difficulty)), key=lambda i: (difficulty[i], -i))
    return sorted(i + 1 for i in ranked[:count])


def quantile(values: Sequence[int], q: float) -> int:
    """The Q-quantile of VALUES by the nearest-rank rule (the smallest value with at least Q of the
    values at or below it)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def evenly_paced(times: RunTimes) -> bool:
    """A run's accepted answers (at least EVEN_MIN_ANSWERS) all took about as long: their
    coefficient of variation is under EVEN_PACING_CV."""
    found = list(times.found_ms.values())
    if len(found) < EVEN_MIN_ANSWERS:
        return False
    mean = sum(found) / len(found)
    spread = math.sqrt(sum((t - mean) ** 2 for t in found) / len(found))
    return mean > 0 and spread / mean < EVEN_PACING_CV


def find_time_pass(runs: Sequence[RunTimes], difficulty: Sequence[int]) -> FindTimes:
    """The suspects among RUNS of one scope whose rounds have DIFFICULTY (common answers per round):
    first the evenly paced runs, then, over the rest, the runs faster than HARD_QUANTILE of
    everyone on every one of the hardest rounds."""
    hard = hardest_rounds(difficulty)
    suspects = [Suspect(r.run_id, "even_pacing") for r in runs if evenly_paced(r)]
    even = {s.run_id for s in suspects}
    rest = [r for r in runs if r.run_id not in even]
    quantiles = {}
    for number in hard:
        found = [r.found_ms[number] for r in rest if number in r.found_ms]
        if found:
            quantiles[number] = quantile(found, HARD_QUANTILE)
    if len(quantiles) == len(hard):
        suspects += [
            Suspect(r.run_id, "hard_rounds_too_fast")
            for r in rest
            if all(number in r.found_ms and r.found_ms[number] < quantiles[number] for number in hard)
        ]
    return FindTimes(hard, quantiles, suspects)
