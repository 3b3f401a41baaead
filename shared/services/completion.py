"""What completing an official run writes, decided here, not in storage: the official result, the
player's Daily stats after it (SPEC §5), and what operators learn of an implausible run (SPEC §3b)."""

from datetime import date

from shared.game.fair_play import fastest_plausible_ms, implausible_answers
from shared.game.results import OfficialResult
from shared.game.runs import Run
from shared.game.stats import with_daily_result
from shared.services.ports import Completion, ResultStore, StoredProfile


def completion_of(result: OfficialResult, read: StoredProfile) -> Completion:
    """RESULT's completion from the player's profile as READ: for a Daily, the stats after it (a
    result counts for its run's Daily date, even when it completed after midnight); a result
    completed under a rank ban is kept off the boards (it still counts in the stats)."""
    until = read.profile.rank_banned_until
    if result.unranked_reason is None and until is not None and result.completed_at < until:
        result = result.model_copy(update={"unranked_reason": "rank_banned"})
    stats = None
    if result.kind == "daily":
        stats = with_daily_result(read.profile.stats, date.fromisoformat(result.date), result.score)
    return Completion(result, stats, read)


def run_completion(run: Run, read: StoredProfile) -> Completion:
    """An official RUN's completion; a run completed under a rank ban says so itself (its `ranked`
    is false in the completing reply and after)."""
    completion = completion_of(OfficialResult.of_run(run), read)
    run.rank_banned = completion.result.unranked_reason == "rank_banned"
    return completion


def as_placed(run: Run, results: ResultStore) -> Run:
    """RUN as its board places it: a run completed under a rank ban that a lift put back on its
    board (SPEC §3e, appeals) says so (`ranked` true) by its official result, read only then."""
    if run.official and run.rank_banned and run.player:
        result = results.official_result(run.player, run.scope)
        if result is not None and result.unranked_reason != "rank_banned":
            run.rank_banned = False
    return run


def implausible_details(run: Run) -> dict[str, object] | None:
    """The details an implausible official RUN is recorded with: which answers came too fast
    (letters and milliseconds, never the words); None for a plausible run."""
    answers = implausible_answers(run)
    if not answers:
        return None
    return {
        "run_id": run.run_id,
        "player": run.player,
        "date": run.date,
        "challenge_id": run.challenge_id,
        "too_fast": [
            {"letters": n, "elapsed_ms": ms, "fastest_plausible_ms": fastest_plausible_ms(n)}
            for n, ms in answers
        ],
    }
