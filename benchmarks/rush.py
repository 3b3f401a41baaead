"""`make rush`: the midnight rush against `make run`, on this machine, bounded in count and time.

Starts the local server (python -m local.server) on a free loopback port with its own DATA_DIR
and LOCAL_CLOCK_CONTROL=1, then releases PLAYERS simulated players (threads) together: each logs
in, names itself, starts the Daily, answers every round (accepted words from the dictionary, and
now and then a wrong one; each no sooner than a person could, SPEC §3b), retrying on network
errors, then reads page 1 of the board and its own rank. Prints requests/s, p50/p99 latency and
errors by status.

Then it checks the board the way a player would trust it: it waits for the rank counters to
catch up, moves the server's clock past the date's close, waits for the board to say `closed`,
and checks that every completed official run appears exactly once, with its score, and that
every player's rank on the board is the one `GET /leaderboard/daily/me` gives; and that a second
read of the closed board is byte-identical. Exit status 1 if any check fails.

    make rush                      # 100 players (under a minute here), at most 20 minutes of play
    RUSH_PLAYERS=50 RUSH_SECONDS=300 make rush
"""

import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from shared.game.boards import SETTLE_SECONDS  # noqa: E402
from shared.game.constants import TIME_LIMIT_SECONDS  # noqa: E402
from shared.game.fair_play import fastest_plausible_ms  # noqa: E402
from shared.game.puzzles import answers  # noqa: E402
from shared.http.routes import match_route  # noqa: E402

WRONG_ANSWER_RATE = 0.15
NETWORK_TRIES = 5
# `make run` serves each function in a few processes, one request at a time each (as Lambda
# instances do), so at the rush a request may wait for the ones queued before it; a client that
# gave up sooner would only send it again behind them.
REQUEST_TIMEOUT = 180.0
START_TIMEOUT = 60.0
CHECK_TIMEOUT = 120.0  # for the counters to catch up and the board to close
PLAY_TIMEOUT = 1200.0  # for every player to finish (RUSH_SECONDS)


@cache
def words_for(prompt: str, forbidden: str) -> list[str]:
    return answers(prompt, forbidden)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    by_route: dict[str, list[float]] = field(default_factory=dict)  # "POST /daily/runs": latencies
    statuses: Counter = field(default_factory=Counter)
    network_errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, seconds: float, status: int, route: str) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.by_route.setdefault(route, []).append(seconds)
            self.statuses[status] += 1

    def clear(self) -> None:
        with self.lock:
            self.latencies.clear()
            self.by_route.clear()
            self.statuses.clear()
            self.network_errors = 0


def route_of(method: str, path: str) -> str:
    """The route a request went to, by SPEC §5's path templates: `POST /runs/{run_id}/answers`."""
    path = path.partition("?")[0]
    matched = match_route(method, path)
    return f"{method} {matched[0].path if matched else path}"


def percentile(latencies: list[float], share: float) -> float:
    ordered = sorted(latencies)
    return ordered[max(0, int(len(ordered) * share) - 1)] * 1000 if ordered else 0.0


class Client:
    """JSON over HTTP to the local server, retrying a request that never got an answer. Each
    player's thread keeps its connection open between requests, as a browser does."""

    def __init__(self, base: str, stats: Stats):
        self.address = urllib.parse.urlsplit(base).netloc
        self.stats = stats
        self.connections = threading.local()

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for attempt in range(NETWORK_TRIES):
            started = time.perf_counter()
            try:
                status, raw = self._send(method, path, data, headers)
            # No answer (a refused or dropped connection): the same request again is safe (SPEC §5).
            except (OSError, http.client.HTTPException):
                self.connections.open = None
                with self.stats.lock:
                    self.stats.network_errors += 1
                time.sleep(0.1 * 2**attempt)
                continue
            self.stats.record(time.perf_counter() - started, status, route_of(method, path))
            if status == 429:
                time.sleep(0.05 * 2**attempt)
                continue
            return status, json.loads(raw) if raw else None, raw
        raise RuntimeError(f"{method} {path}: no answer after {NETWORK_TRIES} tries")

    def _send(self, method: str, path: str, data: bytes | None, headers: dict) -> tuple[int, bytes]:
        connection = getattr(self.connections, "open", None)
        if connection is None:
            connection = http.client.HTTPConnection(self.address, timeout=REQUEST_TIMEOUT)
            self.connections.open = connection
        try:
            connection.request(method, path, body=data, headers=headers)
            reply = connection.getresponse()
            raw = reply.read()
        except BaseException:
            connection.close()
            raise
        if reply.will_close:
            connection.close()
            self.connections.open = None
        return reply.status, raw


@dataclass
class Player:
    name: str
    token: str = ""
    run: dict | None = None
    board_rank: int | None = None
    my_rank: dict | None = None


