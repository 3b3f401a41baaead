"""The DynamoDB-compatible store behind `make run`: moto's server as a child process
(local/moto_server.py), which applies one request at a time and keeps the table in DATA_DIR (a
journal written before each reply, compacted into a snapshot; local/durable.py, docs/local.md).

This side starts the child, and watches it: a child that dies (killed, out of memory) is started
again on the same port, from what it saved; requests wait for it meanwhile (`wait_ready`). One that
cannot be started again stops `make run` with its reason. A child that stopped because the disk
is full (EXIT_DISK_FULL) is started again once DATA_DIR's disk has ROOM_BYTES free, however long
that takes; meanwhile every request is refused at once (503 `store_unavailable`).
Ctrl-C stops it with a last compaction.
Its output goes to DATA_DIR/moto.log, appended across starts.
When AWS_ENDPOINT_URL_DYNAMODB is already set, that endpoint is used as it is: no child, no file.
"""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import boto3
from botocore.exceptions import ClientError

from shared.dynamo.table import TTL_ATTRIBUTE, create_table_request

EXIT_DISK_FULL = 71  # the child's exit when its journal could not keep a write for want of room
ROOM_BYTES = 1024 * 1024  # free on DATA_DIR's disk before a store stopped by a full disk starts again
ROOM_POLL_SECONDS = 1.0
START_TIMEOUT_SECONDS = 60.0  # a start loads the saved table first: longer for a big one
STOP_TIMEOUT_SECONDS = 60.0  # the last compaction
RESTARTS = 5  # within RESTART_WINDOW_SECONDS, before `make run` gives up on the store
RESTART_WINDOW_SECONDS = 60.0
LOG_FILE = "moto.log"


class StoreError(Exception):
    """The store could not start, or could not be started again."""


