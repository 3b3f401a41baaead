"""`make run`'s server (local/server.py) as a user meets it: a real process, real HTTP, a real store.

Each test starts `python -m local.server` on a free port with its own DATA_DIR; every process
is stopped (or killed) before its test ends.
"""

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import boto3
import jwt
import pytest

from local import auth
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.game import clock
from shared.game.boards import SETTLE_SECONDS
from shared.game.clock import parse_iso
from tests.server_process import free_port, launch, running, server_env, start_line

# One xdist worker runs this file, so the module's server starts once.
pytestmark = pytest.mark.xdist_group("local_server")

REPO = Path(__file__).parents[2]
# Guards against a hung server, not timings: generous, so that a loaded machine (a shared CI
# runner, both cores busy) is slow, never failing. No test asserts how long anything took.
START_TIMEOUT = 120.0
STOP_TIMEOUT = 60.0
REQUEST_TIMEOUT = 120.0
SECRET = "a-test-signing-secret-of-32-bytes"
# Left to the server to choose, as `make run` does (the test set-up may have set them).
SERVER_CHOOSES = ("AWS_ENDPOINT_URL_DYNAMODB", "PUZZLE_SEED")


class Server:
    """One `python -m local.server` process and a small HTTP client for it."""

    def __init__(self, data_dir: Path, port: int | None = None, **env: str):
        self.data_dir = data_dir
        self.port = port or free_port()
        self.env = server_env(self.port, data_dir, SERVER_CHOOSES, LOCAL_CLOCK_CONTROL="1", **env)
        self.stderr_path = data_dir.parent / f"{data_dir.name}-{self.port}-{uuid.uuid4().hex[:6]}.err"
        self.process: subprocess.Popen | None = None
        self._drainer: threading.Thread | None = None
        self.endpoint = ""
        self.start_line = ""

    def start(self) -> "Server":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.stderr_path, "w") as stderr:
            self.process, lines, self._drainer = launch(self.env, stderr)
        self.start_line = start_line(lines, START_TIMEOUT, self.stderr)
        if not self.start_line:
            pytest.fail(f"server exited at start ({self.process.wait()}):\n{self.stderr()}")
        self.endpoint = re.search(r"DynamoDB: (\S+)", self.start_line).group(1)
        return self

    def stderr(self) -> str:
        return self.stderr_path.read_text() if self.stderr_path.exists() else ""

    def stop(self) -> int:
        """Ctrl-C, as a user would; returns the exit code."""
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=STOP_TIMEOUT)
        self._drainer.join(timeout=STOP_TIMEOUT)
        return code

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=STOP_TIMEOUT)
        if self._drainer:
            self._drainer.join(timeout=STOP_TIMEOUT)

    def request(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, dict, object]:
        """(status, headers, decoded JSON body or the text) for one request."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=data, method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
                status, reply_headers, raw = response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            status, reply_headers, raw = error.code, dict(error.headers), error.read()
        try:
            return status, reply_headers, json.loads(raw)
        except ValueError:
            return status, reply_headers, raw.decode()

    def login(self, username: str) -> str:
        status, _, body = self.request("POST", "/local/login", {"username": username})
        assert status == 200, body
        return body["id_token"]

    def dynamodb(self):
        return boto3.client(
            "dynamodb",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("data"))
    with running(server.start, server.kill) as started:
        yield started


@pytest.mark.server
def test_validate_is_served_by_its_handler(server):
    status, headers, body = server.request("POST", "/validate", {"prompt": "TMR", "word": "Timer"})
    assert (status, body) == (200, {"valid": True, "word": "timer", "reason": None})
    assert headers["Access-Control-Allow-Origin"] == "*"


def _children(pid: int) -> list[tuple[int, str]]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            if entry.isdigit() and int(stat[1]) == pid:
                found.append((int(entry), Path(f"/proc/{entry}/cmdline").read_bytes().decode()))
        except (OSError, IndexError, ValueError):
            continue
    return found


@pytest.mark.server
def test_the_workers_fork_server_has_every_functions_handler_imported(server):
    from shared.http.routes import HANDLERS

    fork_servers = [cmd for _, cmd in _children(server.process.pid) if "multiprocessing.forkserver" in cmd]
    assert len(fork_servers) == 1, _children(server.process.pid)
    for entry in HANDLERS.values():
        assert repr(entry.partition(":")[0]) in fork_servers[0]


@pytest.mark.server
def test_make_run_starts_and_forks_its_workers_without_a_warning(server):
    # A worker runs the server's module again (multiprocessing's __mp_main__): the fork server
    # preloads that module's imports, not the module itself, which runpy would warn about.
    status, _, _ = server.request("POST", "/validate", {"prompt": "TMR", "word": "Timer"})
    assert status == 200
    assert "Warning" not in server.stderr()


@pytest.mark.server
def test_unknown_path_is_404_and_wrong_method_is_405(server):
    status, _, body = server.request("GET", "/no/such/route")
    assert status == 404 and body["error"]["code"] == "not_found"
    status, _, body = server.request("GET", "/validate")
    assert status == 405 and set(body["error"]) == {"code", "message"}
    status, _, body = server.request("GET", "/local/login")
    assert status == 405


@pytest.mark.server
def test_player_route_without_a_valid_token_is_401(server):
    forged = jwt.encode({"sub": "x", "aud": "wordsqd-local"}, SECRET, "HS256")
    for token in (None, "not-a-jwt", forged):
        status, _, body = server.request("POST", "/daily/runs", token=token)
        assert status == 401 and body["error"]["code"] == "unauthorized", (token, body)


@pytest.mark.server
def test_login_gives_a_token_the_authorizer_accepts(server):
    token = server.login("alice")
    claims = jwt.decode(token, options={"verify_signature": False})
    assert claims["cognito:username"] == "alice" and claims["token_use"] == "id"
    assert claims["aud"] == "wordsqd-local" and claims["exp"] - claims["iat"] == 3600  # Cognito's hour
    assert claims["sub"] == jwt.decode(server.login("alice"), options={"verify_signature": False})["sub"]
    # The handler's own guard answers 401 when the claims are missing from the event.
    status, _, body = server.request("POST", "/daily/runs", token=token)
    assert status != 401, body


@pytest.mark.server
@pytest.mark.parametrize("body", [{"username": ""}, {"username": "a" * 33}, {"username": "al ice"}, {}, []])
def test_login_refuses_a_bad_username(server, body):
    status, _, reply = server.request("POST", "/local/login", body)
    assert status == 400 and reply["error"]["code"] == "bad_request"


@pytest.mark.server
def test_a_refresh_token_buys_a_new_id_token_and_is_no_id_token_itself(server):
    status, _, login = server.request("POST", "/local/login", {"username": "rita-renews"})
    assert status == 200 and login["expires_in"] == 3600 and login["refresh_token"]
    status, _, renewed = server.request("POST", "/local/refresh", {"refresh_token": login["refresh_token"]})
    assert status == 200 and set(renewed) == {"id_token", "expires_in", "refresh_token"}
    same = [
        jwt.decode(t, options={"verify_signature": False})["sub"]
        for t in (login["id_token"], renewed["id_token"])
    ]
    assert same[0] == same[1]
    assert server.request("POST", "/daily/runs", token=renewed["id_token"])[0] in (200, 201)
    # A refresh token is not an ID token, and an ID token refreshes nothing.
    assert server.request("POST", "/daily/runs", token=login["refresh_token"])[0] == 401
    for bad in (login["id_token"], "nonsense", 7, None):
        status, _, body = server.request("POST", "/local/refresh", {"refresh_token": bad})
        assert status == 400 and body["error"]["code"] == "invalid_grant", bad


@pytest.mark.usefixtures("still_clock")
def test_tokens_expire_on_the_game_clock():
    """An ID token lasts an hour and a refresh token a week of the game clock (moved, not slept)."""
    token = auth.issue_id_token("tim-timed", SECRET, "http://127.0.0.1:8000/local")
    refresh = auth.issue_refresh_token("tim-timed", SECRET)
    try:
        clock.advance(3599)
        assert auth.verified_claims(f"Bearer {token}", SECRET) is not None
        clock.advance(2)
        assert auth.verified_claims(f"Bearer {token}", SECRET) is None
        assert auth.Sessions(None).redeem(refresh, SECRET) == "tim-timed"
        clock.advance(auth.REFRESH_LIFETIME_SECONDS)
        assert auth.Sessions(None).redeem(refresh, SECRET) is None
    finally:
        clock.reset()


@pytest.mark.server
def test_the_pages_files_are_revalidated_not_stored(server):
    """`no-cache` with an ETag (a 304 when unchanged), never `no-store`: the back/forward cache
    may keep the page."""
    status, headers, _ = server.request("GET", "/")
    assert status == 200 and headers["Cache-Control"] == "no-cache" and headers["ETag"]
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}/", headers={"If-None-Match": headers["ETag"]}
    )
    with pytest.raises(urllib.error.HTTPError) as not_modified:
        urllib.request.urlopen(request, timeout=10)
    assert not_modified.value.code == 304 and not_modified.value.read() == b""


@pytest.mark.server
def test_clock_control_advances_the_game_clock(server):
    assert server.request("POST", "/local/clock", {"advance_seconds": 1.5})[::2] == (200, {"advanced": 1.5})
    assert server.request("POST", "/local/clock", {"advance_seconds": "soon"})[0] == 400


@pytest.mark.server
def test_the_local_clock_refuses_to_move_backwards(server):
    before = _server_now(server)
    status, _, body = server.request("POST", "/local/clock", {"advance_seconds": -3600})
    assert status == 400 and body["error"]["code"] == "bad_request", body
    assert "backwards" in body["error"]["message"]
    assert _server_now(server) >= before
    assert server.request("POST", "/local/clock", {"advance_seconds": 0})[::2] == (200, {"advanced": 0})


@pytest.mark.server
def test_body_over_api_gateway_limit_is_413_without_reading_it(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=REQUEST_TIMEOUT)
    try:
        connection.putrequest("POST", "/validate")
        connection.putheader("Content-Length", str(10 * 1024 * 1024 + 1))
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 413
        assert json.loads(response.read())["error"]["code"] == "payload_too_large"
    finally:
        connection.close()


@pytest.mark.server
def test_cors_preflight_and_the_page(server):
    status, headers, _ = server.request("OPTIONS", "/daily/runs")
    assert status == 204 and headers["Access-Control-Allow-Origin"] == "*"
    assert {"authorization", "idempotency-key"} <= set(headers["Access-Control-Allow-Headers"].split(", "))
    status, headers, page = server.request("GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html") and "WordSQD" in page


@pytest.mark.server
def test_data_survives_a_restart(tmp_path):
    data_dir = tmp_path / "data"
    later = str(int(time.time()) + 3600)
    kept = {
        "pk": {"S": "TEST#kept"},
        "sk": {"S": "A"},
        "blob": {"B": b"\x00\xff"},
        "expires_at": {"N": later},
    }
    expired = {"pk": {"S": "TEST#expired"}, "sk": {"S": "A"}, "expires_at": {"N": "1000"}}

    first = Server(data_dir)
    try:
        first.start()
        token = first.login("bob")
        for item in (kept, expired):
            first.dynamodb().put_item(TableName="wordsqd", Item=item)
        assert first.stop() == 0, first.stderr()
    finally:
        first.kill()
    assert (data_dir / "dynamodb.json").exists()
    for secret in ("jwt-secret", "puzzle-seed"):
        assert (data_dir / secret).stat().st_mode & 0o777 == 0o600

    second = Server(data_dir)
    try:
        second.start()
        table = second.dynamodb()
        assert table.get_item(TableName="wordsqd", Key={"pk": kept["pk"], "sk": kept["sk"]})["Item"] == kept
        # Its TTL had passed: DynamoDB would have deleted it, so it is not brought back.
        assert "Item" not in table.get_item(
            TableName="wordsqd", Key={"pk": expired["pk"], "sk": expired["sk"]}
        )
        # Same DATA_DIR, same signing secret: a token from before the restart still works.
        assert second.request("POST", "/daily/runs", token=token)[0] != 401
        assert second.stop() == 0, second.stderr()
    finally:
        second.kill()
    log = (data_dir / "moto.log").read_text()
    assert log.count(" store start ") == 2 and log.count("saved, stopping") == 2, "kept across starts"


@pytest.mark.server
def test_a_journal_that_cannot_be_read_stops_make_run_with_the_reason(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "dynamodb.journal").write_text("not json\n")
    process = subprocess.run(
        [sys.executable, "-m", "local.server"],
        cwd=REPO,
        env={**Server(data_dir).env},
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
    )
    assert process.returncode == 1
    assert "the store could not start" in process.stderr and "dynamodb.journal, line 1" in process.stderr
    assert "python -m local.journal --drop-damaged" in process.stderr  # what to do about it


@pytest.mark.server
def test_a_given_endpoint_is_used_as_is(server, tmp_path):
    data_dir = tmp_path / "data"
    other = Server(data_dir, AWS_ENDPOINT_URL_DYNAMODB=server.endpoint, TABLE_NAME="wordsqd-other")
    try:
        other.start()
        assert other.endpoint == server.endpoint and "(external)" in other.start_line
        assert "wordsqd-other" in server.dynamodb().list_tables()["TableNames"]
        assert other.stop() == 0, other.stderr()
    finally:
        other.kill()
    assert not (data_dir / "dynamodb.json").exists()
    assert not (data_dir / "moto.log").exists()


@pytest.mark.server
def test_a_busy_port_is_a_clear_error(server, tmp_path):
    process = subprocess.run(
        [sys.executable, "-m", "local.server"],
        cwd=REPO,
        env={**os.environ, "PORT": str(server.port), "DATA_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
    )
    assert process.returncode != 0
    assert f"port {server.port} is already in use" in process.stderr


def test_the_local_scheduler_runs_the_reset_at_central_midnight_and_the_minute_jobs_each_minute():
    from local.scheduler import Scheduler
    from shared.game import clock
    from shared.http.routes import EXPIRE_HANDLER, REMINDER_SCAN_HANDLER, RESET_HANDLER

    minute = [EXPIRE_HANDLER, REMINDER_SCAN_HANDLER]

    ran: list[str] = []
    clock.travel_to(datetime(2026, 11, 30, 5, 58, 30, tzinfo=UTC))  # 23:58:30 Central
    scheduler = Scheduler(invoke=ran.append)
    try:
        clock.advance(20)
        assert scheduler.run_due() == [] and ran == []  # no minute crossed
        clock.advance(20)  # 23:59:10
        assert scheduler.run_due() == minute
        clock.advance(60)  # 00:00:10 Central: a new Daily date
        assert scheduler.run_due() == [RESET_HANDLER, *minute]
        clock.advance(3 * 24 * 3600)  # a jump of days runs each job once, as one catch-up pass
        assert scheduler.run_due() == [RESET_HANDLER, *minute]
        clock.advance(-600)  # a clock moved back runs nothing
        assert scheduler.run_due() == []
    finally:
        clock.reset()
    assert ran == [*minute, RESET_HANDLER, *minute, RESET_HANDLER, *minute]


def test_the_local_scheduler_runs_the_closing_job_once_as_it_starts():
    """As EventBridge has on AWS all along: the days behind the clock are closed, their find-time
    pass and recap done, before the first request (a recap asked for at once is there)."""
    from local.scheduler import Scheduler
    from shared.http.routes import EXPIRE_HANDLER

    ran: list[str] = []
    scheduler = Scheduler(tick_seconds=3600, invoke=ran.append)
    scheduler.start()
    try:
        assert ran == [EXPIRE_HANDLER]
    finally:
        scheduler.stop()


def test_claims_reach_handlers_as_api_gateway_passes_them():
    token = auth.issue_id_token("carol", SECRET, "http://127.0.0.1:8000/local")
    claims = auth.verified_claims(f"Bearer {token}", SECRET)
    assert claims["cognito:username"] == "carol" and claims["token_use"] == "id"
    assert all(isinstance(value, str) for value in claims.values())  # HTTP API stringifies claims
    assert claims["sub"] == str(uuid.UUID(claims["sub"]))


def test_bad_tokens_are_refused():
    now = int(time.time())
    good = {"sub": "s", "aud": auth.AUDIENCE, "iat": now, "exp": now + 60, "token_use": "id"}

    def verify(claims: dict, key: str = SECRET, scheme: str = "Bearer ") -> dict | None:
        return auth.verified_claims(scheme + jwt.encode(claims, key, "HS256"), SECRET)

    assert verify(good) is not None
    assert verify(good, key=SECRET.upper()) is None
    assert verify({**good, "exp": now - 1}) is None
    assert verify({**good, "aud": "someone-else"}) is None
    assert verify(good, scheme="") is None
    assert auth.verified_claims(None, SECRET) is None


def _think(server) -> None:
    """Take a person's time over an answer (2 s on the server's clock; SPEC §3b)."""
    assert server.request("POST", "/local/clock", {"advance_seconds": 2})[0] == 200


def _play_out(server, run, token=None):
    """Answer every round of RUN correctly over HTTP, at a person's pace; returns the final run."""
    from tests.play import good_word

    prefix = "/runs" if token else "/guest/runs"
    while run["status"] == "active":
        _think(server)
        body = {"round": run["round"], "attempt": run["attempt"], "word": good_word(run)}
        status, _, reply = server.request("POST", f"{prefix}/{run['run_id']}/answers", body, token=token)
        assert status == 200, reply
        run = reply["run"]
    return run


