"""Profiles and history through real API Gateway v2 events (SPEC §5): default and chosen display
names, their rules and case-insensitive uniqueness, and a player's official results, newest first."""

import re
from datetime import datetime, timedelta

import pytest

from functions.leaderboard.handler import handler
from shared.dynamo.client import Client
from shared.game import clock
from shared.game.boards import SETTLE_SECONDS
from shared.game.clock import iso
from shared.game.results import Challenge
from shared.runtime import wiring
from tests.challenges import week_challenge
from tests.conftest import Api
from tests.fakes.fake_boards import CLOSES, DAY, NOON, completion, follow_renames, official, player
from tests.fakes.fake_store import FakePorts, complete_official

call = Api(handler)


def assert_error(status: int, body: dict, expected_status: int, code: str | None = None) -> None:
    assert status == expected_status, body
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    if code:
        assert body["error"]["code"] == code


def name_of(user: str) -> str:
    status, body, _ = call("GET", "/me", user=user)
    assert status == 200, body
    return body["display_name"]


def rename(user: str, name: str) -> tuple[int, dict]:
    status, body, _ = call("PUT", "/me", {"display_name": name}, user=user)
    return status, body


# Display names --------------------------------------------------------------------------------


def test_default_display_name_is_player_dash_and_4_characters_from_the_id(store):
    ann, bob = name_of("ann"), name_of("bob")

    assert re.fullmatch(r"player-[0-9a-z]{4}", ann) and re.fullmatch(r"player-[0-9a-z]{4}", bob)
    assert ann == name_of("ann") and ann != bob


@pytest.mark.parametrize(
    "name",
    ["Ann", "abc", "a" * 20, "Ann Lee", "x_y-z", "123", "Player1", "players-club", "-a-", "a  b"],
)
def test_a_valid_display_name_is_set_and_shown(store, name):
    assert rename("ann", name) == (200, {"display_name": name})
    assert name_of("ann") == name


@pytest.mark.parametrize(
    "name",
    [
        "<b>x</b>",
        "<script>",
        "a" * 500,
        "a" * 21,
        "ab",
        "",
        " Ann",
        "Ann ",
        "player-abc",
        "PLAYER-abc",
        "Player-Xyz",
        "Player One",  # looks like player-one (SPEC §5 skeleton)
        "\u0410nn",  # Cyrillic А
        "Ann\u0435",  # Cyrillic е
        "\uff21nn",  # fullwidth Ａ
        "Ann\n",
        "Ann\tLee",
        "Ann\u00a0Lee",  # no-break space
        "Zoë",
        "Ann!",
        "ann@example.com",
        "😀😀😀",
    ],
)
def test_an_invalid_display_name_is_400_and_changes_nothing(store, name):
    before = name_of("ann")

    status, body = rename("ann", name)

    assert_error(status, body, 400, "invalid_display_name")
    assert name_of("ann") == before


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"display_name": None},
        {"display_name": 123},
        {"display_name": ["Ann"]},
        {"display_name": "Ann", "x": 1},
    ],
)
def test_a_malformed_profile_body_is_400(store, body):
    status, reply, _ = call("PUT", "/me", body, user="ann")
    assert_error(status, reply, 400)


def test_a_body_that_is_not_json_is_400(store):
    status, body, _ = call("PUT", "/me", raw_body="display_name=Ann", user="ann")
    assert_error(status, body, 400)


def test_the_default_name_of_another_player_cannot_be_claimed(store):
    status, body = rename("ann", name_of("bob"))
    assert_error(status, body, 400, "invalid_display_name")


@pytest.mark.parametrize("taken", ["ann", "ANN", "aNn", "Ann"])
def test_display_names_are_unique_case_insensitively(store, taken):
    assert rename("ann", "Ann")[0] == 200
    bob = name_of("bob")

    status, body = rename("bob", taken)

    assert_error(status, body, 409, "display_name_taken")
    assert name_of("bob") == bob and name_of("ann") == "Ann"


def test_a_player_can_change_the_case_of_their_own_name_and_keep_it(store):
    assert rename("ann", "Ann")[0] == 200
    assert rename("ann", "ANN") == (200, {"display_name": "ANN"})
    assert rename("ann", "ANN") == (200, {"display_name": "ANN"})  # setting it again is harmless

    assert name_of("ann") == "ANN"
    assert rename("bob", "ann")[0] == 409


