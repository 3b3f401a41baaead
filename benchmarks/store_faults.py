"""Faults against `make run`'s embedded store, counted in acknowledged writes lost (docs/local.md).

Each scenario starts the local server (python -m local.server of REPO, default this checkout) on
a free loopback port with its own DATA_DIR, has PLAYERS players (threads) name themselves and play
their official Daily over HTTP, and injects its fault:

- rename-409: meanwhile one more player sends `PUT /me` with a name another holds, in a loop
  (a 409 each time: a cancelled transaction);
- kill-server: `kill -9` of the server at a random moment of the play, when the players have
  given 6 to 10 answers each on average (the completing answer is the 10th or later), then the
  server started again on the same DATA_DIR and port, ROUNDS times (new players each round);
- kill-store: `kill -9` of the store (the server's child process) likewise; the server is to
  start it again. A server that has not answered again within STUCK_SECONDS is stopped (Ctrl-C)
  and started again by hand, as a user would.
- full-disk: DATA_DIR on its own tmpfs of FULL_DISK_SIZE (mounted here: needs root), filled by a
  ballast file to a few KiB of room while the players play, so that a journal line meets the full
  disk; the ballast is removed some seconds later (room again) and put back, over and over; at the
  end the server is killed (`kill -9`) and started again. One round per run; `--runs` runs, each
  on a fresh tmpfs. Also counts the 5xx replies the players got by status (503 expected, never 500).

Players answer no faster than a person could (SPEC §3b, else their runs are rightly kept off the
boards) and retry whatever got no answer or a 5xx (retries are safe, SPEC §5). Every reply a player
got is an acknowledgement; after each round, every player so far is checked on the server as it
now is: its run, each acknowledged answer in it, the acknowledged completion (status, score),
its official result (`/leaderboard/daily/me`), its history entry, its stats (`played`,
`best_score`), its name, and its row on the Daily board, which the stream consumer may bring
later (waited for up to CATCH_UP_SECONDS; the wait is printed). Prints what was lost, by kind.

    PYTHONPATH=. .venv/bin/python benchmarks/store_faults.py [--repo PATH] [--rounds 3] [--players 6]
    PYTHONPATH=. .venv/bin/python benchmarks/store_faults.py --scenario full-disk --runs 10
"""

import argparse
import contextlib
import errno
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from shared.game.fair_play import fastest_plausible_ms  # noqa: E402
from shared.game.puzzles import answers  # noqa: E402

REQUEST_TIMEOUT = 30.0
START_TIMEOUT = 60.0
STUCK_SECONDS = 20.0  # a server not answering the players for this long is started again by hand
CATCH_UP_SECONDS = 30.0
ROUND_SECONDS = 90.0  # at most, for the players of one round to finish
WRONG_ANSWER_RATE = 0.1
SCENARIOS = ("rename-409", "kill-server", "kill-store", "full-disk")
FULL_DISK_SIZE = "3m"
FULL_DISK_ROOM = 16 * 1024  # at most this much room left by the ballast
REPLIES: Counter = Counter()  # the 5xx replies (and no reply: None) the players got, by status
LOST_KINDS = ("runs", "answers", "completions", "results", "history", "stats", "names", "board rows")


@cache
def words_for(prompt: str, forbidden: str) -> list[str]:
    return answers(prompt, forbidden)