@pytest.mark.server
def test_over_http_a_guest_plays_a_whole_daily(server):
    status, _, run = server.request("POST", "/guest/daily/runs")
    assert status == 201 and run["rounds"] == 10
    final = _play_out(server, run)
    assert final["status"] == "completed" and final["ended_by"] == "finished" and final["official"] is False
    assert server.request("GET", f"/guest/runs/{run['run_id']}")[2] == final


@pytest.mark.server
def test_over_http_a_local_user_gets_an_official_score_and_a_second_run_is_practice(server):
    token = server.login("official-olive")
    status, _, run = server.request("POST", "/daily/runs", token=token)
    assert status == 201 and run["official"] is True
    final = _play_out(server, run, token)
    assert final["official"] is True
    status, _, practice = server.request("POST", "/daily/runs", token=token)
    assert status == 201 and practice["official"] is False
    status, _, mine = server.request("GET", "/leaderboard/daily/me", token=token)
    assert status == 200 and mine["score"] == final["score"] and mine["rank"] >= 1
    # Page 1 (the top of the board) shows a result once the counters ran: a jump of the clock (by
    # nothing) hands the stream to them before it answers, instead of waiting for their next poll.
    assert server.request("POST", "/local/clock", {"advance_seconds": 0})[0] == 200
    status, _, board = server.request("GET", "/leaderboard/daily")
    assert final["score"] in [row["score"] for row in board["rows"]]
    assert all(row["words"] is None for row in board["rows"])  # the date is live


