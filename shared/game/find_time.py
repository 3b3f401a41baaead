"""Find time (SPEC §3b): what a person can know in the time. Each accepted answer's *find time* (its
elapsed ms minus the typing floor for its length) is judged against how long people need to find
a word that rare and that long in a round that hard, and its word by how unlikely it is that a
person plays one that long and that rare in that round at all (shared/game/find_time_knowledge.py);
a run's evidence adds up every round.

The prior (shared/game/find_time_prior.py) judges a board of one run; the scope's own runs refine
it round by round once they are many (ScopeStats: a histogram per round, merged in any order by the
closing pass, read on its middle so that a crowd of fast runs cannot drag it). Pure: no storage.
docs/moderation.md gives the model's figures and what it cannot catch.
"""

import math
from collections.abc import Sequence
from typing import Literal, NamedTuple

from shared.game.find_time_knowledge import KNOWLEDGE_MEAN, knowledge
from shared.game.find_time_prior import (
    FAST_LOG_MS,
    POPULATION_LOG_MS,
    SIGMA,
    population_middle,
    round_difficulty,
    round_effort,
    word_effort,
)
from shared.game.find_time_stats import REFINE_MIN_RUNS as REFINE_MIN_RUNS
from shared.game.find_time_stats import Answer as Answer
from shared.game.find_time_stats import RunTimes as RunTimes
from shared.game.find_time_stats import ScopeStats as ScopeStats
from shared.game.find_time_stats import find_ms as find_ms
from shared.game.find_time_stats import run_times as run_times
from shared.game.puzzles import Round

# A run is suspect when its score reaches THRESHOLD: the sum of its rounds' contributions over the
# square root of its answers (simulated experts: median -0.5, 1 in 1,000 above 2.5; a mimic's
# figure is under 3.8 on 1 day in 20; docs/moderation.md).
THRESHOLD = 3.0
# A round's contribution: how many SIGMA its find time is under the fastest people's, capped
# both ways, so one slow round hides at most SLOW_CAP of the others' evidence; plus its word's
# knowledge beyond KNOWLEDGE_MEAN.
FAST_CAP = 6.0
SLOW_CAP = 3.0
# A player's last RUNNING_RUNS official runs' scores add up (each capped at THRESHOLD): the
# running figure is their sum over the square root of their number.
RUNNING_RUNS = 30
RUNNING_THRESHOLD = 3.5
RUNNING_MIN_RUNS = 2
# A round's expectations follow the scope's middle by at most MAX_SHIFT (log) either way.
MAX_SHIFT = math.log(2)


class RoundReason(NamedTuple):
    """One round's part of a run's evidence: its word, the find time, the median find time people
    need for a word that rare and that long in that round (all people, and the fastest), and what
    it added to the run's score."""

    round: int
    word: str
    letters: int
    found_ms: int
    typical_ms: int
    fastest_ms: int  # the fastest people's median
    contribution: float
    one_in: int = 1  # a knowledgeable person plays a word this long and rare here once in ONE_IN rounds


class Evidence(NamedTuple):
    run_id: str
    score: float
    suspect: bool
    reasons: tuple[RoundReason, ...]


def round_shift(stats: ScopeStats, number: int, difficulty: int) -> float:
    """How much faster (negative) or slower the scope's people are on round NUMBER than the prior
    expects, from the middle of its distribution, within MAX_SHIFT; 0 while it has too few runs."""
    middle = stats.middle(number)
    if middle is None:
        return 0.0
    expected = population_middle(difficulty)
    return max(-MAX_SHIFT, min(MAX_SHIFT, middle - expected))


def judge(times: RunTimes, puzzle: Sequence[Round], stats: ScopeStats) -> Evidence:
    """The evidence of one run of PUZZLE against people's find times (the prior, refined by the
    scope's STATS where its rounds hold enough answers) and what people know: each round adds how
    many spreads its find time is under the fastest people's, plus its word's knowledge beyond
    KNOWLEDGE_MEAN (a frequent word earns no credit: a bot cannot buy speed with it)."""
    answers = [a for a in times.answers if 1 <= a.round <= len(puzzle)]
    reasons = []
    for answer in answers:
        played = puzzle[answer.round - 1]
        difficulty = round_difficulty(played)
        effort = word_effort(answer.word) + round_effort(difficulty)
        shift = round_shift(stats, answer.round, difficulty)
        found = find_ms(answer)
        z = (math.log(found) - (FAST_LOG_MS + effort + shift)) / SIGMA
        known = knowledge(answer.word, played)
        contribution = max(-SLOW_CAP, min(FAST_CAP, -z)) + max(0.0, known - KNOWLEDGE_MEAN)
        typical = round(math.exp(POPULATION_LOG_MS + effort + shift))
        fastest = round(math.exp(FAST_LOG_MS + effort + shift))
        reasons.append(
            RoundReason(
                answer.round,
                answer.word,
                len(answer.word),
                found,
                typical,
                fastest,
                contribution,
                round(math.exp(known)),
            )
        )
    if not reasons:
        return Evidence(times.run_id, 0.0, False, ())
    root = math.sqrt(len(reasons))
    reasons = [r._replace(contribution=r.contribution / root) for r in reasons]
    score = sum(r.contribution for r in reasons)
    return Evidence(times.run_id, score, score >= THRESHOLD, tuple(reasons))