class Server:
    """One `python -m local.server` of REPO on PORT with DATA_DIR."""

    def __init__(self, repo: Path, data_dir: Path, port: int, log: Path | None = None):
        self.repo, self.data_dir, self.port = repo, data_dir, port
        self.log = log or data_dir / "server.log"  # off DATA_DIR when that is the disk filled
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        env = {
            **os.environ,
            "PORT": str(self.port),
            "DATA_DIR": str(self.data_dir),
            "LOCAL_CLOCK_CONTROL": "1",
            "PYTHONPATH": str(self.repo),
        }
        for name in ("AWS_ENDPOINT_URL_DYNAMODB", "PUZZLE_SEED", "TABLE_NAME"):
            env.pop(name, None)
        self.starts += 1
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "local.server"],
                cwd=self.repo,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start; see {self.log}")
            try:
                urllib.request.urlopen(self.url + "/daily", timeout=5).close()
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not answer in time")

    def store_pid(self) -> int | None:
        """The server's child process (the embedded store)."""
        assert self.process
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                return int(stat.parent.name)
        return None

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        """Ctrl-C, as a user would (its whole group: a store it left behind goes too)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process:
            # A store child its server no longer stops (in its own session): stop it too.
            for pid in _pids_holding(self.data_dir / "dynamodb.lock"):
                os.kill(pid, signal.SIGTERM)


def _pids_holding(path: Path) -> list[int]:
    """The processes with PATH open (a store left behind by a killed server), by /proc."""
    found = []
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            if any(os.readlink(fd) == str(path) for fd in fd_dir.iterdir()):
                found.append(int(fd_dir.parent.name))
        except OSError:
            continue
    return found


def call(server: Server, method: str, path: str, body: object = None, token: str | None = None):
    """(status, decoded body) for one request; (None, None) when no answer came."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(server.url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as reply:
            status, raw = reply.status, reply.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    except OSError:
        REPLIES[None] += 1
        return None, None
    if status >= 500:
        REPLIES[status] += 1
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, raw


def until_answered(server: Server, method: str, path: str, body: object = None, token: str | None = None):
    """CALL again while it gets no answer or a 5xx (a server or a store starting again)."""
    deadline = time.monotonic() + ROUND_SECONDS
    while time.monotonic() < deadline:
        status, reply = call(server, method, path, body, token)
        if status is not None and status < 500:
            return status, reply
        time.sleep(0.2)
    raise RuntimeError(f"{method} {path}: no answer for {ROUND_SECONDS:.0f} s")


@dataclass
class Player:
    name: str
    token: str = ""
    run_id: str = ""
    answered: list[tuple[int, int, str]] = field(default_factory=list)  # acknowledged (200)
    completed: dict | None = None  # the acknowledged completed run
    failure: str = ""


def join(server: Server, player: Player) -> None:
    status, reply = until_answered(
        server, "POST", "/local/login", {"username": player.name.replace(" ", "-")}
    )
    assert status == 200, reply
    player.token = reply["id_token"]
    status, reply = until_answered(server, "PUT", "/me", {"display_name": player.name}, player.token)
    assert status == 200, reply


def play(server: Server, player: Player, rng: random.Random) -> None:
    try:
        status, run = until_answered(server, "POST", "/daily/runs", token=player.token)
        assert status in (200, 201) and run["official"], (status, run)
        player.run_id = run["run_id"]
        shown = time.monotonic()
        used = {a["word"] for r in run["history"] for a in r["attempts"] if a["accepted"]}
        while run["status"] == "active":
            candidates = [w for w in words_for(run["prompt"], run["forbidden"]) if w not in used]
            wrong = rng.random() < WRONG_ANSWER_RATE or not candidates
            word = "qzqzq" if wrong else rng.choice(candidates[:40])
            body = {"round": run["round"], "attempt": run["attempt"], "word": word}
            wait_like_a_person(shown, word)
            status, reply = until_answered(
                server, "POST", f"/runs/{run['run_id']}/answers", body, player.token
            )
            shown = time.monotonic()
            if status == 200:
                player.answered.append((body["round"], body["attempt"], word))
                used.add(word)
            elif status != 409:
                raise AssertionError((status, reply))
            run = reply["run"]
            if run["status"] == "completed":
                player.completed = run
    except Exception as error:  # reported with the round's figures
        player.failure = repr(error)


def wait_like_a_person(shown: float, word: str) -> None:
    """Answer no sooner after the round was shown than a person could (SPEC §3b): a faster run
    would be kept off the boards, as it should."""
    time.sleep(max(0.0, shown + fastest_plausible_ms(len(word)) / 1000 + 0.05 - time.monotonic()))


