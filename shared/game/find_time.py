"""Find time (SPEC §3b): what a person can know in the time. Each accepted answer's *find time* (its
elapsed ms minus the typing floor for its length) is judged against how long people need to find
a word that rare and that long in a round that hard; a run's evidence adds up every round.

The prior (shared/game/find_time_prior.py) judges a board of one run; the scope's own runs refine
it round by round once they are many (ScopeStats: a histogram per round, merged in any order by the
closing pass, read on its middle so that a crowd of fast runs cannot drag it). Pure: no storage.
docs/moderation.md gives the model's figures and what it cannot catch.
"""

import math
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from shared.game.fair_play import fastest_plausible_ms
from shared.game.find_time_prior import (
    FAST_LOG_MS,
    POPULATION_LOG_MS,
    SIGMA,
    population_middle,
    round_difficulty,
    round_effort,
    word_effort,
)
from shared.game.puzzles import Round
from shared.game.runs import Run

# A run is suspect when its score reaches THRESHOLD: the sum of its rounds' contributions over the
# square root of its answers (about a standard normal for the fastest honest people).
THRESHOLD = 2.5
# A round's contribution: how many SIGMA its find time is under the fastest people's, capped
# both ways, so one slow round hides at most SLOW_CAP of the others' evidence.
FAST_CAP = 6.0
SLOW_CAP = 3.0
# A player's last RUNNING_RUNS official runs' scores add up (each capped at THRESHOLD): the
# running figure is their sum over the square root of their number.
RUNNING_RUNS = 30
RUNNING_THRESHOLD = 3.5
RUNNING_MIN_RUNS = 2

# The scope's histogram of log find times per round (after the word's own effort).
BIN_LOW = 2.0  # log ms (e^2 = 7 ms): lower values fall in the first bin
BIN_WIDTH = 0.1
BINS = 120  # up to e^14 ms, beyond any round's time limit
# The scope refines a round's prior once this many runs answered it, by at most MAX_SHIFT (log).
REFINE_MIN_RUNS = 200
MAX_SHIFT = math.log(2)


class Answer(NamedTuple):
    """One accepted answer: its round, its word and the ms from the round being shown to it."""

    round: int
    word: str
    elapsed_ms: int


class RunTimes(NamedTuple):
    """One official run as the find-time model sees it: its accepted answers only."""

    run_id: str
    player: str
    answers: tuple[Answer, ...]


def run_times(run: Run) -> RunTimes:
    """RUN's accepted answers (elapsed ms of the accepted attempt: it counts from the round being
    shown, rejected attempts included)."""
    found = tuple(
        Answer(record.round, attempt.word, attempt.elapsed_ms)
        for record in run.history
        for attempt in record.attempts
        if attempt.accepted
    )
    return RunTimes(run.run_id, run.player or "", found)


def find_ms(answer: Answer) -> int:
    """ANSWER's find time: its elapsed ms less the typing floor of its word (at least 1 ms)."""
    return max(1, answer.elapsed_ms - fastest_plausible_ms(len(answer.word)))


def _bin(value: float) -> int:
    return min(BINS - 1, max(0, int((value - BIN_LOW) / BIN_WIDTH)))