@pytest.mark.server
def test_over_http_an_expired_run_completes_by_the_injectable_clock(server):
    token = server.login("late-larry")
    run = server.request("POST", "/daily/runs", token=token)[2]
    assert server.request("POST", "/local/clock", {"advance_seconds": 181})[0] == 200
    status, _, expired = server.request("GET", f"/runs/{run['run_id']}", token=token)
    assert status == 200 and expired["status"] == "completed" and expired["ended_by"] == "expired"
    assert expired["completed_at"] == run["deadline"]


# The scheduled jobs on the local clock (SPEC §3, §4, §7) ------------------------------------------


@pytest.fixture(scope="module")
def scheduled(tmp_path_factory):
    """A server of its own: these tests move its clock by days."""
    server = Server(tmp_path_factory.mktemp("scheduled"))
    with running(server.start, server.kill) as started:
        yield started


def _raw_get(server, path: str) -> tuple[int, str, bytes]:
    """(status, Cache-Control, the body's bytes) of a public GET."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=REQUEST_TIMEOUT) as response:
        return response.status, response.headers.get("Cache-Control", ""), response.read()


def _server_now(server) -> datetime:
    """The server's game clock, read from the start time of a fresh guest run."""
    status, _, run = server.request("POST", "/guest/daily/runs")
    assert status == 201, run
    return parse_iso(run["started_at"])


