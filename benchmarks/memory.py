"""Each function's memory size, chosen from measurement (figures, no assertions): its peak memory,
and its warm latency and cost per million requests derived at 512, 1,024 and 1,769 MB.

    python benchmarks/memory.py [--runs 5] [--calls 20]

Lambda gives a function CPU in proportion to its memory, one full vCPU at 1,769 MB (more memory
adds a second vCPU, which single-threaded Python does not use). This machine cannot run Lambda,
so each function's handler runs in fresh CPython 3.12 processes from the built asset (as
benchmarks/coldstart.py runs them, Lambda's environment, a local moto DynamoDB server), on a full
core: per process, one first invocation, then CALLS warm ones of the same request (other
players), each timed by the process's own CPU clock, with the DynamoDB requests it sent counted;
then the process's peak resident memory. From those:
- latency at M MB = CPU x 1,769 / M (M below 1,769) + requests x DYNAMODB_MS (the network time,
  which memory does not change: DynamoDB answers in single-digit ms in-region);
- init at M MB = the init's CPU x 1,769 / M (Lambda's init runs at the same share);
- cost per million = 1e6 x M / 1,024 x latency (s) x the GB-second price (arm64) + the request
  price.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

from coldstart import CONTEXT, HOST_PLATFORM, dynamodb_server, first_event, lambda_env, run_child

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from infra.build_asset import DEFAULT_OUT, build, lambda_python  # noqa: E402
from infra.functions import FUNCTIONS  # noqa: E402

SIZES = (512, 1024, 1769)
FULL_CORE_MB = 1769
DYNAMODB_MS = 5.0  # one request's round trip in-region (DynamoDB: single-digit ms)
GB_SECOND_DOLLARS = 0.0000133334  # arm64, us-east-1 list price, first 7.5 billion GB-s a month
REQUEST_DOLLARS_PER_MILLION = 0.20

CHILD = """\
import json, sys, time
sys.path.insert(0, {asset!r})
import importlib
started = time.process_time()
function = getattr(importlib.import_module({module!r}), {function!r})
init = time.process_time() - started
import botocore.client
sent = [0]
original = botocore.client.BaseClient._make_api_call
def counted(self, operation, params):
    sent[0] += 1
    return original(self, operation, params)
botocore.client.BaseClient._make_api_call = counted
{context}
cpu, requests = [], []
for n, event in enumerate(json.loads({events!r})):
    before, sent[0] = time.process_time(), 0
    function(event, Context())
    if n:  # the first invocation is the cold one
        cpu.append(time.process_time() - before)
        requests.append(sent[0])
# VmHWM, this process image's peak: getrusage's ru_maxrss survives exec, so it would report the
# benchmark's own process, of which this one was a fork.
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
peak = int(status["VmHWM"].split()[0]) / 1024
figures = {{"init": init, "cpu": cpu, "requests": requests, "peak_mb": peak}}
print("MEMORY", json.dumps(figures), file=sys.stderr)
"""


def measure(python: str, asset: Path, entry: str, events: list[dict], endpoint: str) -> dict:
    module, function = entry.split(":")
    parts = {"asset": str(asset), "context": CONTEXT, "module": module, "function": function}
    script = CHILD.format(**parts, events=json.dumps(events))
    env = {**lambda_env(asset), "AWS_ENDPOINT_URL_DYNAMODB": endpoint}
    figures: dict = run_child(python, asset, script, env, "MEMORY", entry)
    return figures


def latency_ms(cpu_ms: float, requests: float, memory: int) -> float:
    return cpu_ms * max(1.0, FULL_CORE_MB / memory) + requests * DYNAMODB_MS


def dollars_per_million(latency: float, memory: int) -> float:
    return 1e6 * memory / 1024 * latency / 1000 * GB_SECOND_DOLLARS + REQUEST_DOLLARS_PER_MILLION


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per function")
    parser.add_argument("--calls", type=int, default=20, help="warm invocations per process")
    parser.add_argument("--asset", type=Path, help="an asset folder already built for this machine")
    args = parser.parse_args()
    python = lambda_python()
    asset = (
        args.asset.resolve()
        if args.asset
        else build(DEFAULT_OUT.with_name("lambda-host"), platform=HOST_PLATFORM)
    )
    figures = {}
    with dynamodb_server() as endpoint:
        for name, spec in FUNCTIONS.items():
            runs = []
            for run in range(args.runs):
                calls = [first_event(name, run * 1000 + n) for n in range(args.calls + 1)]
                runs.append(measure(python, asset, spec.handler, calls, endpoint))
            figures[name] = {
                "init": statistics.median(r["init"] for r in runs) * 1000,
                "cpu": statistics.median(c for r in runs for c in r["cpu"]) * 1000,
                "requests": statistics.median(q for r in runs for q in r["requests"]),
                "peak": max(r["peak_mb"] for r in runs),
                "configured": spec.memory_mb,
            }
    print(f"Measured on a full core ({python}, median of {args.runs} processes x {args.calls} warm calls)")
    print(f"{'function':<12}{'peak MB':>9}{'init ms':>9}{'warm CPU ms':>13}{'requests':>10}{'stack MB':>10}")
    for name, f in figures.items():
        print(
            f"{name:<12}{f['peak']:>9.0f}{f['init']:>9.0f}{f['cpu']:>13.1f}{f['requests']:>10.0f}"
            f"{f['configured']:>10}"
        )
    print("\nDerived per size: warm latency ms / init ms / $ per million requests")
    print(f"(DynamoDB {DYNAMODB_MS:g} ms a request)")
    print(f"{'function':<12}" + "".join(f"{f'{m} MB':>26}" for m in SIZES))
    for name, f in figures.items():
        cells = []
        for memory in SIZES:
            latency = latency_ms(f["cpu"], f["requests"], memory)
            init = f["init"] * max(1.0, FULL_CORE_MB / memory)
            cells.append(f"{latency:.0f} / {init:.0f} / ${dollars_per_million(latency, memory):.2f}")
        print(f"{name:<12}" + "".join(f"{c:>26}" for c in cells))


if __name__ == "__main__":
    main()
