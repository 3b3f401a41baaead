"""The guardrails check: each rule of tests/architecture is shown deliberate breaks, and the
neighbours of each break (an alias, a relative import, a dynamic import, a re-export, a built
string), and must catch every one. Each break is source text in the folder it would be written in."""

from typing import Protocol

import pytest

from tests.architecture.layers import project, rule_of, violations
from tests.architecture.ports import mismatches
from tests.architecture.test_architecture import keys_outside_their_modules, ports_uses

LAYER_BREAKS = [
    ("shared/game", "from ..dynamo import keys"),  # relative, to the adapter
    ("shared/game", "from shared.services import ports"),
    ("shared/game", "import shared.services.game as g"),
    ("shared/http", "from shared.dynamo.store import DynamoStore"),
    ("functions/x", "import shared.dynamo.runs"),
    ("functions/x", "import shared.dynamo.store as s"),
    ("functions/x", "from shared.dynamo.store import *"),
    ("functions/x", "from shared.runtime.wiring import dynamo_ports"),  # through the wiring
    ("functions/x", "from shared.runtime.wiring import dynamo_ports as make"),
    ("functions/x", "from shared.runtime import wiring\nwiring.dynamo_ports('t')"),
    ("functions/x", "import shared.runtime.wiring as w\nw.dynamo_ports('t')"),
    ("functions/x", "import importlib\nimportlib.import_module('shared.dynamo.store')"),
    ("functions/x", "import importlib as il\nil.import_module('shared.game.runs')"),
    ("functions/x", "from importlib import import_module as load\nload('shared.game.runs')"),
    ("functions/x", "import importlib.util\nimportlib.util.spec_from_file_location('m', 'm.py')"),
    ("functions/x", "__import__('shared.dynamo.store')"),
    ("functions/x", "import builtins\nbuiltins.__import__('shared.game')"),
    ("functions/x", "exec('import shared.dynamo.store')"),
    ("functions/x", "eval('1')"),
    ("functions/x", "load = __import__"),
    ("functions/x", "import sys\nstore = sys.modules['shared.dynamo.store']"),
    ("functions/x", "import sys as s\nstore = s.modules['shared.dynamo.store']"),
    ("functions/x", "from sys import modules"),
    ("functions/x", "import sys\nstore = getattr(sys, 'modules')"),
    ("functions/x", "import runpy\nrunpy.run_module('shared.dynamo.store')"),
    ("shared/services", "import importlib\nimportlib.import_module('shared.game.runs')"),
    ("shared/runtime", "from local import server"),
    ("infra", "from functions.daily import handler"),
    ("infra", "from shared.runtime.wiring import ports"),  # infra importing the wiring
    ("infra", "from shared.runtime import wiring"),
    ("infra", "import shared.runtime.wiring"),
    ("infra/lambdas/wordsqd_ops", "from shared.game import runs"),
    ("local", "import infra.stack"),
    ("scripts", "from functions.daily import handler"),
    ("scripts", "from local import server"),
    ("dictionary", "from shared.dynamo import keys"),
    ("benchmarks", "import tests.architecture.layers"),
    ("shared/dynamo", "from shared.services.game import Game"),  # an adapter importing a service
    ("shared/dynamo", "from ..services.game import Game"),
    ("shared/dynamo", "from shared.services.leagues import Leagues"),  # the service beside a port
    ("shared/dynamo", "from shared.services.player_data import PlayerData"),
    ("shared/dynamo", "from shared.services import game"),
    ("shared/dynamo", "import shared.services.moderation"),
    ("shared/dynamo", "from shared.services.completion import completion"),
    ("new_folder", "x = 1"),  # a folder the table does not name
]


@pytest.mark.parametrize(("folder", "source"), LAYER_BREAKS, ids=[f"{f}: {s}" for f, s in LAYER_BREAKS])
def test_a_layer_break_is_caught(folder, source):
    module = folder.replace("/", ".") + ".x"
    assert violations(folder, module, source + "\n", *project()[1:]), source


LAYER_KEEPS = [  # their neighbours that keep the rules: not every import is a break
    ("shared/dynamo", "from shared.services.leagues import League, LeagueStore"),
    ("shared/dynamo", "from shared.services.ports import RunStore"),
    ("functions/x", "from shared.runtime.wiring import game\nfrom . import routes"),
    ("infra", "from shared.http import page_headers\nfrom shared.dynamo.keys import PLAYER"),
    ("local", "import importlib\nimportlib.import_module('functions.daily.handler')"),
    ("dictionary", "import importlib.metadata\nimportlib.metadata.version('wordfreq')"),
]


@pytest.mark.parametrize(("folder", "source"), LAYER_KEEPS, ids=[f"{f}: {s}" for f, s in LAYER_KEEPS])
def test_an_import_the_table_allows_passes(folder, source):
    assert violations(folder, folder.replace("/", ".") + ".x", source + "\n", *project()[1:]) == []


def test_a_folder_in_a_named_folder_of_folders_has_its_rules():
    assert rule_of("functions/new") == "functions/*"
    assert rule_of("shared/new") is None


