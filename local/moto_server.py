"""`make run`'s DynamoDB store: moto's server, as a child process of local/store.py, that applies
one request at a time and keeps its table on disk (docs/local.md).

    python -m local.moto_server --port PORT --data-dir DIR --table NAME --region REGION

- One request at a time: a lock around moto's request handling, as DynamoDB applies each request
  atomically, so a cancelled transaction rolls back only itself (moto's own threads interleave).
  A request's body is read before it takes the lock, its reply written after.
- Kept-alive connections (`KeepAlive`): werkzeug's server closes every connection after one
  reply, so each request of a handler would open a new connection and start a new thread here.
  Requests are not logged one by one.
- Durable: the table TABLE is loaded from DIR before the port opens; every request that changed
  it is in the journal, on disk, before it is answered (or any request that could have read it
  is); the flush is taken outside the lock, so one covers the lines of every request meanwhile.
  A write the journal could not keep whole (a full disk) is refused with a 503, as is every
  request after it, and the store exits (EXIT_DISK_FULL, or EXIT_JOURNAL_FAILED for any other
  failure): its table in memory holds a write the disk does not, so only a restart from the disk
  serves the truth (local/store.py starts it again once there is room).
  SIGTERM or SIGINT compacts the journal into the snapshot and exits (local/durable.py). DIR is
  held with a lock file for the life of the process, so a second store on the same DIR (a
  restart while the old one still stops) waits for it, or gives up with a message.
- moto's backend patched (local/moto_patches.py): a transaction's rollback costs what it touched.
- The SDKs' DynamoDB and DynamoDB Streams requests (named by their `X-Amz-Target`) go straight to
  moto's handlers for those services (`direct`), the way moto's Flask view calls them, without
  the Flask app around them (it would add about a fifth to the store's CPU at the rush); anything
  else (moto's own `/moto-api/`) goes through moto's app.
"""

import argparse
import contextlib
import fcntl
import io
import json
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from http import HTTPStatus
from pathlib import Path
from typing import Any

from botocore.exceptions import ClientError
from moto.core.models import DEFAULT_ACCOUNT_ID
from moto.core.request import Request
from moto.dynamodb.models import dynamodb_backends
from moto.dynamodb.models.table import Table
from moto.dynamodb.responses import DynamoHandler
from moto.dynamodbstreams.responses import DynamoDBStreamsHandler
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from werkzeug.serving import make_server

from local import moto_patches
from local.durable import DISK_FULL, DurableTable, StoreDataError, report_writes_to
from local.store import EXIT_DISK_FULL  # started again by local/store.py once there is room
from shared.dynamo.table import TTL_ATTRIBUTE, create_table_request

LOCK_FILE = "dynamodb.lock"
LOCK_WAIT_SECONDS = 20.0
EXIT_JOURNAL_FAILED = 70  # the journal could not be written: nothing more is answered
# Set when a write could not be kept: the store exits once the refusal is sent (KeepAlive).
EXITING: list[int] = []
EXIT_AFTER_SECONDS = 1.0
EXIT_DATA = 3  # the saved data could not be read, or DATA_DIR is held by another store

# The apps here never use the write() callable PEP 3333's start_response returns.
StartResponse = Callable[..., object]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
# X-Amz-Target's prefix (the JSON protocol's service and version) -> moto's handler of it.
DIRECT_TARGETS = {"DynamoDB_20120810": DynamoHandler, "DynamoDBStreams_20120810": DynamoDBStreamsHandler}


def direct(fallback: WsgiApp) -> WsgiApp:
    """APP answering the DynamoDB and DynamoDB Streams requests with moto's handlers themselves,
    and passing anything else to FALLBACK (moto's own app)."""

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        handler = DIRECT_TARGETS.get(environ.get("HTTP_X_AMZ_TARGET", "").partition(".")[0])
        if handler is None:
            return fallback(environ, start_response)
        request = Request(environ)
        request.from_wsgi_server = True  # as moto's app marks it: the server adds the Date header
        try:
            result = handler.dispatch(request, request.raw_url, dict(request.headers))
        except ClientError as error:  # as moto's Flask view answers one
            result = 400, {}, error.response["Error"]["Message"]
        status, headers, body = result if len(result) == 3 else (200, {}, result)
        try:
            phrase = HTTPStatus(status).phrase
        except ValueError:  # a status http.HTTPStatus does not name
            phrase = ""
        start_response(f"{status} {phrase}", [(str(k), str(v)) for k, v in headers.items()])
        return [body.encode() if isinstance(body, str) else body]

    return app