def test_changing_a_name_releases_the_old_one_for_others(store):
    assert rename("ann", "Ann")[0] == 200
    assert rename("ann", "Annie")[0] == 200

    assert rename("bob", "ann") == (200, {"display_name": "ann"})
    assert rename("carol", "ANNIE")[0] == 409
    assert rename("ann", "Ann")[0] == 409  # bob holds it now


def test_a_live_board_shows_the_current_name(store):
    complete_official(store, official("ann", 300, completed_at=completion(5), day=DAY.isoformat()))
    complete_official(store, official("bob", 200, completed_at=completion(6), day=DAY.isoformat()))
    board = f"/leaderboard/daily/{DAY}"

    def names_on_board() -> list[str]:
        return [row["display_name"] for row in call("GET", board)[1]["rows"]]

    assert names_on_board() == [name_of("ann"), name_of("bob")]
    assert rename("ann", "Ann")[0] == 200
    follow_renames(store)  # the stream consumer's part (on DynamoDB, a second or two later)
    assert names_on_board() == ["Ann", name_of("bob")]
    assert rename("ann", "Annie")[0] == 200
    follow_renames(store)
    assert names_on_board() == ["Annie", name_of("bob")]
    assert call("GET", "/leaderboard/daily/me", user="ann")[1]["display_name"] == "Annie"


def interleave(monkeypatch, racing_rename) -> None:
    """Run RACING_RENAME between the next rename's read of the old name and its write, as a
    concurrent request of the same player would."""
    original = Client.transact
    pending = [racing_rename]

    def transact(self, items):
        if pending:
            pending.pop()()
        return original(self, items)

    monkeypatch.setattr(Client, "transact", transact)


def assert_names_consistent(owner: str, names: list[str]) -> None:
    """OWNER holds exactly the name their profile shows; every other name in NAMES is free."""
    current = name_of(owner)
    for name in names:
        if name.lower() != current.lower():
            assert rename("bystander", name)[0] == 200, f"{name} is still held"
    assert rename("bystander", current)[0] == 409


def rename_raced_by_beta(monkeypatch, name: str) -> None:
    """Ann, named Alpha, renames to NAME while another rename of hers, to Beta, lands in between."""
    assert rename("ann", "Alpha")[0] == 200
    interleave(monkeypatch, lambda: wiring.ports().names.set_display_name(player("ann"), "Beta"))

    status, body = rename("ann", name)

    assert status in (200, 409, 429), body
    monkeypatch.undo()


def test_two_renames_racing_for_one_player_are_not_a_500_and_leave_names_consistent(table, monkeypatch):
    rename_raced_by_beta(monkeypatch, "Gamma")
    assert_names_consistent("ann", ["Alpha", "Beta", "Gamma"])


def test_a_case_change_racing_a_rename_does_not_keep_the_other_name_held(table, monkeypatch):
    rename_raced_by_beta(monkeypatch, "ALPHA")
    assert_names_consistent("ann", ["Alpha", "Beta"])


def test_profile_routes_need_a_token(store):
    for method, path, body in (
        ("GET", "/me", None),
        ("PUT", "/me", {"display_name": "Ann"}),
        ("GET", "/me/history", None),
    ):
        status, reply, _ = call(method, path, body)
        assert_error(status, reply, 401, "unauthorized")


# History --------------------------------------------------------------------------------------


def challenge_created(store: FakePorts, created: datetime) -> Challenge:
    challenge = week_challenge(f"challenge-{created:%Y%m%d}", created)
    store.runs.create_challenge(challenge, created.date().isoformat(), 20)
    return challenge


def ann_history(store: FakePorts) -> list[tuple[str, str | None, str]]:
    """Ann's official results on 4 Daily dates and 2 challenges (one closed), with rivals that
    put her second on the closed date. Returns (date, challenge_id, completed_at), newest first.
    Every run up to noon on DAY has completed (the expiry job's watermark)."""
    closed = challenge_created(store, NOON - timedelta(days=10))  # open 7 days: closed 3 days ago
    still_open = challenge_created(store, NOON - timedelta(days=1))
    store.runs.mark_completed_through(NOON)

    def record(name, score, combo=0, longest=0, **kw):
        result = official(name, score, combo, longest, **kw)
        complete_official(store, result)
        return result

    written = []
    for days_ago in (3, 2, 1, 0):
        day = DAY - timedelta(days=days_ago)
        result = record("ann", 100 + days_ago, 2, 5, completed_at=completion(3600, day), day=day.isoformat())
        written.append((result.date, None, result.completed_at))
    yesterday = DAY - timedelta(days=1)
    record("bob", 500, completed_at=completion(60, yesterday), day=yesterday.isoformat())
    record("bob", 500, completed_at=completion(60), day=DAY.isoformat())
    for challenge, days_ago in ((closed, 9), (still_open, 1)):
        done = NOON - timedelta(days=days_ago, hours=-1)
        day = (DAY - timedelta(days=days_ago)).isoformat()
        result = record("ann", 77, 1, 4, completed_at=iso(done), day=day, challenge_id=challenge.challenge_id)
        record(
            "carol",
            99,
            completed_at=iso(done - timedelta(minutes=1)),
            day=day,
            challenge_id=challenge.challenge_id,
        )
        written.append((result.date, challenge.challenge_id, result.completed_at))
    return sorted(written, key=lambda item: item[2], reverse=True)


