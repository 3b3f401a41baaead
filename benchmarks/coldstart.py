"""Cold starts of every handler against a floor; with --before-ref, another ref's asset beside it.

    python benchmarks/coldstart.py [--runs 9] [--before-ref main] [--instructions]

Each measurement is a fresh CPython 3.12 process (Lambda's Python) that sees only the standard
library and one asset folder (-I -S), with Lambda's environment variables (LAMBDA_TASK_ROOT
included, so X-Ray behaves as in Lambda), that reads its own CPU clock:
- init: after importing one handler's module, which is what Lambda's Init phase does;
- first: the handler's first invocation (the rush's request: POST /daily/runs, GET
  /leaderboard/daily, POST /validate, the jobs' and the stream's events), against a local moto
  DynamoDB server started here;
- warm: a second invocation in the same process; first - warm is what the init left for the
  first request, so work moved out of the init cannot hide there.
`-B` everywhere: Lambda's code folder is read-only, so a process never leaves bytecode behind for
the next one; an asset without .pyc files compiles every module on every cold start. CPU time, not
wall time: this machine is shared, and a process waiting for a core is not a slow import.

The floor is the same process loading only the word list (shared.game.dictionary), measured in the same
run from the same asset, so the ratios hold whatever this machine's speed. The rows between the
floor and the handlers are libraries alone plus the word list, with the garbage collector paused as
the handlers' inits pause it: the least an init can cost while it uses them. "... alone" rows are
one library each (pydantic with one model; Powertools' HTTP resolver; a DynamoDB client from
botocore) and "pydantic + botocore client" what every stateful function needs at
least; "libraries" rows are what the API functions (pydantic, the resolver, Logger, Metrics) and
the stateful ones (also the DynamoDB client and the Tracer patching botocore) import together.
Assets are built for this machine's platform (the arm64 wheels cannot load here), each from its
own lock, by this tree's infra.build_asset (the same pip resolution, cuts and bytecode):
- after: this tree's asset (`make bench` measures this one alone, against the floor);
- before (--before-ref REF): `git archive REF` of functions/, shared/ and dictionary/ with REF's
  locked packages, so a difference between the columns is the code's and the packages', not the
  build's. Its first invocations run only if its code works with today's table.
Sizes are of the folders and of a zip of each (what CDK uploads); for the real platform they
would be within a few hundred KB (the native wheels differ).
"""

import argparse
import hashlib
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
import uuid
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NamedTuple

import boto3
from moto.server import ThreadedMotoServer

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from infra import build_asset  # noqa: E402
from infra.functions import COMMON_ENVIRONMENT, FUNCTIONS, LAMBDA_TASK_ROOT  # noqa: E402
from local.events import http_event  # noqa: E402
from shared.dynamo.table import create_table_request  # noqa: E402

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
    **COMMON_ENVIRONMENT,  # what the stack sets on every function (PYDANTIC_DISABLE_PLUGINS too)
    # ... but not WORDSQD_ENV=aws: on AWS the init stops without the secrets' ARNs and the user pool,
    # which only a deployment has (shared/runtime/settings.py); a test's settings stand in for them.
    "WORDSQD_ENV": "test",
}
# The word list's module, in the layered tree and in a before-ref older than the layers.
FLOOR = (
    "try:\n    from shared.game.dictionary import words\n"
    "except ImportError:\n    from shared.dictionary import words\nwords()\n"
)
# What the libraries cost, with the word list: what a handler's init cannot go below while it uses
# them (measured on the after asset only). Each runs as the handlers' inits do, with the garbage
# collector paused (functions/init_phase.py). First each library a function cannot do without, on
# its own: pydantic with one model (its first model pulls in most of its machinery; every function
# validates with it, its settings at least), Powertools' HTTP resolver, a DynamoDB client made by
# botocore (the functions' SDK: shared/dynamo/client.py); then what the API and the stateful
# functions use together: pydantic, the resolver, Logger and Metrics; for the stateful ones also
# the DynamoDB client and the Tracer patching botocore.
PAUSED = "import gc\ngc.disable()\n"
PYDANTIC = "from pydantic import BaseModel\nclass One(BaseModel):\n    x: int\n"
RESOLVER = (
    "from aws_lambda_powertools.event_handler import APIGatewayHttpResolver\nAPIGatewayHttpResolver()\n"
)
BOTOCORE_CLIENT = "import botocore.session\nbotocore.session.get_session().create_client('dynamodb')\n"
LIBRARIES_API = PAUSED + FLOOR + PYDANTIC + RESOLVER + "from aws_lambda_powertools import Logger, Metrics\n"
LIBRARIES_STATEFUL = (
    LIBRARIES_API + BOTOCORE_CLIENT + "from aws_lambda_powertools import Tracer\n"
    "Tracer(patch_modules=['botocore'])\n"
)
SNIPPETS = {
    "floor": FLOOR,
    "pydantic alone": PAUSED + FLOOR + PYDANTIC,
    "resolver alone": PAUSED + FLOOR + RESOLVER,
    "botocore client alone": PAUSED + FLOOR + BOTOCORE_CLIENT,
    "pydantic + botocore client": PAUSED + FLOOR + PYDANTIC + BOTOCORE_CLIENT,
    "libraries (api)": LIBRARIES_API,
    "libraries (stateful)": LIBRARIES_STATEFUL,
}


