"""The ranking engine's arithmetic (SPEC §4, docs/leaderboards.md), pure: what a board's sort key
sorts by, the rank counters' bands and prefixes, the fold of rows into a board's top, and when a
consumer may take a board's lease. The storage steps that call it are in shared/dynamo (`top.py`,
`lease.py`, `inbox.py`, `top_item.py`, `counters.py`); they spell what this module computes as
items and keys.

Board order as digits: a tie key is spelled as fixed-width digits, each number stored as
`99..9 - value`, so that ascending digits mean descending values (score, best combo, longest word
up to 12); a run's duration follows in ascending digits. Every width is the digits of the field's
largest value in shared/game/constants.py, and a value outside its range is refused, never
widened (a widened field reorders every key: a board once counted nobody as better than a score
of -1, and every player saw "rank R of R").
"""

from collections.abc import Iterable
from typing import Literal, NamedTuple

from shared.game.boards import BoardEntry, BoardPosition, TieKey, merge_top
from shared.game.constants import (
    CHALLENGE_MAX_ROUNDS,
    MAX_SCORE,
    SCORE_BAND_POINTS,
    SCORED_LENGTH_CAP,
    TIME_LIMIT_SECONDS,
)
from shared.game.results import OfficialResult
from shared.game.standing import Standing, band_of


class KeyField(NamedTuple):
    """A number spelled at a fixed width: the digits of its largest value. A value outside
    0..MAXIMUM is refused, since it would change the width and with it every key's order."""

    name: str
    maximum: int

    @property
    def digits(self) -> int:
        return len(str(self.maximum))

    @property
    def largest(self) -> int:
        """The largest number the field's digits can spell (99..9)."""
        return int(10**self.digits) - 1

    def check(self, value: int) -> int:
        """VALUE, if the field can hold it."""
        if not 0 <= value <= self.maximum:
            raise ValueError(f"{self.name} {value} is outside 0..{self.maximum}")
        return value

    def ascending(self, value: int) -> str:
        return f"{self.check(value):0{self.digits}d}"

    def descending(self, value: int) -> str:
        """VALUE as `99..9 - value`, so that ascending digits mean descending values."""
        return f"{self.largest - self.check(value):0{self.digits}d}"

    def from_descending(self, text: str) -> int:
        if len(text) != self.digits or not text.isdigit():
            raise ValueError(f"{self.name} {text!r} is not {self.digits} digits")
        return self.check(self.largest - int(text))


# Each field's width comes from the largest value the game can make.
SCORE = KeyField("score", MAX_SCORE)
COMBO = KeyField("best combo", CHALLENGE_MAX_ROUNDS)  # a combo is at most one per round
LENGTH = KeyField("capped longest word", SCORED_LENGTH_CAP)
DURATION = KeyField("duration in ms", TIME_LIMIT_SECONDS * 1000)  # a run completes by its deadline
TIE_DIGITS = SCORE.digits + COMBO.digits + LENGTH.digits

# The rank counters' score bands are the histogram's (SCORE_BAND_POINTS, a power of ten), so a
# band's digits are the leading digits of the score's: the score's digits but the last BAND_SHIFT.
BAND_SHIFT = len(str(SCORE_BAND_POINTS)) - 1
if 10**BAND_SHIFT != SCORE_BAND_POINTS:
    raise ValueError("the score bands must be a power of ten points wide")
