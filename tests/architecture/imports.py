"""Every import of a Python file, read with `ast` as Python reads it: `import a.b as c`, `from a
import b`, relative imports resolved against the file's package, and the dynamic forms
(`importlib.import_module` and its kin however aliased, `__import__`, `exec`/`eval`/`compile`,
`sys.modules`, `runpy`), each yielded as a `Found` so the layer rules (layers.py) can refuse them."""

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

MACHINERY = ("importlib", "runpy", "pkgutil", "imp")  # modules whose functions load code by name
LOADING = {  # those functions (importlib.metadata and importlib.resources read files: not these)
    "import_module", "__import__", "reload", "spec_from_file_location", "module_from_spec",
    "exec_module", "load_module", "run_module", "run_path", "resolve_name", "find_spec",
}  # fmt: skip
RUNS_TEXT = ("exec", "eval", "compile", "__import__")


@dataclass(frozen=True)
class Found:
    file: str
    line: int
    module: str  # the module imported ("shared.dynamo.keys"); "?" where a dynamic form hides it
    # "import", "from", "attribute" (`w.x` after `import a.w as w`), or a dynamic form:
    # "importlib", "__import__", "exec", "eval", "compile", "sys.modules", "getattr modules"
    form: str

    @property
    def dynamic(self) -> bool:
        return self.form not in ("import", "from", "attribute")

    def __str__(self) -> str:
        return f"{self.file}:{self.line} {self.form} {self.module}"


@cache
def parsed(path: Path) -> ast.Module:
    """PATH's syntax tree, parsed once for every rule that reads it."""
    return ast.parse(path.read_text())


def module_of(relative: Path) -> str:
    """The dotted name of the module at RELATIVE (a path from the repository's root)."""
    parts = relative.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def resolve(name: str, level: int, package: str) -> str:
    """The absolute name of `from <LEVEL dots><NAME> import ...` written in PACKAGE."""
    if not level:
        return name
    anchor = package.split(".")
    anchor = anchor[: len(anchor) - (level - 1)]
    return ".".join([*anchor, *([name] if name else [])])


def imports(source: str | ast.Module, module: str, file: str = "", package: bool = False) -> Iterator[Found]:
    """What SOURCE (the text of MODULE; a package's `__init__` when PACKAGE) imports, in every
    form. `from a import b` yields `a` and `a.b` (b may be a module), so a rule on either sees it."""
    own = module if package else module.rpartition(".")[0]
    nodes = list(ast.walk(ast.parse(source) if isinstance(source, str) else source))
    machinery: set[str] = set()  # names bound to importlib, runpy...: `import importlib as il`
    loaders: set[str] = set()  # names bound to a loading function: `from importlib import import_module as f`
    sys_names: set[str] = set()  # names bound to sys
    bound: dict[str, str] = {}  # each name an import binds -> what it names: `w` -> "shared.runtime.wiring"
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Found(file, node.lineno, alias.name, "import")
                bound[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
                top = alias.name.split(".")[0]
                if top in MACHINERY:
                    machinery.add(alias.asname or top)
                if alias.name == "sys":
                    sys_names.add(alias.asname or "sys")
        elif isinstance(node, ast.ImportFrom):
            base = resolve(node.module or "", node.level, own)
            yield Found(file, node.lineno, base, "from")
            for alias in node.names:
                name = alias.asname or alias.name
                if alias.name != "*":
                    yield Found(file, node.lineno, f"{base}.{alias.name}", "from")
                    bound[name] = f"{base}.{alias.name}"
                if base.split(".")[0] in MACHINERY:
                    if alias.name in LOADING:
                        loaders.add(name)
                        yield Found(file, node.lineno, "?", "importlib")
                    else:
                        machinery.add(name)  # `from importlib import util`
                if base == "sys" and alias.name == "modules":
                    yield Found(file, node.lineno, "?", "sys.modules")
                if base == "builtins" and alias.name in RUNS_TEXT:
                    loaders.add(name)
                    yield Found(file, node.lineno, "?", alias.name)
    called = {id(node.func) for node in nodes if isinstance(node, ast.Call)}
    for node in nodes:
        if isinstance(node, ast.Call):
            form = _dynamic_call(node.func, machinery, loaders)
            if form:
                first = node.args[0] if node.args else None
                text = first.value if isinstance(first, ast.Constant) else None
                if isinstance(text, str) and form in ("importlib", "__import__"):
                    level = len(text) - len(text.lstrip("."))
                    yield Found(file, node.lineno, resolve(text.lstrip("."), level, own), form)
                else:
                    yield Found(file, node.lineno, "?", form)
            elif (  # getattr(sys, "modules"), getattr(importlib, "import_module"), getattr(builtins, "exec")
                isinstance(node.func, ast.Name)
                and node.func.id == "getattr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in ("modules", *LOADING, *RUNS_TEXT)
            ):
                yield Found(file, node.lineno, "?", f"getattr {node.args[1].value}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.attr == "modules" and node.value.id in sys_names:
                yield Found(file, node.lineno, "?", "sys.modules")
            elif node.value.id in bound:  # `wiring.dynamo_ports` after `from shared.runtime import wiring`
                yield Found(file, node.lineno, f"{bound[node.value.id]}.{node.attr}", "attribute")
        elif isinstance(node, ast.Name) and node.id in RUNS_TEXT and id(node) not in called:
            yield Found(file, node.lineno, "?", node.id)  # passed on, not called: `f = __import__`


def _dynamic_call(func: ast.expr, machinery: set[str], loaders: set[str]) -> str:
    """The dynamic form a call to FUNC is, or ""."""
    if isinstance(func, ast.Name):
        if func.id in RUNS_TEXT:
            return func.id
        return "importlib" if func.id in loaders else ""
    if isinstance(func, ast.Attribute):
        root = func.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in machinery and func.attr in LOADING:
            return "__import__" if func.attr == "__import__" else "importlib"
        if func.attr in RUNS_TEXT and isinstance(root, ast.Name) and root.id == "builtins":
            return func.attr
    return ""


def imports_of(path: Path, root: Path) -> Iterator[Found]:
    """What the file at PATH (inside the repository at ROOT) imports, in every form."""
    relative = path.relative_to(root)
    yield from imports(parsed(path), module_of(relative), str(relative), path.name == "__init__.py")
