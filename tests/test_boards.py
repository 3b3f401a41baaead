"""Daily and challenge boards through real API Gateway v2 events (SPEC §4, §5): order and shared
ranks, paging across shard partitions, a player's own rank, hidden words, caching and bad input."""

import base64
import json
import random
import secrets
from datetime import UTC, date, datetime, timedelta

import pytest

from functions.daily.handler import handler as daily_handler
from functions.leaderboard.handler import handler
from shared import clock, wiring
from shared.boards import BOARD_SHARDS, encode_cursor, shard_of
from shared.clock import iso, parse_iso
from shared.constants import TIME_LIMIT_SECONDS
from shared.daily_date import reset_instant
from shared.profiles import default_display_name
from shared.puzzles import Round
from shared.runs import Attempt, RoundRecord, new_run
from shared.store import OfficialResult
from tests.conftest import Api

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

call = Api(handler)
call_daily = Api(daily_handler)

DAY = date(2026, 1, 15)  # a winter date: its reset is 06:00 UTC
NOON = datetime(2026, 1, 15, 18, 0, tzinfo=UTC)  # 12:00 Central on DAY, while DAY is live
CLOSES = reset_instant(DAY + timedelta(days=1)) + timedelta(seconds=TIME_LIMIT_SECONDS)
PUZZLE = [Round("TMR", "")] * 10  # results are written complete; this puzzle is never played


def player(name: str) -> str:
    """The player id the Api helper's `user=name` authenticates as."""
    return f"sub-{name}"


def completion(seconds: int, day: date = DAY) -> str:
    """An official completion time SECONDS after 00:00 Central on DAY."""
    return iso(reset_instant(day) + timedelta(seconds=seconds))


def record_official(
    name: str,
    score: int,
    best_combo: int = 0,
    longest: int = 0,
    *,
    completed_at: str,
    day: date = DAY,
    words: tuple[str, ...] = ("timer",),
    challenge_id: str | None = None,
) -> OfficialResult:
    """Write a completed run and its official result the way the game does (one transaction)."""
    store = wiring.store()
    kind = "challenge" if challenge_id else "daily"
    started = parse_iso(completed_at) - timedelta(seconds=60)
    run = new_run(
        secrets.token_urlsafe(12),
        kind,
        day.isoformat(),
        PUZZLE,
        started,
        player(name),
        True,
        challenge_id,
    )
    version = store.create_run(run)
    run.history = [
        RoundRecord(
            round=n, prompt="TMR", forbidden="", attempts=[Attempt(word=w, accepted=True, reason=None)]
        )
        for n, w in enumerate(words, start=1)
    ]
    run.score, run.best_combo, run.longest_word_length = score, best_combo, longest
    run.completed_at, run.ended_by = completed_at, "finished"
    store.complete_run(run, version)
    result = store.official_result(player(name), f"{kind.upper()}#{challenge_id or day.isoformat()}")
    assert result is not None and result.words == list(words)
    return result


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


@pytest.fixture
def live(table):
    """The table, with the game clock at noon Central on DAY (DAY's board is live)."""
    clock.travel_to(NOON)
    return table


# Order and shared ranks ---------------------------------------------------------------------


def test_board_orders_by_score_then_best_combo_then_longest_word(live):
    # Each key alone would order these differently; only (score, combo, longest) descending fits.
    record_official("a", 300, 1, 4, completed_at=completion(1))
    record_official("b", 500, 0, 3, completed_at=completion(2))
    record_official("c", 300, 4, 2, completed_at=completion(3))
    record_official("d", 300, 4, 9, completed_at=completion(4))
    record_official("e", 100, 9, 12, completed_at=completion(5))

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
    }


def test_equal_rows_share_a_rank_1_2_2_4(live):
    # Written in the opposite order of completion: the board sorts by completion, not by write.
    record_official("late", 200, 2, 5, completed_at=completion(90))
    record_official("early", 200, 2, 5, completed_at=completion(30))
    record_official("top", 250, 0, 0, completed_at=completion(100))
    record_official("last", 150, 9, 9, completed_at=completion(10))

    _, body, _ = board()

    assert ranks_and_names(body["rows"]) == [
        (1, name_of("top")),
        (2, name_of("early")),
        (2, name_of("late")),
        (4, name_of("last")),
    ]


