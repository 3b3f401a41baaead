"""The key rule's reader: the storage keys' spellings (`PLAYER#`, a sort key such as `RENAME`) that
a Python file builds, from string constants and from the strings it puts together: `+`, f-strings,
`"#".join(...)`, `"{}#{}".format(...)`, `"%s#" % ...`, and module-level names bound to strings."""

import ast
import re

KEY_PREFIX = re.compile(r"\b[A-Z][A-Z0-9]+#")
HOLE = "\x00"  # a part of a built string that is not a constant


def _docstrings(tree: ast.Module) -> set[int]:
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }


def _names(tree: ast.Module) -> dict[str, str]:
    """Module-level names bound to a string: `SEP = "#"`."""
    names = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            names |= {t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)}
    return names


def text(node: ast.AST, names: dict[str, str]) -> str:
    """The string NODE builds, with HOLE for each part that is not known before it runs."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else HOLE
    if isinstance(node, ast.Name):
        return names.get(node.id, HOLE)
    if isinstance(node, ast.JoinedStr):
        return "".join(text(v.value if isinstance(v, ast.FormattedValue) else v, names) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return text(node.left, names) + text(node.right, names)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant):
        parts = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        return _fill(text(node.left, names), r"%[sdr]", [text(p, names) for p in parts])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        owner = text(node.func.value, names)
        if node.func.attr == "join" and node.args and isinstance(node.args[0], ast.List | ast.Tuple):
            return owner.join(text(e, names) for e in node.args[0].elts)
        if node.func.attr == "format":
            return _fill(owner, r"\{[^}]*\}", [text(a, names) for a in node.args])
    return HOLE


def _fill(template: str, hole: str, parts: list[str]) -> str:
    pieces = iter(parts)
    return re.sub(hole, lambda _: next(pieces, HOLE), template)


def spelled_keys(source: str, sort_keys: frozenset[str] = frozenset()) -> list[str]:
    """The strings SOURCE builds (its docstrings aside) that spell a key prefix (`OFFICIAL#`), or
    that are one of SORT_KEYS (the key modules' whole sort keys, `RENAME`) or start with one and `#`."""
    tree = ast.parse(source)
    skip, names, found = _docstrings(tree), _names(tree), []
    inner: set[int] = set()  # the parts of a built string: reported as the whole
    for node in ast.walk(tree):
        if id(node) in skip or id(node) in inner:
            continue
        if isinstance(node, ast.Constant | ast.JoinedStr | ast.BinOp | ast.Call):
            built = text(node, names)
            if built == HOLE:
                continue
            inner |= {id(n) for n in ast.walk(node) if n is not node}
            if KEY_PREFIX.search(built) or re.split(f"[#{HOLE}]", built)[0] in sort_keys:
                found.append(built.replace(HOLE, "…"))
    return found


def sort_keys_in(source: str) -> frozenset[str]:
    """The whole sort keys a key module SOURCE spells (`RENAME`, `"PROFILE"` in a key function):
    each word of capitals, three letters or more, with no `#`."""
    return frozenset(
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"[A-Z][A-Z0-9_]{2,}", node.value)
    )
