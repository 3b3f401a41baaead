"""Run the benchmarks `make bench` runs and write their printed output into benchmarks/FIGURES.md.

    python benchmarks/figures.py [--timeout SECONDS] [NAME ...]

Each benchmark gets its own section: a header, the command, the commit and the date it was
measured, and what it printed. The file is rewritten after each benchmark, so a stopped run keeps
what it measured. A benchmark that fails or runs past --timeout keeps its previous section, with a
line saying so. Sections that `make bench` does not write (the benchmarks run by hand, under
"Run by hand") are kept as they are. NAME runs those benchmarks alone, in that order (e.g. `daily`).
"""

import argparse
import datetime
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FIGURES = ROOT / "benchmarks" / "FIGURES.md"
FIGURES = DEFAULT_FIGURES
BY_HAND = "## Run by hand"

# (name, the script and its arguments): what `make bench` measures, in this order.
BENCHMARKS: list[tuple[str, list[str]]] = [
    ("validate", ["benchmarks/validate.py"]),
    ("daily", ["benchmarks/daily.py"]),
    ("boards", ["benchmarks/boards.py"]),
    ("recap", ["benchmarks/recap.py"]),
    ("closing_pass", ["benchmarks/closing_pass.py", "1000"]),
    ("renames", ["benchmarks/renames.py"]),
    ("floors", ["benchmarks/floors.py"]),
    ("cost", ["benchmarks/cost.py"]),
    ("coldstart", ["benchmarks/coldstart.py"]),
    ("rush_plan", ["scripts/rush_plan.py"]),
]

INTRO = """# Figures

Every figure the docs quote, as the benchmarks printed it. `make bench` rewrites the sections above
"Run by hand" (benchmarks/figures.py); each says the commit and the date it was measured. The
sections under "Run by hand" are benchmarks too slow or too dependent on a deployment or a browser
for `make bench`: each names its exact command; paste its new output there when you run it again.
"""


def git(*argv: str) -> str:
    done = subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip()


def why(stderr: str) -> str:
    """A failure in a line: its ERROR lines (pip's, a check's), else its last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("ERROR", "FAILED"))]
    return "; ".join(line[:200] for line in (errors or lines[-1:]))


def header(name: str) -> str:
    return f"## {name}"


def split_sections(text: str) -> tuple[dict[str, str], str]:
    """The generated sections by header line, and everything from "Run by hand" on."""
    head, _, by_hand = text.partition(BY_HAND)
    sections: dict[str, str] = {}
    current = ""
    for line in head.splitlines(keepends=True):
        if line.startswith("## "):
            current = line.strip()
            sections[current] = ""
        if current:
            sections[current] += line
    return sections, (BY_HAND + by_hand) if by_hand else BY_HAND + "\n"


def section(name: str, argv: list[str], commit: str, output: str) -> str:
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    command = "python " + " ".join(argv)
    measured = f"`{command}` · commit `{commit}` · {when}"
    return f"{header(name)}\n\n{measured}\n\n```text\n{output.rstrip()}\n```\n\n"


def write(sections: dict[str, str], by_hand: str) -> None:
    if FIGURES.exists():  # the hand-run part as it is now: it may have been edited meanwhile
        by_hand = split_sections(FIGURES.read_text())[1]
    body = "".join(sections.get(header(name), "") for name, _ in BENCHMARKS)
    FIGURES.write_text(INTRO + "\n" + body + by_hand.rstrip() + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=None, help="seconds a benchmark may take")
    parser.add_argument("--out", type=Path, default=DEFAULT_FIGURES, help="the file to write")
    parser.add_argument("names", nargs="*", help="only these benchmarks")
    args = parser.parse_args()
    global FIGURES
    FIGURES = args.out.resolve()
    commit = git("rev-parse", "--short", "HEAD")
    if git("status", "--porcelain", "--untracked-files=no"):
        commit += " + uncommitted changes"
    sections, by_hand = split_sections(FIGURES.read_text() if FIGURES.exists() else "")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    failed = []
    chosen = dict(BENCHMARKS)
    for name in args.names or chosen:  # the order asked for, else make bench's
        argv = chosen[name]
        print(f"figures: {name} ...", flush=True)
        try:
            done = subprocess.run(
                [sys.executable, *argv],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=args.timeout,
                check=False,
            )
            problem = f"exited {done.returncode}: {why(done.stderr)}" if done.returncode else ""
        except subprocess.TimeoutExpired:
            done, problem = None, f"ran past {args.timeout:g} s and was stopped"
        if done is not None and done.stdout.strip():
            sections[header(name)] = section(name, argv, commit, done.stdout)
            print(done.stdout, flush=True)
        if problem:
            failed.append(name)
            kept = sections.get(header(name), f"{header(name)}\n\n")  # the output above, if any
            sections[header(name)] = kept.rstrip() + f"\n\n(`make bench` at `{commit}`: {problem}.)\n\n"
        write(sections, by_hand)
    print(f"figures: wrote {FIGURES}", f"(failed: {', '.join(failed)})" if failed else "")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
