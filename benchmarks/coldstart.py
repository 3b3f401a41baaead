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
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from infra.build_asset import DEFAULT_OUT, _pip_install, build, folder_size, lambda_python  # noqa: E402
from infra.functions import FUNCTIONS  # noqa: E402

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


def cold_start(python: str, asset: Path, entry: str) -> float:
    """CPU seconds (user + system) of one fresh process importing ENTRY's module. CPU time, not
    wall time: this machine is shared, and a process waiting for a core is not a slow import."""
    module, function = entry.split(":")
    script = (
        f"import sys; sys.path.insert(0, {str(asset)!r})\n"
        f"import importlib; f = getattr(importlib.import_module({module!r}), {function!r})\n"
        + ("f()\n" if entry == FLOOR else "")
    )
    env = {**ENV, "LAMBDA_TASK_ROOT": str(asset)}  # Lambda's code folder: Powertools' Tracer is on
    process = subprocess.Popen([python, "-I", "-S", "-B", "-c", script], env=env, cwd=asset)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"{entry} failed to import from {asset}")
    return usage.ru_utime + usage.ru_stime


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
    present = {
        name: entry
        for name, entry in entries.items()
        if all((a / (entry.split(":")[0].replace(".", "/") + ".py")).is_file() for a in assets.values())
    }
    print(f"Cold start (import of the handler module, CPU ms of the process), median of {args.runs} "
          f"fresh {python} processes on {platform.machine()}, Lambda-like environment, -B (read-only "
          "code folder)\n")  # fmt: skip
    results: dict[str, dict[str, float]] = {label: {} for label in assets}
    for _ in range(args.runs):  # interleaved, so a busy moment hurts every line alike
        for label, asset in assets.items():
            for name, entry in present.items():
                results[label].setdefault(name, [])
                results[label][name].append(cold_start(python, asset, entry))
    medians = {label: {n: statistics.median(v) for n, v in r.items()} for label, r in results.items()}
    header = (
        f"{'handler':<12}" + "".join(f"{label + ' ms':>12}{label + ' x':>10}" for label in assets) + "   goal"
    )
    print(header)
    for name in present:
        row = f"{name:<12}"
        for label in assets:
            ms = medians[label][name] * 1000
            ratio = medians[label][name] / medians[label]["floor"]
            row += f"{ms:>12.0f}{ratio:>10.1f}"
        goal = "" if name == "floor" else f"<= {GOALS.get(name, 5.0):.0f}x"
        print(row + f"   {goal}")
    missing = sorted(set(entries) - set(present))
    if missing:
        print(f"\n(not in both assets, not measured: {', '.join(missing)})")
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
