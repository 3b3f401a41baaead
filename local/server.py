"""`make run`: the Lambda handlers served over HTTP on 127.0.0.1, called the way API Gateway calls them.

Each request becomes the API Gateway v2 event of its route (local/events.py) and goes to that
function's `handler(event, context)` in one of its worker processes, each one handling one event
at a time as a Lambda instance does (local/workers.py), after the local JWT check (local/auth.py).
The table lives in the embedded store (local/store.py); the scheduled jobs run on the game clock
(local/scheduler.py). Local-only extras, never deployed:
the web client at `/` (web/), `POST /local/login` and `POST /local/refresh` (local/auth.py), and
`POST /local/clock` when LOCAL_CLOCK_CONTROL=1. Every reply's `Date` is on the game clock, as the
client learns the server's time from it.

Settings: PORT (8000), DATA_DIR (.local/ in the repository), TABLE_NAME (wordsqd), PUZZLE_SEED
(generated once and kept in DATA_DIR), AWS_ENDPOINT_URL_DYNAMODB (use that store instead),
LOCAL_WORKERS (4: the most worker processes, Lambda instances, each function runs at once),
LOCAL_BODY_TIMEOUT_SECONDS (10: how long a request's body may take to arrive whole; a shorter body
than its Content-Length is then 400 and the connection closed), LOCAL_CLOCK_START (with
LOCAL_CLOCK_CONTROL=1: the game clock starts at that ISO 8601 instant, for a fresh DATA_DIR, so a
test plays a Daily date of its choosing).
"""

import base64
import errno
import functools
import hashlib
import json
import math
import os
import secrets
import signal
import socketserver
import sys
import threading
import time
import traceback
import uuid
import warnings
from collections.abc import Callable
from datetime import datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from local import auth, streams
from local.events import http_event
from local.push import PushInbox
from local.scheduler import PieceRunner, Scheduler
from local.store import LocalStore
from local.workers import Function, preload, workers_per_function
from shared.game import clock
from shared.http.page_headers import security_headers
from shared.http.routes import (
    CLOSING_PIECE_HANDLER,
    COUNTERS_HANDLER,
    HANDLERS,
    Route,
    allowed_methods,
    match_route,
    path_exists,
)
from shared.runtime.piece_queue import DirectoryQueue

REPO_ROOT = Path(__file__).resolve().parents[1]
WEB_DIR = REPO_ROOT / "web"  # the web client: the same files the stack deploys to S3
# The client's files served at `/`, by URL path, with their media types (nothing else is served):
# the page's own, and its modules (js/) and styles (css/) as they are in the folder.
WEB_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    **{
        "/" + path.relative_to(WEB_DIR).as_posix(): (path.relative_to(WEB_DIR).as_posix(), media_type)
        for folder, media_type in (
            ("js", "text/javascript; charset=utf-8"),
            ("css", "text/css; charset=utf-8"),
        )
        for path in sorted((WEB_DIR / folder).rglob("*." + folder))
    },
    "/config.json": ("config.json", "application/json"),
    "/manifest.webmanifest": ("manifest.webmanifest", "application/manifest+json"),
    "/sw.js": ("sw.js", "text/javascript; charset=utf-8"),
    "/offline.html": ("offline.html", "text/html; charset=utf-8"),
    "/offline.js": ("offline.js", "text/javascript; charset=utf-8"),
    "/icon.svg": ("icon.svg", "image/svg+xml"),
}
MAX_BODY_BYTES = 10 * 1024 * 1024  # API Gateway HTTP API's own payload limit
STORE_WAIT_SECONDS = 30.0  # a request waits this long for a store being started again
BODY_TIMEOUT_SECONDS = 10.0  # LOCAL_BODY_TIMEOUT_SECONDS: a body's whole arrival, at most
HTTP_VERSIONS = ("HTTP/1.0", "HTTP/1.1")  # what API Gateway's HTTP/1 side speaks; anything else is 400
# The stage's security headers (CloudFront's policy: every reply), without HSTS: this is plain HTTP.
SECURITY_HEADERS = security_headers(https=False)
PREFLIGHT_HEADERS = [
    ("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS"),
    ("Access-Control-Allow-Headers", "authorization, content-type, idempotency-key"),
    ("Access-Control-Max-Age", "600"),
]
# With metrics disabled, every handler's @metrics.log_metrics would warn that it has none.
warnings.filterwarnings("ignore", message="No application metrics to publish")
HANDLER_DEFAULTS = {
    "WORDSQD_ENV": "local",  # the stand-ins (accounts, the cursor key from the seed) are allowed
    "TABLE_NAME": "wordsqd",
    "POWERTOOLS_SERVICE_NAME": "wordsqd",
    "POWERTOOLS_METRICS_NAMESPACE": "WordSQD",
    # The handlers' JSON logs and metrics would drown the one line per request.
    "POWERTOOLS_LOG_LEVEL": "WARNING",
    "POWERTOOLS_METRICS_DISABLED": "true",
    # As on Lambda (infra/functions.py): no scan of installed packages for pydantic plugins.
    "PYDANTIC_DISABLE_PLUGINS": "__all__",
}

