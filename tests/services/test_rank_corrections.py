"""Players whose rank a moderator's decision moved see it in their history (SPEC §3e: "rank 3 → 2,
corrected"), through the handlers, on the in-memory fake and on DynamoDB (moto) alike: a void
after the board closed moves the results it outranked up a place, a lift after the close moves them
down again, a decision made while the board was live is part of the board as it closed."""

from datetime import UTC, datetime, timedelta

import pytest

from functions.daily.handler import handler as daily_handler
from shared.game import clock
from shared.game.boards import BoardPosition, TieKey
from shared.game.clock import iso
from shared.game.rank_moves import RankMove, rank_before_correction
from tests.conftest import Api
from tests.fakes.fake_boards import DAY, NOON, official
from tests.fakes.fake_store import complete_official
from tests.routed import handler as leaderboard_handler  # with the moderation routes

boards = Api(leaderboard_handler)
daily = Api(daily_handler)
MODS = "[moderators]"
CLOSED = NOON + timedelta(days=1)  # DAY's board closed (at 06:03 UTC), its review window open


def _board(store) -> None:
    """Zed 2000 (rank 1), Ann 900 (2), Cat 500 (3) on DAY's board."""
    assert daily("POST", "/guest/daily/runs")[0] == 201  # stores DAY's puzzle, which a run case reads
    assert boards("PUT", "/me", {"display_name": "Zed"}, user="zed")[0] == 200
    for n, (name, score) in enumerate([("zed", 2000), ("ann", 900), ("cat", 500)]):
        done = iso(NOON - timedelta(minutes=10 - n))
        complete_official(store, official(name, score, completed_at=done, day=DAY.isoformat()))


def _after_close(store) -> None:
    clock.travel_to(CLOSED)
    store.runs.mark_completed_through(CLOSED)


def _void_zed() -> None:
    body = {"kind": "run", "target": f"{DAY.isoformat()}:Zed", "reason": "too fast"}
    status, filed, _ = boards("POST", "/reports", body, user="ann")
    assert status == 201, filed
    body = {"action": "void_result", "reason": "scripted"}
    path = f"/moderation/cases/{filed['case_id']}/decision"
    assert boards("POST", path, body, user="mo", groups=MODS)[0] == 200


def _history(user: str) -> tuple[int | None, int | None]:
    (item,) = boards("GET", "/me/history", user=user)[1]["items"]
    return item["rank"], item["rank_before_correction"]


def test_a_void_after_the_close_shows_each_rank_it_moved_as_corrected(store):
    _board(store)
    _after_close(store)
    assert _history("cat") == (3, None)
    _void_zed()
    assert _history("cat") == (2, 3)  # "rank 3 → 2, corrected"
    assert _history("ann") == (1, 2)
    status, zed, _ = boards("GET", "/me/history", user="zed")
    assert (
        zed["items"][0]["unranked_reason"] == "voided" and zed["items"][0]["rank_before_correction"] is None
    )


def test_a_lift_after_the_close_shows_the_ranks_it_moved_down_and_a_void_while_live_shows_nothing(store):
    _board(store)
    _void_zed()  # while DAY is live: the board closes without Zed
    _after_close(store)
    assert _history("cat") == (2, None)
    (sanction,) = boards("GET", "/me", user="zed")[1]["sanctions"]
    status, appealed, _ = boards(
        "POST", "/me/appeals", {"sanction": sanction["sanction"], "reason": "me"}, user="zed"
    )
    assert status == 201
    path = f"/moderation/cases/{appealed['appeal_id']}/decision"
    assert boards("POST", path, {"action": "lift", "reason": "human"}, user="judy", groups=MODS)[0] == 200
    assert _history("cat") == (3, 2)  # "rank 2 → 3, corrected"
    assert _history("zed") == (1, None)


CLOSE = datetime(2026, 1, 16, 6, 3, tzinfo=UTC)  # DAY's board closes
TOP, MID = TieKey(2000, 5, 8), TieKey(900, 3, 6)


@pytest.mark.parametrize(
    "moves, before",
    [
        ([RankMove("2026-01-16T07:00:00Z", TOP, "r-top")], 4),  # a better result voided: up one
        ([RankMove("2026-01-16T07:00:00Z", TOP, "r-top", back=True)], 2),  # put back: down one
        ([RankMove("2026-01-16T05:00:00Z", TOP, "r-top")], None),  # decided before the close
        ([RankMove("2026-01-16T07:00:00Z", MID, "r-tie")], None),  # a tie moves no rank
        ([RankMove("2026-01-16T07:00:00Z", MID, "r-own")], None),  # one's own result
        (
            [
                RankMove("2026-01-16T07:00:00Z", TOP, "r-top"),
                RankMove("2026-01-16T08:00:00Z", TOP, "r-top", back=True),
            ],
            None,  # voided, then put back: the rank it closed with
        ),
    ],
)
def test_the_rank_before_correction_counts_the_decisions_since_the_close_about_better_results(moves, before):
    own = BoardPosition(900, 3, 6, 60_000, "2026-01-15T17:00:00Z", "r-own")
    assert rank_before_correction(3, own, moves, CLOSE) == before
    assert rank_before_correction(None, own, moves, CLOSE) is None
