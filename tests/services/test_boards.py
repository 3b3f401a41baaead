"""Daily and challenge boards (SPEC §4, §5) through real API Gateway v2 events, on the in-memory
board store: order and shared ranks, paging, a player's own rank, hidden words, when a board
closes and stays closed, caching and bad input. The DynamoDB side of the same port is tested by
tests/contract/test_board_store.py."""

import base64
import json
import random
import secrets
from datetime import UTC, date, datetime, timedelta

import pytest

from functions.leaderboard.handler import handler
from shared.game import clock
from shared.game.boards import SETTLE_SECONDS, BoardEntry, BoardPosition, merge_top, page_from_top
from shared.game.clock import parse_iso
from shared.game.constants import TIME_LIMIT_SECONDS
from shared.game.daily_date import reset_instant
from shared.game.errors import BadRequest
from shared.game.names import default_display_name
from shared.game.results import Challenge
from shared.game.scope import Scope
from shared.http.cursors import Cursors, encode_cursor
from shared.http.models import ChallengeView
from shared.runtime.wiring import Services
from shared.services.leaderboard import TOP, WATERMARK_CACHE_SECONDS, Boards
from tests.challenges import week_challenge
from tests.conftest import Api
from tests.fakes.fake_boards import (
    CLOSES,
    CURSOR_KEY,
    DAY,
    NOON,
    completion,
    follow_renames,
    official,
    player,
)
from tests.fakes.fake_store import FakePorts, complete_official, store_at_noon

call = Api(handler)

SETTLED = CLOSES + timedelta(seconds=SETTLE_SECONDS)  # the expiry watermark that closes DAY


@pytest.fixture
def fake(monkeypatch) -> FakePorts:
    """The in-memory store alone, for tests that count its reads."""
    return store_at_noon(monkeypatch)


def record(
    store: FakePorts,
    name: str,
    score: int,
    combo: int = 0,
    longest: int = 0,
    *,
    at: int,
    day: date = DAY,
    **kw,
):
    result = official(
        name, score, combo, longest, completed_at=completion(at, day), day=day.isoformat(), **kw
    )
    complete_official(store, result)
    return result


def close_day(store: FakePorts, day: date = DAY) -> None:
    """Move the clock past DAY's close and the expiry watermark past its settle margin."""
    closes = reset_instant(day + timedelta(days=1)) + timedelta(seconds=TIME_LIMIT_SECONDS)
    clock.travel_to(closes + timedelta(seconds=SETTLE_SECONDS + 30))
    store.runs.mark_completed_through(closes + timedelta(seconds=SETTLE_SECONDS))


def board(day: date = DAY, **query) -> tuple[int, dict, dict]:
    return call("GET", f"/leaderboard/daily/{day.isoformat()}", query={k: str(v) for k, v in query.items()})


def whole_board(limit: int, day: date = DAY) -> list[list[dict]]:
    """Every page of DAY's board, following next_cursor."""
    pages, cursor = [], None
    while True:
        status, body, _ = board(day, limit=limit, **({"cursor": cursor} if cursor else {}))
        assert status == 200, body
        pages.append(body["rows"])
        cursor = body["next_cursor"]
        if cursor is None:
            return pages


def ranks_and_names(rows: list[dict]) -> list[tuple[int, str]]:
    return [(row["rank"], row["display_name"]) for row in rows]


def name_of(name: str) -> str:
    return default_display_name(player(name))


def assert_error(status: int, body: dict, expected_status: int, code: str | None = None) -> None:
    assert status == expected_status, body
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    if code:
        assert body["error"]["code"] == code


# Order and shared ranks ---------------------------------------------------------------------


