"""The closing pass's worker (SPEC §6; shared/services/closing_pass.py): one SQS message a piece,
from the piece queue (infra/closing.py; locally local/scheduler.py hands it the same events).
A piece that fails is reported as the batch's failure: SQS delivers it again after its visibility
timeout, and after shared/runtime/piece_queue.py MAX_RECEIVES to the dead-letter queue. A message
that names no piece is logged and dropped (no retry would mend it)."""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

import json
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from shared.runtime.closing_wiring import closing_pass
from shared.runtime.observability import logger, metrics, tracer
from shared.runtime.wiring import ports
from shared.services.closing_pieces import BadPiece

ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    failures = []
    for record in event.get("Records", []):
        try:
            closing_pass().run(json.loads(record["body"]))
        except (BadPiece, json.JSONDecodeError):
            logger.error("Not a piece of a closing pass; dropped", extra={"body": record.get("body")})
        except Exception:
            logger.exception("Closing pass piece failed; delivered again", extra={"body": record.get("body")})
            metrics.add_metric(name="ClosingPieceFailures", unit=MetricUnit.Count, value=1)
            failures.append({"itemIdentifier": record["messageId"]})
    return {"batchItemFailures": failures}


init_phase.end()  # the init is over (functions/init_phase.py)
