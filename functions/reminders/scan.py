"""The reminder scan, run every minute (SPEC §4a): the send minute's subscriptions, one query per
shard, put on the reminder queue in batches for the sender (functions/reminders/send.py). The
minute is the schedule's `scheduled_time` when the event carries it (a late or retried run scans
the minute it was for), else now. Idempotent: a batch sent twice sends each reminder once."""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from datetime import datetime

from functions.dry_run import is_dry_run
from shared.runtime.observability import logger, observed
from shared.runtime.wiring import ports, reminders

ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


@observed
def handler(event: dict[str, object], context: object) -> dict[str, object]:
    if is_dry_run(event):  # a new version's canary (functions/dry_run.py): one shard read, none sent
        due = next(iter(reminders().store.due(0, 0)), None)
        return {"dry_run": True, "due": due is not None}
    scheduled = event.get("scheduled_time")
    at = datetime.fromisoformat(scheduled.replace("Z", "+00:00")) if isinstance(scheduled, str) else None
    queued = reminders().scan(at)
    logger.info("Reminder scan done", extra={"queued": queued, "scheduled_time": scheduled})
    return {"queued": queued}


init_phase.end()  # the init is over (functions/init_phase.py)