def test_board_orders_by_score_then_best_combo_then_longest_word(store):
    # Each key alone would order these differently; only (score, combo, longest) descending fits.
    record(store, "a", 300, 1, 4, at=1)
    record(store, "b", 500, 0, 3, at=2)
    record(store, "c", 300, 4, 2, at=3)
    record(store, "d", 300, 4, 9, at=4)
    record(store, "e", 100, 9, 12, at=5)

    status, body, _ = board()

    assert status == 200
    assert ranks_and_names(body["rows"]) == [
        (1, name_of("b")),
        (2, name_of("d")),
        (3, name_of("c")),
        (4, name_of("a")),
        (5, name_of("e")),
    ]
    assert [(r["score"], r["best_combo"], r["longest_word_length"]) for r in body["rows"]] == [
        (500, 0, 3),
        (300, 4, 9),
        (300, 4, 2),
        (300, 1, 4),
        (100, 9, 12),
    ]
    assert set(body["rows"][0]) == {
        "rank",
        "display_name",
        "score",
        "best_combo",
        "longest_word_length",
        "words",
        "review",  # null: no moderation case is open about the row (SPEC §3e)
    }


def test_equal_rows_share_a_rank_1_2_2_4(store):
    # Written in the opposite order of completion: the board sorts by completion, not by write.
    record(store, "late", 200, 2, 5, at=90)
    record(store, "early", 200, 2, 5, at=30)
    record(store, "top", 250, 0, 0, at=100)
    record(store, "last", 150, 9, 9, at=10)

    _, body, _ = board()

    assert ranks_and_names(body["rows"]) == [
        (1, name_of("top")),
        (2, name_of("early")),
        (2, name_of("late")),
        (4, name_of("last")),
    ]


def test_equal_scores_differing_only_in_best_combo_rank_differently(store):
    record(store, "low_combo", 300, 2, 6, at=1)
    record(store, "high_combo", 300, 3, 6, at=2)

    _, body, _ = board()

    assert ranks_and_names(body["rows"]) == [(1, name_of("high_combo")), (2, name_of("low_combo"))]


def test_equal_scores_differing_only_in_longest_word_rank_differently(store):
    record(store, "short", 300, 3, 6, at=1)
    record(store, "long", 300, 3, 7, at=2)

    _, body, _ = board()

    assert ranks_and_names(body["rows"]) == [(1, name_of("long")), (2, name_of("short"))]


def test_an_empty_board_has_no_rows_and_no_cursor(store):
    status, body, _ = board()
    assert (status, body) == (
        200,
        {"date": DAY.isoformat(), "status": "live", "rows": [], "next_cursor": None, "corrections": None},
    )


def test_daily_board_without_a_date_is_today_in_central_time(store):
    clock.travel_to(reset_instant(DAY + timedelta(days=1)) - timedelta(minutes=1))  # 23:59 Central
    record(store, "ann", 120, at=60)

    status, body, _ = call("GET", "/leaderboard/daily")

    assert status == 200
    assert body["date"] == DAY.isoformat() and body["status"] == "live"
    assert ranks_and_names(body["rows"]) == [(1, name_of("ann"))]


def test_board_shows_one_row_per_official_result_of_that_date_only(store):
    record(store, "ann", 120, at=60)
    record(store, "bob", 130, at=60, day=DAY - timedelta(days=1))

    _, today_board, _ = board()
    _, yesterday_board, _ = board(DAY - timedelta(days=1))

    assert ranks_and_names(today_board["rows"]) == [(1, name_of("ann"))]
    assert ranks_and_names(yesterday_board["rows"]) == [(1, name_of("bob"))]


# Paging ----------------------------------------------------------------------------------------


def many_results(store: FakePorts, count: int, seed: int = 7) -> list[tuple[str, int, int, int, str]]:
    """COUNT results with few distinct (score, combo, longest) values, so ties abound; each with
    a distinct completion time, written in a shuffled order."""
    rng = random.Random(seed)
    results = [
        (f"p{i:02d}", rng.choice((100, 200, 300)), rng.choice((1, 2)), rng.choice((5, 6)), 1000 - i)
        for i in range(count)
    ]
    for name, score, combo, longest, at in rng.sample(results, len(results)):
        record(store, name, score, combo, longest, at=at)
    return results


