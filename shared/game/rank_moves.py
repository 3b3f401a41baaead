"""Ranks moved by moderators' decisions (SPEC §3e): a result voided on a board that is not yet
final leaves every rank, so the results it outranked move up one; a lift that puts it back moves
them down again. A player whose history rank moved so after their board closed sees the rank it
had then ("rank 3 → 2, corrected"). docs/moderation.md, "Ranks a decision moved"."""

from collections.abc import Iterable
from datetime import datetime
from typing import NamedTuple

from shared.game.boards import BoardPosition, TieKey
from shared.game.clock import parse_iso


class RankMove(NamedTuple):
    """A ranked result taken off its board by a decision (a void, or the rank ban or ban of its
    run's case), or put back on it by a lift (`back`), while the board was not final."""

    decided_at: str
    tie: TieKey
    run_id: str
    back: bool = False


def rank_before_correction(
    rank: int | None, own: BoardPosition, moves: Iterable[RankMove], closes_at: datetime | None
) -> int | None:
    """The rank a result at OWN, ranked RANK now, had when its board closed, if the decisions made
    since (MOVES) changed it; None when they did not, or when it has no rank. Only a result that
    outranks OWN moves it (a tie shares the rank either way), one place per decision."""
    if rank is None or closes_at is None:
        return None
    shift = sum(
        1 if move.back else -1
        for move in moves
        if move.run_id != own.run_id
        and move.tie.outranks(own.tie)
        and parse_iso(move.decided_at) >= closes_at
    )
    return rank - shift if shift else None