def _advance_to(server, instant: datetime) -> None:
    """Move the server's clock to INSTANT; the jobs that made due run before the reply."""
    seconds = (instant - _server_now(server)).total_seconds()
    assert server.request("POST", "/local/clock", {"advance_seconds": seconds})[0] == 200


def _answer_first_round(server, run: dict, token: str) -> int:
    from shared.game.puzzles import answers

    body = {"round": 1, "attempt": 1, "word": answers(run["prompt"], run["forbidden"])[0]}
    _think(server)
    status, _, reply = server.request("POST", f"/runs/{run['run_id']}/answers", body, token=token)
    assert status == 200 and reply["accepted"], reply
    return reply["points"]


def _completed_untouched(server, run: dict) -> None:
    """The run completed at its deadline without anyone reading it (read from the table, since
    a read through the API would itself complete it), and the expiry job's watermark is past it."""
    store = dynamo_ports("wordsqd", server.dynamodb(), board_shards=BOARD_SHARDS)
    stored = store.runs.get_run(run["run_id"]).run
    assert stored.completed and stored.ended_by == "expired" and stored.completed_at == run["deadline"]
    assert store.runs.completed_through() >= parse_iso(run["deadline"])


@pytest.mark.server
def test_over_http_an_abandoned_daily_run_is_on_the_closed_board_and_the_board_never_changes(scheduled):
    steady = scheduled.login("steady-sam")
    _play_out(scheduled, scheduled.request("POST", "/daily/runs", token=steady)[2], steady)
    today = scheduled.request("GET", "/daily")[2]
    day, reset = today["date"], parse_iso(today["resets_at"])
    _advance_to(scheduled, reset - timedelta(seconds=10))  # 23:59:50 Central
    token = scheduled.login("abandoning-ann")
    status, _, run = scheduled.request("POST", "/daily/runs", token=token)
    assert status == 201 and run["date"] == day and run["official"] is True
    scored = _answer_first_round(scheduled, run, token)  # ... and stops playing

    # reset + time limit + the board's settle + a whole minute, so a job pass has begun after that
    _advance_to(scheduled, reset + timedelta(seconds=180 + SETTLE_SECONDS + 61))

    _completed_untouched(scheduled, run)
    status, cache, first = _raw_get(scheduled, f"/leaderboard/daily/{day}")
    board = json.loads(first)
    assert status == 200 and board["status"] == "closed"
    assert scored in [row["score"] for row in board["rows"]] and len(board["rows"]) == 2
    status, _, mine = scheduled.request("GET", f"/leaderboard/daily/me?date={day}", token=token)
    assert status == 200 and mine["score"] == scored and mine["rank"] == 2
    assert scheduled.request("POST", "/local/clock", {"advance_seconds": 3600})[0] == 200
    assert _raw_get(scheduled, f"/leaderboard/daily/{day}") == (200, cache, first)