def typical_ms(puzzle: Sequence[Round], stats: ScopeStats) -> dict[int, int]:
    """Each round's median find time (ms) for the scope, as the model judged it (less the word's
    own effort)."""
    found = {}
    for number, played in enumerate(puzzle, start=1):
        difficulty = round_difficulty(played)
        shift = round_shift(stats, number, difficulty)
        found[number] = round(math.exp(POPULATION_LOG_MS + round_effort(difficulty) + shift))
    return found


class RunningEvidence(NamedTuple):
    """A player's last RUNNING_RUNS official runs' scores, added up."""

    figure: float
    runs: int
    suspect: bool


def running_evidence(scores: Sequence[float]) -> RunningEvidence:
    """The running figure of SCORES (a player's official runs, newest last): the last RUNNING_RUNS,
    each capped to [-SLOW_CAP, THRESHOLD], summed over the square root of their number."""
    kept = [max(-SLOW_CAP, min(THRESHOLD, s)) for s in scores[-RUNNING_RUNS:]]
    if len(kept) < RUNNING_MIN_RUNS:
        return RunningEvidence(0.0, len(kept), False)
    figure = sum(kept) / math.sqrt(len(kept))
    return RunningEvidence(figure, len(kept), figure >= RUNNING_THRESHOLD)


def running_suspect(scores: Sequence[float]) -> bool:
    return running_evidence(scores).suspect


def describe_running(days: Sequence[tuple[str, float]]) -> str:
    """A player's running evidence in words, with the days that made it: DAYS are (scope or date,
    run figure) of their official runs, oldest first; the last RUNNING_RUNS count."""
    kept = days[-RUNNING_RUNS:]
    running = running_evidence([score for _, score in kept])
    listed = ", ".join(f"{day} {score:.2f}" for day, score in kept)
    return (
        f"last {running.runs} official runs: {running.figure:.2f} "
        f"(suspect from {RUNNING_THRESHOLD:.2f}): {listed}"
    )


def seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s"


def describe_round(reason: RoundReason) -> str:
    """One round in words: `baggywrinkle, 12 letters, found 3.2 s after the prompt; people need a
    median 34.4 s for words this rare and long in this round, the fastest 12.5 s (+0.86)`."""
    return (
        f"{reason.word}, {reason.letters} letters, found {seconds(reason.found_ms)} after the "
        f"prompt; people need a median {seconds(reason.typical_ms)} for words this rare and long "
        f"in this round, the fastest {seconds(reason.fastest_ms)}; a knowledgeable person plays a word "
        f"this long and rare here in 1 round in {reason.one_in:,} ({reason.contribution:+.2f})"
    )


def describe(evidence: Evidence, running: RunningEvidence | None = None) -> str:
    """A run's evidence in words: its figure against the threshold, the player's running figure,
    then its rounds, the most telling first."""
    lines = [f"find-time figure {evidence.score:.2f} (suspect from {THRESHOLD:.2f})"]
    if running is not None:
        lines.append(
            f"last {running.runs} official runs: {running.figure:.2f} (suspect from {RUNNING_THRESHOLD:.2f})"
        )
    for reason in sorted(evidence.reasons, key=lambda r: -r.contribution):
        lines.append(f"round {reason.round}: {describe_round(reason)}")
    return "\n".join(lines)


# The whole pass in one piece, over runs held in memory: what shared/services/moderation.py calls
# until the closing pass gathers ScopeStats in pieces and judges each run itself. ----------------

SuspectReason = Literal["find_time"]


class Suspect(NamedTuple):
    run_id: str
    reason: SuspectReason


class FindTimes(NamedTuple):
    """The pass's result over one scope: each round's typical find ms for its scope, the suspects,
    and every run's evidence."""

    quantiles: dict[int, int]
    suspects: list[Suspect]
    evidence: dict[str, Evidence]


def find_time_pass(runs: Sequence[RunTimes], puzzle: Sequence[Round]) -> FindTimes:
    """The suspects among RUNS of one scope of PUZZLE."""
    stats = ScopeStats.empty(len(puzzle))
    for times in runs:
        stats = stats.add(times)
    evidence = {times.run_id: judge(times, puzzle, stats) for times in runs}
    typical = typical_ms(puzzle, stats)
    suspects = [Suspect(e.run_id, "find_time") for e in evidence.values() if e.suspect]
    return FindTimes(typical, suspects, evidence)
