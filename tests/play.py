"""Whole runs played through a handler, as the tests of the daily function need them: each round
answered correctly, at a person's pace on the game clock (shared/game/clock.py)."""

from typing import Any

from shared.game import clock
from shared.game.puzzles import answers
from tests.conftest import Api

# How long a simulated person takes over each answer: slower than fair play's threshold (SPEC §3b),
# so fair play ranks the run.
PERSON_SECONDS = 2


def good_word(run: dict[str, Any]) -> str:
    """The first answer of the round in play that the run has not accepted yet (already_used)."""
    used = {a["word"] for record in run["history"] for a in record["attempts"] if a["accepted"]}
    return next(w for w in answers(run["prompt"], run["forbidden"]) if w not in used)


def play_out(call: Api, run: dict[str, Any], user: str | None = None) -> dict[str, Any]:
    """Answer every round of RUN through CALL (the daily function), PERSON_SECONDS after each
    round was shown, as USER (None: a guest); returns the completed run."""
    prefix = "/guest/runs" if user is None else "/runs"
    while run["status"] == "active":
        clock.advance(PERSON_SECONDS)
        status, reply, _ = call(
            "POST",
            f"{prefix}/{run['run_id']}/answers",
            {"round": run["round"], "attempt": run["attempt"], "word": good_word(run)},
            user=user,
        )
        assert status == 200, reply
        run = reply["run"]
    return run
