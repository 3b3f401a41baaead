"""A player's history (`GET /me/history`, SPEC §5): their official results, newest first, each with
its rank, its review and the rank a moderator's decision corrected (SPEC §3e)."""

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from shared.game.boards import BoardPosition
from shared.game.fair_play import UnrankedReason
from shared.game.rank_moves import rank_before_correction
from shared.http.models import Model

if TYPE_CHECKING:
    from shared.services import players
    from shared.services.moderation import UnderReview
    from shared.services.players import History


class HistoryItem(Model):
    kind: Literal["daily", "challenge"]
    date: str
    challenge_id: str | None
    score: int
    best_combo: int
    longest_word_length: int
    completed_at: str
    rank: int | None = Field(description="the final rank; null while live, and for an unranked result")
    unranked_reason: UnrankedReason | None = Field(
        description="why the result is on no board and in no rank (SPEC §3b); null: it ranks"
    )
    review: Literal["pending"] | None = Field(
        default=None,
        description='"pending" while a moderation case about the result is open and its board is not '
        "final (SPEC §3e): its rank may still change",
    )
    rank_before_correction: int | None = Field(
        default=None,
        description="the rank the result had when its board closed, when a moderator's decision since "
        "moved it (a better result voided, or put back by a lift; SPEC §3e): `rank` is the corrected "
        "one; null when no decision moved it",
    )

    @classmethod
    def of(cls, item: "players.HistoryItem", review: "UnderReview | None" = None) -> "HistoryItem":
        r = item.result
        pending = review.pending if review else frozenset()
        moves = review.moves.get(r.scope, []) if review else []
        return cls(
            kind=r.kind,
            date=r.date,
            challenge_id=r.challenge_id,
            score=r.score,
            best_combo=r.best_combo,
            longest_word_length=r.longest_word_length,
            completed_at=r.completed_at,
            rank=item.rank,
            unranked_reason=r.unranked_reason,
            review="pending" if r.run_id in pending else None,
            rank_before_correction=rank_before_correction(
                item.rank, BoardPosition.of(r), moves, item.closes_at
            ),
        )


class HistoryPage(Model):
    items: list[HistoryItem]
    next_cursor: str | None

    @classmethod
    def of(
        cls, history: "History", next_cursor: str | None, review: "UnderReview | None" = None
    ) -> "HistoryPage":
        items = [HistoryItem.of(item, review) for item in history.items]
        return cls(items=items, next_cursor=next_cursor)
