"""Test set-up: a fake AWS environment, a fresh moto table per test, and API Gateway v2 events."""

import json
import os

import pytest

os.environ.update(
    {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "WORDSQD_ENV": "test",
        "TABLE_NAME": "wordsqd-test",
        "PUZZLE_SEED": "test-seed",
        "POWERTOOLS_SERVICE_NAME": "wordsqd",
        "POWERTOOLS_METRICS_NAMESPACE": "WordSQD",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
    }
)
os.environ.pop("AWS_ENDPOINT_URL_DYNAMODB", None)


def cheaper_moto_requests() -> None:
    """moto's own TransactWriteItems deep-copies every table it touches, to put the copy back if
    the transaction is cancelled, and its Query looks at every item of the table: each costs
    O(table), a third of the CPU of the board contract tests and the board races. The tests run on
    the backend `make run`'s store uses (local/moto_patches.py): only the items a transaction
    touched are copied and put back, a query is handed only the items it can return, item replies
    are dumped as JSON directly; so the contract suite checks them, and tests/system/test_moto_patches.py
    compares them with moto's own."""
    from local.moto_patches import cheaper_requests

    cheaper_requests()


cheaper_moto_requests()


def keep_boto3_session_across_moto_mocks() -> None:
    """Each `mock_aws()` normally starts with a new default boto3 session, whose first client
    parses botocore's endpoint and DynamoDB model files again: about a quarter of the CPU of the
    tests on in-process moto. moto's own setting `core.reset_boto3_session` turns that off for
    every mock. Safe here because moto is imported (and its request stub installed in every
    session botocore makes) before any test creates a session, and the credentials are the fake
    ones above in every test."""
    import boto3
    import moto.core.models  # noqa: F401 (installs moto's stub in every session made from now on)
    from moto.core.config import default_user_config

    if default_user_config["core"].get("reset_boto3_session", True):  # not when imported again
        assert boto3.DEFAULT_SESSION is None, "a boto3 session was made before moto's stub"
        default_user_config["core"]["reset_boto3_session"] = False


keep_boto3_session_across_moto_mocks()

# Every AWS call a function's handler makes, judged against its role when a whole run ends
# (tests/aws_calls.py): the hook is on the sessions before any client is made.
from tests import aws_calls  # noqa: E402

aws_calls.start_recording()
pytest_sessionfinish = aws_calls.pytest_sessionfinish


def no_hypothesis_wall_clock() -> None:
    """Hypothesis fails an example that takes over 200 ms by default (DeadlineExceeded, then
    Flaky), and a test whose inputs take long to generate (HealthCheck.too_slow): wall-clock limits
    that a loaded machine exceeds with correct code. The property tests prove what they check,
    never how fast; a test that sets its own `settings` keeps its counts."""
    from hypothesis import HealthCheck, settings

    settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("suite")


no_hypothesis_wall_clock()


from local.events import LambdaContext, http_event  # noqa: E402
from shared.game import clock  # noqa: E402
from shared.runtime import wiring  # noqa: E402

# The units `make test` hands its two workers, longest first (seconds of wall time, measured on
# this 2-core machine with coverage): a long unit handed out last would run alone at the end while
# the other worker idles. Each xdist group runs whole on one worker; the ungrouped contract tests
# (up to 5 s each) go before the other ungrouped tests, which fill in the end.
LONGEST_FIRST = [
    "@browser",  # 50 s, mostly waiting on Chromium and the server
    "@store_faults_server",  # 30-50 s: three starts of the server
    "@store_full_disk",  # 60-80 s: make run on a tmpfs filled again and again
    "@infra",  # 33 s: the synth, cfn-lint, the built asset
    "@moto_server_races",  # 17 s
    "@local_server",  # 17 s
    "@store_faults_store",  # 20-30 s
    "@store_faults_rename",  # 15-25 s
    "@rush",  # 13 s
    "@local_fair_play",  # 33 s at a load of 6 on 2 cores (12.5 s of CPU: 36 runs over HTTP)
    "@puzzles",  # 13 s
    "@moto_server_board_races",  # 11 s
    "@coldstart_events_infra",  # 6-10 s
    "@schemathesis",  # 10 s
    "tests/contract/",
]


def _unit_rank(nodeid: str) -> int:
    for rank, mark in enumerate(LONGEST_FIRST):
        if nodeid.endswith(mark) or nodeid.startswith(mark):
            return rank
    return len(LONGEST_FIRST)


def pytest_configure(config: pytest.Config) -> None:
    aws_calls.pytest_configure(config)
    if getattr(config.option, "loadgroup", False):
        config.option.loadscopereorder = False  # xdist's own order (biggest test count first) is not ours