def expected_board(results: list[tuple[str, int, int, int, int]]) -> list[tuple[int, str]]:
    """Board order and ranks computed independently: rank = 1 + rows strictly better."""
    ordered = sorted(results, key=lambda r: (-r[1], -r[2], -r[3], r[4]))
    return [(1 + sum(1 for o in results if o[1:4] > r[1:4]), name_of(r[0])) for r in ordered]


def test_paging_gives_every_row_once_in_order_with_its_rank(store):
    results = many_results(store, 40)
    expected = expected_board(results)
    assert len({name for _, name in expected}) == 40  # default names tell the rows apart

    for limit in (1, 3, 7, 16, 40, 100):
        pages = whole_board(limit)

        assert [ranks_and_names(page) for page in pages] == [
            expected[i : i + limit] for i in range(0, len(expected), limit)
        ], f"limit={limit}"


def test_a_tie_group_split_across_two_pages_keeps_its_shared_rank(store):
    record(store, "first", 500, at=1)
    for seconds, name in enumerate([f"tie{i}" for i in range(4)], start=10):
        record(store, name, 400, 2, 5, at=seconds)
    record(store, "after", 300, at=2)

    pages = whole_board(limit=3)

    assert [ranks_and_names(page) for page in pages] == [
        [(1, name_of("first")), (2, name_of("tie0")), (2, name_of("tie1"))],
        [(2, name_of("tie2")), (2, name_of("tie3")), (6, name_of("after"))],
    ]


def test_a_page_ending_exactly_at_the_last_row_has_no_next_cursor(store):
    for i in range(4):
        record(store, f"p{i}", 100 * i, at=i)

    _, first, _ = board(limit=2)
    _, second, _ = board(limit=2, cursor=first["next_cursor"])

    assert first["next_cursor"] and second["next_cursor"] is None
    assert [r["rank"] for r in first["rows"] + second["rows"]] == [1, 2, 3, 4]


def test_default_page_is_50_rows(store):
    many_results(store, 60)

    _, body, _ = call("GET", "/leaderboard/daily")

    assert len(body["rows"]) == 50 and body["next_cursor"]


# A player's own rank ------------------------------------------------------------------------


def test_my_rank_is_the_rank_the_board_shows(store):
    results = many_results(store, 30)
    on_board = {name: rank for page in whole_board(100) for rank, name in ranks_and_names(page)}

    for name, score, combo, longest, _ in results:
        status, body, _ = call("GET", "/leaderboard/daily/me", user=name, query={"date": DAY.isoformat()})
        assert status == 200
        assert body["rank"] == on_board[name_of(name)]
        assert (body["score"], body["best_combo"], body["longest_word_length"]) == (score, combo, longest)
        assert body["display_name"] == name_of(name) and body["date"] == DAY.isoformat()


def test_my_rank_without_a_date_is_today(store):
    record(store, "ann", 100, at=5)
    record(store, "bob", 200, at=6)

    status, body, _ = call("GET", "/leaderboard/daily/me", user="ann")

    assert status == 200 and body["rank"] == 2 and body["status"] == "live" and body["words"] is None


def test_my_rank_is_404_not_ranked_without_an_official_result_that_date(store):
    record(store, "ann", 100, at=5, day=DAY - timedelta(days=1))

    status, body, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": DAY.isoformat()})
    assert_error(status, body, 404, "not_ranked")
    status, body, _ = call("GET", "/leaderboard/daily/me", user="bob")
    assert_error(status, body, 404, "not_ranked")


def test_my_rank_needs_a_token(store):
    status, body, _ = call("GET", "/leaderboard/daily/me")
    assert_error(status, body, 401, "unauthorized")


# Words: hidden while live, shown once the board is closed --------------------------------------


