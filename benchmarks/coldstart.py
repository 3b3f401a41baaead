"""Cold starts of every handler, before (main's asset) and after (this tree's), against a floor.

    python benchmarks/coldstart.py [--runs 9] [--before-ref main]

Each measurement is a fresh CPython 3.12 process (Lambda's Python) that sees only the standard
library and one asset folder (-I -S), with Lambda's environment variables, importing one
handler's module: what Lambda's Init phase does. `-B` everywhere: Lambda's code folder is
read-only, so a process never leaves bytecode behind for the next one; an asset without .pyc files
compiles every module on every cold start.

The floor is the same process loading only the word list (shared.dictionary), measured in the same
run from the same asset, so the ratios hold whatever this machine's speed. Both assets are built
for this machine's platform (the arm64 wheels cannot load here) from the same lock:
- before: `git archive <before-ref>` of functions/, shared/ and dictionary/ with the packages
  installed as main's build_asset did (all botocore data, no bytecode);
- after: infra.build_asset.build for this platform (bytecode, botocore cut to the services used).
Sizes are of the folders and of a zip of each (what CDK uploads), for the real platform they would
be within a few hundred KB (the native wheels differ).
"""

import argparse
import io
import json
import logging
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import boto3
from moto.server import ThreadedMotoServer

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from infra.build_asset import DEFAULT_OUT, _pip_install, build, folder_size, lambda_python  # noqa: E402
from infra.functions import FUNCTIONS  # noqa: E402
from local.events import http_event  # noqa: E402
from shared.table import create_table_request  # noqa: E402

HOST_PLATFORM = f"manylinux2014_{platform.machine()}"
ENV = {
    "AWS_LAMBDA_FUNCTION_NAME": "wordsqd-bench",
    "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024",
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "TABLE_NAME": "wordsqd-bench",
    "PUZZLE_SEED": "bench-seed",
    "POWERTOOLS_SERVICE_NAME": "wordsqd",
    "POWERTOOLS_METRICS_NAMESPACE": "WordSQD",
    "POWERTOOLS_TRACER_CAPTURE_RESPONSE": "false",
    "POWERTOOLS_TRACER_CAPTURE_ERROR": "false",
    "PATH": "/usr/bin:/bin",
}
FLOOR = "shared.dictionary:words"
GOALS = {"validate": 3.0}  # the others: 5x (issue #12)


