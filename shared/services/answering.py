"""An answer or a skip in one write (SPEC §3): an answer judged against its round's prompt before
the run is read, and appended on condition that the run is as that judgment assumed, so a run's
answer or skip costs one request instead of a read and a write (docs/data-model.md).

The run id names the run's scope (shared/game/scope.py), so the puzzle is known without the run;
the rules' checks (SPEC §2) need nothing else. What the run itself decides (that the slot is the
next one, the deadline, the run's owner, a word already accepted in it) is the write's condition
(RunStore.answer_in_place). When that condition fails the caller reads the run, which explains the
refusal: a replay of the applied answer, a 409 with the run, an expired run, `already_used`.
"""

from collections.abc import Callable, Set
from datetime import datetime

from shared.game.clock import iso, parse_iso
from shared.game.constants import ATTEMPTS_PER_ROUND, MAX_WORD_LENGTH
from shared.game.puzzles import Round
from shared.game.rules import judge
from shared.game.runs import AnswerResult, Run, applied_result
from shared.game.scope import Scope, scope_of_run_id
from shared.services.ports import AnswerSlot, RunStore, StaleRun


def answer_at_once(
    store: RunStore,
    puzzle_of: Callable[[Scope], list[Round] | None],
    dictionary: Set[str],
    run_id: str,
    player: str | None,
    slot: tuple[int, int],
    word: str,
    now: datetime,
) -> tuple[AnswerResult, Run] | None:
    """The answer's reply and the run after it, written in one conditional request; None when the
    run must be read: its id names no scope, the word is longer than the rules keep whole, the
    answer may complete the run (its official result needs the whole run), or the write refused."""
    scope = scope_of_run_id(run_id)
    puzzle = puzzle_of(scope) if scope else None
    round_number, attempt_number = slot
    if puzzle is None or not 1 <= round_number <= len(puzzle) or len(word) > MAX_WORD_LENGTH:
        return None
    current = puzzle[round_number - 1]
    verdict = judge(word, current.prompt, dictionary, current.forbidden)
    last_round = round_number == len(puzzle)
    if last_round and (verdict.valid or attempt_number >= ATTEMPTS_PER_ROUND):
        return None
    at = parse_iso(iso(now))  # to the millisecond, as the run keeps its times
    judged = AnswerSlot(round_number, attempt_number, verdict.word, verdict.reason)
    try:
        run = store.answer_in_place(run_id, player, judged, at).run
    except StaleRun:
        return None
    return applied_result(run, round_number, attempt_number), run


def skip_at_once(
    store: RunStore,
    puzzle_of: Callable[[Scope], list[Round] | None],
    run_id: str,
    player: str | None,
    round_number: int,
    now: datetime,
) -> Run | None:
    """The run after a skip of ROUND_NUMBER, written in one conditional request; None when the run
    must be read: its id names no scope, the round is the last (the skip completes the run, whose
    official result needs the whole run) or not one, or the write refused (a replay, a 409, an
    expired run)."""
    scope = scope_of_run_id(run_id)
    puzzle = puzzle_of(scope) if scope else None
    if puzzle is None or not 1 <= round_number < len(puzzle):
        return None
    try:
        return store.skip_in_place(run_id, player, round_number, parse_iso(iso(now))).run
    except StaleRun:
        return None