@pytest.mark.server
def test_over_http_an_abandoned_challenge_run_is_on_the_closed_board_and_the_board_never_changes(scheduled):
    maker = scheduled.login("maker-mo")
    status, _, challenge = scheduled.request(
        "POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, maker
    )
    assert status == 201, challenge
    closes = parse_iso(challenge["closes_at"])
    # The game clock runs on in real time: on a loaded machine a cold worker takes seconds.
    _advance_to(scheduled, closes - timedelta(seconds=60))
    token = scheduled.login("abandoning-bob")
    status, _, run = scheduled.request("POST", f"/challenges/{challenge['challenge_id']}/runs", token=token)
    assert status == 201 and run["challenge_id"] == challenge["challenge_id"] and run["official"] is True, run
    scored = _answer_first_round(scheduled, run, token)

    _advance_to(scheduled, closes + timedelta(seconds=180 + SETTLE_SECONDS + 61))

    _completed_untouched(scheduled, run)
    path = f"/challenges/{challenge['challenge_id']}"
    status, cache, first = _raw_get(scheduled, path)
    board = json.loads(first)
    assert status == 200 and board["status"] == "closed" and board["open"] is False
    assert [row["score"] for row in board["rows"]] == [scored] and board["rows"][0]["words"]
    assert scheduled.request("POST", "/local/clock", {"advance_seconds": 3600})[0] == 200
    assert _raw_get(scheduled, path) == (200, cache, first)