def test_a_tie_of_three_across_shards_is_listed_by_completion_then_the_next_rank_skips(live):
    names = ["t0", "t1", "t2", "t3", "t4", "t5"]
    tied = [n for n in names if shard_of(player(n)) != shard_of(player("t0"))][:2] + ["t0"]
    assert len({shard_of(player(n)) for n in tied}) > 1
    for seconds, name in zip((50, 20, 35), tied, strict=True):
        record_official(name, 400, 3, 7, completed_at=completion(seconds))
    record_official("below", 400, 3, 6, completed_at=completion(1))

    _, body, _ = board()

    by_completion = [tied[1], tied[2], tied[0]]
    assert ranks_and_names(body["rows"]) == [(1, name_of(n)) for n in by_completion] + [(4, name_of("below"))]


def test_equal_scores_differing_only_in_best_combo_rank_differently(live):
    record_official("low_combo", 300, 2, 6, completed_at=completion(1))
    record_official("high_combo", 300, 3, 6, completed_at=completion(2))

    _, body, _ = board()

    assert ranks_and_names(body["rows"]) == [(1, name_of("high_combo")), (2, name_of("low_combo"))]


def test_equal_scores_differing_only_in_longest_word_rank_differently(live):
    record_official("short", 300, 3, 6, completed_at=completion(1))
    record_official("long", 300, 3, 7, completed_at=completion(2))

    _, body, _ = board()

    assert ranks_and_names(body["rows"]) == [(1, name_of("long")), (2, name_of("short"))]


def test_an_empty_board_has_no_rows_and_no_cursor(live):
    status, body, _ = board()
    assert (status, body) == (
        200,
        {"date": DAY.isoformat(), "status": "live", "rows": [], "next_cursor": None},
    )


def test_daily_board_without_a_date_is_today_in_central_time(live):
    clock.travel_to(reset_instant(DAY + timedelta(days=1)) - timedelta(minutes=1))  # 23:59 Central
    record_official("ann", 120, completed_at=completion(60))

    status, body, _ = call("GET", "/leaderboard/daily")

    assert status == 200
    assert body["date"] == DAY.isoformat() and body["status"] == "live"
    assert ranks_and_names(body["rows"]) == [(1, name_of("ann"))]


def test_board_shows_one_row_per_official_result_of_that_date_only(live):
    record_official("ann", 120, completed_at=completion(60))
    record_official(
        "bob", 130, completed_at=completion(60, DAY - timedelta(days=1)), day=DAY - timedelta(days=1)
    )

    _, today_board, _ = board()
    _, yesterday_board, _ = board(DAY - timedelta(days=1))

    assert ranks_and_names(today_board["rows"]) == [(1, name_of("ann"))]
    assert ranks_and_names(yesterday_board["rows"]) == [(1, name_of("bob"))]


# Paging across shard partitions -------------------------------------------------------------


def many_results(count: int, seed: int = 7) -> list[tuple[str, int, int, int, str]]:
    """COUNT results with few distinct (score, combo, longest) values, so ties abound; each with
    a distinct completion time, written in a shuffled order."""
    rng = random.Random(seed)
    results = [
        (
            f"p{i:02d}",
            rng.choice((100, 200, 300)),
            rng.choice((1, 2)),
            rng.choice((5, 6)),
            completion(1000 - i),
        )
        for i in range(count)
    ]
    for name, score, combo, longest, completed_at in results:
        record_official(name, score, combo, longest, completed_at=completed_at)
    return results


def expected_board(results: list[tuple[str, int, int, int, str]]) -> list[tuple[int, str]]:
    """Board order and ranks computed independently: rank = 1 + rows strictly better."""
    ordered = sorted(results, key=lambda r: (-r[1], -r[2], -r[3], r[4]))
    return [
        (1 + sum(1 for o in results if (o[1], o[2], o[3]) > (r[1], r[2], r[3])), name_of(r[0]))
        for r in ordered
    ]


