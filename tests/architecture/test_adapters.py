"""No adapter takes another adapter (tests/architecture/adapters.py): checked on every module of
shared/dynamo and every module that defines an adapter, the wiring aside, and shown its breaks."""

import pytest

from tests.architecture.adapters import adapter_uses
from tests.architecture.layers import project
from tests.architecture.test_ports import IMPLEMENTATIONS

# The modules that put adapters together (and what they build them for).
WIRING = {
    "shared.dynamo.store": "dynamo_ports builds every adapter of the table and hands each its parts",
    "shared.runtime.wiring": "the services of each function, on the adapters dynamo_ports built",
    "shared.runtime.closing_wiring": "the closing pass's store and queue, for the functions that run it",
}
ADAPTERS = frozenset(
    impl for impls in IMPLEMENTATIONS.values() for impl in impls if impl.startswith("shared.")
) - {"shared.services.moderation.Moderation"}  # a service (the Casework port's), not storage


def checked_modules() -> list[str]:
    files = project()[0]
    defining = {adapter.rpartition(".")[0] for adapter in ADAPTERS}
    return sorted(
        module
        for module in files
        if (module.startswith("shared.dynamo.") or module in defining) and module not in WIRING
    )


def test_the_wiring_named_is_the_wiring():
    assert set(WIRING) <= set(project()[0]), "WIRING names a module that does not exist"


@pytest.mark.parametrize("module", checked_modules())
def test_no_adapter_takes_another_adapter(module):
    files, through, _ = project()
    assert adapter_uses(module, files[module].read_text(), ADAPTERS, through) == []


BREAKS = [  # (module, source): each names an adapter that is not its own
    ("shared.dynamo.results2", "from shared.dynamo.runs import Runs"),
    ("shared.dynamo.results2", "from shared.dynamo.runs import Runs as R"),
    ("shared.dynamo.results2", "from .runs import Runs"),  # relative
    ("shared.dynamo.results2", "from shared.dynamo import runs\nx = runs.Runs"),
    ("shared.dynamo.results2", "import shared.dynamo.counters as c\nc.Counters(db, top)"),
    ("shared.dynamo.results2", "from shared.dynamo.store import DynamoPorts"),  # the bundle
    ("shared.dynamo.results2", "from shared.dynamo.store import Runs"),  # re-exported by the wiring
    ("shared.dynamo.top", "from shared.dynamo.counters import Counters"),  # a part taking an adapter
    ("shared.runtime.piece_queue", "from shared.runtime.push import WebPush"),
    ("shared.dynamo.runs", "class Other:\n    def __init__(self, runs: Runs): ..."),  # in its own module
    ("shared.dynamo.runs", "class Other:\n    def make(self, db):\n        return Runs(db)"),
]


@pytest.mark.parametrize(("module", "source"), BREAKS, ids=[f"{m}: {s}" for m, s in BREAKS])
def test_an_adapter_taking_another_is_caught(module, source):
    assert adapter_uses(module, source + "\n", ADAPTERS, project()[1]), source


KEEPS = [  # their neighbours: a part, a function of an adapter's module, its own class
    ("shared.dynamo.results2", "from shared.dynamo.runs import save_run, versioned_put"),
    ("shared.dynamo.results2", "from shared.dynamo.top import TopOfBoard"),
    ("shared.dynamo.results2", "from shared.dynamo.puzzle_reads import PuzzleReads"),
    ("shared.dynamo.results2", "from shared.dynamo.counters import count_official, standing_of"),
    ("shared.dynamo.runs", "class Runs:\n    def again(self):\n        return Runs(self.db)"),
    ("shared.dynamo.runs", "def runs_of(db):\n    return Runs(db)"),  # a factory in its module
]


@pytest.mark.parametrize(("module", "source"), KEEPS, ids=[f"{m}: {s}" for m, s in KEEPS])
def test_a_part_or_a_function_passes(module, source):
    assert adapter_uses(module, source + "\n", ADAPTERS, project()[1]) == []
