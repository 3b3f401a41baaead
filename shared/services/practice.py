"""Practice of a past Daily's rounds (SPEC §4a): from a recap, an unranked run of one round's
prompt and forbidden letters, or of the rounds a player lost or skipped. Never official, never on
a board, in stats or in streaks.

Such a run holds no player: its unguessable id is its credential, as a guest run's is, and it is
played on the guest run routes and deleted with guest runs. Its id names no scope (the rounds it
holds are not its date's puzzle from round 1), so an answer reads the run and is judged against
the run's own rounds (shared/services/answering.py reads the puzzle of a scoped id only)."""

import secrets

from shared.game.errors import BadRequest, Conflict, NotFound
from shared.game.runs import Run, new_run
from shared.game.scope import Scope
from shared.services.game import Game


def start_practice(game: Game, day: str, round_number: int | None, player: str | None = None) -> Run:
    """A practice run of DAY's round ROUND_NUMBER (1-based) or, without one, of the rounds
    PLAYER's official run of DAY lost, skipped or never reached, in the puzzle's order: 400 for a
    date in the future or a round the puzzle lacks, 404 before the first Daily, 409 while DAY is
    live (today's Daily is played as the Daily); without a round, 400 for a guest, 404
    `not_played` without an official run of DAY and 409 `nothing_missed` when it missed none."""
    details = game.past_daily(day)
    if details.live:
        raise Conflict("Today's Daily is played as the Daily (POST /daily/runs)", "daily_is_live")
    day = details.day.isoformat()
    puzzle = game.daily_puzzle(day)
    if round_number is not None:
        if not 1 <= round_number <= len(puzzle):
            raise BadRequest(f"Rounds are 1 to {len(puzzle)}", "invalid_round")
        wanted = [round_number]
    elif player is None:
        raise BadRequest('A guest names the round to practise: {"round": n}', "round_required")
    else:
        wanted = missed_rounds(game, day, player, len(puzzle))
    picked = [puzzle[number - 1] for number in wanted]
    run = new_run(secrets.token_urlsafe(16), "daily", day, picked, game.now(), archive=True)
    run.puzzle_rounds = wanted  # the stored run names them (shared/dynamo/codec.py)
    game.runs.create_run(run)
    game.record("RunsStarted")
    return run


def missed_rounds(game: Game, day: str, player: str, rounds: int) -> list[int]:
    """The rounds (1-based) of DAY that PLAYER's official run ended without a word for."""
    result = game.results.official_result(player, Scope.daily(day))
    stored = game.runs.get_run(result.run_id) if result else None
    if result is None or stored is None:
        raise NotFound("You have no official run of that date to practise from", "not_played")
    won = {r.round for r in stored.run.history if any(a.accepted for a in r.attempts)}
    missed = [number for number in range(1, rounds + 1) if number not in won]
    if not missed:
        raise Conflict("Your official run of that date missed no round", "nothing_missed")
    return missed