def test_paging_gives_every_row_once_in_order_with_its_rank(live):
    results = many_results(40)
    assert {shard_of(player(r[0])) for r in results} == set(range(BOARD_SHARDS))
    expected = expected_board(results)
    assert len({name for _, name in expected}) == 40  # default names tell the rows apart

    for limit in (1, 3, 7, 16, 40, 100):
        pages = whole_board(limit)

        assert [ranks_and_names(page) for page in pages] == [
            expected[i : i + limit] for i in range(0, len(expected), limit)
        ], f"limit={limit}"


def test_a_tie_group_split_across_two_pages_keeps_its_shared_rank(live):
    record_official("first", 500, completed_at=completion(1))
    tied = [f"tie{i}" for i in range(4)]
    for seconds, name in enumerate(tied, start=10):
        record_official(name, 400, 2, 5, completed_at=completion(seconds))
    record_official("after", 300, completed_at=completion(2))
    assert len({shard_of(player(n)) for n in tied}) > 1

    pages = whole_board(limit=3)

    assert [ranks_and_names(page) for page in pages] == [
        [(1, name_of("first")), (2, name_of("tie0")), (2, name_of("tie1"))],
        [(2, name_of("tie2")), (2, name_of("tie3")), (6, name_of("after"))],
    ]


def test_a_page_ending_exactly_at_the_last_row_has_no_next_cursor(live):
    for i in range(4):
        record_official(f"p{i}", 100 * i, completed_at=completion(i))

    _, first, _ = board(limit=2)
    _, second, _ = board(limit=2, cursor=first["next_cursor"])

    assert first["next_cursor"] and second["next_cursor"] is None
    assert [r["rank"] for r in first["rows"] + second["rows"]] == [1, 2, 3, 4]


def test_default_page_is_50_rows(live):
    many_results(60)

    _, body, _ = call("GET", "/leaderboard/daily")

    assert len(body["rows"]) == 50 and body["next_cursor"]


# A player's own rank ------------------------------------------------------------------------


def test_my_rank_is_the_rank_the_board_shows(live):
    results = many_results(30)
    on_board = {name: rank for page in whole_board(100) for rank, name in ranks_and_names(page)}

    for name, score, combo, longest, _ in results:
        status, body, _ = call("GET", "/leaderboard/daily/me", user=name, query={"date": DAY.isoformat()})
        assert status == 200
        assert body["rank"] == on_board[name_of(name)]
        assert (body["score"], body["best_combo"], body["longest_word_length"]) == (score, combo, longest)
        assert body["display_name"] == name_of(name) and body["date"] == DAY.isoformat()


def test_my_rank_without_a_date_is_today(live):
    record_official("ann", 100, completed_at=completion(5))
    record_official("bob", 200, completed_at=completion(6))

    status, body, _ = call("GET", "/leaderboard/daily/me", user="ann")

    assert status == 200 and body["rank"] == 2 and body["status"] == "live" and body["words"] is None


def test_my_rank_is_404_not_ranked_without_an_official_result_that_date(live):
    record_official(
        "ann", 100, completed_at=completion(5, DAY - timedelta(days=1)), day=DAY - timedelta(days=1)
    )

    status, body, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": DAY.isoformat()})
    assert_error(status, body, 404, "not_ranked")
    status, body, _ = call("GET", "/leaderboard/daily/me", user="bob")
    assert_error(status, body, 404, "not_ranked")


def test_my_rank_needs_a_token(live):
    status, body, _ = call("GET", "/leaderboard/daily/me")
    assert_error(status, body, 401, "unauthorized")


# Words: hidden while live, shown from the reset plus the time limit ----------------------------


def test_words_are_hidden_while_the_date_is_live(live):
    record_official("ann", 100, completed_at=completion(5), words=("zygote", "quixotic"))

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
def test_words_stay_hidden_from_the_reset_until_the_time_limit_has_passed(live, after_reset):
    record_official("ann", 100, completed_at=completion(5), words=("zygote",))
    clock.travel_to(reset_instant(DAY + timedelta(days=1)) + after_reset)

    _, body, raw = board()
    _, mine, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": DAY.isoformat()})

    assert body["status"] == "live" and body["rows"][0]["words"] is None and "zygote" not in raw["body"]
    assert mine["status"] == "live" and mine["words"] is None