BAND_DIGITS = SCORE.digits - BAND_SHIFT
BAND = KeyField("score band", MAX_SCORE // SCORE_BAND_POINTS)


def tie_digits(tie: TieKey) -> str:
    """TIE as TIE_DIGITS digits that sort in board order: equal ties spell equal digits."""
    score, combo, length = tie
    return SCORE.descending(score) + COMBO.descending(combo) + LENGTH.descending(length)


def tie_of_digits(text: str) -> TieKey:
    """The inverse of `tie_digits` (the first TIE_DIGITS characters of TEXT)."""
    combo_at = SCORE.digits
    length_at = combo_at + COMBO.digits
    return TieKey(
        SCORE.from_descending(text[:combo_at]),
        COMBO.from_descending(text[combo_at:length_at]),
        LENGTH.from_descending(text[length_at:TIE_DIGITS]),
    )


# Rank counters --------------------------------------------------------------------------------

Level = Literal["band", "score", "tie"]


def counter_band(score: int) -> int:
    """The histogram's band of a score (`band_of`), refused for a number that is not a score."""
    return BAND.check(band_of(SCORE.check(score)))


def band_of_prefix(prefix: str) -> int:
    """The band a band counter's prefix (`counter_prefixes`' first) counts."""
    return BAND.from_descending(prefix)


def counter_prefixes(tie: TieKey) -> tuple[str, str, str]:
    """The prefixes of TIE's digits that name its three counters: its score band's, its score's,
    its own. A counter whose prefix sorts before the same-length prefix of a tie's digits counts
    rows that outrank that tie."""
    digits = tie_digits(tie)
    return digits[:BAND_DIGITS], digits[: SCORE.digits], digits


def counts_better(prefix: str, tie: TieKey) -> bool:
    """Whether the counter named by PREFIX counts rows that outrank TIE."""
    return prefix < tie_digits(tie)[: len(prefix)]


def tally(counters: Iterable[tuple[Level, str, int]], tie: TieKey | None) -> Standing:
    """A board's standing from the counters read for TIE (each: its level, its prefix, its count;
    every band counter, and the score and tie counters of TIE's band and score): the results
    per band, how many outrank TIE and how many share it."""
    own = tie_digits(tie) if tie is not None else None
    bands: dict[int, int] = {}
    better = equal = 0
    for level, prefix, count in counters:
        if level == "band":
            band = band_of_prefix(prefix)
            bands[band] = bands.get(band, 0) + count
        if tie is not None and counts_better(prefix, tie):
            better += count
        elif level == "tie" and prefix == own:
            equal += count
    return Standing(bands, better, equal)


# The top of a board ---------------------------------------------------------------------------


def arrival(result: OfficialResult) -> BoardEntry:
    """RESULT's row as a stream record brings it to a top: without a name (a fold takes the one
    its stored result shows)."""
    return BoardEntry(result.player, BoardPosition.of(result), result.words, None)


def entering(top: list[BoardEntry], arrivals: list[BoardEntry], size: int) -> list[BoardEntry]:
    """The ARRIVALS that would enter TOP (its best SIZE rows): not there already (a record
    delivered again) and good enough."""
    present = {e.player for e in top}
    fresh = [e for e in arrivals if e.player not in present]
    return [e for e in merge_top(top, fresh, size) if e.player not in present]


class Fold(NamedTuple):
    """A fold into a top: the rows it would write, the rows entering it (by player), and the
    players with rows left whom the top holds already (a record delivered twice, or the inbox of
    a fold that died after its write)."""

    rows: list[BoardEntry]
    entering: dict[str, BoardEntry]
    settled: list[str]


def plan_fold(top: list[BoardEntry], candidates: dict[str, list[BoardEntry]], size: int) -> Fold:
    """The fold of CANDIDATES (player -> the rows left for them) into TOP: each absent player's
    best row competes for the SIZE places. A player has one row per board, so a row left twice
    changes nothing."""
    present = {e.player for e in top}
    best = {
        player: min(rows, key=lambda e: e.position.order())
        for player, rows in candidates.items()
        if rows and player not in present
    }
    rows = merge_top(top, list(best.values()), size)
    settled = [player for player in candidates if player in present]
    return Fold(rows, {e.player: e for e in rows if e.player not in present}, settled)


def not_stored(fold: Fold, stored: dict[str, BoardEntry]) -> list[str]:
    """The players entering FOLD whose row is not their STORED result (player -> their board row,
    absent: no ranked result): a record of a cancelled write, never on the board."""
    return [
        player
        for player, row in fold.entering.items()
        if player not in stored or stored[player].position != row.position
    ]


def ruled_out(
    candidates: dict[str, list[BoardEntry]], players: list[str], stored: dict[str, BoardEntry]
) -> dict[str, list[BoardEntry]]:
    """CANDIDATES with PLAYERS' rows kept only where they are the STORED result."""
    kept = dict(candidates)
    for player in players:
        row = stored.get(player)
        kept[player] = [e for e in candidates[player] if row is not None and e.position == row.position]
    return kept


def with_stored(fold: Fold, stored: dict[str, BoardEntry]) -> list[BoardEntry]:
    """FOLD's rows, each entering one as STORED (with the name its result item shows)."""
    return [stored.get(e.player, e) if e.player in fold.entering else e for e in fold.rows]


def renamed_since(written: list[BoardEntry], again: dict[str, BoardEntry]) -> dict[str, str | None]:
    """The names (player -> name) the rows read AGAIN show that WRITTEN does not."""
    shown = {e.player: e.display_name for e in written}
    return {p: e.display_name for p, e in again.items() if p in shown and e.display_name != shown[p]}


def with_names(top: list[BoardEntry], names: dict[str, str | None]) -> list[BoardEntry] | None:
    """TOP showing NAMES (player -> name) on its rows; None when it shows them already."""
    if all(e.display_name == names[e.player] for e in top if e.player in names):
        return None
    return [e._replace(display_name=names[e.player]) if e.player in names else e for e in top]


def refilled(top: list[BoardEntry], below: list[BoardEntry], player: str, size: int) -> list[BoardEntry]:
    """TOP without PLAYER's row, refilled from BELOW (the board's next rows, which may still hold
    PLAYER's: the board index may trail a void)."""
    return merge_top([e for e in top if e.player != player], [e for e in below if e.player != player], size)


# The lease: who folds a board's inbox into its top, once an interval -------------------------


def lease_wait(now: float, until: float, interval: float, margin: float) -> float | None:
    """How long a consumer waits before it tries a board's lease again, held UNTIL, at NOW: the
    rest of the interval plus MARGIN while it is held; None when it is free to take. A lease held
    more than an interval from NOW was taken by a clock far ahead: it is free, so no consumer
    waits past its timeout on it."""
    if now < until <= now + interval:
        return until - now + margin
    return None
