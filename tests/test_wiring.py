"""The wiring (shared/runtime/wiring.py) is one container: every service it builds is kept for the
container's life, and one `reset()` forgets all of them, with the settings and secrets they were
built from, so no test can forget one."""

import os
from functools import cached_property

from shared.runtime import wiring
from shared.runtime.secrets import cursor_keys
from shared.runtime.settings import settings

SERVICES = [name for name, value in vars(wiring.Services).items() if isinstance(value, cached_property)]


def test_the_container_builds_each_service_once_and_the_handlers_reach_each_one(table):
    assert set(SERVICES) == {
        "store", "game", "boards", "players", "leagues", "accounts", "player_data", "moderation", "recaps",
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


def test_a_reset_with_a_store_builds_every_service_on_it(table):
    fake = object()
    wiring.reset(fake)  # type: ignore[arg-type]
    assert wiring.store() is fake and wiring.boards().store is fake and wiring.game().store is fake
    assert wiring.players().store is fake and wiring.leagues().store is fake
    assert wiring.player_data().store is fake
    assert wiring.moderation().store is fake and wiring.moderation().boards is fake
    assert wiring.recaps().store is fake and wiring.recaps().runs is fake