def build_before(ref: str, out: Path) -> Path:
    """main's asset as main built it (all botocore data, no bytecode), for this platform."""
    stamp = out.with_name(out.name + ".ref")
    commit = subprocess.run(["git", "rev-parse", ref], cwd=REPO, capture_output=True, text=True, check=True)
    key = f"{commit.stdout.strip()} {HOST_PLATFORM}"
    if stamp.exists() and stamp.read_text() == key and out.is_dir():
        return out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    lock = subprocess.run(
        ["git", "show", f"{ref}:infra/lambda-requirements.txt"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    packages = [line for line in lock.splitlines() if line and not line.startswith("#")]
    _pip_install(out, "--no-deps", *packages, platform=HOST_PLATFORM)
    shutil.rmtree(out / "bin", ignore_errors=True)
    archive = subprocess.run(
        ["git", "archive", ref, "functions", "shared", "dictionary"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(out, filter="data")
    for path in (out / "dictionary").iterdir():  # only the data files, as build_asset copies
        if path.suffix not in (".txt", ".tsv"):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    stamp.write_text(key)
    return out


def zipped_size(folder: Path) -> int:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return buffer.tell()


CHILD = """\
import json, sys, time
sys.path.insert(0, {asset!r})
import importlib
function = getattr(importlib.import_module({module!r}), {function!r})
if {floor!r}:
    function()
init = time.process_time()
event = {event!r}
if event is not None:
    class Context:
        function_name = "wordsqd-bench"
        memory_limit_in_mb = 1024
        invoked_function_arn = "arn:aws:lambda:us-east-1:000000000000:function:wordsqd-bench"
        aws_request_id = "bench"
        log_group_name = "/aws/lambda/wordsqd-bench"
        log_stream_name = "bench"
        def get_remaining_time_in_millis(self):
            return 10_000
    reply = function(json.loads(event), Context())
    status = reply.get("statusCode", 200) if isinstance(reply, dict) else 200
    if status >= 500:
        raise SystemExit(f"first invocation answered {{status}}: {{reply}}")
print("COLDSTART", json.dumps([init, time.process_time()]), file=sys.stderr)
"""


def cold_start(
    python: str, asset: Path, entry: str, event: dict[str, Any] | None = None, endpoint: str | None = None
) -> tuple[float, float]:
    """CPU seconds of one fresh process: (after importing ENTRY's module, after its first
    invocation with EVENT). CPU time (the process's own clock, read in it), not wall time: this
    machine is shared, and a process waiting for a core is not a slow import. Without an event
    the two are the same instant."""
    module, function = entry.split(":")
    script = CHILD.format(
        asset=str(asset), module=module, function=function, floor=entry == FLOOR,
        event=None if event is None else json.dumps(event),
    )  # fmt: skip
    env = {**ENV, "LAMBDA_TASK_ROOT": str(asset)}  # Lambda's code folder: Powertools' Tracer is on
    if endpoint:
        env["AWS_ENDPOINT_URL_DYNAMODB"] = endpoint
    done = subprocess.run(
        [python, "-I", "-S", "-B", "-c", script],
        env=env, cwd=asset, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    marks = [line for line in done.stderr.splitlines() if line.startswith("COLDSTART ")]
    if done.returncode or not marks:
        raise RuntimeError(f"{entry} failed in {asset}:\n{done.stderr[-3000:]}")
    init, first = json.loads(marks[-1].removeprefix("COLDSTART "))
    return init, first


def first_event(name: str, n: int) -> dict[str, Any] | None:
    """The first invocation's event for function NAME (process N): what a cold container meets
    at the rush. validate and the HTTP functions get API Gateway v2 events; the jobs their
    scheduler's event; counters a stream batch of one record that is not an official result (the
    path that reads records; counting itself is measured in benchmarks/boards.py)."""
    if name == "validate":
        return http_event("POST", "/validate", {"prompt": "TMR", "word": "timer", "forbidden": "AEO"})
    if name == "daily":  # a signed-in player starting the Daily: the midnight crowd's request
        return http_event("POST", "/daily/runs", claims={"sub": f"bench-player-{n}"})
    if name == "leaderboard":
        return http_event("GET", "/leaderboard/daily")
    if name in ("reset", "expire"):
        return {"version": "0", "detail-type": "Scheduled Event", "source": "aws.events", "detail": {}}
    if name == "counters":
        record = {
            "eventID": f"bench-{n}",
            "eventName": "INSERT",
            "eventSource": "aws:dynamodb",
            "eventSourceARN": "arn:aws:dynamodb:us-east-1:000000000000:table/wordsqd-bench/stream/x",
            "dynamodb": {
                "Keys": {"pk": {"S": f"RUN#bench-{n}"}, "sk": {"S": "RUN"}},
                "SequenceNumber": str(n + 1),
                "StreamViewType": "NEW_IMAGE",
            },
        }
        return {"Records": [record]}
    return None


@contextmanager
def dynamodb_server() -> Iterator[str]:
    """moto's DynamoDB as a local server with the table, for the first invocations' requests (its
    CPU is this process's, not the measured one's)."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    try:
        client = boto3.client("dynamodb", endpoint_url=endpoint, region_name=ENV["AWS_REGION"],
                              aws_access_key_id="testing", aws_secret_access_key="testing")  # fmt: skip
        client.create_table(**create_table_request(ENV["TABLE_NAME"]))
        yield endpoint
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="processes per handler (median reported)")
    parser.add_argument("--before-ref", default="main", help="git ref of the 'before' asset")
    args = parser.parse_args()
    python = lambda_python()

    assets = {
        "before": build_before(args.before_ref, DEFAULT_OUT.with_name("lambda-before")),
        "after": build(DEFAULT_OUT.with_name("lambda-host"), platform=HOST_PLATFORM),
    }
    entries = {"floor": FLOOR, **{name: spec.handler for name, spec in FUNCTIONS.items()}}
    present = {  # label -> the entries its asset has (expire and counters came after the before ref)
        label: {
            name: entry
            for name, entry in entries.items()
            if (asset / (entry.split(":")[0].replace(".", "/") + ".py")).is_file()
        }
        for label, asset in assets.items()
    }
    print(f"Cold start, median of {args.runs} fresh {python} processes per line on "
          f"{platform.machine()}, Lambda-like environment, -B (read-only code folder), CPU ms of the "
          "process (startup included)\n")  # fmt: skip
    init: dict[str, dict[str, list[float]]] = {label: {} for label in assets}
    first: dict[str, dict[str, list[float]]] = {label: {} for label in assets}
    with dynamodb_server() as endpoint:
        # A first pass, not counted: stores the day's puzzle. The before asset's code may expect
        # another table (an index that was renamed since): its first invocations are then left
        # out, and its import alone is measured.
        invoke = {label: set(present[label]) for label in assets}
        for label, asset in assets.items():
            for name, entry in present[label].items():
                try:
                    cold_start(python, asset, entry, first_event(name, -1), endpoint)
                except RuntimeError:
                    if label == "after":
                        raise
                    invoke[label].discard(name)
        for n in range(args.runs):  # interleaved, so a busy moment hurts every line alike
            for label, asset in assets.items():
                for name, entry in present[label].items():
                    event = first_event(name, n) if name in invoke[label] else None
                    imported, invoked = cold_start(python, asset, entry, event, endpoint)
                    init[label].setdefault(name, []).append(imported)
                    if event is not None:
                        first[label].setdefault(name, []).append(invoked)
    print("Init: the handler module imported (what Lambda's Init phase does), and its ratio to the floor")
    header = f"{'handler':<12}" + "".join(f"{label + ' ms':>12}{label + ' x':>10}" for label in assets)
    print(header + f"{'range after':>16}   goal")
    for name in entries:
        row = f"{name:<12}"
        for label in assets:
            if name in init[label]:
                value = statistics.median(init[label][name])
                ratio = value / statistics.median(init[label]["floor"])
                row += f"{value * 1000:>12.0f}{ratio:>10.1f}"
            else:
                row += f"{'-':>12}{'-':>10}"
        spread = init["after"][name]
        row += f"{f'{min(spread) * 1000:.0f}-{max(spread) * 1000:.0f}':>16}"
        goal = "" if name == "floor" else f"<= {GOALS.get(name, 5.0):.0f}x"
        print(row + f"   {goal}")
    print("\nInit + first invocation (the first request's work after a cold init: nothing deferred "
          "hides here), CPU ms; DynamoDB is a local moto server")  # fmt: skip
    print(f"{'handler':<12}" + "".join(f"{label + ' ms':>12}" for label in assets) + f"{'first alone':>14}")
    for name in entries:
        if name == "floor":
            continue
        row = f"{name:<12}"
        for label in assets:
            value = statistics.median(first[label][name]) * 1000 if name in first[label] else None
            row += f"{value:>12.0f}" if value is not None else f"{'-':>12}"
        alone = statistics.median(first["after"][name]) - statistics.median(init["after"][name])
        print(row + f"{alone * 1000:>14.0f}")
    missing = sorted(set(entries) - set(present["before"]))
    if missing:
        print(f"\n(not in the before asset: {', '.join(missing)})")
    print("\nAsset size (this platform's wheels)")
    for label, asset in assets.items():
        print(
            f"{label:<8} unzipped {folder_size(asset) / 1e6:6.1f} MB"
            f"   zipped {zipped_size(asset) / 1e6:6.1f} MB"
        )
    print("\nSlowest imports of validate after (python -X importtime, cumulative us):")
    validate_module = FUNCTIONS["validate"].handler.split(":")[0]
    trace = subprocess.run(
        [python, "-I", "-S", "-B", "-X", "importtime", "-c",
         f"import sys; sys.path.insert(0, {str(assets['after'])!r}); import {validate_module}"],
        env={**ENV, "LAMBDA_TASK_ROOT": str(assets["after"])}, cwd=assets["after"],
        capture_output=True, text=True, check=True,
    ).stderr  # fmt: skip
    rows = []
    for line in trace.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            _, cumulative, name = (part.strip() for part in line.removeprefix("import time:").split("|"))
            rows.append((int(cumulative), name))
    for cumulative, name in sorted(rows, reverse=True)[:12]:
        print(f"  {cumulative:>8}  {name}")


if __name__ == "__main__":
    main()