@pytest.mark.parametrize(
    "day, reset_utc_hour",
    [(DAY, 6), (date(2026, 7, 4), 5)],  # the reset is 00:00 Central: 06:00 UTC in winter, 05:00 in summer
)
def test_words_are_shown_from_the_reset_plus_the_time_limit(table, day, reset_utc_hour):
    clock.travel_to(reset_instant(day) + timedelta(hours=12))
    record_official("ann", 100, completed_at=completion(5, day), day=day, words=("zygote", "quixotic"))
    next_reset = datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    opens = next_reset + timedelta(hours=reset_utc_hour, seconds=TIME_LIMIT_SECONDS)

    clock.travel_to(opens - timedelta(milliseconds=500))
    _, before, _ = board(day)
    clock.travel_to(opens)
    _, after, _ = board(day)
    _, mine, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": day.isoformat()})

    assert (before["status"], before["rows"][0]["words"]) == ("live", None)
    assert (after["status"], after["rows"][0]["words"]) == ("closed", ["zygote", "quixotic"])
    assert (mine["status"], mine["words"]) == ("closed", ["zygote", "quixotic"])


def max_age(raw: dict) -> int:
    directives = dict(part.strip().partition("=")[::2] for part in raw["headers"]["Cache-Control"].split(","))
    return int(directives["max-age"])


def test_cache_control_is_short_while_live_and_long_once_closed(live):
    record_official("ann", 100, completed_at=completion(5))

    live_ages = [max_age(call("GET", "/leaderboard/daily")[2]), max_age(board()[2])]
    clock.travel_to(CLOSES - timedelta(seconds=1))
    live_ages.append(max_age(board()[2]))
    clock.travel_to(CLOSES)
    closed_age = max_age(board()[2])

    assert all(0 < age <= 60 for age in live_ages)
    assert closed_age >= 3600


def test_today_board_stays_short_cached_and_wordless_while_yesterday_closes(live):
    clock.travel_to(CLOSES + timedelta(hours=1))
    record_official(
        "ann", 100, completed_at=completion(5, DAY + timedelta(days=1)), day=DAY + timedelta(days=1)
    )

    _, body, raw = call("GET", "/leaderboard/daily")

    assert body["date"] == (DAY + timedelta(days=1)).isoformat() and body["status"] == "live"
    assert body["rows"][0]["words"] is None and max_age(raw) <= 60


# Challenge boards -----------------------------------------------------------------------------


def test_challenge_board_ranks_like_the_daily_and_hides_words_until_closed_plus_time_limit(live):
    challenge = wiring.game().create_challenge(player("maker"), 5, 0)
    record_official("a", 200, 1, 5, completed_at=completion(10), challenge_id=challenge.challenge_id)
    record_official("b", 200, 1, 5, completed_at=completion(5), challenge_id=challenge.challenge_id)
    record_official("c", 200, 2, 5, completed_at=completion(20), challenge_id=challenge.challenge_id)
    record_official("d", 100, 9, 9, completed_at=completion(1), challenge_id=challenge.challenge_id)
    path = f"/challenges/{challenge.challenge_id}"

    status, body, raw = call_daily("GET", path)
    assert status == 200 and body["status"] == "live"
    assert ranks_and_names(body["rows"]) == [
        (1, name_of("c")),
        (2, name_of("b")),
        (2, name_of("a")),
        (4, name_of("d")),
    ]
    assert all(row["words"] is None for row in body["rows"]) and "timer" not in raw["body"]

    shown_from = parse_iso(challenge.closes_at) + timedelta(seconds=TIME_LIMIT_SECONDS)
    clock.travel_to(shown_from - timedelta(milliseconds=500))
    assert all(row["words"] is None for row in call_daily("GET", path)[1]["rows"])
    clock.travel_to(shown_from)
    _, closed, _ = call_daily("GET", path)
    assert closed["status"] == "closed" and all(row["words"] == ["timer"] for row in closed["rows"])

    _, first, _ = call_daily("GET", path, query={"limit": "3"})
    _, second, _ = call_daily("GET", path, query={"limit": "3", "cursor": first["next_cursor"]})
    assert [r["rank"] for r in first["rows"] + second["rows"]] == [1, 2, 2, 4]


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
def test_a_date_that_is_not_yyyy_mm_dd_is_400(live, day):
    status, body, _ = call("GET", f"/leaderboard/daily/{day}")
    assert_error(status, body, 400)
    status, body, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": day})
    assert_error(status, body, 400)