def lost_by(server: Server, players: list[Player], day: str) -> tuple[Counter, float, list[str]]:
    """What the server now holds against what each player was told: losses by kind, the seconds
    the board took to show every completed run, and a line for each loss."""
    lost: Counter = Counter()
    notes: list[str] = []
    for player in players:
        if not player.run_id:
            continue
        status, stored = until_answered(server, "GET", f"/runs/{player.run_id}", token=player.token)
        if status == 404:
            lost["runs"] += 1
            notes.append(f"{player.name}: its run {player.run_id} is gone")
        history = stored.get("history", []) if status == 200 else []
        for round_number, attempt, word in player.answered:
            entry = next((h for h in history if h["round"] == round_number), None)
            if (
                entry is None
                or len(entry["attempts"]) < attempt
                or entry["attempts"][attempt - 1]["word"] != word
            ):
                lost["answers"] += 1
                notes.append(f"{player.name}: answer {round_number}.{attempt} {word!r} missing")
        done = player.completed
        if done is None:
            continue
        if stored.get("status") != "completed" or stored.get("score") != done["score"]:
            lost["completions"] += 1
            notes.append(
                f"{player.name}: completed {done['score']}, stored {stored.get('status')} "
                f"{stored.get('score')}"
            )
        status, mine = until_answered(server, "GET", f"/leaderboard/daily/me?date={day}", token=player.token)
        if status != 200 or mine.get("score") != done["score"]:
            lost["results"] += 1
            notes.append(f"{player.name}: /leaderboard/daily/me {status} {mine}")
        status, history_page = until_answered(server, "GET", "/me/history", token=player.token)
        items = history_page.get("items", []) if status == 200 else []
        if not any(i["date"] == day and i["score"] == done["score"] for i in items):
            lost["history"] += 1
            notes.append(f"{player.name}: no history entry for {day}")
        status, me = until_answered(server, "GET", "/me", token=player.token)
        stats = (me or {}).get("stats") or {}
        if stats.get("played") != 1 or stats.get("best_score") != done["score"]:
            lost["stats"] += 1
            notes.append(f"{player.name}: stats {stats}")
        if (me or {}).get("display_name") != player.name:
            lost["names"] += 1
            notes.append(f"{player.name}: named {(me or {}).get('display_name')!r}")
    expected = {p.name: p.completed["score"] for p in players if p.completed}
    began = time.monotonic()
    while True:
        rows = board(server, day)
        missing = {n for n, score in expected.items() if rows.get(n) != score}
        if not missing or time.monotonic() - began > CATCH_UP_SECONDS:
            break
        time.sleep(0.5)
    lost["board rows"] += len(missing)
    notes += [f"{name}: no board row" for name in sorted(missing)]
    return lost, time.monotonic() - began, notes


def board(server: Server, day: str) -> dict[str, int]:
    rows: dict[str, int] = {}
    cursor = None
    while True:
        query = "?limit=100" + (f"&cursor={cursor}" if cursor else "")
        status, page = until_answered(server, "GET", f"/leaderboard/daily/{day}{query}")
        if status != 200:
            return rows
        rows.update({row["display_name"]: row["score"] for row in page["rows"]})
        cursor = page.get("next_cursor")
        if not cursor:
            return rows


