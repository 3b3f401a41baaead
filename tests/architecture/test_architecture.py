"""Every folder of the project imports only what README.md "Layout" lets it: the same rules over
shared/, functions/, local/ and infra/, with relative imports resolved and dynamic imports
refused where the rules could not see them. tests/architecture/test_layers.py has shared/'s own layers.

The rules, from the bottom: the game is pure; the services sit on it and own the ports; the
DynamoDB adapter implements the ports; the runtime wires them; the HTTP edge speaks the API over
the services (never the adapter); the handlers sit on top and never hold the store; `local/` (the
local run) and `infra/` (the CDK app) compose the rest and nothing imports them back.
"""

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FOLDERS = ("shared", "functions", "local", "infra")

# What each folder may import of the project, by module prefix (the longest matching folder rules).
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "shared": (),  # the package's own __init__
    "shared.game": ("shared.game",),
    "shared.services": ("shared.game", "shared.services"),
    "shared.dynamo": ("shared.game", "shared.services", "shared.dynamo"),
    "shared.runtime": ("shared.game", "shared.services", "shared.dynamo", "shared.runtime"),
    "shared.http": ("shared.game", "shared.services", "shared.runtime", "shared.http"),
    "functions": ("shared.game", "shared.services", "shared.runtime", "shared.http", "functions"),
    "local": ("shared", "functions", "local"),
    # The CDK app reads the route table, the game's constants and settings, and the table's
    # definition (its key schema and indexes, the same the local store creates): never a handler.
    "infra": (
        "shared.game",
        "shared.http.routes",
        "shared.http.gateway",
        "shared.http.page_headers",  # the security headers the edge sets, as the local server does
        "shared.runtime",
        "shared.dynamo.table",
        "shared.dynamo.keys",
        "infra",
    ),
}
DYNAMIC_IMPORTS = {"importlib", "__import__"}


def _module_of(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _files() -> dict[str, Path]:
    return {
        _module_of(path): path
        for folder in FOLDERS
        for path in sorted((REPO / folder).rglob("*.py"))
        if "lambdas" not in path.parts  # infra/lambdas/: the ops functions' own small packages
    }


FILES = _files()


def imports_of(module: str, path: Path) -> set[str]:
    """Every module MODULE (at PATH) imports: `from . import x` resolved against its package, and
    `from a import b` naming `a.b` when b is a module of the project, else `a`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in FILES else base)
    return found


def _project(names: set[str]) -> set[str]:
    return {name for name in names if name.split(".")[0] in FOLDERS}


def _rule_for(module: str) -> str:
    return max((f for f in MAY_IMPORT if module == f or module.startswith(f + ".")), key=len)


def _allowed(imported: str, prefixes: tuple[str, ...]) -> bool:
    return any(imported == p or imported.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("module", list(FILES))
def test_each_folder_imports_only_what_the_layout_lets_it(module):
    allowed = MAY_IMPORT[_rule_for(module)]
    for imported in _project(imports_of(module, FILES[module])):
        assert _allowed(imported, allowed), f"{module} imports {imported}, outside {allowed}"


def ports_uses(source: str) -> list[str]:
    """How SOURCE (a handler) uses the wiring's `ports()`: each use but the cold start's bare
    `ports()` (which makes the client during the init), as `ports().<port>` or `ports()`."""
    tree = ast.parse(source)
    warm = {
        id(node.value)
        for node in tree.body
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
    }
    uses = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call):
            call = node.value
            if isinstance(call.func, ast.Name) and call.func.id == "ports":
                uses.append(f"ports().{node.attr}")
                warm.add(id(call))
    for node in ast.walk(tree):
        called = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ports"
        if called and id(node) not in warm:
            uses.append("ports()")
    return uses


# A handler reaches storage through the services; the one exception is the stream consumer, which
# is itself the ranks port's caller (it counts the results a stream batch carries).
HANDLERS_PORTS = {"functions.leaderboard.counters": ["ports().ranks"]}


@pytest.mark.parametrize("module", [m for m in FILES if m.startswith("functions")])
def test_handlers_reach_storage_through_the_services(module):
    assert ports_uses(FILES[module].read_text()) == HANDLERS_PORTS.get(module, [])


def test_a_handler_holding_the_ports_is_caught():
    assert ports_uses("ports()\n") == []  # the cold start's
    assert ports_uses("ports()\ndef f():\n    return ports().runs.get_run('r')\n") == ["ports().runs"]
    assert ports_uses("store = ports()\n") == ["ports()"]


@pytest.mark.parametrize("module", [m for m in FILES if m.startswith("shared")])
def test_shared_imports_nothing_dynamically(module):
    tree = ast.parse(FILES[module].read_text())
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not (imports_of(module, FILES[module]) | names) & DYNAMIC_IMPORTS, module


# The checks check: each deliberate break below is caught --------------------------------------


BREAKS = [
    ("shared.game.x", "shared/game/x.py", "from ..dynamo import keys"),  # relative, to the adapter
    ("shared.http.x", "shared/http/x.py", "from shared.dynamo.store import DynamoStore"),
    ("functions.x.handler", "functions/x/handler.py", "import shared.dynamo.runs"),
    ("shared.game.x", "shared/game/x.py", "from shared.services import ports"),
    ("shared.runtime.x", "shared/runtime/x.py", "from local import server"),
    ("infra.x", "infra/x.py", "from functions.daily import handler"),
    ("local.x", "local/x.py", "import infra.stack"),
]


@pytest.mark.parametrize(("module", "relative", "source"), BREAKS, ids=[b[2] for b in BREAKS])
def test_a_deliberate_break_is_caught(module, relative, source, tmp_path):
    path = tmp_path / relative
    path.parent.mkdir(parents=True)
    path.write_text(source + "\n")
    allowed = MAY_IMPORT[_rule_for(module)]
    found = _project(imports_of(module, path))
    assert found and not all(_allowed(name, allowed) for name in found), source


def test_a_dynamic_import_is_caught(tmp_path):
    dynamic = tmp_path / "x.py"
    dynamic.write_text("import importlib\nimportlib.import_module('shared.dynamo.store')\n")
    assert imports_of("shared.game.x", dynamic) & DYNAMIC_IMPORTS


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
    import subprocess

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


# Key prefixes are spelled in keys.py alone ----------------------------------------------------

KEY_PREFIX = re.compile(r"\b[A-Z][A-Z0-9]+#")
# Where keys are spelled: the adapter's key modules; and IAM's patterns over them (the grant's
# `dynamodb:LeadingKeys`, checked against the requests the code sends: tests/infra/).
SPELL_KEYS = {"shared.dynamo.keys", "shared.dynamo.moderation_keys", "infra.permissions"}


def key_prefixes_in(source: str) -> list[str]:
    """The string literals of SOURCE (its docstrings aside) that spell a key prefix (`OFFICIAL#`)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and KEY_PREFIX.search(node.value)
    ]


@pytest.mark.parametrize("module", [m for m in FILES if m not in SPELL_KEYS])
def test_key_prefixes_are_spelled_only_in_the_key_modules(module):
    assert key_prefixes_in(FILES[module].read_text()) == [], f"{module}: use shared/dynamo/keys.py"


def test_a_key_prefix_spelled_elsewhere_is_caught():
    assert key_prefixes_in('"""OFFICIAL# in a docstring is prose."""\nx = "OFFICIAL#DAILY#~"\n') == [
        "OFFICIAL#DAILY#~"
    ]
    assert key_prefixes_in('x = f"LEAGUE#{league_id}"\n') == ["LEAGUE#"]