def play(client: Client, player: Player, start: threading.Barrier, rng: random.Random) -> None:
    start.wait(timeout=120)
    status, run, _ = client.call("POST", "/daily/runs", token=player.token)
    assert status in (200, 201), (status, run)
    shown = time.monotonic()
    used: set[str] = set()
    while run["status"] == "active":
        candidates = [w for w in words_for(run["prompt"], run["forbidden"]) if w not in used]
        word = "qzqzq" if rng.random() < WRONG_ANSWER_RATE or not candidates else rng.choice(candidates[:40])
        body = {"round": run["round"], "attempt": run["attempt"], "word": word}
        # No sooner after the round was shown than a person could (SPEC §3b): faster runs are
        # rightly kept off the boards.
        time.sleep(max(0.0, shown + fastest_plausible_ms(len(word)) / 1000 + 0.05 - time.monotonic()))
        status, reply, _ = client.call("POST", f"/runs/{run['run_id']}/answers", body, player.token)
        shown = time.monotonic()
        if status == 200:
            used.add(word)
            run = reply["run"]
        elif status == 409:
            run = reply["run"]  # the run moved on (a retried answer already applied, or expired)
        else:
            raise AssertionError((status, reply))
    player.run = run
    client.call("GET", "/leaderboard/daily", token=None)
    client.call("GET", "/leaderboard/daily/me", token=player.token)


def start_server(port: int, data_dir: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "PORT": str(port),
        "DATA_DIR": data_dir,
        "LOCAL_CLOCK_CONTROL": "1",
        "PYTHONPATH": str(REPO),
    }
    env.pop("AWS_ENDPOINT_URL_DYNAMODB", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "local.server"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(Path(data_dir) / "server.log", "w"),  # noqa: SIM115 (closed with the process)
        start_new_session=True,
    )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/daily", timeout=2).close()
            return server
        except OSError:
            if server.poll() is not None:
                raise RuntimeError(f"the server exited; see {data_dir}/server.log") from None
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError("the server did not answer in time")


def cpu_seconds(root: int) -> dict[str, float]:
    """CPU seconds (user + system) so far of the server's process and its descendants, by part,
    read from /proc (Linux; zeros elsewhere); the players' client is this process."""
    parts = {"store": 0.0, "workers": 0.0, "server": 0.0, "client": time.process_time()}
    tick = os.sysconf("SC_CLK_TCK")
    processes: dict[int, tuple[int, bytes, float]] = {}  # pid: (parent, command, CPU seconds)
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
            processes[int(entry)] = (int(fields[1]), command, (int(fields[11]) + int(fields[12])) / tick)
        except (OSError, IndexError, ValueError):
            continue
    ours, grew = {root}, True
    while grew:
        found = {pid for pid, (parent, _, _) in processes.items() if parent in ours} - ours
        ours |= found
        grew = bool(found)
    for pid in ours & processes.keys():
        _, command, seconds = processes[pid]
        if b"moto_server" in command:
            part = "store"
        elif b"multiprocessing.forkserver" in command:  # the fork server and its workers
            part = "workers"
        else:
            part = "server"
        parts[part] += seconds
    return parts


def whole_board(client: Client, day: str) -> tuple[str, list[dict], list[bytes]]:
    rows, raws, cursor = [], [], None
    while True:
        query = "?limit=100" + (f"&cursor={cursor}" if cursor else "")
        status, page, raw = client.call("GET", f"/leaderboard/daily/{day}{query}")
        assert status == 200, page
        rows += page["rows"]
        raws.append(raw)
        cursor = page["next_cursor"]
        if not cursor:
            return page["status"], rows, raws


def check(client: Client, players: list[Player], day: str) -> list[str]:
    """Every completed official run on the closed board once; every rank as /me gives it."""
    problems = []
    official = {p.name: p for p in players if p.run and p.run["official"] and p.run["status"] == "completed"}

    def compare(rows: list[dict]) -> list[str]:
        found = []
        names = Counter(row["display_name"] for row in rows)
        for name, count in names.items():
            if count != 1 or name not in official:
                found.append(
                    f"{name} appears {count} times ({'an official run' if name in official else 'unknown'})"
                )
        for name, player in official.items():
            row = next((r for r in rows if r["display_name"] == name), None)
            if row is None:
                found.append(f"{name}'s official run is missing")
                continue
            if row["score"] != player.run["score"]:
                found.append(f"{name}: board score {row['score']}, run score {player.run['score']}")
            status, mine, _ = client.call("GET", f"/leaderboard/daily/me?date={day}", token=player.token)
            if status != 200 or mine["rank"] != row["rank"]:
                found.append(f"{name}: board rank {row['rank']}, /leaderboard/daily/me {status} {mine}")
        return found

    deadline = time.monotonic() + CHECK_TIMEOUT
    while True:  # the rank counters trail completions (the stream consumer): wait for them
        _, rows, _ = whole_board(client, day)
        problems = compare(rows)
        if not problems or time.monotonic() > deadline:
            break
        time.sleep(1)
    if problems:
        return ["live board: " + p for p in problems]

    status, info, _ = client.call("GET", "/daily")
    resets = datetime.fromisoformat(info["resets_at"].replace("Z", "+00:00"))
    wait = (resets - datetime.now(UTC)).total_seconds() + TIME_LIMIT_SECONDS + SETTLE_SECONDS + 90
    client.call("POST", "/local/clock", {"advance_seconds": wait})
    for player in players:  # tokens expire on the game clock too: log in again, a day later
        _, reply, _ = client.call("POST", "/local/login", {"username": player.name.replace(" ", "-")})
        player.token = reply["id_token"]
    deadline = time.monotonic() + CHECK_TIMEOUT
    while True:
        status_now, rows, raws = whole_board(client, day)
        if status_now == "closed" or time.monotonic() > deadline:
            break
        time.sleep(1)
    if status_now != "closed":
        return [f"the board of {day} is still {status_now} {CHECK_TIMEOUT:.0f} s after its close"]
    problems = ["closed board: " + p for p in compare(rows)]
    if any(row["words"] is None for row in rows):
        problems.append("closed board: a row without its words")
    if whole_board(client, day)[2] != raws:
        problems.append("closed board: a second read differs")
    return problems


