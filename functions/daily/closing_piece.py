"""The closing pass's worker (SPEC §6; shared/services/closing_pass.py): one SQS message a piece,
from the piece queue (infra/closing.py; locally local/scheduler.py hands it the same events).
A piece that fails is reported as the batch's failure: SQS delivers it again after its visibility
timeout, and after shared/runtime/piece_queue.py MAX_RECEIVES to the dead-letter queue. A message
that names no piece is logged and dropped (no retry would mend it). The dry-run event reads
today's pass (functions/queue_batch.py)."""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

import json
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from functions.queue_batch import work_each
from shared.game.daily_date import daily_date
from shared.game.scope import Scope
from shared.runtime.closing_wiring import closing_pass
from shared.runtime.observability import metrics, observed
from shared.runtime.wiring import game, ports
from shared.services.closing_pieces import BadPiece

ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


@observed
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    return work_each(
        event,
        lambda body: closing_pass().run(json.loads(body)),
        what="a piece of a closing pass",
        dry_run=_dry_run,
        dropped=(BadPiece, json.JSONDecodeError),
        failed=lambda: metrics.add_metric(name="ClosingPieceFailures", unit=MetricUnit.Count, value=1),
    )


def _dry_run() -> dict[str, object]:
    """A new version's canary (functions/dry_run.py): one read, today's pass."""
    today = daily_date(game().now()).isoformat()
    return {"date": today, "pass": closing_pass().store.pass_state(Scope.daily(today)) is not None}


init_phase.end()  # the init is over (functions/init_phase.py)
