"""A date has one status on every route (SPEC §4a): the board, its distribution and the caller's
own row say `live`, `closed` and `final` together."""

from datetime import timedelta

import pytest

from shared.game import clock
from shared.game.moderation import REVIEW_WINDOW
from tests.fakes.fake_boards import CLOSES, DAY
from tests.services.test_moderation import board_reply, call, played, store  # noqa: F401  (fixture)

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def statuses() -> tuple[str, str, str]:
    day = DAY.isoformat()
    board = board_reply()[1]["status"]
    distribution = call("GET", f"/leaderboard/daily/{day}/distribution")[1]["status"]
    mine = call("GET", "/leaderboard/daily/me", user="ann", query={"date": day})[1]["status"]
    return board, distribution, mine


def test_the_board_its_distribution_and_my_row_say_one_status(store):  # noqa: F811
    played(store, "ann", 900, "Ann")
    assert statuses() == ("live", "live", "live")
    clock.travel_to(CLOSES + timedelta(minutes=5))
    store.runs.mark_completed_through(CLOSES + timedelta(minutes=2))
    assert statuses() == ("closed", "closed", "closed")
    clock.travel_to(CLOSES + REVIEW_WINDOW + timedelta(minutes=2))
    assert statuses() == ("final", "final", "final")