def test_words_are_hidden_while_the_date_is_live(store):
    record(store, "ann", 100, at=5, words=("zygote", "quixotic"))

    for path, user in (
        ("/leaderboard/daily", None),
        (f"/leaderboard/daily/{DAY}", None),
        ("/leaderboard/daily/me", "ann"),
    ):
        status, body, raw = call("GET", path, user=user)
        assert status == 200 and body["status"] == "live"
        rows = body.get("rows") or [body]
        assert [row["words"] for row in rows] == [None]
        assert "zygote" not in raw["body"] and "quixotic" not in raw["body"]


@pytest.mark.parametrize("after_reset", [timedelta(0), timedelta(seconds=90), timedelta(seconds=179.5)])
@pytest.mark.usefixtures("still_clock")
def test_words_stay_hidden_from_the_reset_until_the_time_limit_has_passed(store, after_reset):
    record(store, "ann", 100, at=5, words=("zygote",))
    store.runs.mark_completed_through(SETTLED + timedelta(days=1))  # even with every run completed
    clock.travel_to(reset_instant(DAY + timedelta(days=1)) + after_reset)

    _, body, raw = board()
    _, mine, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": DAY.isoformat()})

    assert body["status"] == "live" and body["rows"][0]["words"] is None and "zygote" not in raw["body"]
    assert mine["status"] == "live" and mine["words"] is None


@pytest.mark.parametrize(
    "day, reset_utc_hour",
    [(DAY, 6), (date(2026, 7, 4), 5)],  # the reset is 00:00 Central: 06:00 UTC in winter, 05:00 in summer
)
def test_words_are_shown_once_closed_from_the_reset_plus_the_time_limit(store, day, reset_utc_hour):
    clock.travel_to(reset_instant(day) + timedelta(hours=12))
    record(store, "ann", 100, at=5, day=day, words=("zygote", "quixotic"))
    next_reset = datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    closes = next_reset + timedelta(hours=reset_utc_hour, seconds=TIME_LIMIT_SECONDS)
    store.runs.mark_completed_through(closes + timedelta(days=1))

    clock.travel_to(closes - timedelta(milliseconds=500))
    _, before, _ = board(day)
    clock.travel_to(closes)
    _, after, _ = board(day)
    _, mine, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": day.isoformat()})

    assert (before["status"], before["rows"][0]["words"]) == ("live", None)
    assert (after["status"], after["rows"][0]["words"]) == ("closed", ["zygote", "quixotic"])
    assert (mine["status"], mine["words"]) == ("closed", ["zygote", "quixotic"])


# A closed board is final (SPEC §4) -------------------------------------------------------------


def test_a_board_is_closed_only_once_every_run_of_the_date_has_completed(store):
    record(store, "ann", 100, at=5, words=("zygote",))
    clock.travel_to(CLOSES + timedelta(minutes=5))

    assert board()[1]["status"] == "live"  # no expiry pass yet
    for watermark, status in (
        (CLOSES, "live"),  # every run is done, but the counters may still trail
        (SETTLED - timedelta(milliseconds=1), "live"),
        (SETTLED, "closed"),
    ):
        store.runs.mark_completed_through(watermark)
        clock.advance(WATERMARK_CACHE_SECONDS)  # a container reads the watermark this often
        assert board()[1]["status"] == status
    _, body, raw = board()
    assert body["status"] == "closed" and body["rows"][0]["words"] == ["zygote"]
    # Closed, a moderator's decision may still move a row (SPEC §3e); final, it is cached for good
    # (tests/services/test_moderation.py, "final").
    assert raw["headers"]["Cache-Control"] == "public, max-age=60"


def test_an_abandoned_run_completed_by_the_expiry_job_is_on_the_closed_board(store):
    record(store, "ann", 300, at=60)
    clock.travel_to(CLOSES + timedelta(seconds=30))
    assert board()[1]["status"] == "live"
    # The expiry job completes the run started at 23:59:50 at its deadline, then moves its mark.
    record(store, "late", 270, at=86_390 + TIME_LIMIT_SECONDS)
    store.runs.mark_completed_through(SETTLED)
    clock.travel_to(SETTLED + timedelta(seconds=1))

    _, body, _ = board()
    _, mine, _ = call("GET", "/leaderboard/daily/me", user="late", query={"date": DAY.isoformat()})

    assert body["status"] == "closed"
    assert ranks_and_names(body["rows"]) == [(1, name_of("ann")), (2, name_of("late"))]
    assert (mine["status"], mine["rank"]) == ("closed", 2)


