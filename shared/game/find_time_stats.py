"""A scope's find times (SPEC §3b), as the closing pass gathers them: each official run's accepted
answers, and per round a fixed histogram of their log find times that merges in any order and
keeps one size whatever the number of runs (shared/game/find_time.py reads it). Pure."""

import math
from typing import Any, NamedTuple

from shared.game.fair_play import fastest_plausible_ms
from shared.game.find_time_prior import word_effort
from shared.game.runs import Run

# The scope's histogram of log find times per round (after the word's own effort).
BIN_LOW = 2.0  # log ms (e^2 = 7 ms): lower values fall in the first bin
BIN_WIDTH = 0.1
BINS = 120  # up to e^14 ms, beyond any round's time limit
# A round's middle is read once it holds this many answers (fewer: the prior alone).
REFINE_MIN_RUNS = 200


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