def whole_history(user: str, limit: int) -> list[list[dict]]:
    pages, cursor = [], None
    while True:
        query = {"limit": str(limit), **({"cursor": cursor} if cursor else {})}
        status, body, _ = call("GET", "/me/history", user=user, query=query)
        assert status == 200, body
        pages.append(body["items"])
        cursor = body["next_cursor"]
        if cursor is None:
            return pages


def test_history_lists_official_results_newest_first_and_pages(store):
    expected = ann_history(store)

    for limit in (1, 2, 4, 6, 50):
        items = [item for page in whole_history("ann", limit) for item in page]
        assert [(i["date"], i["challenge_id"], i["completed_at"]) for i in items] == expected, (
            f"limit={limit}"
        )


def test_history_item_shape_and_rank_null_while_live_a_number_once_closed(store):
    ann_history(store)
    items = whole_history("ann", 50)[0]
    by_key = {(i["kind"], i["date"]): i for i in items}

    today = by_key[("daily", DAY.isoformat())]
    assert today == {
        "kind": "daily",
        "date": DAY.isoformat(),
        "challenge_id": None,
        "score": 100,
        "best_combo": 2,
        "longest_word_length": 5,
        "completed_at": completion(3600),
        "rank": None,
        "unranked_reason": None,
        "review": None,
        "rank_before_correction": None,
    }
    assert by_key[("daily", (DAY - timedelta(days=1)).isoformat())]["rank"] == 2  # bob scored more
    assert by_key[("daily", (DAY - timedelta(days=2)).isoformat())]["rank"] == 1
    challenges = {i["date"]: i for i in items if i["kind"] == "challenge"}
    assert challenges[(DAY - timedelta(days=9)).isoformat()]["rank"] == 2  # closed: carol scored more
    assert challenges[(DAY - timedelta(days=1)).isoformat()]["rank"] is None  # still open

    clock.travel_to(CLOSES - timedelta(seconds=1))
    store.runs.mark_completed_through(CLOSES + timedelta(seconds=SETTLE_SECONDS))
    assert whole_history("ann", 1)[0][0]["rank"] is None
    clock.travel_to(CLOSES)
    assert whole_history("ann", 1)[0][0]["rank"] == 2


def test_history_is_only_the_callers(store):
    ann_history(store)

    bob = [item for page in whole_history("bob", 50) for item in page]
    assert [i["date"] for i in bob] == [DAY.isoformat(), (DAY - timedelta(days=1)).isoformat()]
    assert whole_history("dave", 50) == [[]]


@pytest.mark.parametrize("limit", ["0", "51", "10000", "abc", ""])
def test_a_history_limit_outside_1_to_50_is_400(store, limit):
    status, body, _ = call("GET", "/me/history", user="ann", query={"limit": limit})
    assert_error(status, body, 400)


def test_a_forged_or_another_players_history_cursor_is_400(store):
    ann_history(store)
    _, page, _ = call("GET", "/me/history", user="ann", query={"limit": "1"})
    cursor = page["next_cursor"]
    _, board, _ = call("GET", f"/leaderboard/daily/{DAY}", query={"limit": "1"})

    for forged in (
        cursor[:-4],
        cursor[:20] + ("A" if cursor[20] != "A" else "B") + cursor[21:],
        "abc",
        board["next_cursor"],
    ):
        status, body, _ = call("GET", "/me/history", user="ann", query={"cursor": forged})
        assert_error(status, body, 400, "invalid_cursor")
    status, body, _ = call("GET", "/me/history", user="bob", query={"cursor": cursor})
    assert_error(status, body, 400, "invalid_cursor")