Headers = list[tuple[str, str]]
Reply = tuple[int, Headers, bytes]


class HttpError(Exception):
    """A refusal that leaves as the SPEC §5 error envelope."""

    def __init__(self, status: int, code: str, message: str, headers: Headers | None = None):
        super().__init__(message)
        status, json_headers, body = _json(status, {"error": {"code": code, "message": message}})
        self.reply = status, json_headers + (headers or []), body


class LocalServer(ThreadingHTTPServer):
    """The HTTP server and what its requests share: the token secret, the store, the handlers."""

    # Connections waiting to be accepted: socketserver's 5 refuses the rest of a rush's players
    # (network errors) while the accepting thread is busy.
    request_queue_size = 256

    def __init__(
        self,
        port: int,
        secret: str,
        clock_control: bool,
        workers: int,
        body_timeout: float = BODY_TIMEOUT_SECONDS,
    ):
        super().__init__(("127.0.0.1", port), RequestHandler)
        self.body_timeout = body_timeout
        self.secret = secret
        self.issuer = f"http://127.0.0.1:{port}/local"
        self.clock_control = clock_control
        self.sessions = auth.Sessions(None)  # main(): kept in DATA_DIR
        self.store: LocalStore | None = None
        self.scheduler: Scheduler | None = None
        self.streams: streams.StreamPoller | None = None  # make run's stream consumer
        self.functions = {function: Function(entry, workers) for function, entry in HANDLERS.items()}
        # The rank counters' consumer: one batch at a time, as Lambda polls a shard, in a worker
        # process of its own, so its CPU is not spent in this process, between the requests.
        self.counters = Function(COUNTERS_HANDLER, 1)
        # The closing pass's pieces (functions/daily/closing_piece.py), from a folder queue that
        # local/scheduler.py drains after each expiry job, as SQS feeds the workers on AWS.
        self.pieces = Function(CLOSING_PIECE_HANDLER, workers)
        self.stopping = threading.Event()  # set at shutdown: requests on kept-open connections get 503
        self.pushes = PushInbox()  # the reminders' push service stand-in (local/push.py)

    def server_bind(self) -> None:
        # HTTPServer.server_bind would look the host name up (DNS); the address is known.
        socketserver.TCPServer.server_bind(self)
        host, self.server_port = self.server_address[:2]
        assert isinstance(host, str)  # getsockname() gives an AF_INET socket's host as a str
        self.server_name = host

    def finish_requests(self) -> None:
        """Wait for handlers still running (and let no new one start) before the last save."""
        for function in [*self.functions.values(), self.counters, self.pieces]:
            function.close(timeout=30)