def rush(count: int, seed: int = 1) -> dict:
    """Run the rush with COUNT players; returns the figures and the problems found."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix="wordsqd-rush-") as data_dir:
        server = start_server(port, data_dir)
        try:
            stats = Stats()
            client = Client(f"http://127.0.0.1:{port}", stats)
            rng = random.Random(seed)
            players = [Player(f"Rush {i:04d}") for i in range(count)]
            for player in players:
                _, reply, _ = client.call("POST", "/local/login", {"username": player.name.replace(" ", "-")})
                player.token = reply["id_token"]
                status, reply, _ = client.call("PUT", "/me", {"display_name": player.name}, player.token)
                assert status == 200, reply
            day = client.call("GET", "/daily")[1]["date"]
            stats.clear()
            start = threading.Barrier(count)
            failures: list[str] = []

            def run_player(player: Player, player_seed: int) -> None:
                try:
                    play(client, player, start, random.Random(player_seed))
                except Exception as error:  # reported below, and the rush goes on
                    failures.append(f"{player.name}: {error!r}")

            threads = [
                threading.Thread(target=run_player, args=(p, rng.getrandbits(32)), daemon=True)
                for p in players
            ]
            cpu_before = cpu_seconds(server.pid)
            began = time.perf_counter()
            for thread in threads:
                thread.start()
            deadline = began + float(os.environ.get("RUSH_SECONDS") or PLAY_TIMEOUT)
            for thread in threads:
                thread.join(timeout=max(0.0, deadline - time.perf_counter()))
            elapsed = time.perf_counter() - began
            cpu_after = cpu_seconds(server.pid)
            unfinished = [p.name for p, t in zip(players, threads, strict=True) if t.is_alive()]
            if unfinished:
                failures.append(f"{len(unfinished)} players still playing after {elapsed:.0f} s")
            latencies = stats.latencies
            figures = {
                "players": count,
                "requests": len(latencies),
                "seconds": elapsed,
                "requests/s": len(latencies) / elapsed,
                "p50 ms": statistics.median(latencies) * 1000 if latencies else 0.0,
                "p99 ms": percentile(latencies, 0.99),
                "routes": {
                    route: (
                        len(seconds),
                        percentile(seconds, 0.5),
                        percentile(seconds, 0.99),
                        max(seconds) * 1000,
                    )
                    for route, seconds in sorted(stats.by_route.items())
                },
                "statuses": dict(sorted(stats.statuses.items())),
                "network errors": stats.network_errors,
                "official runs": sum(1 for p in players if p.run and p.run["official"]),
                "cpu ms per request": {
                    part: (cpu_after[part] - cpu_before[part]) * 1000 / max(1, len(latencies))
                    for part in cpu_after
                },
            }
            problems = failures + check(client, players, day)
            return {**figures, "problems": problems}
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


def main() -> int:
    count = int(os.environ.get("RUSH_PLAYERS") or 100)
    result = rush(count)
    print(f"players               {result['players']}")
    print(f"requests              {result['requests']:,} in {result['seconds']:.1f} s")
    print(f"requests/s            {result['requests/s']:.0f}")
    print(f"latency p50 / p99     {result['p50 ms']:.0f} ms / {result['p99 ms']:.0f} ms")
    for route, (count, p50, p99, slowest) in result["routes"].items():
        print(f"  {route:<34}{count:>6,}  p50 {p50:5.0f} ms, p99 {p99:5.0f} ms, slowest {slowest:5.0f} ms")
    print(f"replies by status     {result['statuses']}")
    print(f"network errors        {result['network errors']} (retried)")
    print(f"official runs         {result['official runs']}")
    cpu = result["cpu ms per request"]
    print(
        f"CPU per request       {sum(cpu.values()):.1f} ms: "
        + ", ".join(f"{part} {ms:.1f}" for part, ms in cpu.items())
        + " (workers: the fork server's children; a worker that ended is not counted)"
    )
    print(
        "checks                "
        + ("all passed" if not result["problems"] else f"{len(result['problems'])} failed")
    )
    for problem in result["problems"][:20]:
        print(f"  - {problem}")
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