def lambda_env(asset: Path) -> dict[str, str]:
    """ENV for a process running from ASSET as from Lambda's code folder: LAMBDA_TASK_ROOT is the
    asset (so Powertools' Tracer is on) and AWS_CA_BUNDLE, the stack's path under /var/task, is the
    same file in the asset (an asset without it, the before one, keeps botocore's own bundle)."""
    env = {**ENV, "LAMBDA_TASK_ROOT": str(asset)}
    bundle = asset / Path(ENV["AWS_CA_BUNDLE"]).relative_to(LAMBDA_TASK_ROOT)
    if bundle.is_file():
        env["AWS_CA_BUNDLE"] = str(bundle)
    else:
        del env["AWS_CA_BUNDLE"]
    return env


MALFORMED_VALIDATE = "validate, malformed first"
MALFORMED_BODY = {"prompt": "TM", "word": "timer"}
GOALS = {"validate": 1.8, "daily": 6.0, "leaderboard": 6.0}  # times the floor (issue #25)


def build_before(ref: str, out: Path) -> Path:
    """REF's asset for this platform: its code and its lock, built as infra.build_asset builds
    this tree's (pip with the source-only packages made wheels here, botocore cut, bytecode)."""
    commit = git("rev-parse", ref).strip()
    lock = git("show", f"{ref}:infra/lambda-requirements.txt")
    packages = [line for line in lock.splitlines() if line and not line.startswith("#")]
    build_code = b"".join((REPO / "infra" / name).read_bytes() for name in ("build_asset.py", "aws_roots.py"))
    key = f"{commit} {HOST_PLATFORM} {hashlib.sha256(build_code).hexdigest()}"
    stamp = out.with_name(out.name + ".ref")
    if stamp.exists() and stamp.read_text() == key and out.is_dir():
        return out
    stamp.unlink(missing_ok=True)  # a failed build must not look finished
    build_asset.install_dependencies(out, packages, HOST_PLATFORM)
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
    build_asset.compile_code(out, out / "functions", out / "shared")
    stamp.write_text(key)
    return out


def git(*argv: str) -> str:
    return subprocess.run(["git", *argv], cwd=REPO, capture_output=True, text=True, check=True).stdout


def zipped_size(folder: Path) -> int:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return buffer.tell()


# The Lambda context a child process hands the handler (the attributes Powertools reads).
CONTEXT = """\
class Context:
    function_name = "wordsqd-bench"
    memory_limit_in_mb = 1024
    invoked_function_arn = "arn:aws:lambda:us-east-1:000000000000:function:wordsqd-bench"
    aws_request_id = "bench"
    log_group_name = "/aws/lambda/wordsqd-bench"
    log_stream_name = "bench"
    def get_remaining_time_in_millis(self):
        return 10_000
"""

CHILD = """\
import json, sys, time
sys.path.insert(0, {asset!r})
import importlib
{load}
marks = [time.process_time()]
{context}
for event in json.loads({events!r}):
    reply = function(event, Context())
    status = reply.get("statusCode", 200) if isinstance(reply, dict) else 200
    if status >= 400 and status != {refused!r}:  # the measured path must be the one meant
        raise SystemExit(f"the invocation answered {{status}}: {{reply}}")
    marks.append(time.process_time())
print("COLDSTART", json.dumps(marks), file=sys.stderr)
"""


class Cold(NamedTuple):
    """CPU seconds of one fresh process."""

    init: float  # from the start to the handler's module imported (Lambda's Init phase)
    first: float | None  # the first invocation, right after the init
    warm: float | None  # a second one in the same process: the same work without the cold part


