"""The reset job, run by the schedule at 00:00 America/Chicago (SPEC §3, §6).

Stores the new date's puzzle and completes the previous dates' runs that expired untouched, so
the closed board is whole. Idempotent: running it twice, late or never leaves the same state;
the Daily date never depends on it (it is computed from the clock).
"""

import time
from typing import Any

from shared.observability import logger, metrics, tracer
from shared.wiring import game


@logger.inject_lambda_context(log_event=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    summary = game().reset(sleep=time.sleep)
    logger.info("Reset done", extra=summary)
    return summary
