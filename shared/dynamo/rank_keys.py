"""Board order spelled as DynamoDB sort keys (the `board` index's `board_sk`, the top item's and
the inbox items' rows) and as the rank counters' attribute names: strings whose ascending order is
board order (shared/game/boards.py `BoardPosition.order`; tests/test_board_order.py proves the two
agree over every position the game can make).

A rank key is `<tie><duration>#<completed_at>#<run_id>#<longest>`: the tie key as fixed-width
digits stored as `99..9 - value` (so ascending digits mean descending values: score, best combo,
longest word up to 12), the run's duration in milliseconds, the completion time, the run id (URL-safe
characters, all after `#`, so a shorter id sorts first as it does alone), then the true
longest-word length, which the row shows and which never orders (the run id before it is unique).
"""

from shared.game.boards import BoardPosition, TieKey
from shared.game.constants import CHALLENGE_MAX_ROUNDS, MAX_SCORE, SCORED_LENGTH_CAP, TIME_LIMIT_SECONDS

# Digit widths, from the largest value each field can take.
SCORE_DIGITS = len(str(MAX_SCORE))
COMBO_DIGITS = len(str(CHALLENGE_MAX_ROUNDS))  # a combo is at most one per round
LENGTH_DIGITS = len(str(SCORED_LENGTH_CAP))
DURATION_DIGITS = len(str(TIME_LIMIT_SECONDS * 1000))  # a run completes by its deadline
TIE_DIGITS = SCORE_DIGITS + COMBO_DIGITS + LENGTH_DIGITS
# The rank counters' score bands are the scores that share all but the last two score digits
# (100 scores a band).
BAND_DIGITS = SCORE_DIGITS - 2
SCORE_BAND: int = 10 ** (SCORE_DIGITS - BAND_DIGITS)


def _largest(digits: int) -> int:
    return int("9" * digits)


def _descending(value: int, digits: int) -> str:
    return f"{_largest(digits) - value:0{digits}d}"


def _ascending(text: str, digits: int) -> int:
    return _largest(digits) - int(text)


def tie_key(tie: TieKey) -> str:
    """TIE as digits that sort in board order (the first TIE_DIGITS characters of a rank key)."""
    return (
        _descending(tie.score, SCORE_DIGITS)
        + _descending(tie.best_combo, COMBO_DIGITS)
        + _descending(tie.capped_longest, LENGTH_DIGITS)
    )


def rank_key(position: BoardPosition) -> str:
    """A string that sorts in board order (never holding the player's id: cursors are built from
    positions)."""
    return (
        f"{tie_key(position.tie)}{position.duration_ms:0{DURATION_DIGITS}d}"
        f"#{position.completed_at}#{position.run_id}#{position.longest_word_length}"
    )


def position_of(key: str) -> BoardPosition:
    """The inverse of `rank_key`."""
    head, completed_at, rest = key.split("#", 2)
    run_id, longest = rest.rsplit("#", 1)
    score = _ascending(head[:SCORE_DIGITS], SCORE_DIGITS)
    combo = _ascending(head[SCORE_DIGITS : SCORE_DIGITS + COMBO_DIGITS], COMBO_DIGITS)
    return BoardPosition(score, combo, int(longest), int(head[TIE_DIGITS:]), completed_at, run_id)


def band_of(score: int) -> int:
    return score // SCORE_BAND


def counter_prefixes(tie: TieKey) -> tuple[str, str, str]:
    """The prefixes of TIE's key that name its counters: its score band's, its score's, its own.
    A counter whose prefix sorts before the same-length prefix of a tie's key counts rows that
    outrank that tie."""
    key = tie_key(tie)
    return key[:BAND_DIGITS], key[:SCORE_DIGITS], key


def counts_better(counter: str, tie: TieKey) -> bool:
    """Whether the counter named by prefix COUNTER counts rows that outrank TIE."""
    return counter < tie_key(tie)[: len(counter)]