def run_child(python: str, asset: Path, script: str, env: dict[str, str], mark: str, entry: str) -> Any:
    """Run SCRIPT in a fresh, isolated Python in ASSET; the JSON of the last stderr line it marked
    MARK (what ENTRY's measurement reported)."""
    done = subprocess.run(
        [python, "-I", "-S", "-B", "-c", script],
        env=env, cwd=asset, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    lines = [line for line in done.stderr.splitlines() if line.startswith(f"{mark} ")]
    if done.returncode or not lines:
        raise RuntimeError(f"{entry} failed in {asset}:\n{done.stderr[-3000:]}")
    return json.loads(lines[-1].removeprefix(f"{mark} "))


def load_code(entry: str) -> str:
    """The code that loads ENTRY: a handler ("module:function", bound to `function`; importlib
    imported), or code itself (the floor, the libraries alone)."""
    if "\n" in entry:
        return entry
    module, function = entry.split(":")
    return f"function = getattr(importlib.import_module({module!r}), {function!r})"


def cold_start(
    python: str, asset: Path, entry: str, events: Sequence[dict[str, Any]] = (), endpoint: str | None = None
) -> Cold:
    """One fresh process that imports ENTRY's module, then invokes the handler with each of EVENTS
    (two: a first and a warm one). CPU time, read by the process's own clock, not wall time: this
    machine is shared, and a process waiting for a core is not a slow import."""
    load = load_code(entry)
    # the one refusal that is the point of a measurement: validate's malformed first request
    refused = 400 if events and events[0].get("body") == json.dumps(MALFORMED_BODY) else None
    events_json = json.dumps(events)
    script = CHILD.format(asset=str(asset), context=CONTEXT, load=load, events=events_json, refused=refused)
    env = lambda_env(asset)
    if endpoint:
        env["AWS_ENDPOINT_URL_DYNAMODB"] = endpoint
    marks = run_child(python, asset, script, env, "COLDSTART", entry)
    steps = [after - before for before, after in zip(marks, marks[1:], strict=False)]
    return Cold(marks[0], *(steps + [None, None])[:2])


def first_event(name: str, n: int) -> dict[str, Any]:
    """The first invocation's event for function NAME (process N): what a cold container meets
    at the rush. validate and the HTTP functions get API Gateway v2 events; the jobs their
    scheduler's event; counters a stream batch of one record that is not an official result (the
    path that reads records; counting itself is measured in benchmarks/boards.py)."""
    if name == "validate":
        return http_event("POST", "/validate", {"prompt": "TMR", "word": "timer", "forbidden": "AEO"})
    if name == MALFORMED_VALIDATE:  # a prompt of two letters: 400, from the resolver
        return http_event("POST", "/validate", MALFORMED_BODY)
    if name == "daily":  # a signed-in player starting the Daily: the midnight crowd's request
        player = str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench-player-{n}"))  # a UUID, as Cognito's
        return http_event("POST", "/daily/runs", claims={"sub": player})
    if name == "leaderboard":
        return http_event("GET", "/leaderboard/daily")
    if name == "moderation":  # a player reading their appeals (a route no kill switch guards)
        player = str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench-player-{n}"))
        return http_event("GET", "/me/appeals", claims={"sub": player})
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
    if name in ("closing", "remind", "push"):  # the queue workers and the scan: their dry run's read
        return {"dry_run": True}  # (functions/dry_run.py; a message or a scan would need a queue)
    raise ValueError(f"no event for {name}")


def events(name: str, n: int) -> list[dict[str, Any]]:
    """Process N's two invocations of function NAME: the first, then a warm one (another player);
    none for the floor and the libraries alone."""
    if name in SNIPPETS:
        return []
    return [first_event(name, n), first_event(name, 100_000 + n)]


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
        # moto's state is per process: an earlier server in this process may have made it.
        with suppress(client.exceptions.ResourceInUseException):
            client.create_table(**create_table_request(ENV["TABLE_NAME"]))
        yield endpoint
    finally:
        server.stop()


def init_instructions(python: str, asset: Path, entry: str) -> int:
    """Instructions one fresh process executes to load ENTRY (a handler's module, or a snippet),
    counted by valgrind: the same count on an idle machine and a busy one, unlike CPU time."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-I", "-S", "-B", "-c",
         f"import importlib, sys\nsys.path.insert(0, {str(asset)!r})\n{load_code(entry)}"],
        env={**lambda_env(asset), "PYTHONHASHSEED": "0"}, cwd=asset, capture_output=True, text=True,
    )  # fmt: skip
    counted = [line for line in done.stderr.splitlines() if "Collected :" in line]
    if done.returncode or not counted:
        raise RuntimeError(f"{entry} failed under valgrind:\n{done.stderr[-3000:]}")
    return int(counted[-1].split(":")[-1])


def print_instructions(python: str, asset: Path, entries: dict[str, str]) -> None:
    print("\nInit in instructions (valgrind's callgrind, one process each, after asset): a count that "
          "a busy machine does not change, to check the CPU-time ratios above against")  # fmt: skip
    floor = init_instructions(python, asset, entries["floor"])
    print(f"{'handler':<27}{'M instructions':>15}{'x floor':>9}   goal")
    for name, entry in entries.items():
        count = floor if name == "floor" else init_instructions(python, asset, entry)
        goal = f"<= {GOALS[name]:g}x" if name in GOALS else ""
        print(f"{name:<27}{count / 1e6:>15.0f}{count / floor:>9.1f}   {goal}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="processes per handler (median reported)")
    parser.add_argument("--before-ref", help="also measure this git ref's asset ('before'), e.g. main")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count each init's instructions with valgrind (Debian's package; ~25 s a line)",
    )
    args = parser.parse_args()
    python = build_asset.lambda_python()
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (apt-get install valgrind)")

    out = build_asset.DEFAULT_OUT
    assets = {"after": build_asset.build(out.with_name("lambda-host"), platform=HOST_PLATFORM)}
    if args.before_ref:
        assets = {"before": build_before(args.before_ref, out.with_name("lambda-before")), **assets}
    entries = {**SNIPPETS, **{name: spec.handler for name, spec in FUNCTIONS.items()}}
    # validate again, its first request malformed: what its plain path leaves to the resolver
    entries[MALFORMED_VALIDATE] = FUNCTIONS["validate"].handler
    present = {  # label -> the entries its asset has (an older ref may lack some)
        label: {
            name: entry
            for name, entry in entries.items()
            if (name not in SNIPPETS or name == "floor" or label == "after")
            and (name in SNIPPETS or (asset / (entry.split(":")[0].replace(".", "/") + ".py")).is_file())
        }
        for label, asset in assets.items()
    }
    print(f"Cold start, median of {args.runs} fresh {python} processes per line on "
          f"{platform.machine()}, Lambda-like environment, -B (read-only code folder), CPU ms of the "
          "process (startup included)")  # fmt: skip
    if args.before_ref:
        before = git("rev-parse", "--short", args.before_ref).strip()
        print(f"before: {args.before_ref} ({before}); after: this tree")
    print()
    results: dict[str, dict[str, list[Cold]]] = {label: {} for label in assets}
    with dynamodb_server() as endpoint:
        # A first pass, not counted: stores the day's puzzle. The before asset's code may expect
        # another table (an index renamed since): its invocations are then left out, and its
        # import alone is measured.
        invoke = {label: set(present[label]) for label in assets}
        for label, asset in assets.items():
            for name, entry in present[label].items():
                try:
                    cold_start(python, asset, entry, events(name, -1), endpoint)
                except RuntimeError:
                    if label == "after":
                        raise
                    invoke[label].discard(name)
        for n in range(args.runs):  # interleaved, so a busy moment hurts every line alike
            for label, asset in assets.items():
                for name, entry in present[label].items():
                    calls = events(name, n) if name in invoke[label] else []
                    results[label].setdefault(name, []).append(
                        cold_start(python, asset, entry, calls, endpoint)
                    )

    def median(label: str, name: str, field: str) -> float | None:
        values = [getattr(c, field) for c in results[label].get(name, [])]
        return statistics.median(values) if values and None not in values else None

    print("Init: the handler's module imported (Lambda's Init phase), in CPU ms and times the floor")
    columns = "".join(f"{label + ' ms':>12}{label + ' x':>10}" for label in assets)
    print(f"{'handler':<27}{columns}{'after range':>14}   goal")
    for name in entries:
        row = f"{name:<27}"
        for label in assets:
            value, floor = median(label, name, "init"), median(label, "floor", "init")
            row += (
                f"{value * 1000:>12.0f}{value / floor:>10.1f}" if value and floor else f"{'-':>12}{'-':>10}"
            )
        spread = [c.init * 1000 for c in results["after"][name]]
        row += f"{f'{min(spread):.0f}-{max(spread):.0f}':>14}"
        goal = f"<= {GOALS[name]:g}x" if name in GOALS else ""
        print(row + f"   {goal}")
    print("\nThe first invocation after that init, and a second one in the same process (warm), in CPU "
          "ms; first - warm is the cold part of the first request (what was left for it to do: "
          "clients, lazily built objects). DynamoDB is a local moto server (its CPU is not "
          "counted).")  # fmt: skip
    print(f"{'handler':<27}" + "".join(f"{label + ' first':>14}{label + ' warm':>13}" for label in assets)
          + f"{'after first-warm':>18}{'after init+first':>18}")  # fmt: skip
    for name in entries:
        if name in SNIPPETS:
            continue
        row = f"{name:<27}"
        for label in assets:
            first, warm = median(label, name, "first"), median(label, name, "warm")
            row += f"{first * 1000:>14.0f}{warm * 1000:>13.0f}" if first and warm else f"{'-':>14}{'-':>13}"
        first, warm, init = (median("after", name, f) or 0.0 for f in ("first", "warm", "init"))
        print(row + f"{(first - warm) * 1000:>18.0f}{(init + first) * 1000:>18.0f}")
    missing = sorted(set(FUNCTIONS) - set(present.get("before", FUNCTIONS)))
    if missing:
        print(f"\n(not in the before asset: {', '.join(missing)})")
    print("\nAsset size (this platform's wheels)")
    for label, asset in assets.items():
        print(
            f"{label:<8} unzipped {build_asset.folder_size(asset) / 1e6:6.1f} MB"
            f"   zipped {zipped_size(asset) / 1e6:6.1f} MB"
        )
    if args.instructions:
        counted = {name: entry for name, entry in entries.items() if name != MALFORMED_VALIDATE}
        print_instructions(python, assets["after"], counted)
    print("\nWhere the after asset's init goes: self time of every module imported, summed by the "
          "package it belongs to, as a share of the whole (python -X importtime, which slows the "
          "import down, hence shares; median of 3 processes). 'ours' includes the work our modules "
          "do at import: the word list, the DynamoDB client.")  # fmt: skip
    shares = {name: import_shares(python, assets["after"], FUNCTIONS[name].handler) for name in SHOWN}
    groups = sorted({g for b in shares.values() for g in b}, key=lambda g: -shares["daily"].get(g, 0))
    print(f"{'package':<28}" + "".join(f"{name:>11}" for name in SHOWN))
    for group in groups:
        print(f"{group:<28}" + "".join(f"{shares[name].get(group, 0):>10.0%} " for name in SHOWN))


SHOWN = ("validate", "daily", "counters")
PACKAGES = {  # how the breakdown names the asset's packages
    "aws_lambda_powertools": "powertools",
    "pydantic": "pydantic",
    "pydantic_core": "pydantic",
    "annotated_types": "pydantic",
    "typing_inspection": "pydantic",
    "typing_extensions": "pydantic",
    "botocore": "botocore, urllib3",
    "urllib3": "botocore, urllib3",
    "dateutil": "botocore, urllib3",
    "jmespath": "botocore, urllib3",
    "six": "botocore, urllib3",
    "aws_xray_sdk": "aws_xray_sdk, wrapt",
    "wrapt": "aws_xray_sdk, wrapt",
    "shared": "ours (shared/, functions/)",
    "functions": "ours (shared/, functions/)",
}


def import_breakdown(python: str, asset: Path, entry: str) -> dict[str, int]:
    """Microseconds of import self time per package (PACKAGES; anything else is the standard
    library) in one fresh process importing ENTRY's module."""
    module = entry.split(":")[0]
    trace = subprocess.run(
        [python, "-I", "-S", "-B", "-X", "importtime", "-c",
         f"import sys; sys.path.insert(0, {str(asset)!r}); import {module}"],
        env=lambda_env(asset), cwd=asset,
        capture_output=True, text=True, check=True,
    ).stderr  # fmt: skip
    totals: dict[str, int] = {}
    for line in trace.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            self_us, _, name = (part.strip() for part in line.removeprefix("import time:").split("|"))
            group = PACKAGES.get(name.split(".")[0], "standard library")
            totals[group] = totals.get(group, 0) + int(self_us)
    return totals


def import_shares(python: str, asset: Path, entry: str, runs: int = 3) -> dict[str, float]:
    """Each package's median share of ENTRY's import self time over RUNS processes."""
    samples = [import_breakdown(python, asset, entry) for _ in range(runs)]
    groups = {group for sample in samples for group in sample}
    return {
        group: statistics.median(sample.get(group, 0) / sum(sample.values()) for sample in samples)
        for group in groups
    }


if __name__ == "__main__":
    main()
