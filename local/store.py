"""The DynamoDB-compatible store behind `make run`: moto's server mode as a child process.

Moto keeps everything in memory, so the table is saved to DATA_DIR/dynamodb.json (the items as
a scan returns them) on shutdown and shortly after writes, and loaded back on the next start.
When AWS_ENDPOINT_URL_DYNAMODB is already set, that endpoint is used as it is: no child, no file.
"""

import base64
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

import boto3
from botocore.exceptions import ClientError

from shared.table import TTL_ATTRIBUTE, create_table_request

SNAPSHOT_FILE = "dynamodb.json"
SNAPSHOT_INTERVAL_SECONDS = 2.0
START_TIMEOUT_SECONDS = 20.0
_BATCH_WRITE_LIMIT = 25  # DynamoDB's maximum per batch_write_item


class StoreError(Exception):
    """The store could not start or its saved data could not be read back."""


class LocalStore:
    """The table the in-process handlers use, and (when embedded) its persistence."""

    def __init__(self, data_dir: Path, table_name: str):
        self.data_dir = data_dir
        self.table_name = table_name
        self.snapshot_path = data_dir / SNAPSHOT_FILE
        self.endpoint = os.environ.get("AWS_ENDPOINT_URL_DYNAMODB") or ""
        self.embedded = not self.endpoint
        self._child: subprocess.Popen | None = None
        self._dirty = threading.Event()
        self._stopping = threading.Event()
        self._snapshot_lock = threading.Lock()
        self._saver: threading.Thread | None = None
        self._saving = False  # only once the saved items are back in, or a save would lose them
        self._client = None

    def start(self) -> int:
        """Start the store (if embedded), create the table and load saved items; returns how
        many items were loaded."""
        os.environ.setdefault("AWS_DEFAULT_REGION", os.environ.get("AWS_REGION", "us-east-1"))
        if self.embedded:
            self.endpoint = self._start_moto()
            # Handlers run in this process, so boto3 finds the store through its own setting.
            os.environ["AWS_ENDPOINT_URL_DYNAMODB"] = self.endpoint
            if "AWS_ACCESS_KEY_ID" not in os.environ and "AWS_PROFILE" not in os.environ:
                os.environ["AWS_ACCESS_KEY_ID"] = "local"
                os.environ["AWS_SECRET_ACCESS_KEY"] = "local"
        self._client = boto3.client("dynamodb", endpoint_url=self.endpoint)
        self._create_table()
        if not self.embedded:
            return 0
        loaded = self._load_snapshot()
        self._saving = True
        self._saver = threading.Thread(target=self._save_while_running, name="snapshot", daemon=True)
        self._saver.start()
        return loaded

    def mark_written(self) -> None:
        """Note that a request may have changed the table, so the next tick saves it."""
        self._dirty.set()

    def stop(self) -> bool:
        """Final snapshot, then stop moto. Returns False if the snapshot failed."""
        self._stopping.set()
        saved = True
        if self._saving:
            if self._saver:
                self._saver.join(timeout=10)
            saved = self._snapshot_or_warn()
        if self._child and self._child.poll() is None:
            self._child.terminate()
            try:
                self._child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._child.kill()
                self._child.wait()
        return saved

    def snapshot(self) -> int:
        """Write every item to DATA_DIR/dynamodb.json atomically; returns the item count."""
        with self._snapshot_lock:
            items = []
            for page in self._client.get_paginator("scan").paginate(
                TableName=self.table_name, ConsistentRead=True
            ):
                items.extend(page["Items"])
            tmp = self.snapshot_path.with_name(SNAPSHOT_FILE + ".tmp")
            with open(tmp, "w") as file:
                json.dump({"table": self.table_name, "items": items}, file, default=_base64)
                file.flush()
                os.fsync(file.fileno())
            # A crash mid-write leaves the previous snapshot whole.
            os.replace(tmp, self.snapshot_path)
            return len(items)

    def _start_moto(self) -> str:
        port = _free_port()
        with open(self.data_dir / "moto.log", "w") as log:
            self._child = subprocess.Popen(
                # moto.server without its record of every instance (see local/moto_server.py)
                [sys.executable, "-m", "local.moto_server", "-H", "127.0.0.1", "-p", str(port)],
                cwd=Path(__file__).resolve().parents[1],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                # Its own session, so a Ctrl-C in the terminal reaches only us and we can still
                # take the final snapshot before stopping it ourselves.
                start_new_session=True,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
                env=without_coverage(os.environ),
            )
        endpoint = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if self._child.poll() is not None:
                raise StoreError(f"moto server exited at start; see {self.data_dir / 'moto.log'}")
            if _answers(endpoint):
                return endpoint
            time.sleep(0.1)
        self.stop()
        raise StoreError(f"moto server did not answer within {START_TIMEOUT_SECONDS:.0f} s")

    def _create_table(self) -> None:
        try:
            self._client.create_table(**create_table_request(self.table_name))
        except ClientError as error:
            if error.response["Error"]["Code"] != "ResourceInUseException":
                raise
        self._client.get_waiter("table_exists").wait(
            TableName=self.table_name, WaiterConfig={"Delay": 1, "MaxAttempts": 30}
        )
        ttl = self._client.describe_time_to_live(TableName=self.table_name)["TimeToLiveDescription"]
        # Enabling twice is an error on real DynamoDB, so only when it is off.
        if ttl.get("TimeToLiveStatus") not in ("ENABLED", "ENABLING"):
            self._client.update_time_to_live(
                TableName=self.table_name,
                TimeToLiveSpecification={"Enabled": True, "AttributeName": TTL_ATTRIBUTE},
            )

    def _load_snapshot(self) -> int:
        """Put the saved items into the fresh table, leaving out those whose TTL has passed
        (moto never expires items, DynamoDB would have deleted them)."""
        if not self.snapshot_path.exists():
            return 0
        try:
            saved = json.loads(self.snapshot_path.read_text())
            items = [_decode_binary({"M": item})["M"] for item in saved["items"]]
        except (ValueError, KeyError, TypeError) as error:
            # Refuse to start: serving an empty table would overwrite the file at the next save.
            raise StoreError(f"cannot read {self.snapshot_path}: {error}") from error
        now = time.time()
        items = [item for item in items if not _expired(item, now)]
        for start in range(0, len(items), _BATCH_WRITE_LIMIT):
            chunk = items[start : start + _BATCH_WRITE_LIMIT]
            request = {self.table_name: [{"PutRequest": {"Item": item}} for item in chunk]}
            while request:
                request = self._client.batch_write_item(RequestItems=request).get("UnprocessedItems")
        return len(items)

    def _save_while_running(self) -> None:
        while not self._stopping.wait(SNAPSHOT_INTERVAL_SECONDS):
            if self._dirty.is_set():
                # Cleared before the scan: a write during the scan sets it again for next time.
                self._dirty.clear()
                self._snapshot_or_warn()

    def _snapshot_or_warn(self) -> bool:
        try:
            self.snapshot()
            return True
        except Exception as error:  # the server keeps running; the next snapshot may succeed
            print(f"wordsqd: could not save {self.snapshot_path}: {error}", file=sys.stderr)
            return False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
    orphaned moto outlives it."""
    import ctypes

    pr_set_pdeathsig = 1
    # Without prctl (another libc), the normal shutdown path still stops moto.
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGTERM)


def _expired(item: dict, now: float) -> bool:
    ttl = item.get(TTL_ATTRIBUTE, {}).get("N")
    return ttl is not None and float(ttl) <= now


def _base64(value: object) -> str:
    """JSON has no bytes: binary attribute values (B, BS) are saved as base64."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    raise TypeError(f"cannot save {type(value).__name__}")


def _decode_binary(value: dict) -> dict:
    """The inverse of `_base64` inside one attribute value (as nested as M and L go)."""
    ((kind, inner),) = value.items()
    if kind == "B":
        return {"B": base64.b64decode(inner)}
    if kind == "BS":
        return {"BS": [base64.b64decode(v) for v in inner]}
    if kind == "M":
        return {"M": {name: _decode_binary(v) for name, v in inner.items()}}
    if kind == "L":
        return {"L": [_decode_binary(v) for v in inner]}
    return value


def without_coverage(environ: Mapping[str, str]) -> dict[str, str]:
    """ENVIRON without coverage.py's subprocess hook: when the tests measure coverage they measure
    `make run`'s server, but not a child that runs someone else's code (the DynamoDB server here,
    the fuzzer in the tests), which runs about twice as slowly when traced."""
    return {name: value for name, value in environ.items() if name != "COVERAGE_PROCESS_CONFIG"}
