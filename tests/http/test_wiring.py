"""The wiring (shared/runtime/wiring.py) is one container: every service it builds is kept for the
container's life, and one `reset()` forgets all of them, with the settings and secrets they were
built from, so no test can forget one."""

import os
from functools import cached_property

from shared.runtime import wiring
from shared.runtime.secrets import cursor_keys
from shared.runtime.settings import settings
from shared.runtime.wiring import moderation_ports
from tests.fakes.fake_store import FakePorts

SERVICES = [name for name, value in vars(wiring.Services).items() if isinstance(value, cached_property)]


def test_the_container_builds_each_service_once_and_the_handlers_reach_each_one(table):
    assert set(SERVICES) == {
        "ports", "game", "boards", "players", "leagues", "accounts", "player_data", "moderation", "recaps",
        "idempotency",
        "reminders",
    }  # fmt: skip
    for name in SERVICES:
        assert getattr(wiring, name)() is getattr(wiring, name)(), name


def test_one_reset_forgets_every_service_and_the_settings_and_secrets_they_were_built_from(
    table, monkeypatch
):
    built = {name: getattr(wiring, name)() for name in SERVICES}
    read = (settings(), cursor_keys())
    monkeypatch.setenv("PUZZLE_SEED", os.environ["PUZZLE_SEED"] + "-rotated")
    wiring.reset()
    assert [name for name in SERVICES if getattr(wiring, name)() is built[name]] == []
    assert settings() is not read[0] and cursor_keys() != read[1]


def test_a_reset_with_ports_builds_every_service_on_the_ports_it_uses(table):
    fake = FakePorts()
    wiring.reset(fake)
    game, boards, players, moderation = wiring.game(), wiring.boards(), wiring.players(), wiring.moderation()
    assert wiring.ports() is fake
    assert (game.runs, game.results) == (fake.runs, fake.results)
    assert (boards.store, boards.ranks, boards.names, boards.runs) == (
        fake.boards,
        fake.ranks,
        fake.names,
        fake.runs,
    )
    assert (players.store, players.names, players.results, players.runs, players.boards) == (
        fake.boards, fake.names, fake.results, fake.runs, boards,
    )  # fmt: skip
    assert (wiring.leagues().store, wiring.player_data().store) == (fake.leagues, fake.player_data)
    assert wiring.idempotency().store is fake.requests
    assert (moderation.store, moderation.boards, moderation.ranks) == (
        moderation_ports(fake),
        fake.boards,
        fake.ranks,
    )
    assert (moderation.results, moderation.runs, moderation.closing) == (
        fake.results,
        fake.runs,
        fake.closing,
    )
    recaps = wiring.recaps()
    assert (recaps.store, recaps.results, recaps.runs) == (fake.recaps, fake.results, fake.runs)
