"""Evidence across days (SPEC §3b): each official run's find-time score is kept with the player,
the last RUNNING_RUNS of them, oldest first, one a scope; on the in-memory stores and on DynamoDB
(moto), through the closing pass's store."""

from collections.abc import Iterator

import pytest

from functions.daily import expire
from shared.game.find_time import RUNNING_RUNS
from shared.game.scope import Scope
from tests.fakes.dynamo_store import STORES
from tests.fakes.fake_boards import player
from tests.fakes.fake_store import served_store


@pytest.fixture(params=STORES)
def passes(request, monkeypatch) -> Iterator:
    with served_store(request.param, monkeypatch):
        yield expire.closing_pass().store


def test_a_players_find_time_scores_keep_their_last_30_runs_one_a_scope(passes):
    days = [f"2026-{1 + n // 28:02}-{1 + n % 28:02}" for n in range(RUNNING_RUNS + 15)]
    for n, day in reversed(list(enumerate(days))):  # kept in any order, listed by completion
        kept = passes.keep_score(player("ann"), Scope.daily(day), f"{day}T09:00:00Z", n / 10)
    assert kept == [(Scope.daily(day).id, n / 10) for n, day in enumerate(days)][-RUNNING_RUNS:]
    again = passes.keep_score(player("ann"), Scope.daily(days[-1]), f"{days[-1]}T09:00:00Z", 2.5)
    assert again == [*kept[:-1], (Scope.daily(days[-1]).id, 2.5)]  # one a scope: the new score
    assert passes.keep_score(player("bob"), Scope.daily(days[0]), f"{days[0]}T09:00:00Z", 1.0) == [
        (Scope.daily(days[0]).id, 1.0)
    ]
