"""`python -m local.server` (what `make run` starts) as the tests run it: on a free port, its
output drained for the life of the process (so the pipe never fills and blocks it) with its first
line, the start line, handed to the test; Ctrl-C to stop it; and a fixture's `with` that stops it
even when it failed to start. tests/conftest.py, tests/system/test_local_server.py and
tests/browser/client.py each wrap it in the client their tests need."""

import contextlib
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, NamedTuple, TypeVar

import pytest

REPO = Path(__file__).resolve().parents[1]
Started = TypeVar("Started")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(port: int, data_dir: Path, left_to_server: tuple[str, ...], **env: str) -> dict[str, str]:
    """This process's environment but the names LEFT_TO_SERVER (the server chooses them itself),
    with the server's port, data folder and table, and ENV."""
    return {
        **{k: v for k, v in os.environ.items() if k not in left_to_server},
        "PORT": str(port),
        "DATA_DIR": str(data_dir),
        "TABLE_NAME": "wordsqd",
        **env,
    }


class Launched(NamedTuple):
    process: subprocess.Popen
    lines: "queue.Queue[str]"  # its output, line by line, then "" when it ends
    drainer: threading.Thread


def launch(env: dict[str, str], stderr: IO[str]) -> Launched:
    """The server started with ENV, its error output written to STDERR."""
    process = subprocess.Popen(
        [sys.executable, "-m", "local.server"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()

    def drain() -> None:
        with process.stdout:
            for line in process.stdout:
                lines.put(line)
        lines.put("")

    drainer = threading.Thread(target=drain, daemon=True)
    drainer.start()
    return Launched(process, lines, drainer)


def start_line(lines: "queue.Queue[str]", timeout: float, stderr: Callable[[], str]) -> str:
    """The server's first line ("" when it exited first); the test fails when none comes within
    TIMEOUT seconds, with the server's error output (STDERR)."""
    try:
        return lines.get(timeout=timeout)
    except queue.Empty:
        pytest.fail(f"server did not start within {timeout} s:\n{stderr()}")


def interrupt(process: subprocess.Popen, timeout: float) -> int:
    """Ctrl-C, as a user would, and a kill when that has not stopped it within TIMEOUT seconds;
    the exit code."""
    process.send_signal(signal.SIGINT)
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait(timeout=timeout)


@contextlib.contextmanager
def running(start: Callable[[], Started], end: Callable[[], object]) -> Iterator[Started]:
    """What START returns (a started server) for the with block; END stops it at the block's end,
    and when START failed."""
    try:
        yield start()
    finally:
        end()
