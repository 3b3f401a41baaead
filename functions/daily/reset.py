"""The reset job, run by the schedule at 00:00 America/Chicago (SPEC §3, §6).

Stores the new date's puzzle, so the first players of the day do not have to. Idempotent:
running it twice, late or never leaves the same state; the Daily date never depends on it (it is
computed from the clock), and no run or board waits for it: expired runs are completed by the
one-minute job (functions/daily/expire.py).
"""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from functions.dry_run import is_dry_run
from shared.game.daily_date import daily_date
from shared.game.scope import Scope
from shared.runtime.observability import logger, metrics, tracer
from shared.runtime.wiring import game, ports, require

require("seed")  # on AWS, the init stops without them (shared/runtime/settings.py)
ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


@logger.inject_lambda_context(log_event=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, object], context: object) -> dict[str, object]:
    if is_dry_run(event):  # a new version's canary (functions/dry_run.py): read today's puzzle
        today = daily_date(game().now()).isoformat()
        stored = game().runs.get_puzzle(Scope.daily(today))
        return {"dry_run": True, "date": today, "stored": stored is not None}
    summary = game().reset()
    logger.info("Reset done", extra=summary)
    return summary


init_phase.end()  # the init is over (functions/init_phase.py)