def test_a_closed_board_reads_byte_identical_an_hour_later_even_after_a_rename(store):
    record(store, "ann", 300, at=5)
    record(store, "bob", 200, at=6)
    close_day(store)
    _, _, first = board()

    assert call("PUT", "/me", {"display_name": "Renamed"}, user="ann")[0] == 200
    follow_renames(store)
    clock.advance(3600)
    _, body, second = board()

    assert second["body"] == first["body"]
    assert body["rows"][0]["display_name"] == name_of("ann")  # the name ann had at the close time


def test_a_board_shows_the_name_its_players_had_at_its_close_time(store):
    record(store, "ann", 300, at=5)
    assert call("PUT", "/me", {"display_name": "Annie"}, user="ann")[0] == 200  # reaches the live board
    follow_renames(store)
    clock.travel_to(CLOSES)
    assert call("PUT", "/me", {"display_name": "Too Late"}, user="ann")[0] == 200  # past its close time
    follow_renames(store)

    assert board()[1]["rows"][0]["display_name"] == "Annie"
    close_day(store)
    assert board()[1]["rows"][0]["display_name"] == "Annie"
    assert call("GET", "/me", user="ann")[1]["display_name"] == "Too Late"


def test_once_closed_the_watermark_is_not_read_again(fake):
    store = fake
    record(store, "ann", 300, at=5)
    close_day(store)
    for _ in range(5):
        assert board()[1]["status"] == "closed"

    assert store.table.reads["completed_through"] == 1


def test_cache_control_is_short_while_live(store):
    record(store, "ann", 100, at=5)
    clock.travel_to(CLOSES - timedelta(seconds=1))

    for path in ("/leaderboard/daily", f"/leaderboard/daily/{DAY}"):
        assert call("GET", path)[2]["headers"]["Cache-Control"] == "public, max-age=5"


def test_today_board_stays_short_cached_and_wordless_while_yesterday_closes(store):
    close_day(store)
    clock.advance(3600)
    record(store, "ann", 100, at=5, day=DAY + timedelta(days=1))

    _, body, raw = call("GET", "/leaderboard/daily")

    assert body["date"] == (DAY + timedelta(days=1)).isoformat() and body["status"] == "live"
    assert body["rows"][0]["words"] is None and raw["headers"]["Cache-Control"] == "public, max-age=5"


# Display names on live boards ----------------------------------------------------------------


def test_a_live_board_shows_the_current_name_without_reading_profiles(fake):
    store = fake
    record(store, "ann", 300, at=5)
    record(store, "ann", 100, at=5, day=DAY - timedelta(days=1))
    assert board()[1]["rows"][0]["display_name"] == name_of("ann")

    assert call("PUT", "/me", {"display_name": "Annie"}, user="ann")[0] == 200
    follow_renames(store)

    assert board()[1]["rows"][0]["display_name"] == "Annie"
    assert board(DAY - timedelta(days=1))[1]["rows"][0]["display_name"] == name_of("ann")  # past its close
    assert call("GET", "/leaderboard/daily/me", user="ann")[1]["display_name"] == "Annie"
    assert "display_names" not in store.table.reads


def test_a_rename_reaches_a_live_challenge_board_but_not_a_closed_one(store):
    old = challenge_of(store, NOON - timedelta(days=9))  # closed two days ago
    new = challenge_of(store, NOON - timedelta(days=1))
    for challenge in (old, new):
        record(store, "ann", 300, at=5, challenge_id=challenge.challenge_id, day=DAY - timedelta(days=1))
    store.runs.mark_completed_through(NOON)
    boards = Services(store).boards
    before = challenge_view(boards, old, None, 50)

    assert call("PUT", "/me", {"display_name": "Annie"}, user="ann")[0] == 200
    follow_renames(store)

    assert challenge_view(boards, old, None, 50) == before and before["status"] == "closed"
    assert challenge_view(boards, new, None, 50)["rows"][0]["display_name"] == "Annie"