@pytest.mark.server
def test_over_http_the_daily_and_a_challenge_run_of_one_player_never_block_each_other(scheduled):
    maker = scheduled.login("maker-max")
    challenge = scheduled.request("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, maker)[2]
    token = scheduled.login("two-scopes-tia")
    status, _, practice = scheduled.request(
        "POST", f"/challenges/{challenge['challenge_id']}/runs", token=token
    )
    assert status == 201 and practice["kind"] == "challenge"
    status, _, daily = scheduled.request("POST", "/daily/runs", token=token)
    assert (status, daily["kind"], daily["challenge_id"]) == (201, "daily", None)
    status, _, again = scheduled.request("POST", f"/challenges/{challenge['challenge_id']}/runs", token=token)
    assert (status, again["run_id"]) == (200, practice["run_id"])


@pytest.mark.server
def test_replies_are_dated_on_the_game_clock(scheduled):
    def dated() -> datetime:
        date = scheduled.request("GET", "/daily")[1]["Date"]
        return datetime.strptime(date, "%a, %d %b %Y %H:%M:%S GMT").replace(tzinfo=UTC)

    before = dated()
    assert scheduled.request("POST", "/local/clock", {"advance_seconds": 7200})[0] == 200
    assert 7190 < (dated() - before).total_seconds() < 7260


@pytest.mark.server
def test_over_http_a_reminder_goes_from_the_minutes_scan_to_the_local_push_service(scheduled):
    """SPEC §4a, the whole path on one machine: PUT /me/reminder with an endpoint on the local push
    stand-in, the clock moved to the send minute, the scan and the sender, and a push that only the
    subscription's own key decrypts (aes128gcm) to the day the Daily is unplayed."""
    import base64

    import http_ece
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from shared.game.daily_date import CENTRAL
    from shared.game.reminders import send_minute

    browser, secret = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    point = browser.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    b64 = lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip("=")  # noqa: E731
    token = scheduled.request("POST", "/local/login", {"username": "rita"})[2]["id_token"]
    endpoint = f"http://127.0.0.1:{scheduled.port}/local/push"
    body = {
        "subscription": {"endpoint": endpoint, "keys": {"p256dh": b64(point), "auth": b64(secret)}},
        "hour": 21,
    }
    status, _, reply = scheduled.request("PUT", "/me/reminder", body, token=token)
    assert status == 200 and reply["hour"] == 21, reply
    sub = jwt.decode(token, options={"verify_signature": False})["sub"]
    now = _server_now(scheduled).astimezone(CENTRAL)
    day = now.date() + timedelta(days=1)  # tomorrow's send minute: always ahead of the clock
    minute = send_minute(sub, 21)
    _advance_to(scheduled, datetime(day.year, day.month, day.day, tzinfo=CENTRAL) + timedelta(minutes=minute))
    pushes = scheduled.request("GET", "/local/push")[2]["pushes"]
    assert len(pushes) == 1, pushes
    sent = base64.urlsafe_b64decode(pushes[0]["body"])
    assert pushes[0]["headers"]["content-encoding"] == "aes128gcm"
    assert pushes[0]["headers"]["authorization"].startswith("vapid t=")
    assert json.loads(http_ece.decrypt(sent, private_key=browser, auth_secret=secret)) == {
        "date": day.isoformat()
    }
