"""`make run`'s Lambda instances: each function's requests go to worker processes of their own,
each one handling one event at a time, as a Lambda instance does (Powertools keeps the current
event on a module-level resolver, so two events cannot share one process). A function starts a
new worker when a request finds none idle, up to LOCAL_WORKERS (4) at once; the requests after
that wait for one to be free, and are served in the order they came. Each worker runs on the
server's game clock: each event carries the clock's offset.

Workers are forked from one fork server (multiprocessing's "forkserver": a process of its own,
started without the server's threads), which imports every handler's module once, before the
server says it is up (`preload`). A new worker then costs a fork, not the 1-2 s of CPU a fresh
interpreter takes to import botocore, Powertools and pydantic: at the rush's start, when every
function starts its workers together, that import was the CPU everyone waited for. A worker's
first event still builds what its handler builds on first use (clients, caches), as on Lambda.

A worker that dies (killed, out of memory) fails the request it held with a 500 and is replaced
by the next request's. The rank counters' stream consumer is a function of one worker, fed by
the server's stream poller (local/streams.py); the scheduled jobs run in the server's process
(local/scheduler.py).
"""

import collections
import importlib
import multiprocessing
import multiprocessing.forkserver
import os
import sys
import threading
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from multiprocessing.connection import Connection
from types import FunctionType, ModuleType
from typing import Any

from shared.game import clock

DEFAULT_WORKERS = 4
# Never a fork of the server itself (its threads hold locks): forks of a single-threaded server.
_FORKS = multiprocessing.get_context("forkserver")
_FORKED = "WORDSQD_FORKED"  # set in the fork server's environment, so in every worker's


class HandlerFailed(Exception):
    """The handler raised (the worker's traceback is the message), or its worker died."""


class WorkerDied(HandlerFailed):
    """The worker ended while it held the event."""


def workers_per_function() -> int:
    value = os.environ.get("LOCAL_WORKERS") or str(DEFAULT_WORKERS)
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"LOCAL_WORKERS must be a whole number from 1, not {value!r}")
    return int(value)


def preload(entries: Iterable[str]) -> None:
    """Start the fork server, importing these handlers' modules ("module:name") once; return
    when it has (it has forked a first, empty, process), so the first requests find it ready.

    Call it once the environment the handlers read is set: every worker is forked with the
    environment the fork server started with.
    """
    if os.environ.get(_FORKED) == "1":
        # A module the fork server imports called this: a fork server of its own would import
        # it again, and so on without end.
        raise RuntimeError("preload() was called from inside the fork server or a worker")
    modules = {entry.partition(":")[0] for entry in entries}
    # Each worker runs the module the server was started as (`python -m local.server`) again, as
    # multiprocessing's `__mp_main__`: with its imports (PyJWT and cryptography, boto3) imported by
    # the fork server, they are already there, instead of ~0.1 s of CPU per new worker. Not the
    # module itself: one already imported under its own name, runpy warns, would run twice over.
    main = sys.modules.get("__main__")
    if main is not None and getattr(main, "__spec__", None) is not None:
        modules |= _imports_of(main)
    _FORKS.set_forkserver_preload(sorted(modules))
    # Python 3.11's fork server ignores the sys.path it is handed: it gets this one as PYTHONPATH.
    extra = {"PYTHONPATH": os.pathsep.join(path for path in sys.path if path), _FORKED: "1"}
    before = {name: os.environ.get(name) for name in extra}
    os.environ.update(extra)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        for name, value in before.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
    first = _FORKS.Process(daemon=True)
    first.start()
    first.join()


def _imports_of(module: ModuleType) -> set[str]:
    """The modules MODULE imported, whole (`import x`) or in part (`from x import f`)."""
    names = set()
    for value in vars(module).values():
        if isinstance(value, ModuleType):
            names.add(value.__name__)
        elif isinstance(value, type | FunctionType):
            names.add(value.__module__)
    return names - {module.__name__, "builtins"}