# Challenge boards -----------------------------------------------------------------------------


CURSORS = Cursors(lambda: CURSOR_KEY)


def challenge_view(boards: Boards, challenge: Challenge, cursor: str | None, limit: int) -> dict:
    """A challenge's page as `GET /challenges/{id}` answers it (functions/daily/handler.py)."""
    start = CURSORS.board_start(Scope.challenge(challenge.challenge_id), cursor)
    board = boards.challenge_board(challenge, start, limit)
    return ChallengeView.of(board, CURSORS.next_page(board.page)).model_dump()


def challenge_of(store: FakePorts, created: datetime) -> Challenge:
    challenge = week_challenge(secrets.token_urlsafe(12), created)
    store.runs.create_challenge(challenge, DAY.isoformat(), 20)
    return challenge


def test_challenge_board_ranks_like_the_daily_and_shows_words_once_closed(store):
    challenge = challenge_of(store, NOON)
    boards = Services(store).boards
    for name, score, combo, at in (("a", 200, 1, 10), ("b", 200, 1, 5), ("c", 200, 2, 20), ("d", 100, 9, 1)):
        record(store, name, score, combo, 5, at=at, challenge_id=challenge.challenge_id)

    view = challenge_view(boards, challenge, None, 50)
    assert view["status"] == "live" and view["open"] is True
    assert ranks_and_names(view["rows"]) == [
        (1, name_of("c")),
        (2, name_of("b")),
        (2, name_of("a")),
        (4, name_of("d")),
    ]
    assert all(row["words"] is None for row in view["rows"])

    closes = parse_iso(challenge.closes_at) + timedelta(seconds=TIME_LIMIT_SECONDS)
    store.runs.mark_completed_through(closes + timedelta(seconds=SETTLE_SECONDS))
    clock.travel_to(closes - timedelta(milliseconds=500))
    assert all(row["words"] is None for row in challenge_view(boards, challenge, None, 50)["rows"])
    clock.travel_to(closes)
    closed = challenge_view(boards, challenge, None, 50)
    assert closed["status"] == "closed" and all(row["words"] == ["timer"] for row in closed["rows"])

    first = challenge_view(boards, challenge, None, 3)
    second = challenge_view(boards, challenge, first["next_cursor"], 3)
    assert [r["rank"] for r in first["rows"] + second["rows"]] == [1, 2, 2, 4]


def test_a_challenge_board_stays_live_until_its_runs_have_completed(store):
    challenge = challenge_of(store, NOON)
    boards = Services(store).boards
    closes = parse_iso(challenge.closes_at) + timedelta(seconds=TIME_LIMIT_SECONDS)
    clock.travel_to(closes + timedelta(hours=1))
    store.runs.mark_completed_through(closes)

    assert challenge_view(boards, challenge, None, 50)["status"] == "live"


# Bad input: 400 with the envelope, never 500 ---------------------------------------------------


@pytest.mark.parametrize(
    "day",
    [
        "2026-1-5",
        "yesterday",
        "2026-02-30",
        "2026-13-01",
        "20260105",
        "2026-01-05T00:00",
        "2026-W01-1",  # an ISO week date Python's date.fromisoformat accepts: not YYYY-MM-DD
        "2026_01_05",
        "0000-01-01",
    ],
)
def test_a_date_that_is_not_yyyy_mm_dd_is_400(store, day):
    status, body, _ = call("GET", f"/leaderboard/daily/{day}")
    assert_error(status, body, 400)
    status, body, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": day})
    assert_error(status, body, 400)


