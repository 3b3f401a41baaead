"""Each port against its adapters and fakes, by `inspect` (tests/architecture/ports.py): mypy with a
warm cache once answered "Success" for an adapter that no longer matched its port."""

import importlib
import typing

import pytest

from tests.architecture.layers import REPO
from tests.architecture.ports import mismatches, protocols_in

# The ports the wiring's `Ports` does not carry, and what implements them.
IMPLEMENTED_BY = {
    "shared.services.closing_pieces.PassStore": [
        "shared.dynamo.closing_pieces.DynamoPasses",
        "tests.fakes.fake_passes.FakePasses",
    ],
    "shared.services.closing_pieces.PieceQueue": [
        "shared.runtime.piece_queue.SqsQueue",
        "shared.runtime.piece_queue.MemoryQueue",
        "shared.runtime.piece_queue.DirectoryQueue",
    ],
    "shared.services.reminders.ReminderQueue": [
        "shared.runtime.push.ReminderQueue",
        "shared.runtime.push.InstantQueue",
    ],
    "shared.services.reminders.PushSender": ["shared.runtime.push.WebPush"],
    "shared.services.ports.Accounts": [
        "shared.runtime.accounts.CognitoAccounts",
        "shared.runtime.accounts.LocalAccounts",
    ],
    "shared.services.casework.Casework": ["shared.services.moderation.Moderation"],
    "shared.dynamo.sanctions.Reach": ["shared.dynamo.sanctions.DynamoSanctions"],
    "shared.runtime.wiring.Ports": ["shared.dynamo.store.DynamoPorts", "tests.fakes.fake_store.FakePorts"],
}


def _class(name: str) -> type:
    module, _, attribute = name.rpartition(".")
    return getattr(importlib.import_module(module), attribute)


def implementations() -> dict[str, list[str]]:
    """Each port and its implementations: the wiring's `Ports` names one adapter (the field of
    `DynamoPorts`) and one fake (the attribute of `FakePorts`) per port; IMPLEMENTED_BY the rest."""
    from shared.dynamo.store import DynamoPorts
    from shared.runtime.wiring import Ports
    from tests.fakes.fake_store import FakePorts

    found = {port: list(impls) for port, impls in IMPLEMENTED_BY.items()}
    adapters = typing.get_type_hints(DynamoPorts)
    fakes = FakePorts()
    for name, member in vars(Ports).items():
        if isinstance(member, property):
            port = typing.get_type_hints(member.fget)["return"]
            impls = found.setdefault(f"{port.__module__}.{port.__qualname__}", [])
            for impl in (adapters[name], type(getattr(fakes, name))):
                impls.append(f"{impl.__module__}.{impl.__qualname__}")
    return found


IMPLEMENTATIONS = implementations()


def test_every_port_of_shared_has_its_implementations_named():
    assert protocols_in(REPO) - set(IMPLEMENTATIONS) == set(), "name its adapters and fakes in IMPLEMENTED_BY"


@pytest.mark.parametrize("port", sorted(IMPLEMENTATIONS))
def test_each_adapter_and_fake_has_its_ports_methods_and_parameters(port):
    found = [line for impl in IMPLEMENTATIONS[port] for line in mismatches(_class(port), _class(impl))]
    assert found == [], f"{port}: " + "; ".join(found)
