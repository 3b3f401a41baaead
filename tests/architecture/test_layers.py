"""shared/ is in layers, and imports only point down them (README.md, "Layout").

From the bottom: the game (pure rules and values), the services (and their ports), the DynamoDB
adapter (which implements the ports), the runtime (settings, secrets, observability, wiring),
the HTTP edge; the handlers in functions/ sit on top and reach storage only through the wiring.
"""

import ast
from pathlib import Path

import pytest

from tests.architecture.imports import imports_of

REPO = Path(__file__).resolve().parents[2]
LAYERS = ["game", "services", "dynamo", "runtime", "http"]  # bottom first
LONGEST_FILE = 400  # lines


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((REPO / "shared").rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(path: Path) -> set[str]:
    """The project modules PATH imports, in any form (tests/architecture/imports.py; also those
    imported only for type checking), relative imports resolved."""
    return {
        found.module
        for found in imports_of(path, REPO)
        if found.module.split(".")[0] in ("shared", "functions")
    }


MODULES = _modules()


def _layer(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


@pytest.mark.parametrize("module", [m for m in MODULES if _layer(m) in LAYERS])
def test_shared_imports_only_point_down_its_layers(module):
    own = LAYERS.index(_layer(module))
    for imported in _imports(MODULES[module]):
        assert imported.split(".")[0] == "shared", f"{module} imports {imported}"
        layer = _layer(imported)
        if layer in LAYERS:
            assert LAYERS.index(layer) <= own, f"{module} ({LAYERS[own]}) imports {imported} ({layer})"


def test_every_module_of_shared_is_in_a_layer():
    assert {m for m in MODULES if _layer(m) not in LAYERS} == {"shared"}


def test_the_game_has_no_aws_import():
    for module, path in MODULES.items():
        if _layer(module) == "game":
            tops = set()
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    tops |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module:
                    tops.add(node.module.split(".")[0])
            assert not tops & {"boto3", "botocore", "aws_lambda_powertools", "moto"}, module


def test_handlers_reach_storage_only_through_the_wiring():
    for path in sorted((REPO / "functions").rglob("*.py")):
        for imported in _imports(path):
            assert not imported.startswith("shared.dynamo"), f"{path.relative_to(REPO)} imports {imported}"


def test_shared_has_no_import_circle():
    graph = {m: {i for i in _imports(p) if i in MODULES and i != m} for m, p in MODULES.items()}
    # a package's __init__ imports nothing, so an edge to a package is no edge to its modules
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, " -> ".join([*path[path.index(module) :], module])
        if module in done:
            return
        for imported in sorted(graph[module]):
            visit(imported, [*path, module])
        done.add(module)

    for module in MODULES:
        visit(module, [])


@pytest.mark.parametrize("module", list(MODULES))
def test_no_file_of_shared_is_longer_than_400_lines(module):
    lines = len(MODULES[module].read_text().splitlines())
    assert lines <= LONGEST_FILE, f"{module}: {lines} lines"
