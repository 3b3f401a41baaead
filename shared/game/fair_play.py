"""Fair play (SPEC §3b): a run whose accepted answer came sooner than a person can see a prompt
and type the word is implausible; it completes and counts in its player's stats, but never ranks.

The server measures from the moment it showed the round to the moment the answer arrived, so
network time only ever adds to what it sees: no person playing through a client gets under the
threshold. docs/game.md says what it cannot catch.
"""

from typing import Literal

from shared.game.constants import PLAUSIBLE_KEYSTROKE_MS, PLAUSIBLE_REACTION_MS
from shared.game.runs import Run

# `voided`: a moderator took the result off its board (SPEC §3e, shared/game/moderation.py).
UnrankedReason = Literal["implausible_speed", "voided", "rank_banned"]


def fastest_plausible_ms(letters: int) -> int:
    """250 + 40 × (n + 1) ms for a word of n letters: a quick visual reaction plus world-record
    typing, Enter included."""
    return PLAUSIBLE_REACTION_MS + PLAUSIBLE_KEYSTROKE_MS * (letters + 1)


def implausible_answers(run: Run) -> list[tuple[int, int]]:
    """(letters, elapsed ms) of each accepted answer of RUN that arrived sooner than a person
    could have typed it."""
    return [
        (len(attempt.word), attempt.elapsed_ms)
        for record in run.history
        for attempt in record.attempts
        if attempt.accepted and attempt.elapsed_ms < fastest_plausible_ms(len(attempt.word))
    ]


def unranked_reason(run: Run) -> UnrankedReason | None:
    """Why an official RUN is kept off every board and out of every rank (None: it ranks). Guest
    and practice runs never rank, and have no reason either."""
    if run.official and implausible_answers(run):
        return "implausible_speed"
    return "rank_banned" if run.official and run.rank_banned else None


def ranked(run: Run) -> bool:
    """Whether RUN is (or, on completion, will be) placed on its board and counted in ranks."""
    return run.official and unranked_reason(run) is None
