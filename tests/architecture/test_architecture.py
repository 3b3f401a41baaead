"""Every folder imports only what the layer table lets it (tests/architecture/layers.py), read as
Python reads it (tests/architecture/imports.py): every import form, re-exports followed to where a
name was defined, code loaded by name refused where the table says so. Handlers reach storage
through the services; key prefixes are spelled in the key modules alone (keys.py); no file passes
400 lines. Each rule is shown its deliberate breaks, and their neighbours, at the end.
"""

import ast
import subprocess

import pytest

from tests.architecture import layers
from tests.architecture.imports import imports, parsed
from tests.architecture.keys import sort_keys_in, spelled_keys
from tests.architecture.layers import (
    ADAPTER_MAY_CALL,
    ALLOWED_BREAKS,
    MAY_IMPORT,
    REPO,
    project_files,
    python_folders,
    rule_of,
    violations,
)

FILES = project_files()
FOLDERS = sorted(python_folders())


def _folder(module: str) -> str:
    return str(FILES[module].parent.relative_to(REPO))


def test_every_folder_with_python_code_has_its_rules_in_the_table():
    assert [folder for folder in FOLDERS if rule_of(folder) is None] == [], "name it in layers.py MAY_IMPORT"
    named = {folder for folder in MAY_IMPORT if not folder.endswith("/*")}
    assert named - set(FOLDERS) == set(), "no such folder any more: take it off layers.py MAY_IMPORT"


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_folder_imports_only_what_the_table_lets_it(folder):
    found = (
        [
            line
            for module, path in FILES.items()
            if str(path.parent.relative_to(REPO)) == folder
            for line in violations(folder, module, parsed(path), *layers.project()[1:])
        ]
        if MAY_IMPORT[rule_of(folder) or ""] != layers.ANYTHING
        else []
    )
    assert found == [], "\n".join(found)


def _imported_anywhere() -> set[str]:
    return {
        f"{module} -> {item.module}"
        for module, path in FILES.items()
        if module.startswith(("shared", "functions"))
        for found in [imports(parsed(path), module, package=path.name == "__init__.py")]
        for item in found
    } | {
        f"{module} -> {layers.origin(item.module, layers.project()[1])}"
        for module, path in FILES.items()
        if module.startswith("functions")
        for item in imports(parsed(path), module, package=path.name == "__init__.py")
    }


def test_each_allowed_break_is_still_needed():
    seen = _imported_anywhere()
    for key in [*ALLOWED_BREAKS, *(f"shared.dynamo. -> {m}" for m in ADAPTER_MAY_CALL)]:
        importer, _, imported = key.partition(" -> ")
        assert any(
            s.partition(" -> ")[0].startswith(importer) and s.partition(" -> ")[2].startswith(imported)
            for s in seen
        ), f"{key}: no longer imported, take it off layers.py"


# Handlers reach storage through the services -----------------------------------------------------

WIRING = "shared.runtime.wiring"


def ports_uses(source: str) -> list[str]:
    """How SOURCE (a handler) uses the wiring's `ports()`, under any name it imports it by
    (`from shared.runtime.wiring import ports as p`, `wiring.ports`): each use but the cold start's
    bare `ports()` (which makes the client during the init), as `ports().<port>`, `ports()` or `ports`."""
    tree = ast.parse(source)
    names, modules = set(), {WIRING}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == WIRING:
            names |= {a.asname or a.name for a in node.names if a.name == "ports"}
        elif isinstance(node, ast.ImportFrom) and node.module == "shared.runtime":
            modules |= {a.asname or a.name for a in node.names if a.name == "wiring"}
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names if a.name == WIRING and a.asname}

    def is_ports(node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in names
        return isinstance(node, ast.Attribute) and node.attr == "ports" and ast.unparse(node.value) in modules

    warm = {
        id(node.value.func)
        for node in tree.body
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and is_ports(node.value.func)
    }
    uses, seen = [], set(warm)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call) and is_ports(node.value.func):
            uses.append(f"ports().{node.attr}")
            seen.add(id(node.value.func))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and is_ports(node.func) and id(node.func) not in seen:
            uses.append("ports()")
            seen.add(id(node.func))
    for node in ast.walk(tree):
        if is_ports(node) and id(node) not in seen and not isinstance(getattr(node, "ctx", None), ast.Store):
            uses.append("ports")  # handed on uncalled: `get = ports`
    return uses