def scenario(name: str, repo: Path, rounds: int, count: int, seed: int = 1) -> dict:
    """Run scenario NAME; returns its figures (acknowledged writes, losses by kind, notes)."""
    rng = random.Random(seed)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix=f"wordsqd-{name}-") as folder:
        server = Server(repo, Path(folder), port)
        server.start()
        everyone: list[Player] = []
        figures: dict = {
            "scenario": name,
            "lost": Counter(),
            "catch-up s": [],
            "notes": [],
            "by hand": 0,
            "killed after": [],
        }
        try:
            day = until_answered(server, "GET", "/daily")[1]["date"]
            for round_number in range(rounds if name != "rename-409" else 1):
                players = [Player(f"Fault {round_number} {i:02d}") for i in range(count)]
                for player in players:
                    join(server, player)
                everyone += players
                stop_attacker = threading.Event()
                threads = [
                    threading.Thread(
                        target=play, args=(server, p, random.Random(rng.getrandbits(32))), daemon=True
                    )
                    for p in players
                ]
                if name == "rename-409":
                    threads.append(threading.Thread(target=attack, args=(server, players[0], stop_attacker)))
                for thread in threads:
                    thread.start()
                if name.startswith("kill-"):
                    # Once the round's players have given between 6 and 10 answers each on average:
                    # about when their completing answers (the 10th or later) come.
                    wait_for_answers(players, rng.randint(6 * count, 10 * count), threads[:count])
                    figures["killed after"].append(sum(len(p.answered) for p in players))
                    inject(name, server, figures)
                for thread in threads[:count]:
                    thread.join(timeout=ROUND_SECONDS)
                stop_attacker.set()
                figures["notes"] += [f"{p.name}: {p.failure}" for p in players if p.failure]
                lost, catch_up, notes = lost_by(server, everyone, day)
                figures["lost"] = lost  # every player so far, as the server now is
                figures["catch-up s"].append(catch_up)
                figures["notes"] += notes
            figures["answers"] = sum(len(p.answered) for p in everyone)
            figures["completions"] = sum(1 for p in everyone if p.completed)
            return figures
        finally:
            server.stop()


def attack(server: Server, holder: Player, stopping: threading.Event) -> None:
    """Another player asking for HOLDER's name, again and again (409 each time)."""
    attacker = Player("Fault attacker")
    join(server, attacker)
    while not stopping.is_set():
        call(server, "PUT", "/me", {"display_name": holder.name}, attacker.token)


def wait_for_answers(players: list[Player], answers: int, threads: list[threading.Thread]) -> None:
    while sum(len(p.answered) for p in players) < answers and any(t.is_alive() for t in threads):
        time.sleep(0.01)


def inject(name: str, server: Server, figures: dict) -> None:
    if name == "kill-server":
        server.kill()
        server.start()
        return
    pid = server.store_pid()
    assert pid, "no store process"
    os.kill(pid, signal.SIGKILL)
    # A server that does not start its store again is started again by hand, once it is stuck.
    time.sleep(1.0)
    deadline = time.monotonic() + STUCK_SECONDS
    while time.monotonic() < deadline:
        if call(server, "GET", "/leaderboard/daily")[0] == 200:  # a read of the store
            return
        time.sleep(0.5)
    figures["by hand"] += 1
    server.stop()
    server.start()


