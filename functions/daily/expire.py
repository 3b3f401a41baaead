"""The expiry job, run every minute (SPEC §3, §4, §6): completes the runs whose time is up, then
runs the closing pass over yesterday's Daily once its board has closed: the day's recap (SPEC §4a)
and the find-time pass (SPEC §3b), from one read of the board's runs; and the find-time pass of
each challenge whose board has closed since the last minute (shared/dynamo/closing.py).

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
from datetime import date, timedelta

from aws_lambda_powertools.metrics import MetricUnit

from functions.dry_run import is_dry_run
from shared.game.daily_date import daily_date
from shared.runtime.observability import logger, metrics, tracer
from shared.runtime.wiring import boards, game, moderation, ports, recaps
from shared.services import queue

ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, object], context: object) -> dict[str, object]:
    if is_dry_run(event):  # a new version's canary (functions/dry_run.py): one read of the due runs
        due = next(iter(game().runs.due_runs(game().now())), None)
        return {"dry_run": True, "due": due is not None}
    summary = game().expire_due_runs()
    # Then the boards closed since: their runs read once for the find-time pass, which opens
    # review cases (SPEC §3b), and for yesterday's Daily the day's recap (SPEC §4a). A pass never
    # holds up the expiry: one that fails is logged (`FindTimeFailures`), tried next minute.
    yesterday = daily_date(game().now()) - timedelta(days=1)
    suspects = 0
    if yesterday >= game().first_date():  # a deployment's first day: no Daily before it
        suspects += _closing_pass(lambda: _review_day(yesterday))
    suspects += _closing_pass(lambda: len(moderation().review_challenges()))
    summary["suspects"] = suspects
    summary["open_cases"] = _measure_queue()
    if summary["failed"]:
        logger.warning("Expiry pass left runs for the next pass", extra=summary)
    else:
        logger.info("Expiry pass done", extra=summary)
    return summary


def _review_day(day: date) -> int:
    # Stored by its reset on AWS; a `make run` started since has not run that reset, and a day
    # nobody played still gets its recap (cached by the container after the first pass).
    game().daily_puzzle(day.isoformat())
    return len(moderation().review_daily(day, boards(), recaps().record))


def _measure_queue() -> int:
    """The review queue's figures as metrics (SPEC §3e, shared/services/queue.py): never holds up
    the expiry (a failure is logged, measured next minute). Returns the open cases."""
    try:
        figures = queue.measure(moderation().store, game().now())
    except Exception:
        logger.exception("Measuring the review queue failed; tried again next minute")
        return 0
    for kind, count in figures.open_by_kind.items():
        metrics.add_metric(name=queue.metric_name(kind), unit=MetricUnit.Count, value=count)
    metrics.add_metric(name="OldestOpenCaseHours", unit=MetricUnit.Count, value=figures.oldest_hours)
    return sum(figures.open_by_kind.values())


def _closing_pass(step: Callable[[], int]) -> int:
    """STEP's count of suspects; 0, logged and counted, when it fails."""
    try:
        return step()
    except Exception:
        logger.exception("Find-time pass failed; tried again next minute")
        metrics.add_metric(name="FindTimeFailures", unit=MetricUnit.Count, value=1)
        return 0


init_phase.end()  # the init is over (functions/init_phase.py)
