"""The queue workers' handler shape (functions/daily/closing_piece.py, functions/reminders/send.py):
each message of an SQS batch is worked alone; one that fails is named in the partial batch
response, so SQS delivers it again and, after its queue's receives, parks it in the dead-letter
queue; one that no retry would mend (DROPPED) is logged and dropped. The dry-run event
(functions/dry_run.py) is answered by DRY_RUN, which reads and writes nothing it should not."""

from collections.abc import Callable, Mapping
from typing import Any

from functions.dry_run import is_dry_run
from shared.runtime.observability import logger


def work_each(
    event: Mapping[str, Any],
    work: Callable[[str], None],
    *,
    what: str,
    dry_run: Callable[[], dict[str, object]],
    dropped: tuple[type[Exception], ...] = (),
    failed: Callable[[], None] = lambda: None,
) -> dict[str, Any]:
    if is_dry_run(event):
        return {"dry_run": True, **dry_run()}
    failures = []
    for record in event.get("Records", []):
        try:
            work(record["body"])
        except dropped:
            logger.error(f"Not {what}; dropped", extra={"body": record.get("body")})
        except Exception:
            logger.exception(f"{what} failed; delivered again", extra={"message_id": record.get("messageId")})
            failed()
            failures.append({"itemIdentifier": record.get("messageId")})
    return {"batchItemFailures": failures}