class ScopeStats:
    """A scope's find times, per round: a fixed histogram of each accepted answer's log find time
    less its word's effort. Its size does not grow with the runs; merging is adding counts."""

    def __init__(self, counts: list[list[int]]):
        self.counts = counts
        self._middles: dict[int, float | None] = {}  # read once per round while no answer is added

    @classmethod
    def empty(cls, rounds: int) -> "ScopeStats":
        return cls([[0] * BINS for _ in range(rounds)])

    @property
    def rounds(self) -> int:
        return len(self.counts)

    def add(self, times: RunTimes) -> "ScopeStats":
        """TIMES's answers counted in (in place, for a pass over many runs); returns these stats."""
        for answer in times.answers:
            if 1 <= answer.round <= self.rounds:
                value = math.log(find_ms(answer)) - word_effort(answer.word)
                self.counts[answer.round - 1][_bin(value)] += 1
        self._middles.clear()
        return self

    def merge(self, other: "ScopeStats") -> "ScopeStats":
        """Both stats' counts added (associative and commutative); rounds beyond either are kept."""
        rounds = max(self.rounds, other.rounds)
        empty = [0] * BINS
        return ScopeStats(
            [
                [a + b for a, b in zip(self._row(r, empty), other._row(r, empty), strict=True)]
                for r in range(rounds)
            ]
        )

    def _row(self, index: int, empty: list[int]) -> list[int]:
        return self.counts[index] if index < self.rounds else empty

    def answered(self, number: int) -> int:
        """How many answers round NUMBER (1-based) holds."""
        return sum(self.counts[number - 1]) if 1 <= number <= self.rounds else 0

    def middle(self, number: int) -> float | None:
        """The mean of round NUMBER's middle half (its 25th to 75th percentile, bins read at their
        centre): what half the scope's answers sit around, whatever its fastest quarter does.
        None when the round holds fewer than REFINE_MIN_RUNS answers."""
        if number not in self._middles:
            self._middles[number] = self._middle(number)
        return self._middles[number]

    def _middle(self, number: int) -> float | None:
        total = self.answered(number)
        if total < REFINE_MIN_RUNS:
            return None
        low, high = total / 4, 3 * total / 4
        seen = weight = summed = 0.0
        for index, count in enumerate(self.counts[number - 1]):
            inside = max(0.0, min(seen + count, high) - max(seen, low))
            summed += inside * (BIN_LOW + (index + 0.5) * BIN_WIDTH)
            weight += inside
            seen += count
        return summed / weight if weight else None

    def to_json(self) -> dict[str, Any]:
        return {"bin_low": BIN_LOW, "bin_width": BIN_WIDTH, "counts": self.counts}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ScopeStats":
        if data.get("bin_low") != BIN_LOW or data.get("bin_width") != BIN_WIDTH:
            raise ValueError("find-time stats of another binning")
        counts = [[int(c) for c in row] for row in data["counts"]]
        if any(len(row) != BINS for row in counts):
            raise ValueError("find-time stats of another size")
        return cls(counts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScopeStats) and self.counts == other.counts

    __hash__ = None  # type: ignore[assignment]  # mutable


class RoundReason(NamedTuple):
    """One round's part of a run's evidence: its word, the find time, the median find time people
    need for a word that rare and that long in that round, and what it added to the score."""

    round: int
    word: str
    letters: int
    found_ms: int
    typical_ms: int
    contribution: float


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


def judge_difficulty(times: RunTimes, difficulty: Sequence[int], stats: ScopeStats) -> Evidence:
    """TIMES judged on rounds of DIFFICULTY (each round's common answers) with the scope's STATS."""
    answers = [a for a in times.answers if 1 <= a.round <= len(difficulty)]
    reasons = []
    for answer in answers:
        effort = word_effort(answer.word) + round_effort(difficulty[answer.round - 1])
        shift = round_shift(stats, answer.round, difficulty[answer.round - 1])
        found = find_ms(answer)
        z = (math.log(found) - (FAST_LOG_MS + effort + shift)) / SIGMA
        contribution = max(-SLOW_CAP, min(FAST_CAP, -z))
        typical = round(math.exp(POPULATION_LOG_MS + effort + shift))
        reasons.append(RoundReason(answer.round, answer.word, len(answer.word), found, typical, contribution))
    if not reasons:
        return Evidence(times.run_id, 0.0, False, ())
    root = math.sqrt(len(reasons))
    reasons = [r._replace(contribution=r.contribution / root) for r in reasons]
    score = sum(r.contribution for r in reasons)
    return Evidence(times.run_id, score, score >= THRESHOLD, tuple(reasons))


def judge(times: RunTimes, puzzle: Sequence[Round], stats: ScopeStats) -> Evidence:
    """The evidence of one run of PUZZLE against people's find times (the prior, refined by the
    scope's STATS where its rounds hold enough answers)."""
    return judge_difficulty(times, [round_difficulty(r) for r in puzzle], stats)


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


def seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s"


def describe_round(reason: RoundReason) -> str:
    """One round in words: `timer, 5 letters, found 0.9 s after the prompt; people need a median
    4.1 s for words like it (+1.20)`."""
    return (
        f"{reason.word}, {reason.letters} letters, found {seconds(reason.found_ms)} after the "
        f"prompt; people need a median {seconds(reason.typical_ms)} for words this rare and long "
        f"in this round ({reason.contribution:+.2f})"
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


# The whole pass in one piece, over runs held in memory (shared/services/moderation.py) ----------

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


def find_time_pass(runs: Sequence[RunTimes], difficulty: Sequence[int]) -> FindTimes:
    """The suspects among RUNS of one scope whose rounds have DIFFICULTY (common answers per round)."""
    stats = ScopeStats.empty(len(difficulty))
    for times in runs:
        stats = stats.add(times)
    evidence = {times.run_id: judge_difficulty(times, difficulty, stats) for times in runs}
    typical = {
        number: round(math.exp(POPULATION_LOG_MS + round_effort(d) + round_shift(stats, number, d)))
        for number, d in enumerate(difficulty, start=1)
    }
    suspects = [Suspect(e.run_id, "find_time") for e in evidence.values() if e.suspect]
    return FindTimes(typical, suspects, evidence)
