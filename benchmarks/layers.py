"""The shape of shared/ (figures, no assertions): `PYTHONPATH=. .venv/bin/python benchmarks/layers.py`.

Prints the lines of each layer, the largest files and classes, the import circles between the
project's modules, and the project files that one completing answer runs code in: the 10th
accepted answer of an official Daily run, through the real handler (functions/daily/handler.py)
on in-process moto, traced with `sys.setprofile`, from the handler's entry to its reply.
"""

import ast
import os
import sys
import warnings
from collections import Counter
from pathlib import Path

import boto3
import daily  # the Daily's harness: the handler on moto, a run played to its last round
from moto import mock_aws

REPO = Path(__file__).resolve().parents[1]


def static_figures() -> None:
    lines: Counter[str] = Counter()
    files: list[tuple[int, str]] = []
    classes: list[tuple[int, int, str]] = []
    graph: dict[str, set[str]] = {}
    for path in sorted((REPO / "shared").rglob("*.py")):
        relative = path.relative_to(REPO)
        text = path.read_text()
        count = len(text.splitlines())
        lines[relative.parts[1] if len(relative.parts) > 2 else "shared"] += count
        files.append((count, str(relative)))
        module = ".".join(relative.with_suffix("").parts).removesuffix(".__init__")
        graph[module] = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(item, ast.FunctionDef) for item in node.body)
                classes.append((node.end_lineno - node.lineno + 1, methods, f"{relative}:{node.name}"))
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("shared"):
                graph[module] |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
            elif isinstance(node, ast.Import):
                graph[module] |= {alias.name for alias in node.names if alias.name.startswith("shared")}
    print("Lines per layer of shared/:", ", ".join(f"{layer} {n:,}" for layer, n in sorted(lines.items())))
    print("Largest files:", "; ".join(f"{name} {n} lines" for n, name in sorted(files, reverse=True)[:3]))
    print(
        "Largest classes:",
        "; ".join(f"{name} {n} lines, {m} methods" for n, m, name in sorted(classes, reverse=True)[:3]),
    )
    edges = {m: {i for i in deps if i in graph and i != m} for m, deps in graph.items()}
    circles = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            circle = path[path.index(module) :]
            circles.add(tuple(sorted(circle)))
            return
        for imported in edges[module]:
            visit(imported, [*path, module])

    for module in edges:
        visit(module, [])
    print(f"Import circles: {len(circles)}", *(" <-> ".join(c) for c in sorted(circles)))


def completing_answer_files() -> list[str]:
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    warnings.filterwarnings("ignore")
    with mock_aws():
        boto3.client("dynamodb").create_table(**daily.create_table_request(os.environ["TABLE_NAME"]))
        daily.meter = daily.Meter()
        daily.cold_container()
        run = daily.call(None, "POST", "/daily/runs", None, "trace")
        run = daily.play_to_last_round(run, "trace")
        touched: set[str] = set()

        def profile(frame, event, _arg):  # noqa: ANN001
            if event == "call":
                name = frame.f_code.co_filename
                if name.startswith((f"{REPO}/shared/", f"{REPO}/functions/")):
                    touched.add(str(Path(name).relative_to(REPO)))

        body = {"round": 10, "attempt": 1, "word": daily.word_for(run)}
        sys.setprofile(profile)
        try:
            reply = daily.call(None, "POST", f"/runs/{run['run_id']}/answers", body, "trace")
        finally:
            sys.setprofile(None)
        assert reply["run"]["status"] == "completed", reply
    return sorted(touched)


def main() -> None:
    static_figures()
    files = completing_answer_files()
    print(f"Files one completing answer runs code in: {len(files)}")
    for name in files:
        print("  " + name)


if __name__ == "__main__":
    main()