def _serve(entry: str, connection: Connection) -> None:
    """A worker: each event received is handled and its reply (or traceback) sent back."""
    import signal
    import traceback

    from local.events import LambdaContext

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
        self.connection, theirs = _FORKS.Pipe()
        self.process = _FORKS.Process(target=_serve, args=(entry, theirs), daemon=True)
        self.process.start()
        theirs.close()

    def invoke(self, event: dict[str, Any], request_id: str, offset: timedelta) -> Any:
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


class _Turn:
    """A request waiting for a worker: handed one (or leave to start one) by the one before it."""

    def __init__(self) -> None:
        self.ready = threading.Event()
        self.worker: _Worker | None = None  # a free worker, handed on
        self.room = False  # or room for a new one (a worker ended); neither: the server stops


class Function:
    """One function's workers: up to SIZE, each handling one event at a time. Requests that find
    none free wait in the order they came: a request that comes later never takes the worker
    given back before one that waits (otherwise, at the rush's start, answers sent later would
    take workers ahead of the players' starts still waiting)."""

    def __init__(self, entry: str, size: int):
        self.entry = entry
        self.size = size
        self._idle: list[_Worker] = []
        self._started = 0
        self._waiting: collections.deque[_Turn] = collections.deque()
        self._changed = threading.Condition()
        self._closed = False

    def invoke(self, event: dict[str, Any], request_id: str, offset: timedelta | None = None) -> Any:
        """EVENT handled by a worker, on the game clock OFFSET from the wall clock (by default,
        this process's game clock)."""
        if offset is None:
            offset = clock.now() - datetime.now(UTC)
        worker = self._take()
        died = False
        try:
            return worker.invoke(event, request_id, offset)
        except WorkerDied:
            died = True
            worker.stop()
            with self._changed:
                self._started -= 1
                self._hand_on(None)
            raise
        finally:
            if not died:
                with self._changed:
                    self._hand_on(worker)

    def close(self, timeout: float) -> None:
        """Let no new event start, wait (up to TIMEOUT seconds) for those running, stop all."""
        with self._changed:
            self._closed = True
            for turn in self._waiting:
                turn.ready.set()
            self._waiting.clear()
            self._changed.wait_for(lambda: len(self._idle) == self._started, timeout)
            idle, self._idle = self._idle, []
            self._started -= len(idle)
        for worker in idle:
            worker.stop()

    def _take(self) -> _Worker:
        with self._changed:
            if self._closed:
                raise HandlerFailed("the server is stopping")
            if self._waiting or not (self._idle or self._started < self.size):
                turn = _Turn()
                self._waiting.append(turn)
            elif self._idle:
                return self._idle.pop()
            else:
                turn = None
                self._started += 1
        if turn is not None:
            turn.ready.wait()
            if turn.worker is not None:
                return turn.worker
            with self._changed:
                self._refuse_if_closed(turn)
        try:
            return _Worker(self.entry)
        except BaseException:
            with self._changed:
                self._started -= 1
                self._hand_on(None)
            raise

    def _refuse_if_closed(self, turn: _Turn) -> None:
        """Under the lock, once TURN's wait ended: if close() began meanwhile (another thread),
        give back the room TURN was handed and refuse."""
        if self._closed:
            if turn.room:  # given back: close() counts the workers it waits for
                self._started -= 1
                self._changed.notify_all()
            raise HandlerFailed("the server is stopping")

    def _hand_on(self, worker: _Worker | None) -> None:
        """Under the lock: WORKER (free again), or the room a worker that ended left, to the
        request waiting longest; to the idle list if none waits."""
        if self._waiting and (worker is not None or self._started < self.size):
            turn = self._waiting.popleft()
            turn.worker = worker
            if worker is None:
                turn.room = True
                self._started += 1  # the turn starts one in the room
            turn.ready.set()
        elif worker is not None:
            self._idle.append(worker)
        self._changed.notify_all()  # close() waits for every worker to be back
