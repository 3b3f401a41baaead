"""The expiry job, run every minute (SPEC §3, §4, §6): completes the runs whose time is up, then
starts the closing pass (shared/services/closing_pass.py: the day's recap, SPEC §4a, and the
find-time pass, SPEC §3b, in pieces on the piece queue) of each Daily whose board has closed since
the last one done (a missed day is caught up), and of each challenge whose board has closed since
the last minute (shared/dynamo/closing.py).

Every player run whose deadline has passed completes through the same path as an answer (its
official result, the board's writes, the history), read from the `due` index, not a scan; then
the store's watermark moves to the instant the pass began, which is what lets a board turn
`closed` (shared/services/ports.py `completed_through`). Guest runs are left to complete when next read:
they never rank. Idempotent; the scheduler's event is ignored. A pass that could not complete
every due run (one failed: throttled, refused, any error) completes all the others, logs the
ones it could not (a warning, and the `ExpiryFailures` metric), and moves the watermark only to
just before the earliest of their deadlines, so their boards wait; the next pass tries them again.
"""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from collections.abc import Callable

from aws_lambda_powertools.metrics import MetricUnit

from functions.dry_run import is_dry_run
from shared.runtime.closing_wiring import closing_pass, run_pieces_here
from shared.runtime.observability import logger, metrics, observed
from shared.runtime.wiring import game, moderation, ports
from shared.services import queue

ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


@observed
def handler(event: dict[str, object], context: object) -> dict[str, object]:
    if is_dry_run(event):  # a new version's canary (functions/dry_run.py): one read of the due runs
        due = next(iter(game().runs.due_runs(game().now())), None)
        return {"dry_run": True, "due": due is not None}
    summary = game().expire_due_runs()
    # Then the closing passes of the boards closed since: started here, run in pieces by the
    # piece queue's workers (functions/daily/closing_piece.py). The Dailies' and the challenges'
    # steps fail apart: one that fails is logged (`ClosingPassFailures`), tried next minute.
    summary["dailies_started"] = _closing_step("dailies", lambda: closing_pass().close_dailies())
    summary["challenges_started"] = _closing_step("challenges", lambda: closing_pass().close_challenges())
    run_pieces_here(
        closing_pass()
    )  # tests only: no queue, the pieces run here (shared/runtime/closing_wiring.py)
    summary["open_cases"] = _measure_queue()
    if summary["failed"]:
        logger.warning("Expiry pass left runs for the next pass", extra=summary)
    else:
        logger.info("Expiry pass done", extra=summary)
    return summary


def _measure_queue() -> int:
    """The review queue's figures as metrics (SPEC §3e, shared/services/queue.py): never holds up
    the expiry (a failure is logged, measured next minute). Returns the open cases."""
    try:
        figures = queue.measure(moderation().store.cases, game().now())
    except Exception:
        logger.exception("Measuring the review queue failed; tried again next minute")
        return 0
    for kind, count in figures.open_by_kind.items():
        metrics.add_metric(name=queue.metric_name(kind), unit=MetricUnit.Count, value=count)
    metrics.add_metric(name="OldestOpenCaseHours", unit=MetricUnit.Count, value=figures.oldest_hours)
    return sum(figures.open_by_kind.values())


def _closing_step(name: str, step: Callable[[], list[str]]) -> int:
    """STEP's count of passes started; 0, logged and counted, when it fails."""
    try:
        return len(step())
    except Exception:
        logger.exception("Closing pass step failed; tried again next minute", extra={"step": name})
        metrics.add_metric(name="ClosingPassFailures", unit=MetricUnit.Count, value=1)
        return 0


init_phase.end()  # the init is over (functions/init_phase.py)
