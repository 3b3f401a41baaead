"""The validate function's cold start and warm cost (figures, no assertions): `make bench`.

Cold: the wall time of a fresh `python -c` process that imports functions/validate/handler.py
and answers one POST /validate event, beside the floor measured in the same run: a fresh process
that only loads dictionary/words.txt into a set. Then what each import costs, as fresh processes
importing one module each, and `python -X importtime`'s heaviest top-level imports.

Warm: the handler's cost per request over a few thousand requests, beside the bare rule check
(`shared.game.rules.judge`) on the same word.
"""

import json
import os
import statistics
import subprocess
import sys
import time
import timeit

from offline import REPO, use_offline_env

use_offline_env()
CHILD_ENV = {**os.environ, "PYTHONPATH": str(REPO)}

from local.events import LambdaContext, http_event  # noqa: E402

COLD_RUNS = 7
IMPORT_RUNS = 5
WARM_REQUESTS = 5000
WARM_REPEATS = 5
REQUEST = {"prompt": "TMR", "word": "Timer", "forbidden": "ABC"}

EVENT = http_event("POST", "/validate", REQUEST)
COLD_REQUEST = f"""
import json, types
from functions.validate.handler import handler
context = types.SimpleNamespace(function_name="validate", memory_limit_in_mb=128, aws_request_id="cold",
    invoked_function_arn="arn:aws:lambda:us-east-1:000000000000:function:validate")
reply = handler(json.loads({json.dumps(json.dumps(EVENT))}), context)
assert reply["statusCode"] == 200 and json.loads(reply["body"])["valid"], reply
"""
FLOOR = f"""
from pathlib import Path
words = frozenset(Path({str(REPO / "dictionary" / "words.txt")!r}).read_text(encoding="ascii").split())
"""
EMPTY = "pass"
HEAVY = ["boto3", "botocore.session", "aws_xray_sdk", "pydantic", "aws_lambda_powertools.event_handler"]
LOADED = f"""
import sys
{COLD_REQUEST}
print(",".join(m for m in {HEAVY!r} if m in sys.modules))
"""
IMPORTS = [
    ("interpreter only (python -c pass)", EMPTY),
    ("floor: words.txt into a set", FLOOR),
    ("import pydantic", "import pydantic"),
    ("from aws_lambda_powertools import Logger", "from aws_lambda_powertools import Logger"),
    (
        "import aws_lambda_powertools.event_handler",
        "from aws_lambda_powertools.event_handler import APIGatewayHttpResolver",
    ),
    ("import shared.http.models (pydantic models)", "import shared.http.models"),
    ("import shared.http.api (resolver, envelope)", "import shared.http.api"),
    ("import functions.validate.handler", "import functions.validate.handler"),
    ("cold start: import + one request", COLD_REQUEST),
    ("not imported by validate: boto3", "import boto3"),
    ("not imported by validate: X-Ray SDK (Tracer)", "import aws_xray_sdk.core"),
]


def wall(code: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=CHILD_ENV, cwd=REPO)
    return time.perf_counter() - started


def medians(codes: list[str], runs: int) -> list[float]:
    """The median wall time of each code's fresh process, runs interleaved so drift hits all alike."""
    for code in codes:
        wall(code)  # warm the OS file cache and the .pyc files
    times: list[list[float]] = [[] for _ in codes]
    for _ in range(runs):
        for index, code in enumerate(codes):
            times[index].append(wall(code))
    return [statistics.median(t) for t in times]


def import_time_by_package(top: int = 12) -> list[tuple[str, int, int]]:
    """`python -X importtime` of the handler module: each top-level package's own import time
    (the sum of its modules' self times, µs), heaviest first, with its module count."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import functions.validate.handler"],
        check=True,
        env=CHILD_ENV,
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    own: dict[str, int] = {}
    modules: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        self_time, _, name = line.removeprefix("import time:").split("|")
        package = name.strip().split(".")[0]
        own[package] = own.get(package, 0) + int(self_time)
        modules[package] = modules.get(package, 0) + 1
    ranked = sorted(own, key=lambda package: -own[package])[:top]
    return [(package, modules[package], own[package]) for package in ranked]


def cold() -> None:
    print(f"Cold start: median wall time of {COLD_RUNS} fresh processes each")
    floor, start = medians([FLOOR, COLD_REQUEST], COLD_RUNS)
    print(f"  floor (a process that loads words.txt into a set)   {floor * 1000:7.1f} ms")
    print(f"  validate (import the handler, answer one request)   {start * 1000:7.1f} ms")
    print(f"  ratio                                               {start / floor:7.2f} x the floor")
    loaded = subprocess.run(
        [sys.executable, "-c", LOADED], check=True, env=CHILD_ENV, cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    print(f"  loaded after the request, of {', '.join(HEAVY)}: {loaded or 'none'}")
    print()
    print(f"What each import costs: median wall time of {IMPORT_RUNS} fresh processes, and beyond `pass`")
    times = medians([code for _, code in IMPORTS], IMPORT_RUNS)
    width = max(len(label) for label, _ in IMPORTS)
    for (label, _), seconds in zip(IMPORTS, times, strict=True):
        print(f"  {label.ljust(width)}  {seconds * 1000:7.1f} ms  (+{(seconds - times[0]) * 1000:6.1f} ms)")
    print()
    print("python -X importtime -c 'import functions.validate.handler': own import time by package")
    print("  (`functions` includes loading the dictionary, which the handler does at import)")
    for package, count, micros in import_time_by_package():
        print(f"  {package.ljust(width)}  {micros / 1000:7.1f} ms  ({count} modules)")


def per_call(function, *args) -> float:
    """Seconds per call: the best of WARM_REPEATS timings of WARM_REQUESTS calls."""
    for _ in range(200):
        function(*args)
    return (
        min(timeit.repeat(lambda: function(*args), number=WARM_REQUESTS, repeat=WARM_REPEATS)) / WARM_REQUESTS
    )


def warm() -> None:
    from functions.validate.handler import app, handler
    from shared.game.dictionary import words
    from shared.game.rules import judge
    from shared.http import api

    context = LambdaContext(aws_request_id="warm")
    reply = handler(EVENT, context)
    assert reply["statusCode"] == 200 and json.loads(reply["body"])["valid"], reply
    dictionary = words()
    rows = [
        ("handler(event, context)", per_call(handler, EVENT, context)),
        ("  without the Logger decorator: api.serve", per_call(api.serve, app, EVENT, context)),
        ("  the resolver alone: app.resolve", per_call(app.resolve, EVENT, context)),
        (
            "bare rule check: judge(word, prompt, words, forbidden)",
            per_call(judge, REQUEST["word"], REQUEST["prompt"], dictionary, REQUEST["forbidden"]),
        ),
    ]
    print(f"Warm cost per request: best of {WARM_REPEATS} runs of {WARM_REQUESTS:,} requests")
    width = max(len(label) for label, _ in rows)
    bare = rows[-1][1]
    for label, seconds in rows:
        print(f"  {label.ljust(width)}  {seconds * 1e6:8.2f} µs  ({seconds / bare:6.0f} x the rule check)")


def main() -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load} (figures vary with it)"
    )
    print()
    cold()
    print()
    warm()


if __name__ == "__main__":
    main()
