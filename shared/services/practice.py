"""Practice of a past Daily's rounds (SPEC §4a): from a recap, an unranked run of one round's
prompt and forbidden letters, or of the rounds a player lost or skipped. Never official, never on
a board, in stats or in streaks.

Such a run holds no player: its unguessable id is its credential, as a guest run's is, and it is
played on the guest run routes and deleted with guest runs. Its id names no scope (the rounds it
holds are not its date's puzzle from round 1), so an answer reads the run and is judged against
the run's own rounds (shared/services/answering.py reads the puzzle of a scoped id only)."""

import secrets
from collections.abc import Sequence

from shared.game.errors import BadRequest, Conflict
from shared.game.runs import Run, new_run
from shared.services.game import Game


def start_practice(game: Game, day: str, rounds: Sequence[int]) -> Run:
    """A practice run of DAY's ROUNDS (1-based, in the puzzle's order, each once): 400 for a date
    in the future or a round the puzzle lacks, 404 before the first Daily, 409 while DAY is live
    (today's Daily is played as the Daily)."""
    details = game.past_daily(day)
    if details.live:
        raise Conflict("Today's Daily is played as the Daily (POST /daily/runs)", "daily_is_live")
    puzzle = game.daily_puzzle(details.day.isoformat())
    wanted = sorted(set(rounds))
    if not wanted or wanted[0] < 1 or wanted[-1] > len(puzzle):
        raise BadRequest(f"Rounds are 1 to {len(puzzle)}", "invalid_rounds")
    picked = [puzzle[number - 1] for number in wanted]
    run = new_run(
        secrets.token_urlsafe(16), "daily", details.day.isoformat(), picked, game.now(), archive=True
    )
    run.puzzle_rounds = wanted  # the stored run names them (shared/dynamo/codec.py)
    game.runs.create_run(run)
    game.record("RunsStarted")
    return run