class StoreExited(StoreError):
    """The store exited while it started, with CODE."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


class LocalStore:
    """The table the in-process handlers use, and (when embedded) the child process holding it."""

    def __init__(self, data_dir: Path, table_name: str, on_failure: Callable[[str], None] | None = None):
        self.data_dir = data_dir
        self.table_name = table_name
        self.endpoint = os.environ.get("AWS_ENDPOINT_URL_DYNAMODB") or ""
        self.embedded = not self.endpoint
        self.on_failure = on_failure or (lambda reason: None)
        self.generation = 0  # how many times the child was started: a new one has a new stream
        self._child: subprocess.Popen[bytes] | None = None
        self._port = 0
        self._ready = threading.Event()
        self.disk_full = threading.Event()  # set while it waits for room to start the store again
        self._stopping = threading.Event()
        self._restarts: list[float] = []

    def start(self) -> int:
        """Start the store (if embedded) and create the table; returns how many items it holds."""
        os.environ.setdefault("AWS_DEFAULT_REGION", os.environ.get("AWS_REGION", "us-east-1"))
        if self.embedded:
            self._port = _free_port()
            self.endpoint = f"http://127.0.0.1:{self._port}"
            # Handlers run in this process, so boto3 finds the store through its own setting.
            os.environ["AWS_ENDPOINT_URL_DYNAMODB"] = self.endpoint
            if "AWS_ACCESS_KEY_ID" not in os.environ and "AWS_PROFILE" not in os.environ:
                os.environ["AWS_ACCESS_KEY_ID"] = "local"
                os.environ["AWS_SECRET_ACCESS_KEY"] = "local"
            self._start_child()
            threading.Thread(target=self._watch, name="store-watch", daemon=True).start()
        client = boto3.client("dynamodb", endpoint_url=self.endpoint)
        _create_table(client, self.table_name)
        self._ready.set()
        return int(client.describe_table(TableName=self.table_name)["Table"].get("ItemCount", 0))

    def wait_ready(self, timeout: float) -> bool:
        """Wait (up to TIMEOUT seconds) while the store is being started again; False if it is
        still not back, or at once while it waits for room on the disk."""
        return not self.disk_full.is_set() and self._ready.wait(timeout)

    def stop(self) -> bool:
        """Stop the child, which saves the table first. Returns False if it could not save."""
        self._stopping.set()
        child = self._child
        if child is None:
            return True
        if child.poll() is None:
            child.terminate()
            try:
                child.wait(timeout=STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                child.kill()  # the journal still holds every acknowledged write
                child.wait()
                return False
        return child.returncode == 0

    def _start_child(self) -> None:
        self.generation += 1
        with open(self.data_dir / LOG_FILE, "a") as log:
            with contextlib.suppress(OSError):  # a full disk: the start matters, not its log line
                log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} store start {self.generation}\n")
                log.flush()
            child = subprocess.Popen(
                [
                    *(sys.executable, "-m", "local.moto_server"),
                    *("--port", str(self._port), "--data-dir", str(self.data_dir)),
                    *("--table", self.table_name, "--region", os.environ["AWS_DEFAULT_REGION"]),
                ],
                cwd=Path(__file__).resolve().parents[1],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                # Its own session, so a Ctrl-C in the terminal reaches only us and we can stop it
                # ourselves, once no request is running.
                start_new_session=True,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
                env=without_coverage(os.environ),
            )
        self._child = child
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if child.poll() is not None:
                raise StoreExited(f"the store exited at start: {self._last_log_line()}", child.returncode)
            if _answers(self.endpoint):
                return
            time.sleep(0.1)
        child.kill()
        child.wait()
        raise StoreError(f"the store did not answer within {START_TIMEOUT_SECONDS:.0f} s")

    def _watch(self) -> None:
        """Start the child again whenever it dies while `make run` is not stopping."""
        while True:
            child = self._child
            assert child is not None
            code = child.wait()
            if self._stopping.is_set():
                return
            self._ready.clear()
            print(f"wordsqd: the store exited ({code}); starting it again", file=sys.stderr, flush=True)
            try:
                self._start_again(code)
            except StoreError as error:
                log = self.data_dir / LOG_FILE
                self.on_failure(f"the store could not be started again: {error} (see {log})")
                return
            if self._stopping.is_set():  # stopped while it started: stop() saw the old child
                self.stop()
                return
            self._ready.set()

    def _start_again(self, code: int) -> None:
        """Start the child again after it exited with CODE: at once, or once the disk has room
        if the disk was full (never counted as a restart: a full disk is not a crash loop)."""
        while True:
            if code == EXIT_DISK_FULL:
                self._wait_for_room()
                if self._stopping.is_set():
                    return
            else:
                now = time.monotonic()
                self._restarts = [t for t in self._restarts if now - t < RESTART_WINDOW_SECONDS] + [now]
                if len(self._restarts) > RESTARTS:
                    raise StoreError(f"it exited {RESTARTS + 1} times within {RESTART_WINDOW_SECONDS:.0f} s")
            try:
                self._start_child()
                return
            except StoreExited as exited:
                if exited.code != EXIT_DISK_FULL:
                    raise
                code = exited.code

    def _wait_for_room(self) -> None:
        self.disk_full.set()
        try:
            said = False
            while not self._stopping.is_set():
                free = _free_bytes(self.data_dir)
                if free >= ROOM_BYTES:
                    return
                if not said:
                    print(
                        f"wordsqd: the disk holding {self.data_dir} is full ({free // 1024} KiB free): "
                        f"the store starts again once {ROOM_BYTES // 1024} KiB are free; requests get 503 "
                        "meanwhile",
                        file=sys.stderr,
                        flush=True,
                    )
                    said = True
                self._stopping.wait(ROOM_POLL_SECONDS)
        finally:
            self.disk_full.clear()

    def _last_log_line(self) -> str:
        lines = (self.data_dir / LOG_FILE).read_text(errors="replace").strip().splitlines()
        return lines[-1] if lines else "no output"


def _create_table(client: Any, table_name: str) -> None:
    """The table and its TTL, unless there already (the embedded store makes its own)."""
    try:
        client.create_table(**create_table_request(table_name))
    except ClientError as error:
        if error.response["Error"]["Code"] != "ResourceInUseException":
            raise
    client.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig={"Delay": 1, "MaxAttempts": 30})
    ttl = client.describe_time_to_live(TableName=table_name)["TimeToLiveDescription"]
    # Enabling twice is an error on real DynamoDB, so only when it is off.
    if ttl.get("TimeToLiveStatus") not in ("ENABLED", "ENABLING"):
        client.update_time_to_live(
            TableName=table_name, TimeToLiveSpecification={"Enabled": True, "AttributeName": TTL_ATTRIBUTE}
        )


def _free_bytes(folder: Path) -> int:
    """Bytes free for this user on FOLDER's file system."""
    stat = os.statvfs(folder)
    return stat.f_bavail * stat.f_frsize


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _answers(endpoint: str) -> bool:
    try:
        urllib.request.urlopen(endpoint + "/moto-api/", timeout=1).close()
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


def _die_with_parent() -> None:
    """In the child: have Linux send SIGTERM when the server dies, even by kill -9, so no
    orphaned store outlives it (it saves and stops)."""
    import ctypes

    pr_set_pdeathsig = 1
    # Without prctl (another libc), the normal shutdown path still stops the store.
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGTERM)


def without_coverage(environ: Mapping[str, str]) -> dict[str, str]:
    """ENVIRON without coverage.py's subprocess hook: when the tests measure coverage they measure
    `make run`'s server, but not a child that runs someone else's code (the DynamoDB server here,
    the fuzzer in the tests), which runs about twice as slowly when traced."""
    return {name: value for name, value in environ.items() if name != "COVERAGE_PROCESS_CONFIG"}
