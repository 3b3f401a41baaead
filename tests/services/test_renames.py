"""SPEC §5: a rename answers in a bounded number of requests whatever the number of live boards,
and the boards follow it completely (the stream consumer, functions/leaderboard/counters.py,
shows the new name on every live row and top item), resumably: a propagation cut short by a
failure is delivered again and finishes. On in-process moto, with the consumer fed by
local/streams.py's poller as `make run` feeds it."""

import pytest

from functions.leaderboard.counters import count_stream_batch
from local.streams import StreamPoller
from shared.dynamo.client import DataError
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.game import clock
from shared.game.clock import iso
from shared.game.daily_date import daily_date
from shared.game.scope import Scope
from shared.runtime.wiring import Services
from tests.challenges import week_challenge
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import complete_official


class Rig:
    """A store, the Players service, and the stream consumer draining the table's stream."""

    def __init__(self, table: str) -> None:
        self.store = dynamo_ports(table, sleep=lambda seconds: None, board_shards=BOARD_SHARDS)
        self.store.top.interval = 0  # the tests drive no clock; a fold never waits
        self.players = Services(self.store).players
        self.poller = StreamPoller(table, handler=self.consumer)
        self.following = True  # False: the consumer passes records by (while boards are set up)
        self.requests = 0
        self.store.client.meta.events.register("before-call.dynamodb", self._count)

    def _count(self, **_: object) -> None:
        self.requests += 1

    def consumer(self, event: dict, context: object) -> dict:
        if not self.following:
            return {}
        return count_stream_batch(
            event, context, self.store.ranks.count_official, self.players.show_current_name
        )

    def live_boards(self, who: str, count: int) -> list[Scope]:
        """COUNT live challenge boards with WHO's official result on each, plus another player's
        row, both in the board's top item too (written here as a fold would, which is quicker
        on in-process moto than counting them through the consumer)."""
        now = clock.now()
        day = daily_date(now).isoformat()
        scopes = []
        for n in range(count):
            challenge = week_challenge(f"live-{who}-{n:04d}", now)
            self.store.runs.create_challenge(challenge, day, 10_000)
            for name, score in ((who, 300), ("rival", 200)):
                complete_official(
                    self.store,
                    official(
                        name, score, completed_at=iso(now), day=day, challenge_id=challenge.challenge_id
                    ),
                )
            scope = Scope.challenge(challenge.challenge_id)
            rows = self.store.top.stored.rows(scope, [player(who), player("rival")])
            top = sorted(rows.values(), key=lambda e: e.position.order())
            assert self.store.top.item.write(scope, top, 0)
            scopes.append(scope)
        self.following = False
        self.poller.drain()  # the stream's records so far are the set-up's: passed by
        self.following = True
        return scopes

    def names_shown(self, who: str, scopes: list[Scope]) -> set[str | None]:
        """The names WHO's rows show: on each board's row and in each board's top item."""
        rows = {self.store.boards.board_entry(player(who), scope).display_name for scope in scopes}
        tops = {
            entry.display_name
            for scope in scopes
            for entry in self.store.top.read(scope)[0]
            if entry.player == player(who)
        }
        return rows | tops

    def rename(self, who: str, name: str) -> int:
        """PUT /me's work (shared/services/players.py); returns the DynamoDB requests it made."""
        before = self.requests
        self.players.set_display_name(player(who), name)
        return self.requests - before


@pytest.fixture
def rig(table) -> Rig:
    return Rig(table)


def test_a_rename_answers_in_the_same_few_requests_with_0_5_or_50_live_boards(rig):
    counts = {}
    for boards, who in ((0, "none"), (5, "five"), (50, "fifty")):
        rig.live_boards(who, boards)
        rig.rename(who, f"{who} First")  # a first name: no old claim to release
        counts[boards] = rig.rename(who, f"{who} Second")  # a rename: an old claim released

    assert counts[0] == counts[5] == counts[50] <= 4, counts  # a GetItem or two, one transaction


def test_after_a_rename_with_50_live_boards_the_consumer_shows_the_name_on_every_row_and_top(rig):
    scopes = rig.live_boards("ann", 50)
    rig.rename("ann", "Annie")
    assert rig.names_shown("ann", scopes) == {None}, "PUT /me itself writes no board"

    rig.poller.drain()

    assert rig.names_shown("ann", scopes) == {"Annie"}
    assert rig.names_shown("rival", scopes) == {None}


def test_setting_the_same_name_again_is_followed_again(rig):
    scopes = rig.live_boards("ann", 3)
    rig.rename("ann", "Annie")
    rig.poller.drain()
    rig.store.names.rename_rows(player("ann"), scopes[:1], "Stale")  # a row left behind, say by hand

    rig.rename("ann", "Annie")
    rig.poller.drain()

    assert rig.names_shown("ann", scopes) == {"Annie"}


def test_a_propagation_cut_short_resumes_and_finishes_when_delivered_again(rig, monkeypatch):
    scopes = rig.live_boards("ann", 12)
    rig.rename("ann", "Annie")
    written: list[Scope] = []

    def fail_midway(scopes, names):
        written.extend(scopes)
        raise DataError("DynamoDB transact_write_items failed: InternalServerError")

    monkeypatch.setattr(rig.store.top, "rename_all", fail_midway)
    rig.poller.drain()  # the consumer reports the rename's record failed: it stays in the stream
    assert sorted(written) == sorted(scopes)  # the rows were renamed, the tops not yet
    assert "Annie" in rig.names_shown("ann", scopes) and None in rig.names_shown("ann", scopes)

    monkeypatch.undo()
    rig.poller.drain()  # delivered again (as Lambda retries a failed record): it finishes

    assert rig.names_shown("ann", scopes) == {"Annie"}


def test_a_rename_record_delivered_late_shows_the_latest_name_not_its_own(rig):
    scopes = rig.live_boards("ann", 2)
    rig.rename("ann", "Annie")
    rig.rename("ann", "Anna")

    rig.poller.drain()

    assert rig.names_shown("ann", scopes) == {"Anna"}