@pytest.mark.parametrize("day", [DAY + timedelta(days=1), date(9999, 12, 31)])
def test_a_future_date_is_400(store, day):
    status, body, _ = board(day)
    assert_error(status, body, 400, "future_date")
    status, body, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": day.isoformat()})
    assert_error(status, body, 400, "future_date")


def test_tomorrow_in_central_time_is_future_even_when_it_is_already_that_date_in_utc(store):
    clock.travel_to(
        reset_instant(DAY + timedelta(days=1)) - timedelta(minutes=30)
    )  # 23:30 Central, 05:30 UTC
    status, body, _ = board(DAY + timedelta(days=1))
    assert_error(status, body, 400, "future_date")
    assert board(DAY)[0] == 200


def test_a_long_past_date_is_an_empty_final_board(store):
    store.runs.mark_completed_through(NOON)
    status, body, _ = board(date(2001, 1, 1))
    assert (status, body["status"], body["rows"]) == (200, "final", [])  # its review window is over


@pytest.mark.parametrize("limit", ["0", "101", "10000", "abc", "-1", "", "1.5", "1e2"])
def test_a_limit_outside_1_to_100_is_400(store, limit):
    for path in ("/leaderboard/daily", f"/leaderboard/daily/{DAY}"):
        status, body, _ = call("GET", path, query={"limit": limit})
        assert_error(status, body, 400)


@pytest.mark.parametrize("limit", ["1", "100"])
def test_limits_1_and_100_are_accepted(store, limit):
    assert board(limit=limit)[0] == 200


def real_cursor(store: FakePorts, day: date = DAY) -> str:
    """A cursor the API gave out for DAY's board."""
    for i in range(3):
        record(store, f"c{i}", 100 + i, at=i, day=day)
    _, body, _ = board(day, limit=1)
    assert body["next_cursor"]
    return body["next_cursor"]


def tampered(cursor: str) -> str:
    """The cursor with its payload changed (rank 1 from the start) and its signature kept."""
    raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    payload = json.loads(raw[16:])
    payload.update(shown=0, rank=1)
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw[:16] + body).decode().rstrip("=")


def test_a_forged_cursor_is_400(store):
    cursor = real_cursor(store)
    payload = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))[16:])
    forged = {
        "random base64": base64.urlsafe_b64encode(secrets.token_bytes(48)).decode(),
        "random json": base64.urlsafe_b64encode(b"x" * 16 + json.dumps(payload).encode()).decode(),
        "tampered payload": tampered(cursor),
        "signed with another key": encode_cursor(payload, b"not the deployment's key"),
        "truncated": cursor[:-6],
        "one character changed": cursor[:20] + ("A" if cursor[20] != "A" else "B") + cursor[21:],
        "not base64": "%%%not-a-cursor%%%",
        "not ascii": "curs\u00f6r",
        "too long": "A" * 5000,
        "signed, but not a board position": encode_cursor({**payload, "after": ["x"]}, CURSOR_KEY),
    }
    for what, text in forged.items():
        status, body, _ = board(cursor=text)
        assert status == 400, what
        assert_error(status, body, 400)


def test_a_cursor_from_another_dates_board_is_400(store):
    yesterday = DAY - timedelta(days=1)
    cursor = real_cursor(store, yesterday)

    status, body, _ = board(DAY, cursor=cursor)
    assert_error(status, body, 400, "invalid_cursor")
    assert board(yesterday, cursor=cursor)[0] == 200


def test_a_history_cursor_is_not_a_board_cursor(store):
    for i in range(3):
        record(store, "ann", 100, at=5, day=DAY - timedelta(days=i))
    _, history, _ = call("GET", "/me/history", user="ann", query={"limit": "1"})

    status, body, _ = board(cursor=history["next_cursor"])
    assert_error(status, body, 400, "invalid_cursor")


def test_a_board_cursor_on_a_challenge_board_is_400(store):
    cursor = real_cursor(store)
    challenge = challenge_of(store, NOON)

    with pytest.raises(BadRequest) as refused:
        CURSORS.board_start(Scope.challenge(challenge.challenge_id), cursor)
    assert refused.value.code == "invalid_cursor"