PORTS_BREAKS = [
    ("store = ports()\n", ["ports()"]),
    ("ports()\ndef f():\n    return ports().runs.get_run('r')\n", ["ports().runs"]),
    ("from shared.runtime.wiring import ports as p\ndef f():\n    return p().runs\n", ["ports().runs"]),
    ("from shared.runtime import wiring\ndef f():\n    return wiring.ports().runs\n", ["ports().runs"]),
    ("import shared.runtime.wiring as w\ndef f():\n    return w.ports().names\n", ["ports().names"]),
    ("from shared.runtime.wiring import ports\nget = ports\n", ["ports"]),
    ("from shared.runtime.wiring import ports as p\nstore = p()\n", ["ports()"]),
]


@pytest.mark.parametrize(("source", "uses"), PORTS_BREAKS, ids=[s for s, _ in PORTS_BREAKS])
def test_a_handler_holding_the_ports_is_caught(source, uses):
    assert ports_uses("from shared.runtime.wiring import ports\n" + source) == uses


def test_the_cold_starts_ports_call_is_no_use():
    assert ports_uses("from shared.runtime.wiring import ports\nports()\n") == []


KEY_BREAKS = [
    ("shared.services.x", 'x = "OFFICIAL#DAILY#~"'),
    ("shared.services.x", 'x = f"LEAGUE#{league_id}"'),
    ("shared.services.x", 'x = "PLAYER" + "#" + player'),  # by concatenation
    ("shared.services.x", 'SEP = "#"\nx = "PLAYER" + SEP + player'),
    ("shared.services.x", "x = f\"{'PLAYER'}#{player}\""),
    ("shared.services.x", 'x = "#".join(["PLAYER", player])'),
    ("shared.services.x", 'x = "{}#{}".format("PLAYER", player)'),
    ("shared.services.x", 'x = "%s#%s" % ("PLAYER", player)'),
    ("shared.services.x", 'sk = "RENAME"'),  # a whole sort key
    ("shared.services.x", 'sk = "MODLOG" + "#" + moderator'),
    ("shared.services.x", 'key = {"pk": {"S": pk}, "sk": {"S": "PROFILE"}}'),  # a key function's sort key
    ("scripts.x", 'items = items_with_sort_key(client, table, "STATS")'),
    ("functions.x", 'item = {"pk": {"S": "RUN#" + run_id}}'),
    ("scripts.x", 'player = pk.removeprefix("PLAYER#")'),  # in scripts/
    ("scripts.x", 'print(f"PLAYER#{player}")'),
    ("local.x", 'sk = "TOP#" + scope'),
    ("shared.dynamo.x", 'x = "PLAYER#" + player'),  # the adapter: only its key modules spell them
]


@pytest.mark.parametrize(("module", "source"), KEY_BREAKS, ids=[s for _, s in KEY_BREAKS])
def test_a_key_spelled_outside_the_key_modules_is_caught(module, source):
    assert keys_outside_their_modules(module, source + "\n"), source


def test_a_key_in_prose_or_a_plain_word_is_no_key():
    source = '"""OFFICIAL# in a docstring is prose."""\nx = "Renamed"\ny = "RENAMED"\nz = "#" + tag\n'
    assert keys_outside_their_modules("shared.services.x", source) == []
    assert keys_outside_their_modules("shared.dynamo.x", 'kind = "RENAME"\n') == []


class _Port(Protocol):
    name: str

    def get(self, player: str, limit: int = 10) -> list[str]: ...

    def put(self, player: str, *, at: str) -> None: ...


class _Adapter:
    def __init__(self) -> None:
        self.name = "adapter"

    def get(self, player: str, limit: int = 10, extra: bool = False) -> list[str]:
        return []

    def put(self, player: str, *, at: str) -> None:
        return None


def _typed(self: object, player: int, limit: int = 10) -> list[str]:
    return []


def _returns(self: object, player: str, *, at: str) -> bool:
    return True


def _broken(**changes: object) -> type:
    return type("Broken", (_Adapter,), changes)


PORT_BREAKS = {
    "a method renamed": type("Broken", (), {"name": "x", "put": _Adapter.put, "fetch": _Adapter.get}),
    "a parameter renamed": _broken(get=lambda self, user, limit=10: []),
    "a parameter added": _broken(put=lambda self, player, reason, *, at: None),
    "a parameter dropped": _broken(get=lambda self, player: []),
    "a default dropped": _broken(get=lambda self, player, limit: []),
    "a keyword made positional-only": _broken(put=lambda self, player, at, /: None),
    "a keyword-only parameter renamed": _broken(put=lambda self, player, *, when: None),
    "a parameter's type changed": _broken(get=_typed),
    "the return type changed": _broken(put=_returns),
    "an attribute missing": type("Broken", (), {"get": _Adapter.get, "put": _Adapter.put}),
    "a method made an attribute": _broken(get=None),
}


@pytest.mark.parametrize("adapter", PORT_BREAKS.values(), ids=list(PORT_BREAKS))
def test_an_adapter_that_no_longer_matches_its_port_is_caught(adapter):
    assert mismatches(_Port, adapter)


def test_an_adapter_that_matches_its_port_passes():
    assert mismatches(_Port, _Adapter) == []
