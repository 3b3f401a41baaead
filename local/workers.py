"""`make run`'s Lambda instances: each function's requests go to worker processes of their own,
each one handling one event at a time, as a Lambda instance does (Powertools keeps the current
event on a module-level resolver, so two events cannot share one process). A function starts a
new worker when a request finds none idle, up to LOCAL_WORKERS (4) at once; the requests after
that wait for one to be free. A worker imports its handler at its first event (its cold start)
and runs on the server's game clock: each event carries the clock's offset.

A worker that dies (killed, out of memory) fails the request it held with a 500 and is replaced
by the next request's. The stream consumer and the scheduled jobs stay in the server's process
(local/streams.py, local/scheduler.py).
"""

import importlib
import multiprocessing
import os
import threading
from datetime import UTC, datetime, timedelta
from multiprocessing.connection import Connection
from typing import Any

DEFAULT_WORKERS = 4
_SPAWN = multiprocessing.get_context("spawn")  # never a fork of the server's threads


class HandlerFailed(Exception):
    """The handler raised (the worker's traceback is the message), or its worker died."""


class WorkerDied(HandlerFailed):
    """The worker ended while it held the event."""


def workers_per_function() -> int:
    value = os.environ.get("LOCAL_WORKERS") or str(DEFAULT_WORKERS)
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"LOCAL_WORKERS must be a whole number from 1, not {value!r}")
    return int(value)


def _serve(entry: str, connection: Connection) -> None:
    """A worker: each event received is handled and its reply (or traceback) sent back."""
    import signal
    import traceback

    from local.events import LambdaContext
    from shared.game import clock

    # A Ctrl-C (or a SIGTERM to the group) reaches the workers too: the server finishes the
    # events running, then closes the pipes, and the workers end.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    handler = None
    while True:
        try:
            event, request_id, offset = connection.recv()
        except EOFError:  # the server closed the pipe, or died
            return
        try:
            if handler is None:
                module, _, name = entry.partition(":")
                handler = getattr(importlib.import_module(module), name)
            clock.travel_to(datetime.now(UTC) + offset)
            reply: tuple[bool, Any] = (True, handler(event, LambdaContext(aws_request_id=request_id)))
        except Exception:
            reply = (False, traceback.format_exc())
        connection.send(reply)


class _Worker:
    def __init__(self, entry: str):
        self.entry = entry
        self.connection, theirs = _SPAWN.Pipe()
        self.process = _SPAWN.Process(target=_serve, args=(entry, theirs), daemon=True)
        self.process.start()
        theirs.close()

    def invoke(self, event: dict, request_id: str, offset: timedelta) -> Any:
        try:
            self.connection.send((event, request_id, offset))
            ok, reply = self.connection.recv()
        except (EOFError, OSError) as error:
            raise WorkerDied(f"the worker of {self.entry} died") from error
        if not ok:
            raise HandlerFailed(reply)
        return reply

    def stop(self) -> None:
        self.connection.close()  # its recv ends: it returns
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


class Function:
    """One function's workers: up to SIZE, each handling one event at a time."""

    def __init__(self, entry: str, size: int):
        self.entry = entry
        self.size = size
        self._idle: list[_Worker] = []
        self._started = 0
        self._changed = threading.Condition()
        self._closed = False

    def invoke(self, event: dict, request_id: str, offset: timedelta) -> Any:
        worker: _Worker | None = self._take()
        try:
            return worker.invoke(event, request_id, offset)
        except WorkerDied:
            worker.stop()
            with self._changed:
                self._started -= 1
                self._changed.notify()
            worker = None
            raise
        finally:
            if worker is not None:
                self._give_back(worker)

    def close(self, timeout: float) -> None:
        """Let no new event start, wait (up to TIMEOUT seconds) for those running, stop all."""
        with self._changed:
            self._closed = True
            self._changed.wait_for(lambda: len(self._idle) == self._started, timeout)
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.stop()

    def _take(self) -> _Worker:
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._idle or self._started < self.size)
            if self._closed:
                raise HandlerFailed("the server is stopping")
            if self._idle:
                return self._idle.pop()
            self._started += 1
        try:
            return _Worker(self.entry)
        except BaseException:
            with self._changed:
                self._started -= 1
                self._changed.notify()
            raise

    def _give_back(self, worker: _Worker) -> None:
        with self._changed:
            self._idle.append(worker)
            self._changed.notify()