def test_a_cursor_signed_with_the_previous_key_still_pages_after_a_rotation(store):
    for index in range(3):
        record(store, f"p{index}", 100 + index, at=5 + index)
    store.runs.mark_completed_through(NOON)
    boards, scope = Services(store).boards, Scope.daily(DAY.isoformat())
    cursor = Cursors(lambda: b"the key before the rotation").next_page(boards.daily_board(DAY, TOP, 2))
    assert cursor is not None

    rotated = Cursors(lambda: b"the new key", older_keys=lambda: (b"the key before the rotation",))
    assert [row.score for row in boards.daily_board(DAY, rotated.board_start(scope, cursor), 2).rows] == [100]
    with pytest.raises(BadRequest):
        Cursors(lambda: b"the new key").board_start(scope, cursor)


# The top of a board (page 1 and 2 of 50 in one item on DynamoDB) -------------------------------


def _entry(name: str, score: int, at: int) -> BoardEntry:
    return BoardEntry(
        player(name), BoardPosition(score, 0, 0, 60_000, completion(at), f"run-{name}"), ["timer"], None
    )


def test_merging_into_the_top_keeps_the_best_rows_in_board_order():
    top = [_entry("ann", 300, 1), _entry("bob", 200, 2)]
    merged = merge_top(top, [_entry("cat", 250, 3), _entry("dan", 100, 4), _entry("eve", 300, 0)], size=3)
    assert [e.player for e in merged] == [player("eve"), player("ann"), player("cat")]


def test_a_result_merged_again_into_the_top_changes_nothing():
    """A player has one row per board: a redelivered result (or the same row again, with another
    name read) does not duplicate or replace the row already there."""
    top = [_entry("ann", 300, 1)._replace(display_name="Annie"), _entry("bob", 200, 2)]
    again = merge_top(top, [_entry("ann", 300, 1), _entry("bob", 200, 2)])
    assert again == top


def test_a_page_is_served_from_the_top_only_when_the_top_holds_it():
    rows = [_entry(f"p{i}", 1000 - 5 * i, i) for i in range(5)]
    # fewer rows than it can hold: the top is the whole board
    assert page_from_top(rows[:3], None, 10, size=5) == rows[:3]
    assert page_from_top(rows[:3], rows[2].position, 10, size=5) == []
    # full: it answers for the rows up to its last one, and not past it
    assert page_from_top(rows, None, 3, size=5) == rows[:3]
    assert page_from_top(rows, rows[1].position, 3, size=5) == rows[2:5]
    assert page_from_top(rows, rows[2].position, 3, size=5) is None
    assert page_from_top(rows, _entry("late", 1, 99).position, 3, size=5) is None


def test_a_challenge_names_its_creator_and_their_score_once_they_have_played(store):
    challenge = challenge_of(store, NOON)
    boards = Services(store).boards
    view = challenge_view(boards, challenge, None, 50)
    assert (view["creator_name"], view["creator_score"]) == (name_of("maker"), None)
    store.names.set_display_name(player("maker"), "Mara Makes")
    assert challenge_view(boards, challenge, None, 50)["creator_name"] == "Mara Makes"
    record(store, "maker", 1010, at=5, challenge_id=challenge.challenge_id)
    record(store, "rival", 990, at=6, challenge_id=challenge.challenge_id)
    view = challenge_view(boards, challenge, None, 50)
    assert (view["creator_name"], view["creator_score"]) == ("Mara Makes", 1010)


def test_my_rank_says_how_many_players_are_on_the_board(store):
    for number, score in enumerate((300, 200, 200, 100)):
        record(store, f"p{number}", score, at=number + 1)
    status, body, _ = call("GET", "/leaderboard/daily/me", user="p2", query={"date": DAY.isoformat()})
    assert status == 200 and (body["rank"], body["players"]) == (2, 4)
