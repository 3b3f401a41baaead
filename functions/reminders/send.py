"""The reminder sender (SPEC §4a), on the reminder queue: each message is a batch the scan read;
each reminder in it is pushed if the rules let it (shared/services/reminders.py). A message that
fails is retried by SQS (partial batch response) and, after that, kept in its dead-letter queue;
a reminder already sent today is never sent again by a retry."""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from typing import Any

from shared.runtime.observability import logger, metrics, tracer
from shared.runtime.wiring import ports, reminders
from shared.services.reminders import read_message

ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    failures = []
    for record in event.get("Records", []):
        try:
            counts = reminders().deliver(*read_message(record["body"]))
            logger.info("Reminders delivered", extra=counts)
        except Exception:
            logger.exception("Reminder batch failed", extra={"message_id": record.get("messageId")})
            failures.append({"itemIdentifier": record.get("messageId")})
    return {"batchItemFailures": failures}


init_phase.end()  # the init is over (functions/init_phase.py)
