"""Where a result stands among the day's (SPEC §4a): the board's size, the histogram of scores in
bands of SCORE_BAND_POINTS, the share of players a result beats and the ladder step it reaches."""

from typing import NamedTuple

from shared.game.constants import LADDER, MAX_SCORE, SCORE_BAND_POINTS


class Standing(NamedTuple):
    """What a board's rank counters say about one tie: the ranked results per score band, and how
    many rank strictly better than the tie and how many share it (0 and 0 when no tie was asked)."""

    bands: dict[int, int]
    better: int = 0
    equal: int = 0

    @property
    def players(self) -> int:
        """The board's size: every ranked result is in exactly one band."""
        return sum(self.bands.values())


def band_of(score: int) -> int:
    """The histogram's band a score is in: 0 for 0-99, 1 for 100-199, ..."""
    return score // SCORE_BAND_POINTS


def histogram(bands: dict[int, int]) -> list[int]:
    """Every band's count from 0 up to the band of MAX_SCORE, empty bands included."""
    return [bands.get(band, 0) for band in range(band_of(MAX_SCORE) + 1)]


def percentile(standing: Standing) -> int:
    """ "Better than P% of today's players" for a result of the tie asked about: the share of the
    board's results that rank strictly below it, in whole percent rounded down (a result never
    beats itself or the results it ties with). The result itself counts even while the counters
    have not caught up with it."""
    players = players_with_own(standing)
    return (players - standing.better - max(standing.equal, 1)) * 100 // players


def players_with_own(standing: Standing) -> int:
    """The board's size for a player asking about their own result: it counts even while the
    counters have not caught up with it (they trail a completion by a second or two): a tie no
    counted result shares is the asker's alone, not yet counted."""
    counted = standing.players + (0 if standing.equal else 1)
    # The rank counters are separate items, updated one after another by the stream consumer: a
    # read between two updates may count a result among the better ones and not yet in its band.
    # The board is never smaller than the rank it gives ("rank R of N", N >= R).
    return max(counted, standing.better + max(standing.equal, 1))


def ladder_step(percent: int) -> str:
    """The highest step of the ladder whose percentile PERCENT reaches: Good start (any), Solid
    (25), Great (50), Excellent (75), Brilliant (90), Top 1% (99)."""
    return [name for name, least in LADDER if percent >= least][-1]
