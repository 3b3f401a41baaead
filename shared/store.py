"""The data port: what the game needs from storage, as a Protocol, with the records it stores.

shared/dynamo.py implements it on DynamoDB. The game (shared/game.py) sees only this module.
"""

from collections.abc import Iterator
from typing import Literal, Protocol

from pydantic import BaseModel

from shared.puzzles import Round
from shared.runs import Run


class StaleRun(Exception):
    """The run changed since it was read (another request won the conditional write)."""


class ActiveRunExists(Exception):
    """The player already has an active run for this Daily or challenge."""

    def __init__(self, run_id: str):
        super().__init__(run_id)
        self.run_id = run_id


class OfficialTaken(Exception):
    """The player already has an official result for this Daily or challenge."""


class NameTaken(Exception):
    """Another player holds that display name (case-insensitively)."""


class Challenge(BaseModel):
    challenge_id: str
    creator: str
    puzzle: list[Round]
    created_at: str
    closes_at: str


class OfficialResult(BaseModel):
    """A player's official result for one board (a Daily date or a challenge)."""

    player: str
    scope: str
    kind: Literal["daily", "challenge"]
    date: str
    challenge_id: str | None
    run_id: str
    score: int
    best_combo: int
    longest_word_length: int
    completed_at: str
    words: list[str]


class Store(Protocol):
    def get_puzzle(self, scope: str) -> list[Round] | None: ...
    def put_puzzle(self, scope: str, puzzle: list[Round]) -> list[Round]: ...
    def get_challenge(self, challenge_id: str) -> Challenge | None: ...
    def put_challenge(self, challenge: Challenge) -> None: ...

    def get_run(self, run_id: str) -> Run | None: ...
    def player_status(self, player: str, scope: str) -> tuple[str | None, bool]: ...
    def create_run(self, run: Run) -> None: ...
    def save_run(self, run: Run) -> None: ...
    def complete_run(self, run: Run, official: OfficialResult | None) -> None: ...
    def active_run_ids(self, date: str) -> Iterator[str]: ...

    def board_page(self, scope: str, after: str | None, limit: int) -> list[OfficialResult]: ...
    def count_better(self, scope: str, score: int, best_combo: int, longest: int) -> int: ...
    def official_result(self, player: str, scope: str) -> OfficialResult | None: ...
    def history(self, player: str, after: str | None, limit: int) -> list[OfficialResult]: ...

    def display_names(self, players: list[str]) -> dict[str, str]: ...
    def set_display_name(self, player: str, name: str) -> None: ...
