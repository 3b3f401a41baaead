"""The layer rules, one table for every folder of the project that has Python code: what each may
import of the project (README.md "Layout"), and whether it may load code by name. The checks here
are pure functions over source text, so the tests run them on the project and on deliberate breaks.

From the bottom: the game is pure; the services sit on it and own the ports; the DynamoDB adapter
implements the ports (it takes the ports' values from the services, never a service or its rules);
the runtime wires them; the HTTP edge speaks the API over the services; the handlers sit on top and
reach storage only through the wiring's services; `local/` (the local run), `infra/` (the CDK app),
`scripts/` (operators' one-off jobs) and `benchmarks/` compose the rest, and nothing imports them back.
"""

import ast
import subprocess
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from tests.architecture.imports import Found, imports, module_of, parsed, resolve
from tests.architecture.ports import protocols_in

REPO = Path(__file__).resolve().parents[2]
PROJECT = ("shared", "functions", "local", "infra", "scripts", "benchmarks", "dictionary", "tests")

ANYTHING = PROJECT
# folder -> what its files may import of the project, by module prefix. "x/*": each folder in x.
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "shared": (),  # the package's own __init__
    "shared/game": ("shared.game",),
    "shared/services": ("shared.game", "shared.services"),
    "shared/dynamo": ("shared.game", "shared.services", "shared.dynamo"),  # of services: PORT_MODULES
    "shared/runtime": ("shared.game", "shared.services", "shared.dynamo", "shared.runtime"),
    "shared/http": ("shared.game", "shared.services", "shared.runtime", "shared.http"),
    "functions": ("shared.game", "shared.services", "shared.runtime", "shared.http", "functions"),
    "functions/*": ("shared.game", "shared.services", "shared.runtime", "shared.http", "functions"),
    "local": ("shared", "functions", "local"),
    # The CDK app reads the route table, the game's constants, the settings' names and the table's
    # definition (its key schema and indexes, the same the local store creates): never a handler,
    # never the wiring (it would build the services inside `cdk synth`).
    "infra": (
        "shared.game",
        "shared.http.routes",
        "shared.http.gateway",
        "shared.http.page_headers",  # the security headers the edge sets, as the local server does
        "shared.runtime.observability",
        "shared.runtime.accounts",
        "shared.runtime.piece_queue",
        "shared.runtime.edge_settings",
        "shared.runtime.settings",
        "shared.runtime.flags",
        "shared.dynamo.table",
        "shared.dynamo.keys",
        "infra",
    ),
    "infra/lambdas/wordsqd_ops": ("infra.lambdas.wordsqd_ops",),  # shipped alone: its own package only
    "infra/canary/python": (),  # the canary's script, uploaded as it is
    "scripts": ("shared", "infra", "scripts"),  # the operators' jobs: on the adapter, never a handler
    "benchmarks": ("shared", "functions", "local", "infra", "tests.fakes", "tests.browser", "benchmarks"),
    "dictionary": ("shared.game", "dictionary"),  # the word list's build, run by hand
    "tests": ANYTHING,
    "tests/*": ANYTHING,
}
# Where code may be loaded by name (importlib, __import__, exec, sys.modules), and why.
MAY_LOAD_BY_NAME = {
    "local": "runs each handler by its name in the route table, as Lambda does",
    "benchmarks": "times the cold start of a handler named by the route table",
    "tests": "loads handlers by the route table's names",
    "tests/*": "as tests/",
}
# The modules of the services that hold ports (a Protocol): the adapter implements them and may
# import their values; it never imports a service nor calls a service's rule (a function).
ADAPTER = "shared/dynamo"
# Rules the adapter still calls, each with its reason; the test fails when one is no longer imported.
ADAPTER_MAY_CALL = {
    "shared.services.retry": "the one retry rule (attempts, backoff) for every store call",
}
# Imports the table forbids that stay for now, each with its reason ("importer -> imported prefix");
# the test fails when one is no longer needed.
ALLOWED_BREAKS = {
    "functions.leaderboard.counters -> shared.dynamo.codec": "the stream consumer reads the table's "
    "stream images, whose format is the adapter's (the wiring re-exports the codec's three readers)",
}


def rule_of(folder: str) -> str | None:
    """The table's entry for FOLDER ("functions/daily" -> "functions/*"), or None."""
    if folder in MAY_IMPORT:
        return folder
    parent = folder.rpartition("/")[0]
    return f"{parent}/*" if f"{parent}/*" in MAY_IMPORT else None


