"""A date has one status on every route (SPEC §4a): the board, its distribution and the caller's
own row say `live`, `closed` and `final` together, on the in-memory fake and on DynamoDB (moto)."""

from collections.abc import Iterator
from datetime import timedelta

import pytest

from functions.daily.expire import handler as expire_handler
from functions.daily.handler import handler as daily_handler
from local.events import LambdaContext
from shared.game import clock
from shared.game.boards import SETTLE_SECONDS
from shared.game.moderation import REVIEW_WINDOW
from tests.conftest import Api
from tests.fakes.dynamo_store import STORES
from tests.fakes.fake_boards import CLOSES, DAY
from tests.fakes.fake_store import served_store
from tests.play import good_word
from tests.routed import handler as leaderboard_handler

daily = Api(daily_handler)
boards = Api(leaderboard_handler)


@pytest.fixture(params=STORES)
def store(request, monkeypatch, still_clock) -> Iterator:
    with served_store(request.param, monkeypatch) as served:
        yield served


def expire() -> None:
    """The one-minute job: completes what is due and moves the watermark the boards close on."""
    expire_handler({}, LambdaContext(aws_request_id="job"))


def statuses() -> tuple[str, str, str]:
    day = DAY.isoformat()
    replies = (
        boards("GET", f"/leaderboard/daily/{day}"),
        boards("GET", f"/leaderboard/daily/{day}/distribution"),
        boards("GET", "/leaderboard/daily/me", user="ann", query={"date": day}),
    )
    assert [status for status, _, _ in replies] == [200, 200, 200], replies
    return tuple(reply["status"] for _, reply, _ in replies)  # type: ignore[return-value]


def test_the_board_its_distribution_and_my_row_say_one_status(store):
    assert boards("PUT", "/me", {"display_name": "Ann"}, user="ann")[0] == 200
    run = daily("POST", "/daily/runs", user="ann")[1]
    while run["status"] == "active":  # at a pace the find-time pass leaves alone (SPEC §3b)
        clock.advance(15)
        body = {"round": run["round"], "attempt": run["attempt"], "word": good_word(run)}
        run = daily("POST", f"/runs/{run['run_id']}/answers", body, user="ann")[1]["run"]
    assert statuses() == ("live", "live", "live")
    clock.travel_to(CLOSES + timedelta(seconds=SETTLE_SECONDS + 1))
    expire()
    assert statuses() == ("closed", "closed", "closed")
    clock.travel_to(CLOSES + REVIEW_WINDOW + timedelta(minutes=2))
    expire()
    assert statuses() == ("final", "final", "final")
