"""No adapter takes another adapter: an adapter (a class that implements a port) is built from the
client and the parts adapters share (`BoardKeys`, `TopOfBoard`, `PuzzleReads`...), and only the
wiring puts adapters together. Read with `ast`: a module other than the wiring that names another
module's adapter in any import form (an alias, a `from` import, `module.Adapter` after importing
the module, a re-export) or, in its own module, names an adapter inside another class, breaks it.
What two adapters share is a part or a function of the adapter's module (`count_official`,
`save_run`, `release_claim`), which takes what it needs (the client, a part) as arguments."""

import ast

from tests.architecture.imports import imports
from tests.architecture.layers import origin


def adapter_uses(
    module: str, source: str | ast.Module, adapters: frozenset[str], through: dict[str, dict[str, str]]
) -> list[str]:
    """Where SOURCE (MODULE) names an adapter of ADAPTERS ("module.Class") that is not its own,
    one line each; THROUGH is the project's re-exports (layers.reexports)."""
    tree = ast.parse(source) if isinstance(source, str) else source
    found = []
    for item in imports(tree, module, module):
        name = origin(item.module, through)
        if name in adapters and name.rpartition(".")[0] != module:
            found.append(f"{module}:{item.line} {item.form} {name}: an adapter of another module")
    own = {name.rpartition(".")[2] for name in adapters if name.rpartition(".")[0] == module}
    for klass in (node for node in tree.body if isinstance(node, ast.ClassDef)):
        for node in ast.walk(klass):
            if isinstance(node, ast.Name) and node.id in own and node.id != klass.name:
                found.append(f"{module}:{node.lineno} {klass.name} names the adapter {node.id}")
    return found
