"""A challenge as the tests store it: made at a time and open for the seven days SPEC §4 gives it."""

from datetime import datetime, timedelta

from shared.game.clock import iso
from shared.game.puzzles import Round
from shared.game.results import Challenge
from tests.fakes.fake_boards import player

MAKER = player("maker")


def week_challenge(
    challenge_id: str, made: datetime, creator: str = MAKER, puzzle: list[Round] | None = None
) -> Challenge:
    """CHALLENGE_ID, made by CREATOR at MADE (by default five rounds of TMR), closing a week later."""
    return Challenge(
        challenge_id=challenge_id,
        creator=creator,
        puzzle=[Round("TMR", "")] * 5 if puzzle is None else puzzle,
        created_at=iso(made),
        closes_at=iso(made + timedelta(days=7)),
    )
