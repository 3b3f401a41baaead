"""The embedded store's cost per request against the size of its table (figures, no assertions).

For each table size (10, 1,000 and 10,000 items besides the game's own: guest runs, as a day of
guests leaves them), starts the local server (python -m local.server of REPO, default this
checkout) on a DATA_DIR whose snapshot holds that many, then has PLAYERS logged-in players play
their official Daily one after the other, and times over HTTP each one's completing answer (the
last round's: the completion's transaction, its official result, history and stats) and the
answers before it. Prints the median and the slowest of each, and the server's start time. One
more player plays first, unmeasured: meanwhile the stream consumer reads the stream a start
fills with every item loaded (docs/local.md), and the first calls import the handlers.

    PYTHONPATH=. .venv/bin/python benchmarks/store.py [--repo PATH] [--players 5] [--sizes 10,1000,10000]
"""

import argparse
import json
import secrets
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from store_faults import Server, until_answered, words_for  # noqa: E402

SIZES = (10, 1_000, 10_000)
FAR_AHEAD = str(int(time.time()) + 30 * 24 * 3600)  # the filler's TTL: never due while measured


def guest_run_item(index: int) -> dict:
    """A guest run's item as the table holds one after three answers (its size: about 600 bytes)."""
    run = {
        "k": "d",
        "d": "2026-12-01",
        "o": 0,
        "s": [120, 2, 1, 6],
        "t": ["2026-12-01T16:00:23.100Z", "2026-12-01T16:03:23.100Z"],
        "h": [[["CSU", ""], [["cusp", 1, None, 2300]], "accepted", 120, 20] for _ in range(3)],
        "p": secrets.token_hex(40),
    }
    return {
        "pk": {"S": f"RUN#filler-{index:06d}"},
        "sk": {"S": "RUN"},
        "run": {"S": json.dumps(run, separators=(",", ":"))},
        "version": {"N": "3"},
        "expires_at": {"N": FAR_AHEAD},
    }


def measure(repo: Path, size: int, players: int) -> dict:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix="wordsqd-store-") as folder:
        data_dir = Path(folder)
        snapshot = {"table": "wordsqd", "items": [guest_run_item(i) for i in range(size)]}
        (data_dir / "dynamodb.json").write_text(json.dumps(snapshot))
        server = Server(repo, data_dir, port)
        began = time.perf_counter()
        server.start()
        started = time.perf_counter() - began
        completing, answering = [], []
        try:
            for number in range(players + 1):
                status, reply = until_answered(
                    server, "POST", "/local/login", {"username": f"bench-{number}"}
                )
                token = reply["id_token"]
                status, run = until_answered(server, "POST", "/daily/runs", token=token)
                # 200: a start sent again after no answer in time, which had made the run
                assert status in (200, 201) and run["official"], (status, run)
                used: set[str] = set()
                while run["status"] == "active":
                    word = next(w for w in words_for(run["prompt"], run["forbidden"]) if w not in used)
                    body = {"round": run["round"], "attempt": run["attempt"], "word": word}
                    sent = time.perf_counter()
                    status, reply = until_answered(
                        server, "POST", f"/runs/{run['run_id']}/answers", body, token
                    )
                    took = time.perf_counter() - sent
                    assert status == 200, reply
                    used.add(word)
                    run = reply["run"]
                    if number:  # the first player warms up
                        (completing if run["status"] == "completed" else answering).append(took)
        finally:
            server.stop()
    return {"items": size, "start s": started, "completing": completing, "answering": answering}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose server to run")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    args = parser.parse_args()
    print(f"{'items':>7}  {'start':>7}  {'completing answer (median, max)':>32}  {'other answers':>28}")
    for size in (int(s) for s in args.sizes.split(",")):
        result = measure(args.repo.resolve(), size, args.players)
        done, other = result["completing"], result["answering"]
        print(
            f"{size:>7,}  {result['start s']:>6.1f}s  "
            f"{statistics.median(done) * 1000:>20.0f} ms, {max(done) * 1000:>5.0f} ms  "
            f"{statistics.median(other) * 1000:>16.0f} ms, {max(other) * 1000:>5.0f} ms",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
