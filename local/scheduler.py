"""`make run`'s stand-in for EventBridge Scheduler: the reset at Central midnight, and the expiry job
and the reminder scan every minute, on the game clock (shared/game/clock.py), so moving the clock
drives them as time would.

A thread looks at the clock every second of real time and invokes a job's Lambda handler whenever
the clock has crossed its time since the last look: a Central midnight for the reset, a minute for
the expiry job (once per look, however far the clock jumped: both jobs catch up in one pass).
`POST /local/clock` also runs them at once, before it replies, so a test never has to wait.
After each expiry job, the closing pass's pieces it (and the pieces before) queued run through
their own function's workers (`PieceRunner`), as SQS would hand them to Lambda.
"""

import importlib
import json
import sys
import threading
import traceback
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from local.events import LambdaContext
from shared.game import clock
from shared.game.daily_date import daily_date
from shared.http.routes import EXPIRE_HANDLER, REMINDER_SCAN_HANDLER, RESET_HANDLER

TICK_SECONDS = 1.0
# What EventBridge Scheduler sends (the handlers ignore it).
EVENT = {"source": "local.scheduler", "detail-type": "Scheduled Event"}


def _minute(instant: datetime) -> datetime:
    return instant.replace(second=0, microsecond=0)


# Each job: its entry point, and whether the clock crossed its time between two looks.
JOBS: tuple[tuple[str, Callable[[datetime, datetime], bool]], ...] = (
    (RESET_HANDLER, lambda before, now: daily_date(now) != daily_date(before)),
    (EXPIRE_HANDLER, lambda before, now: _minute(now) != _minute(before)),
    # The reminders of the minute the clock is in (their sender runs in the same call: the local
    # queue delivers at once, shared/runtime/push.py), pushed to local/push.py's stand-in or any.
    (REMINDER_SCAN_HANDLER, lambda before, now: _minute(now) != _minute(before)),
)


class PieceRunner:
    """Drains the closing pass's folder queue (shared/runtime/piece_queue.py), each message an SQS
    event to the pieces' function FUNCTION (local/workers.py); a failed piece stays queued (up to
    MAX_RECEIVES deliveries, then `dead/`), as on AWS."""

    def __init__(self, queue: Any, function: Any):
        self.queue, self.function = queue, function

    def __call__(self) -> int:
        def deliver(body: dict[str, Any]) -> None:
            event = {"Records": [{"messageId": str(uuid.uuid4()), "body": json.dumps(body)}]}
            reply = self.function.invoke(event, str(uuid.uuid4()))
            if reply.get("batchItemFailures"):
                raise RuntimeError("a piece failed: delivered again")

        delivered: int = self.queue.drain(deliver)
        return delivered


class Scheduler:
    def __init__(
        self,
        tick_seconds: float = TICK_SECONDS,
        invoke: Callable[[str], None] | None = None,
        pieces: Callable[[], int] | None = None,
    ):
        self.tick_seconds = tick_seconds
        self._pieces = pieces
        self._run_job = invoke or self._invoke  # what runs a job's entry point
        self._last = clock.now()
        self._lock = threading.Lock()  # one pass at a time, from the thread or the clock route
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="scheduler", daemon=True)
        self._handlers: dict[str, Callable[[dict[str, Any], Any], Any]] = {}

    def start(self) -> None:
        """The closing job once now, as EventBridge has been running it all along on AWS (the
        days behind the clock have their board closed, find-time pass and recap before the first
        request), then every job on its schedule."""
        with self._lock:
            self._run_job(EXPIRE_HANDLER)
            self._run_pieces()
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=30)

    def run_due(self) -> list[str]:
        """Invoke every job whose time the clock has crossed since the last look; returns their
        entry points. A clock moved backwards only moves the last look back."""
        with self._lock:
            before, now = self._last, clock.now()
            self._last = now
            if now <= before:
                return []
            due = [entry for entry, crossed in JOBS if crossed(before, now)]
            for entry in due:
                self._run_job(entry)
            if EXPIRE_HANDLER in due:
                self._run_pieces()
            return due

    def _run_pieces(self) -> None:
        if self._pieces is None:
            return
        try:
            self._pieces()
        except Exception:
            print("wordsqd: the closing pass's pieces failed", file=sys.stderr)
            traceback.print_exc()

    def _loop(self) -> None:
        while not self._stopping.wait(self.tick_seconds):
            self.run_due()

    def _invoke(self, entry: str) -> None:
        try:
            if entry not in self._handlers:
                module, _, name = entry.partition(":")
                self._handlers[entry] = getattr(importlib.import_module(module), name)
            self._handlers[entry](dict(EVENT), LambdaContext(aws_request_id=str(uuid.uuid4())))
        except Exception:
            # The scheduler would retry; here the next minute's pass does (the jobs are idempotent).
            print(f"wordsqd: scheduled job {entry} failed", file=sys.stderr)
            traceback.print_exc()