class RequestHandler(BaseHTTPRequestHandler):
    server: LocalServer
    protocol_version = "HTTP/1.1"  # connections kept open between requests, as browsers use them
    timeout = 30  # a connection that sends nothing does not hold a thread forever

    def serve(self) -> None:
        started = time.perf_counter()
        try:
            if self.server.stopping.is_set():
                # A connection kept open past the shutdown: nothing more runs once it began.
                self.close_connection = True
                raise HttpError(503, "server_stopping", "The server is stopping", [("Retry-After", "5")])
            status, headers, body = self._reply()
        except HttpError as error:
            status, headers, body = error.reply
        except Exception:
            # An uncaught error: API Gateway answers 500 without details; the trace is for you.
            traceback.print_exc()
            self.close_connection = True  # the request may not have been read to its end
            status, headers, body = HttpError(500, "internal_error", "Something went wrong").reply
        self._respond(status, headers, body)
        elapsed_ms = (time.perf_counter() - started) * 1000
        print(f"{self.command} {urlsplit(self.path).path} {status} {elapsed_ms:.0f}ms", file=sys.stderr)

    def __getattr__(self, name: str) -> Any:
        # http.server looks up `do_<METHOD>` for each request and answers a missing one with its
        # own 501 HTML page; here every method (HEAD, TRACE, anything) is routed like the rest, so
        # one this API does not serve gets the JSON envelope (405 on a known path, 404 elsewhere).
        if name.startswith("do_"):
            return self.serve
        raise AttributeError(name)

    def parse_request(self) -> bool:
        """http.server's parsing, for a request line of three words ending in HTTP/1.0 or HTTP/1.1
        only: it would take a two-word line as HTTP/0.9 (a reply without status line or headers)
        and answer `HTTP/2.0` with a body alone, for the same reason."""
        words = self.raw_requestline.decode("iso-8859-1").rstrip("\r\n").split()
        if words and (len(words) != 3 or words[2] not in HTTP_VERSIONS):
            self.command, self.request_version = "", "HTTP/1.1"  # an answer with its status line
            self.requestline = " ".join(words)[:200]
            self.send_error(400, "The request line must be METHOD PATH HTTP/1.1 (or HTTP/1.0)")
            return False
        return super().parse_request()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a malformed request line, headers too long) in the SPEC
        §5 envelope instead of its HTML page."""
        self.close_connection = True
        try:
            name = HTTPStatus(code).phrase.lower().replace(" ", "_")
        except ValueError:  # a status http.HTTPStatus does not name
            name = "bad_request"
        status, headers, body = HttpError(code, name, message or "Malformed request").reply
        self._respond(status, headers, body)

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        """Silenced: `serve` logs its own line with the time taken."""

    def date_time_string(self, timestamp: float | None = None) -> str:
        """The `Date` header, on the game clock (the client learns the server's time from it)."""
        return super().date_time_string(clock.now().timestamp() if timestamp is None else timestamp)

    def _reply(self) -> Reply:
        # Read first, whatever the answer: the next request on this connection starts after it.
        body = self._read_body()
        if self.command == "OPTIONS":
            # CORS preflight: API Gateway answers it itself, for any path, when CORS is configured.
            return 204, PREFLIGHT_HEADERS, b""
        url = urlsplit(self.path)
        local = self._local_routes().get(url.path)
        if local is not None:
            if self.command not in local:
                allow = [("Allow", ", ".join(sorted(local)))]
                raise HttpError(405, "method_not_allowed", f"{self.command} is not allowed here", allow)
            return local[self.command](body)
        matched = match_route(self.command, url.path)
        if matched is None:
            if path_exists(url.path):
                allow = [("Allow", ", ".join(allowed_methods(url.path)))]
                raise HttpError(405, "method_not_allowed", f"{self.command} is not allowed here", allow)
            raise HttpError(404, "not_found", "No such route")
        route, _ = matched
        claims = None
        if route.access == "player":
            claims = auth.verified_claims(self.headers.get("Authorization"), self.server.secret)
            if claims is None:
                raise HttpError(401, "unauthorized", "A valid token is required")
        return self._invoke(route, url.path, url.query, body, claims)

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.close_connection = True
            raise HttpError(411, "length_required", "Send the body with a Content-Length")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0:
            self.close_connection = True
            raise HttpError(400, "bad_request", "Invalid Content-Length")
        if length > MAX_BODY_BYTES:
            self.close_connection = True  # the body stays unread, so the connection cannot go on
            raise HttpError(413, "payload_too_large", f"The body may not exceed {MAX_BODY_BYTES} bytes")
        body = self._read_exactly(length, time.monotonic() + self.server.body_timeout)
        if len(body) < length:
            self.close_connection = True  # where the next request would start is unknown
            raise HttpError(400, "bad_request", "The body is shorter than its Content-Length")
        return body

    def _read_exactly(self, length: int, deadline: float) -> bytes:
        """Up to LENGTH bytes of the body: fewer when the client stops sending (it closed its side,
        or sent nothing more by DEADLINE)."""
        chunks, missing = [], length
        try:
            while missing > 0 and (left := deadline - time.monotonic()) > 0:
                self.connection.settimeout(left)
                chunk = self.rfile.read1(missing)
                if not chunk:
                    break
                chunks.append(chunk)
                missing -= len(chunk)
        except TimeoutError:
            pass
        finally:
            self.connection.settimeout(self.timeout)
        return b"".join(chunks)

    def _invoke(
        self, route: Route, path: str, query: str, body: bytes, claims: dict[str, str] | None
    ) -> Reply:
        """Call the route's function with the event API Gateway would send, and turn its reply
        into an HTTP response."""
        # Repeated query keys and headers arrive comma-joined, as API Gateway sends them.
        parameters: dict[str, list[str]] = {}
        for name, value in parse_qsl(query, keep_blank_values=True):
            parameters.setdefault(name, []).append(value)
        headers = {name.lower(): ",".join(self.headers.get_all(name, [])) for name in self.headers}
        try:
            raw_body: bytes | str | None = body.decode() if body else None
        except UnicodeDecodeError:
            raw_body = body  # binary: the event carries it base64-encoded
        event = http_event(
            self.command,
            path,
            query={name: ",".join(values) for name, values in parameters.items()},
            headers=headers,
            claims=claims,
            raw_body=raw_body,
        )
        store = self.server.store
        if store and not store.wait_ready(STORE_WAIT_SECONDS):
            retry = [("Retry-After", "5")]
            why = "The store's disk is full" if store.disk_full.is_set() else "The store is starting again"
            raise HttpError(503, "store_unavailable", f"{why}; try again", retry)
        result = self.server.functions[route.function].invoke(event, str(uuid.uuid4()))
        return _lambda_reply(result)

    def _local_routes(self) -> dict[str, dict[str, Callable[[bytes], Reply]]]:
        routes: dict[str, dict[str, Callable[[bytes], Reply]]] = {
            path: {"GET": functools.partial(self._web_file, path)} for path in WEB_FILES
        }
        routes["/local/login"] = {"POST": self._login}
        routes["/local/refresh"] = {"POST": self._refresh}
        routes["/local/push"] = {
            "POST": lambda body: self.server.pushes.receive(
                {k.lower(): v for k, v in self.headers.items()}, body
            ),
            "GET": lambda _body: self.server.pushes.listing(),
        }
        if self.server.clock_control:
            routes["/local/clock"] = {"POST": self._advance_clock}
        return routes

    def _web_file(self, path: str, _body: bytes) -> Reply:
        """A client file, revalidated on each use (no-cache with an ETag: a 304 when unchanged),
        never `no-store`, so the back/forward cache keeps the page."""
        name, media_type = WEB_FILES[path]
        content = (WEB_DIR / name).read_bytes()
        etag = '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
        headers = [("Content-Type", media_type), ("Cache-Control", "no-cache"), ("ETag", etag)]
        if etag in (self.headers.get("If-None-Match") or ""):
            return 304, headers, b""
        return 200, headers, content

    def _login(self, body: bytes) -> Reply:
        username = _json_object(body).get("username")
        if not auth.valid_username(username):
            raise HttpError(400, "bad_request", "username: 1-32 letters, digits, '_', '.' or '-'")
        return _json(
            200,
            self._tokens(username)
            | {"refresh_token": auth.issue_refresh_token(username, self.server.secret)},
        )

    def _refresh(self, body: bytes) -> Reply:
        """Cognito's `grant_type=refresh_token` with rotation: a new ID token and a new refresh
        token for a valid refresh token (local/auth.py `Sessions`)."""
        username = self.server.sessions.redeem(_json_object(body).get("refresh_token"), self.server.secret)
        if username is None:
            raise HttpError(400, "invalid_grant", "The refresh token is invalid or expired: log in again")
        refresh_token = auth.issue_refresh_token(username, self.server.secret)
        return _json(200, self._tokens(username) | {"refresh_token": refresh_token})

    def _tokens(self, username: str) -> dict[str, Any]:
        token = auth.issue_id_token(username, self.server.secret, self.server.issuer)
        return {"id_token": token, "expires_in": auth.TOKEN_LIFETIME_SECONDS}

    def _advance_clock(self, body: bytes) -> Reply:
        seconds = _json_object(body).get("advance_seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
            raise HttpError(400, "bad_request", "advance_seconds: a number of seconds")
        if seconds < 0:
            # Back in time, closed boards would open again and a closed Daily take new results.
            raise HttpError(400, "bad_request", "advance_seconds: the clock never moves backwards")
        try:
            clock.advance(seconds)
        except OverflowError:
            raise HttpError(400, "bad_request", "advance_seconds is out of range") from None
        if self.server.streams:
            self.server.streams.drain()  # the time jumped over lets the stream consumer catch up
        if self.server.scheduler:
            self.server.scheduler.run_due()  # the jobs the jump made due, before the reply
        if self.server.streams:
            self.server.streams.drain()  # ... and count what they completed, as 60 s of settle would
        return _json(200, {"advanced": seconds})

    def _respond(self, status: int, headers: Headers, body: bytes) -> None:
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        # Any origin may call the local server (a web client on another port, for one).
        self.send_header("Access-Control-Allow-Origin", "*")
        for name, value in SECURITY_HEADERS:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:  # said, so the client does not send the next request on it
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":  # a reply to HEAD has the headers of the reply, never its body
            self.wfile.write(body)


def _lambda_reply(result: Any) -> Reply:
    """An HTTP response from a payload 2.0 Lambda reply, by API Gateway's rules."""
    if not (isinstance(result, dict) and "statusCode" in result):
        # No statusCode: API Gateway takes the whole reply as a JSON body with 200.
        return 200, [("Content-Type", "application/json")], json.dumps(result).encode()
    body = result.get("body") or ""
    data = base64.b64decode(body) if result.get("isBase64Encoded") else body.encode()
    # This server frames the body itself, and API Gateway's CORS settings replace any CORS
    # header a function returns.
    headers = [
        (name, str(value))
        for name, value in (result.get("headers") or {}).items()
        if name.lower() not in ("content-length", "connection", "transfer-encoding")
        and not name.lower().startswith("access-control-")
    ]
    headers += [("Set-Cookie", cookie) for cookie in result.get("cookies") or []]
    return int(result["statusCode"]), headers, data


def _json(status: int, payload: Any) -> Reply:
    return status, [("Content-Type", "application/json")], json.dumps(payload).encode()


def _json_object(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body or b"null")
    except (ValueError, RecursionError):
        raise HttpError(400, "bad_request", "The body is not valid JSON") from None
    if not isinstance(data, dict):
        raise HttpError(400, "bad_request", "The body must be a JSON object")
    return data


def stored_secret(path: Path) -> str:
    """The secret kept at PATH, created (readable by the owner only) on first use."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    value = secrets.token_hex(32)
    with os.fdopen(fd, "w") as file:
        file.write(value + "\n")
    return value


def configure_handlers(data_dir: Path) -> None:
    """The environment the in-process handlers read, keeping whatever the caller already set.
    The puzzle seed is kept in DATA_DIR so each date's puzzle survives a restart."""
    if not os.environ.get("PUZZLE_SEED"):
        os.environ["PUZZLE_SEED"] = stored_secret(data_dir / "puzzle-seed")
    os.environ["LOCAL_SESSIONS"] = str(data_dir / auth.SESSIONS_FILE)  # sign-outs (DELETE /me)
    os.environ["LOCAL_PIECES_DIR"] = str(data_dir / "pieces")  # the closing pass's queue
    for name, value in HANDLER_DEFAULTS.items():
        os.environ.setdefault(name, value)


def clock_start(text: str) -> datetime:
    """LOCAL_CLOCK_START's instant (ISO 8601 with its offset, e.g. 2026-03-02T18:00:00Z)."""
    try:
        instant = clock.parse_iso(text)
    except ValueError:
        instant = None
    if instant is None or instant.tzinfo is None:
        raise ValueError(f"LOCAL_CLOCK_START must be an ISO 8601 instant with its offset, not {text!r}")
    return instant


def main() -> int:
    try:
        port = int(os.environ.get("PORT") or 8000)
        if not 0 < port < 65536:
            raise ValueError
    except ValueError:
        print(f"wordsqd: PORT must be a port number, not {os.environ['PORT']!r}", file=sys.stderr)
        return 2
    data_dir = Path(os.environ.get("DATA_DIR") or REPO_ROOT / ".local").resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    clock_control = os.environ.get("LOCAL_CLOCK_CONTROL") == "1"
    try:
        if clock_control and os.environ.get("LOCAL_CLOCK_START"):
            clock.travel_to(clock_start(os.environ["LOCAL_CLOCK_START"]))
        workers = workers_per_function()
        body_timeout = float(os.environ.get("LOCAL_BODY_TIMEOUT_SECONDS") or BODY_TIMEOUT_SECONDS)
        if not 0 < body_timeout < math.inf:
            raise ValueError(
                f"LOCAL_BODY_TIMEOUT_SECONDS must be a positive number of seconds, not {body_timeout}"
            )
    except ValueError as error:
        print(f"wordsqd: {error}", file=sys.stderr)
        return 2

    # Bind first, so a busy port fails fast, before any store starts.
    try:
        secret = stored_secret(data_dir / "jwt-secret")
        server = LocalServer(port, secret, clock_control, workers, body_timeout)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            print(f"wordsqd: port {port} is already in use (stop that server or set PORT)", file=sys.stderr)
            return 1
        raise

    stopping = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopping.set())

    configure_handlers(data_dir)
    server.sessions = auth.Sessions(data_dir / auth.SESSIONS_FILE)
    failure: list[str] = []

    def store_failed(reason: str) -> None:
        failure.append(reason)
        stopping.set()

    store = LocalStore(data_dir, os.environ["TABLE_NAME"], on_failure=store_failed)
    try:
        loaded = store.start()
    except Exception as error:
        print(f"wordsqd: the store could not start: {error}", file=sys.stderr)
        store.stop()
        server.server_close()
        return 1
    server.store = store
    preload([*HANDLERS.values(), COUNTERS_HANDLER, CLOSING_PIECE_HANDLER])  # their environment is set
    server.scheduler = Scheduler(pieces=PieceRunner(DirectoryQueue(data_dir / "pieces"), server.pieces))
    server.scheduler.start()

    def count(event: dict[str, Any], context: Any) -> dict[str, Any]:
        reply: dict[str, Any] = server.counters.invoke(event, context.aws_request_id)
        return reply

    # DynamoDB Streams -> counters.py; setting `polling` stops the poller.
    polling, server.streams = streams.start(os.environ["TABLE_NAME"], count)

    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    kind = f"embedded, {loaded} items loaded" if store.embedded else "external"
    print(
        f"WordSQD local: http://127.0.0.1:{port}/ | DynamoDB: {store.endpoint} ({kind}) | data: {data_dir}",
        flush=True,
    )
    while not stopping.wait(0.5):
        pass

    print(f"wordsqd: {failure[0]}; stopping" if failure else "wordsqd: stopping", file=sys.stderr)
    server.stopping.set()
    polling.set()
    server.scheduler.stop()
    server.shutdown()
    server.finish_requests()
    server.server_close()
    saved = store.stop()
    return 0 if saved and not failure else 1


if __name__ == "__main__":
    sys.exit(main())
