"""The reminder sender (SPEC §4a), on the reminder queue: each message is a batch the scan read;
each reminder in it is pushed if the rules let it (shared/services/reminders.py). A message that
fails is retried by SQS (partial batch response) and, after that, kept in its dead-letter queue;
a reminder already sent today is never sent again by a retry. The dry-run event reads one
player's reminder (functions/queue_batch.py)."""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from typing import Any

from functions.queue_batch import work_each
from shared.runtime.observability import logger, observed
from shared.runtime.wiring import ports, reminders
from shared.services.reminders import read_message

DRY_RUN_PLAYER = "dry-run"  # no player has this id (Cognito's are UUIDs)

ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


@observed
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    return work_each(event, _deliver, what="a reminder batch", dry_run=_dry_run)


def _deliver(body: str) -> None:
    counts = reminders().deliver(*read_message(body))
    logger.info("Reminders delivered", extra=counts)


def _dry_run() -> dict[str, object]:
    """A new version's canary (functions/dry_run.py): one read, a player's REMINDER item."""
    return {"held": reminders().held(DRY_RUN_PLAYER) is not None}


init_phase.end()  # the init is over (functions/init_phase.py)
