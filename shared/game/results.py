"""What a finished game leaves: a challenge as created, and a player's official result on a board."""

from typing import Literal

from pydantic import BaseModel

from shared.game.fair_play import UnrankedReason, unranked_reason
from shared.game.puzzles import Round
from shared.game.runs import Run
from shared.game.scope import Scope


class Challenge(BaseModel):
    challenge_id: str
    creator: str
    puzzle: list[Round]
    created_at: str
    closes_at: str


class OfficialResult(BaseModel):
    """A player's official result for one board (a Daily date or a challenge). A result with an
    `unranked_reason` (SPEC §3b) counts in its player's stats and history but is never placed on
    a board nor counted in a rank."""

    player: str
    kind: Literal["daily", "challenge"]
    date: str
    challenge_id: str | None
    run_id: str
    score: int
    best_combo: int
    longest_word_length: int
    started_at: str
    completed_at: str
    words: list[str]
    unranked_reason: UnrankedReason | None = None

    @property
    def ranked(self) -> bool:
        return self.unranked_reason is None

    @property
    def scope(self) -> Scope:
        """The board this result is on: its challenge's, or its Daily date's."""
        return Scope.of(self.date, self.challenge_id)

    @classmethod
    def of_run(cls, run: Run) -> "OfficialResult":
        """The official result a completed RUN records on its board."""
        return cls(
            player=run.player or "",
            kind=run.kind,
            date=run.date,
            challenge_id=run.challenge_id,
            run_id=run.run_id,
            score=run.score,
            best_combo=run.best_combo,
            longest_word_length=run.longest_word_length,
            started_at=run.started_at,
            completed_at=run.completed_at or "",
            words=run.accepted_words(),
            unranked_reason=unranked_reason(run),
        )