# A handler reaches storage through the services; the one exception is the stream consumer, which
# is itself the ranks port's caller (it counts the results a stream batch carries).
HANDLERS_PORTS = {"functions.leaderboard.counters": ["ports().ranks"]}


@pytest.mark.parametrize("module", [m for m in FILES if m.startswith("functions")])
def test_handlers_reach_storage_through_the_services(module):
    assert ports_uses(FILES[module].read_text()) == HANDLERS_PORTS.get(module, [])


# Key prefixes are spelled in the key modules alone ------------------------------------------------

# Where keys are spelled: the adapter's key modules; and IAM's patterns over them (the grant's
# `dynamodb:LeadingKeys`, checked against the requests the code sends: tests/infra/).
SPELL_KEYS = {"shared.dynamo.keys", "shared.dynamo.moderation_keys", "infra.permissions"}
# Folders the key rule leaves out, each with its reason.
KEYS_ANYWHERE = {
    "tests": "the tests read and write the table's items as they are stored",
    "benchmarks": "as tests/: a benchmark seeds and counts the table's items",
}
SORT_KEYS = frozenset().union(
    *(
        sort_keys_in((REPO / module).read_text())
        for module in ("shared/dynamo/keys.py", "shared/dynamo/moderation_keys.py")
    )
)


def keys_outside_their_modules(module: str, source: str) -> list[str]:
    """The keys MODULE spells against the rule: a prefix (`PLAYER#`) anywhere but the key modules,
    a whole sort key (`RENAME`) anywhere outside the adapter, however the string is built."""
    return spelled_keys(source, SORT_KEYS if not module.startswith("shared.dynamo") else frozenset())


@pytest.mark.parametrize("folder", [f for f in FOLDERS if f.split("/")[0] not in KEYS_ANYWHERE])
def test_key_prefixes_are_spelled_only_in_the_key_modules(folder):
    found = {
        module: keys_outside_their_modules(module, path.read_text())
        for module, path in FILES.items()
        if _folder(module) == folder and module not in SPELL_KEYS
    }
    assert {m: k for m, k in found.items() if k} == {}, "use shared/dynamo/keys.py"


# No file passes 400 lines -----------------------------------------------------------------------

LONGEST_FILE = 400  # lines
SOURCES = ("py", "js", "mjs", "css", "html", "sh")
# The files allowed past it, each with its reason; the test fails when one no longer needs it.
LONGER_ALLOWED = {
    "local/server.py": "the local API Gateway: envelope, local routes, start-up (the routes next)",
    "tests/contract/test_board_store.py": "the board port's contract, on the fake and on DynamoDB alike",
    "tests/services/test_boards.py": "one scenario (a day's board) whose fixtures its tests share",
    "tests/system/test_local_server.py": "one server process per module: its tests share the one they start",
    "tests/dynamo/test_races.py": "one moto server per module: the races share the one they start",
    "tests/http/test_daily_api.py": "the Daily's routes in one module, as the handler is",
    "tests/infra/test_stack_edge.py": "one synthesized stack per module (synthesis is the slow part)",
    "tests/infra/test_lambda_asset.py": "one built asset per module (building it is the slow part)",
    "web/index.html": "the page's markup for every view, each in its own <section>",
    "dictionary/build.py": "the word list's build, run by hand (make dictionary): one pipeline",
    "benchmarks/boards.py": "a benchmark is one figure's harness, read top to bottom",
    "benchmarks/store_faults.py": "as benchmarks/boards.py",
    "benchmarks/coldstart.py": "as benchmarks/boards.py",
    "benchmarks/cost.py": "as benchmarks/boards.py",
    "benchmarks/rush.py": "as benchmarks/boards.py",
}


def _sources() -> dict[str, int]:
    listed = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True)
    return {
        name: len((REPO / name).read_text().splitlines())
        for name in listed.stdout.splitlines()
        if name.rpartition(".")[2] in SOURCES and (REPO / name).is_file() and "/vendor/" not in name
    }


def test_no_file_passes_400_lines_but_the_allowed_ones_with_their_reasons():
    lengths = _sources()
    too_long = {name for name, lines in lengths.items() if lines > LONGEST_FILE}
    assert too_long - set(LONGER_ALLOWED) == set(), "split them, or allow them here with a reason"
    assert set(LONGER_ALLOWED) - too_long == set(), "no longer too long: take them off the list"