@pytest.mark.parametrize("day", [DAY + timedelta(days=1), date(9999, 12, 31)])
def test_a_future_date_is_400(live, day):
    status, body, _ = board(day)
    assert_error(status, body, 400, "future_date")
    status, body, _ = call("GET", "/leaderboard/daily/me", user="ann", query={"date": day.isoformat()})
    assert_error(status, body, 400, "future_date")


def test_tomorrow_in_central_time_is_future_even_when_it_is_already_that_date_in_utc(table):
    clock.travel_to(
        reset_instant(DAY + timedelta(days=1)) - timedelta(minutes=30)
    )  # 23:30 Central, 05:30 UTC
    status, body, _ = board(DAY + timedelta(days=1))
    assert_error(status, body, 400, "future_date")
    assert board(DAY)[0] == 200


def test_a_long_past_date_is_an_empty_closed_board(live):
    status, body, _ = board(date(2001, 1, 1))
    assert (status, body["status"], body["rows"]) == (200, "closed", [])


@pytest.mark.parametrize("limit", ["0", "101", "10000", "abc", "-1", "", "1.5", "1e2"])
def test_a_limit_outside_1_to_100_is_400(live, limit):
    for path in ("/leaderboard/daily", f"/leaderboard/daily/{DAY}"):
        status, body, _ = call("GET", path, query={"limit": limit})
        assert_error(status, body, 400)


@pytest.mark.parametrize("limit", ["1", "100"])
def test_limits_1_and_100_are_accepted(live, limit):
    assert board(limit=limit)[0] == 200


def real_cursor(day: date = DAY) -> str:
    """A cursor the API gave out for DAY's board."""
    for i in range(3):
        record_official(f"c{i}", 100 + i, completed_at=completion(i, day), day=day)
    _, body, _ = board(day, limit=1)
    assert body["next_cursor"]
    return body["next_cursor"]


def tampered(cursor: str) -> str:
    """The cursor with its payload changed (rank 1 from the start) and its signature kept."""
    raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    payload = json.loads(raw[16:])
    payload.update(position=0, rank=1)
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw[:16] + body).decode().rstrip("=")


def forged_cursors() -> dict[str, str]:
    cursor = real_cursor()
    payload = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))[16:])
    return {
        "random base64": base64.urlsafe_b64encode(secrets.token_bytes(48)).decode(),
        "random json": base64.urlsafe_b64encode(b"x" * 16 + json.dumps(payload).encode()).decode(),
        "tampered payload": tampered(cursor),
        "signed with another key": encode_cursor(payload, b"not the deployment's key"),
        "truncated": cursor[:-6],
        "one character changed": cursor[:20] + ("A" if cursor[20] != "A" else "B") + cursor[21:],
        "not base64": "%%%not-a-cursor%%%",
        "not ascii": "curs\u00f6r",
        "too long": "A" * 5000,
    }


def test_a_forged_cursor_is_400(live):
    for what, cursor in forged_cursors().items():
        status, body, _ = board(cursor=cursor)
        assert status == 400, what
        assert_error(status, body, 400)


def test_a_cursor_from_another_dates_board_is_400(live):
    yesterday = DAY - timedelta(days=1)
    cursor = real_cursor(yesterday)

    status, body, _ = board(DAY, cursor=cursor)
    assert_error(status, body, 400, "invalid_cursor")
    assert board(yesterday, cursor=cursor)[0] == 200


def test_a_history_cursor_is_not_a_board_cursor(live):
    for i in range(3):
        day = DAY - timedelta(days=i)
        record_official("ann", 100, completed_at=completion(5, day), day=day)
    _, history, _ = call("GET", "/me/history", user="ann", query={"limit": "1"})

    status, body, _ = board(cursor=history["next_cursor"])
    assert_error(status, body, 400, "invalid_cursor")


def test_a_board_cursor_on_a_challenge_board_is_400(live):
    cursor = real_cursor()
    challenge = wiring.game().create_challenge(player("maker"), 5, 0)

    status, body, _ = call_daily("GET", f"/challenges/{challenge.challenge_id}", query={"cursor": cursor})
    assert_error(status, body, 400, "invalid_cursor")