def serialized(
    app: WsgiApp, durable: DurableTable, lock: threading.Lock, compaction: threading.Event
) -> WsgiApp:
    """APP applying one request at a time, each one's writes journaled before it is answered;
    once a write could not be journaled, every request is refused (503) and the store exits."""

    def one_at_a_time(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started: list[tuple[Any, ...]] = []
        try:
            with lock:
                if durable.failed:
                    raise durable.failed
                reply = app(environ, lambda *args: started.append(args))
                try:
                    body = b"".join(reply)
                finally:
                    getattr(reply, "close", lambda: None)()
                position = durable.append()
                if durable.wants_compaction():
                    compaction.set()
            durable.sync(position)
        except OSError as error:
            # Applied here but not on disk: never answer it. A restart serves what is on disk.
            if not EXITING:
                _say(f"wordsqd store: the journal could not keep a write ({error}); refusing, exiting")
                EXITING.append(EXIT_DISK_FULL if error.errno in DISK_FULL else EXIT_JOURNAL_FAILED)
                # Exits after its refusal is sent (KeepAlive), or now if that never happens.
                threading.Timer(EXIT_AFTER_SECONDS, os._exit, (EXITING[0],)).start()
            return _unavailable(start_response)
        start_response(*started[0])
        return [body]

    return one_at_a_time


def _unavailable(start_response: StartResponse) -> Iterable[bytes]:
    """DynamoDB's own refusal of a request it could not serve (the SDK retries it, then raises)."""
    body = {
        "__type": "com.amazonaws.dynamodb.v20120810#ServiceUnavailable",
        "message": "The store is unavailable",
    }
    start_response("503 Service Unavailable", [("Content-Type", "application/x-amz-json-1.0")])
    return [json.dumps(body).encode()]


def _say(text: str) -> None:
    """A line to moto.log, unless the disk holding it is full (that must not stop the store)."""
    with contextlib.suppress(OSError):
        print(text, file=sys.stderr, flush=True)


def _say_exception() -> None:
    with contextlib.suppress(OSError):
        traceback.print_exc()


class KeepAlive(MotoRequestHandler):
    """moto's request handler on HTTP/1.1 connections kept open: the body read whole (its
    Content-Length: the AWS SDKs send one) before the app runs, the reply framed by its length."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # the headers and the body leave in two writes

    def run_wsgi(self) -> None:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.close_connection = True
            self.send_error(411, "A Content-Length is required")
            return
        environ = self.make_environ()
        body = self.rfile.read(length)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        started: list[tuple[str, list[tuple[str, str]]]] = []
        try:
            # werkzeug types start_response by PEP 3333, write() callable returned; none is used here.
            reply = self.server.app(environ, lambda status, headers, *_: started.append((status, headers)))  # type: ignore[arg-type]
            data = b"".join(reply)
        except Exception:
            _say_exception()
            self.close_connection = True
            self.send_error(500, "The store failed on this request")
            return
        status, headers = started[0]
        code, _, reason = status.partition(" ")
        self.send_response(int(code), reason)
        for name, value in headers:
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        if EXITING:
            os._exit(EXITING[0])

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        """Silenced: a line per request would grow moto.log without end."""


def hold_data_dir(data_dir: Path, wait: float = LOCK_WAIT_SECONDS) -> int:
    """Lock DATA_DIR for this process (released by the kernel when it ends, however it ends)."""
    fd = os.open(data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                raise StoreDataError(f"{data_dir} is in use by another store (another `make run`?)") from None
            time.sleep(0.1)


def create_table(region: str, name: str) -> Table:
    """The game's table (shared/dynamo/table.py) with its TTL on, made directly in moto's backend."""
    backend = dynamodb_backends[DEFAULT_ACCOUNT_ID][region]
    request = create_table_request(name)
    table = backend.create_table(
        name,
        schema=request["KeySchema"],
        throughput=None,
        attr=request["AttributeDefinitions"],
        global_indexes=request["GlobalSecondaryIndexes"],
        indexes=[],
        streams=request["StreamSpecification"],
        billing_mode=request["BillingMode"],
        sse_specification=None,
        tags=[],
        deletion_protection_enabled=False,
        warm_throughput=None,
    )
    backend.update_time_to_live(name, {"Enabled": True, "AttributeName": TTL_ATTRIBUTE})
    return table


def _compact_when_asked(durable: DurableTable, lock: threading.Lock, wanted: threading.Event) -> None:
    while wanted.wait():
        wanted.clear()
        try:
            with lock:
                durable.compact()
        except OSError:  # the journal still holds everything; the next compaction tries again
            _say_exception()


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--region", default="us-east-1")
    args = parser.parse_args(argv)

    moto_patches.install()
    try:
        hold_data_dir(args.data_dir)
        durable = DurableTable(args.data_dir, create_table(args.region, args.table))
        report_writes_to(durable)
        loaded = durable.load()
    except OSError as error:
        _say(f"wordsqd store: {error}")
        return EXIT_DISK_FULL if error.errno in DISK_FULL else EXIT_DATA
    except StoreDataError as error:
        _say(f"wordsqd store: {error}")
        return EXIT_DATA
    for note in durable.notes:
        _say(f"wordsqd store: {note}")
    _say(f"wordsqd store: {loaded} items loaded from {args.data_dir}")

    lock = threading.Lock()
    compaction = threading.Event()
    app = serialized(direct(DomainDispatcherApplication(create_backend_app)), durable, lock, compaction)
    server = make_server("127.0.0.1", args.port, app, threaded=True, request_handler=KeepAlive)
    threading.Thread(
        target=_compact_when_asked, args=(durable, lock, compaction), name="compaction", daemon=True
    ).start()
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        server.serve_forever()
    finally:
        # Holding the lock to the end: a request after this one is never applied.
        lock.acquire()
        if not durable.failed:
            with contextlib.suppress(OSError):  # a full disk: the journal holds everything
                durable.compact()
        durable.close()
        _say("wordsqd store: saved, stopping")
    return 0


if __name__ == "__main__":
    sys.exit(main())