@contextlib.contextmanager
def small_disk(size: str = FULL_DISK_SIZE) -> Iterator[Path]:
    """A fresh tmpfs of SIZE, mounted on a new folder (root only), unmounted afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="wordsqd-full-disk-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
        folder.rmdir()


def fill(folder: Path, room: int) -> None:
    """Take FOLDER's disk up to ROOM free bytes with a ballast file."""
    fd = os.open(folder / "ballast", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        while True:
            try:
                os.write(fd, b"\0" * 65536)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
                break
        os.ftruncate(fd, max(0, os.fstat(fd).st_size - room))
    finally:
        os.close(fd)


HOLD_MAX_SECONDS = 30.0  # a fill held until a write met it, or this long (a slow, busy machine)


def refusals(folder: Path) -> int:
    """The writes the store has refused so far (its log's line for each)."""
    log = folder / "moto.log"
    return log.read_text(errors="replace").count("could not keep a write") if log.exists() else 0


def keep_filling(folder: Path, rng: random.Random, stopping: threading.Event, cycles: list[int]) -> None:
    """Fill the disk, hold it full (3-8 s, and on until a write has met the full disk, so that
    every fill is tested however slowly the players play), give the room back, wait, again,
    until STOPPING."""
    while not stopping.is_set():
        before = refusals(folder)
        fill(folder, rng.randint(0, FULL_DISK_ROOM))
        cycles.append(1)
        stopping.wait(rng.uniform(3.0, 8.0))
        held = time.monotonic()
        while refusals(folder) == before and time.monotonic() - held < HOLD_MAX_SECONDS:
            if stopping.wait(0.2):
                break
        (folder / "ballast").unlink(missing_ok=True)
        stopping.wait(rng.uniform(2.0, 5.0))
    (folder / "ballast").unlink(missing_ok=True)


def full_disk(repo: Path, runs: int, count: int, seed: int = 1) -> dict:
    """The full-disk scenario, RUNS times: figures summed over the runs."""
    rng = random.Random(seed)
    REPLIES.clear()
    figures: dict = {"scenario": "full-disk", "lost": Counter(), "notes": [], "answers": 0, "completions": 0}
    figures |= {"names": 0, "fills": 0, "refusals": 0, "catch-up s": []}
    for run in range(runs):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        with small_disk() as folder, tempfile.TemporaryDirectory(prefix="wordsqd-full-disk-log-") as logs:
            server = Server(repo, folder, port, log=Path(logs) / "server.log")
            server.start()
            try:
                day = until_answered(server, "GET", "/daily")[1]["date"]
                players = [Player(f"Full {run} {i:02d}") for i in range(count)]
                for player in players:
                    join(server, player)
                stopping, cycles = threading.Event(), []
                filler = threading.Thread(target=keep_filling, args=(folder, rng, stopping, cycles))
                threads = [
                    threading.Thread(target=play, args=(server, p, random.Random(rng.getrandbits(32))))
                    for p in players
                ]
                for thread in [filler, *threads]:
                    thread.start()
                for thread in threads:
                    thread.join(timeout=ROUND_SECONDS * 3)
                stopping.set()
                filler.join()
                server.kill()  # kill -9, then a start from what the disk holds
                server.start()
                lost, catch_up, notes = lost_by(server, players, day)
                figures["lost"] += lost
                figures["catch-up s"].append(catch_up)
                figures["notes"] += [f"{p.name}: {p.failure}" for p in players if p.failure] + notes
                figures["answers"] += sum(len(p.answered) for p in players)
                figures["completions"] += sum(1 for p in players if p.completed)
                figures["names"] += len(players)
                figures["fills"] += len(cycles)
                figures["refusals"] += refusals(folder)
            finally:
                server.stop()
    figures["replies"] = dict(REPLIES)
    return figures


def report_full_disk(result: dict, runs: int) -> None:
    acknowledged = result["answers"] + result["names"]
    lost = sum(result["lost"].values())
    print(f"full-disk    {runs} runs: acknowledged writes lost: {lost} of {acknowledged}")
    answers, completions = result["answers"], result["completions"]
    print(f"{'':12} ({answers} answers, {completions} of them completing, {result['names']} names)")
    print(f"{'':12} lost by kind: " + ", ".join(f"{kind} {result['lost'][kind]}" for kind in LOST_KINDS))
    print(f"{'':12} disk filled {result['fills']} times; writes refused by the store: {result['refusals']}")
    print(f"{'':12} 5xx replies (None: no reply) the players got and retried: {result['replies']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose server to run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--scenario", choices=SCENARIOS, action="append")
    parser.add_argument("--runs", type=int, default=10, help="full-disk: runs, each on a fresh tmpfs")
    args = parser.parse_args()
    for name in args.scenario or SCENARIOS:
        started = time.perf_counter()
        if name == "full-disk":
            result = full_disk(args.repo.resolve(), args.runs, args.players)
            report_full_disk(result, args.runs)
            print(f"{'':12} ({time.perf_counter() - started:.0f} s)")
            for note in result["notes"][:10]:
                print(f"{'':14}- {note}")
            continue
        result = scenario(name, args.repo.resolve(), args.rounds, args.players)
        lost = ", ".join(f"{kind} {result['lost'][kind]}" for kind in LOST_KINDS)
        print(f"{name:12} acknowledged: {result['answers']} answers, {result['completions']} completions")
        print(f"{'':12} lost: {lost}")
        catch_up = ", ".join(f"{s:.1f}" for s in result["catch-up s"])
        print(f"{'':12} board caught up after (s): {catch_up}; restarted by hand: {result['by hand']}")
        if result["killed after"]:
            print(f"{'':12} killed after (acknowledged answers of the round): {result['killed after']}")
        print(f"{'':12} ({time.perf_counter() - started:.0f} s)")
        for note in result["notes"][:10]:
            print(f"{'':14}- {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
