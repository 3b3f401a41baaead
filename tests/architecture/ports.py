"""Each port (a Protocol of shared/) against its adapters and fakes, read with `inspect` as Python
sees the classes, not through a type checker's cache: the same members, and for each method the
same parameters (names, kinds, which have defaults, their types as written) and return type, an
implementation's extra parameters optional."""

import ast
import inspect
import textwrap
from pathlib import Path

from tests.architecture.imports import parsed

EMPTY = inspect.Parameter.empty
POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_TYPING = {"_is_protocol", "_is_runtime_protocol", "_abc_impl"}


def protocols_in(root: Path, folder: str = "shared") -> set[str]:
    """Every Protocol class under FOLDER, as "module.Class"."""
    found = set()
    for path in sorted((root / folder).rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for node in parsed(path).body:
            if isinstance(node, ast.ClassDef) and any(
                (isinstance(b, ast.Name) and b.id == "Protocol")
                or (isinstance(b, ast.Attribute) and b.attr == "Protocol")
                for b in node.bases
            ):
                found.add(f"{module}.{node.name}")
    return found


def members(port: type) -> dict[str, object]:
    """PORT's own members: its methods and properties, and its annotated attributes (as None)."""
    own = {
        name: value
        for klass in port.__mro__
        if klass.__dict__.get("_is_protocol") and klass.__name__ != "Protocol"
        for name, value in vars(klass).items()
        if not (name.startswith("__") and name.endswith("__")) and name not in _TYPING
    }
    for klass in port.__mro__:
        if klass.__dict__.get("_is_protocol") and klass.__name__ != "Protocol":
            own |= {name: None for name in vars(klass).get("__annotations__", {}) if name not in own}
    return own


def _has_attribute(impl: type, name: str) -> bool:
    """IMPL (or a base) declares NAME, or one of its methods sets `self.NAME`."""
    for klass in impl.__mro__:
        if name in vars(klass).get("__annotations__", {}) or name in vars(klass):
            return True
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and node.attr == name
            ):
                return True
    return False


def mismatches(port: type, impl: type) -> list[str]:
    """How IMPL differs from PORT, one line each; [] when it implements every member alike."""
    found = []
    for name, member in members(port).items():
        where = f"{impl.__module__}.{impl.__qualname__}.{name}"
        if member is None or isinstance(member, property):
            if not _has_attribute(impl, name):
                found.append(f"{where}: missing (the port's attribute)")
            continue
        if not callable(member) and not isinstance(member, staticmethod | classmethod):
            continue
        try:
            actual = inspect.getattr_static(impl, name)
        except AttributeError:
            found.append(f"{where}: missing (the port's method)")
            continue
        if (
            isinstance(actual, property)
            or not callable(actual)
            and not isinstance(actual, staticmethod | classmethod)
        ):
            found.append(f"{where}: not a method")
            continue
        found += [
            f"{where}: {line}"
            for line in _compare(inspect.signature(member), inspect.signature(getattr(impl, name)))
        ]
    return found


def _compare(wanted: inspect.Signature, got: inspect.Signature) -> list[str]:
    want = [p for p in wanted.parameters.values() if p.name not in ("self", "cls")]
    have = [p for p in got.parameters.values() if p.name not in ("self", "cls")]
    var_positional = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in have)
    var_keyword = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in have)
    by_name = {p.name: p for p in have}
    matched: set[str] = set()
    lines = []
    positional = [p for p in have if p.kind in POSITIONAL]
    for index, p in enumerate(want):
        if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            if not any(q.kind is p.kind for q in have):
                lines.append(f"takes no {p}, as the port does")
            continue
        if p.kind in POSITIONAL:
            q = positional[index] if index < len(positional) else None
            if q is None:
                if not var_positional:
                    lines.append(f"has no parameter {p.name!r} (position {index + 1})")
                continue
            if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and q.name != p.name:
                lines.append(f"parameter {index + 1} is {q.name!r}, the port's is {p.name!r}")
        else:
            q = by_name.get(p.name)
            if q is None or q.kind is inspect.Parameter.POSITIONAL_ONLY:
                if not var_keyword:
                    lines.append(f"has no keyword parameter {p.name!r}")
                continue
        matched.add(q.name)
        if p.default is not EMPTY and q.default is EMPTY:
            lines.append(f"{q.name!r} has no default, the port's has one")
        if EMPTY not in (p.annotation, q.annotation) and p.annotation != q.annotation:
            lines.append(f"{q.name!r} is {_type(q.annotation)}, the port's is {_type(p.annotation)}")
    returns, port_returns = got.return_annotation, wanted.return_annotation
    if EMPTY not in (returns, port_returns) and returns != port_returns:
        lines.append(f"returns {_type(returns)}, the port's returns {_type(port_returns)}")
    for q in have:
        if (
            q.name not in matched
            and q.default is EMPTY
            and q.kind in (*POSITIONAL, inspect.Parameter.KEYWORD_ONLY)
        ):
            lines.append(f"needs {q.name!r}, which the port does not pass")
    return lines


def _type(annotation: object) -> str:
    return annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)