def python_folders(root: Path = REPO) -> set[str]:
    """Every folder with a Python file git tracks or would track (.gitignore's aside)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.py"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return {str(Path(name).parent) for name in listed.stdout.splitlines() if (root / name).is_file()}


def project_files(root: Path = REPO) -> dict[str, Path]:
    """Every Python file of the project by its module name."""
    return {
        module_of(path.relative_to(root)): path
        for folder in sorted(python_folders(root))
        for path in sorted((root / folder).glob("*.py"))
    }


def _within(name: str, prefixes: Iterable[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def reexports(files: dict[str, Path]) -> dict[str, dict[str, str]]:
    """module -> {name: the project module it took NAME from}: `from shared.dynamo.store import
    dynamo_ports` in the wiring makes `shared.runtime.wiring.dynamo_ports` an adapter's name."""
    found: dict[str, dict[str, str]] = {}
    for module, path in files.items():
        if not module.startswith(("shared", "functions")):
            continue
        names = found.setdefault(module, {})
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in parsed(path).body:
            if isinstance(node, ast.ImportFrom):
                base = resolve(node.module or "", node.level, package)
                for alias in node.names:
                    names[alias.asname or alias.name] = f"{base}.{alias.name}"
    return found


def origin(name: str, through: dict[str, dict[str, str]]) -> str:
    """Where NAME ("shared.runtime.wiring.dynamo_ports") was defined, following re-exports."""
    for _ in range(5):
        module, _, attribute = name.rpartition(".")
        nxt = through.get(module, {}).get(attribute)
        if nxt is None:
            return name
        name = nxt
    return name


def violations(
    folder: str,
    module: str,
    source: str | ast.Module,
    through: dict[str, dict[str, str]],
    port_modules: frozenset[str] | set[str],
) -> list[str]:
    """What SOURCE (MODULE, in FOLDER) imports against the table, each as one line."""
    rule = rule_of(folder)
    if rule is None:
        return [f"{folder}/: a folder with Python code that layers.py MAY_IMPORT does not name"]
    allowed = MAY_IMPORT[rule]
    found: list[str] = []
    if allowed == ANYTHING and rule in MAY_LOAD_BY_NAME:
        return found
    for item in imports(source, module, folder, package=module == folder.replace("/", ".")):
        if item.dynamic:
            if rule not in MAY_LOAD_BY_NAME:
                found.append(f"{module}:{item.line} loads code by name ({item.form} {item.module})")
            if item.module == "?":
                continue
        names = {item.module, origin(item.module, through)}
        for name in names:
            if (
                name.split(".")[0] in PROJECT
                and not _within(name, allowed)
                and not _from_of(item, name, allowed)
                and not any(f"{module} -> {name}".startswith(key) for key in ALLOWED_BREAKS)
            ):
                found.append(
                    f"{module}:{item.line} imports {name}: {folder}/ may import "
                    f"{', '.join(allowed) or 'nothing of the project'}"
                )
        if (
            rule == ADAPTER
            and _within(item.module, ("shared.services",))
            and item.module != "shared.services"
        ):
            found += _adapter_import(module, item, port_modules)
    return sorted(set(found))


def _from_of(item: Found, name: str, allowed: tuple[str, ...]) -> bool:
    """`from shared import game` yields `shared` too: a package named on the way is no import of it."""
    return item.form == "from" and any(p.startswith(name + ".") for p in allowed)


def _adapter_import(module: str, item: Found, port_modules: frozenset[str] | set[str]) -> list[str]:
    if item.module in port_modules or _within(item.module, ADAPTER_MAY_CALL):
        return []
    home, _, name = item.module.rpartition(".")
    if home in port_modules and name not in _functions(home) and name not in services():
        return []  # a port, a value or an error of a port module
    what = (
        "a service"
        if name in services()
        else "a service's rule"
        if home in port_modules
        else "a service's module"
    )
    return [
        f"{module}:{item.line} imports {item.module}, {what}: the adapter takes only the ports of "
        "shared/services and their values"
    ]


@cache
def services() -> frozenset[str]:
    """The services' class names: what the wiring's `Services` builds (shared/runtime/wiring.py)."""
    tree = parsed(REPO / "shared/runtime/wiring.py")
    return frozenset(
        item.returns.id
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.name == "Services"
        for item in node.body
        if isinstance(item, ast.FunctionDef) and isinstance(item.returns, ast.Name)
    ) - {port.rpartition(".")[2] for port in protocols_in(REPO, "shared/services")}


_FUNCTIONS: dict[str, set[str]] = {}


def _functions(module: str) -> set[str]:
    if module not in _FUNCTIONS:
        path = REPO / (module.replace(".", "/") + ".py")
        tree = parsed(path) if path.exists() else ast.Module(body=[], type_ignores=[])
        _FUNCTIONS[module] = {
            n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
    return _FUNCTIONS[module]


def port_modules(files: dict[str, Path]) -> set[str]:
    """The modules of shared/services that declare a port (a Protocol)."""
    return {
        module
        for module, path in files.items()
        if module.startswith("shared.services.") and "(Protocol)" in path.read_text()
    }


@cache
def project() -> tuple[dict[str, Path], dict[str, dict[str, str]], frozenset[str]]:
    """The project's files, their re-exports and the port modules, read once per process (on
    first use, so a test worker that runs no layer test does not read them)."""
    files = project_files()
    return files, reexports(files), frozenset(port_modules(files))