@pytest.hookimpl(trylast=True)  # after xdist has tagged each grouped test's node id
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `--dist loadgroup` (make test), a test marked `xdist_group` must run on its group's
    worker: the races share one moto server, the template tests one synth. pytest 9.2 broke this
    silently (pytest-xdist #1386): stop the run instead of splitting the groups. The units are
    then ordered longest first (LONGEST_FIRST)."""
    if not getattr(config.option, "loadgroup", False):
        return
    ungrouped = [i.nodeid for i in items if i.get_closest_marker("xdist_group") and "@" not in i.nodeid]
    if ungrouped:
        raise pytest.UsageError(
            f"--dist loadgroup is not grouping {len(ungrouped)} tests, e.g. {ungrouped[0]}"
        )
    items.sort(key=lambda item: _unit_rank(item.nodeid))  # stable: file order within a unit


@pytest.fixture(autouse=True)
def _real_clock():
    clock.reset()
    yield
    clock.reset()


@pytest.fixture
def still_clock(monkeypatch):
    """The game clock stands still but where the test moves it (`advance`, `travel_to`): it
    otherwise runs on with the machine's, so a test that stops a second short of a deadline would
    pass it on a machine too loaded to answer within that second."""
    from datetime import UTC, datetime

    instant = datetime.now(UTC)

    class Still(datetime):
        @classmethod
        def now(cls, tz=None):
            assert tz is UTC, "the game clock reads UTC"
            return instant

    monkeypatch.setattr(clock, "datetime", Still)


@pytest.fixture
def table():
    """A fresh in-process moto DynamoDB with the game's table, and fresh cached wiring."""
    import boto3
    from moto import mock_aws

    from shared.dynamo.table import create_table_request

    with mock_aws():
        boto3.client("dynamodb").create_table(**create_table_request(os.environ["TABLE_NAME"]))
        wiring.reset()  # what shared/runtime/wiring.py builds once per container: anew for this table
        yield os.environ["TABLE_NAME"]
        wiring.reset()


def put_old_stats(store, player_id: str, *days: str, version: int | None = None):
    """Write the `STATS` item the layout before the stats moved onto the profile would hold after
    official results on DAYS (a score of 100 each; version: one per result unless given).
    Returns the stats written."""
    from datetime import date

    from shared.game.stats import with_daily_result

    stats = None
    for day in days:
        stats = with_daily_result(stats, date.fromisoformat(day), 100)
    assert stats is not None
    store.client.put_item(
        TableName=store.table,
        Item={
            "pk": {"S": f"PLAYER#{player_id}"},
            "sk": {"S": "STATS"},
            "data": {"S": stats.model_dump_json()},
            "version": {"N": str(len(days) if version is None else version)},
        },
    )
    return stats


def printed_by_a_fresh_interpreter(script: str) -> str:
    """What SCRIPT prints, run by a new Python process from the repository root with no environment
    but PYTHONPATH (nothing imported, nothing set: what a process-wide first use sees); it must
    succeed."""
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=repo,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(repo)},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.strip()


def player_claims(name: str) -> dict:
    from tests.fakes.fake_boards import player

    return {"sub": player(name), "cognito:username": name, "token_use": "id"}


class Api:
    """Calls a Lambda handler with real API Gateway v2 events; returns (status, json body)."""

    def __init__(self, handler):
        self.handler = handler

    def __call__(
        self, method, path, body=None, *, user=None, query=None, raw_body=None, headers=None, groups=None
    ):
        """GROUPS: the caller's Cognito groups claim, as API Gateway hands it (`[moderators]`)."""
        claims = player_claims(user) if user else None
        if claims and groups:
            claims["cognito:groups"] = groups
        event = http_event(method, path, body, query=query, raw_body=raw_body, headers=headers, claims=claims)
        reply = self.handler(event, LambdaContext(aws_request_id="test"))
        return reply["statusCode"], json.loads(reply["body"]) if reply.get("body") else None, reply


# What the local server sets itself (WORDSQD_ENV: local) or its test gives it.
SERVER_CHOOSES = ("AWS_ENDPOINT_URL_DYNAMODB", "PUZZLE_SEED", "WORDSQD_ENV")


class LocalServer:
    """`python -m local.server` (what `make run` starts) on a free port, with its own DATA_DIR."""

    def __init__(self, data_dir, **env):
        from tests.server_process import free_port, server_env

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.data_dir = data_dir
        self.env = server_env(self.port, data_dir, SERVER_CHOOSES, **env)
        self.process = None

    def start(self, timeout: float = 120.0) -> "LocalServer":
        from tests.server_process import launch, start_line

        self.log = open(self.data_dir / "server.err", "w")  # noqa: SIM115 (closed in stop)
        self.process, lines, _ = launch(self.env, self.log)
        line = start_line(lines, timeout, self.stderr)  # the start line, once the store is up
        if not line.startswith("WordSQD local"):
            self.stop()
            pytest.fail(f"make run's server did not start: {line!r}\n{self.stderr()}")
        return self

    def stderr(self) -> str:
        return (self.data_dir / "server.err").read_text()

    def stop(self) -> None:
        from tests.server_process import interrupt

        if self.process and self.process.poll() is None:
            interrupt(self.process, timeout=15)
        self.log.close()  # its output closes with the process (the drainer reads it to the end)

    def request(self, method, path, body=b"", headers=None):
        """(status, headers, raw body) for one request over its own connection."""
        import http.client

        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=120
        )  # a hang guard, not a timing
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def login(self, username: str) -> str:
        status, _, body = self.request("POST", "/local/login", json.dumps({"username": username}))
        assert status == 200, body
        return json.loads(body)["id_token"]


@pytest.fixture(scope="module")
def local_server(tmp_path_factory):
    """One `make run` server for a test module (tests using it carry the `server` marker)."""
    from tests.server_process import running

    server = LocalServer(tmp_path_factory.mktemp("local-server"))
    with running(server.start, server.stop) as started:
        yield started
