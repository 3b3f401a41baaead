"""A closed day's recap (SPEC §4a) against a board built here, through real API Gateway v2 events
on the in-memory fake and on DynamoDB alike: counted by the closing pass, 404 while live."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from functions.leaderboard.handler import handler
from shared.game.clock import iso
from shared.game.puzzles import Round, answers, top_words
from shared.game.recap import longest_word, missed_common, most_played
from shared.game.results import OfficialResult
from shared.game.runs import Attempt, RoundRecord, Run
from shared.game.scope import Scope
from shared.services.completion import completion_of
from tests.conftest import Api
from tests.fakes.dynamo_store import STORES
from tests.fakes.fake_boards import DAY, player
from tests.fakes.fake_store import served_store
from tests.services.test_boards import close_day

call = Api(handler)
PUZZLE = [Round(p, "") for p in ("TMR", "BRD", "CLT", "PNT", "STR", "GRN", "PLN")]
PUZZLE += [Round("BRD", "AEO"), Round("CLT", "AEI"), Round("PNT", "AEU")]
SCOPE = Scope.daily(DAY.isoformat())

# Each player's rounds from round 1: a word (accepted), "-" skipped, "x" lost; rounds after the
# last were not reached (time ran out).
BOARD = {
    "ann": ["timer", "bird", "cult"],
    "bob": ["timer", "board"],
    "cat": ["tremor", "bread"],
    "dan": ["-", "bird"],
    "eve": ["x"],
}


@pytest.fixture(params=STORES)
def store(request, monkeypatch) -> Iterator:
    with served_store(request.param, monkeypatch) as served:
        served.runs.put_puzzle(SCOPE, PUZZLE)
        yield served


def play(store, name: str, rounds: list[str], found_ms: int = 6_000) -> None:
    """NAME's official run of DAY with ROUNDS, completed through the RunStore port."""
    start = datetime(2026, 1, 15, 7, tzinfo=UTC)
    history = []
    for number, (word, puzzle_round) in enumerate(zip(rounds, PUZZLE, strict=False), start=1):
        if word == "-":
            record = RoundRecord(round=number, prompt=puzzle_round.prompt, forbidden="", outcome="skipped")
        elif word == "x":
            misses = [Attempt(word="zzz", accepted=False, reason="letter_order", elapsed_ms=found_ms)] * 3
            record = RoundRecord(
                round=number, prompt=puzzle_round.prompt, forbidden="", outcome="lost", attempts=misses
            )
        else:
            hit = Attempt(word=word, accepted=True, reason=None, elapsed_ms=found_ms)
            record = RoundRecord(
                round=number, prompt=puzzle_round.prompt, forbidden="", outcome="accepted", attempts=[hit]
            )
        history.append(record)
    run = Run(
        run_id=f"run-{name}", kind="daily", date=DAY.isoformat(), player=player(name), official=True,
        puzzle=PUZZLE, started_at=iso(start), deadline=iso(start + timedelta(seconds=180)), history=history,
    )  # fmt: skip
    version = store.runs.create_run(run)
    run = run.model_copy(update={"score": 100, "completed_at": iso(start + timedelta(seconds=180))})
    run.ended_by = "expired"
    result = OfficialResult.of_run(run)
    store.results.complete_run(
        run, version, completion_of(result, store.results.profile_for_completion(run.player))
    )


def closing_pass(store) -> None:
    """The closing job's pass of DAY (closed), its pieces run at once."""
    from functions.daily import expire

    closing = expire.closing_pass()
    closing.close_dailies()
    closing.queue.drain(closing.run)


def build_board(store) -> None:
    for name, rounds in BOARD.items():
        play(store, name, rounds)
    play(store, "bot", ["timer", "bird"], found_ms=300)  # implausibly fast: never ranked, not counted
    if hasattr(store, "settle"):
        store.settle()


def recap(day=DAY, **kw) -> tuple[int, dict, dict]:
    return call("GET", f"/daily/{day.isoformat()}/recap", **kw)


def test_the_recap_counts_the_boards_ranked_runs_per_round(store):
    build_board(store)
    close_day(store)
    closing_pass(store)

    status, body, headers = recap()
    assert status == 200, body
    assert headers["headers"]["Cache-Control"] == "public, max-age=60" and body["status"] == "closed"
    assert body["date"] == DAY.isoformat() and body["players"] == 5
    first, second, third, fourth = body["rounds"][:4]
    assert (first["round"], first["prompt"], first["forbidden"]) == (1, "TMR", "")
    assert (first["answered"], first["lost_or_skipped"], first["lost_or_skipped_share"]) == (3, 2, 0.4)
    assert first["top_words"] == [{"word": "timer", "players": 2}, {"word": "tremor", "players": 1}]
    assert first["longest_word"] == "tremor"
    assert (second["answered"], second["lost_or_skipped"], second["lost_or_skipped_share"]) == (4, 0, 0.0)
    assert second["top_words"] == [
        {"word": "bird", "players": 2},
        {"word": "board", "players": 1},
        {"word": "bread", "players": 1},
    ]
    assert second["longest_word"] == "board"  # board and bread: the first alphabetically
    assert (third["answered"], third["top_words"], third["longest_word"]) == (
        1,
        [{"word": "cult", "players": 1}],
        "cult",
    )
    assert (fourth["answered"], fourth["lost_or_skipped"], fourth["top_words"], fourth["longest_word"]) == (
        0,
        0,
        [],
        None,
    )
    forbidden = body["rounds"][7]
    assert (forbidden["prompt"], forbidden["forbidden"]) == ("BRD", "AEO")
    for shown, puzzle_round in zip(body["rounds"], PUZZLE, strict=True):
        played = {w["word"] for w in shown["top_words"]}
        common = set(answers(puzzle_round.prompt, puzzle_round.forbidden, "common.txt"))
        assert len(shown["missed_common"]) == 5 and set(shown["missed_common"]) <= common - played
    assert all(word in top_words() for word in first["missed_common"])  # the most familiar first


def test_a_player_sees_their_word_per_round_and_how_many_others_played_it(store):
    build_board(store)
    close_day(store)
    closing_pass(store)

    def mine(name: str) -> list[tuple[str | None, int | None]]:
        status, body, _ = call("GET", f"/daily/{DAY.isoformat()}/recap/me", user=name)
        assert status == 200, body
        assert [r["round"] for r in body["rounds"]] == list(range(1, 11))
        return [(r["word"], r["others"]) for r in body["rounds"]][:3]

    assert mine("ann") == [("timer", 1), ("bird", 1), ("cult", 0)]
    assert mine("dan") == [(None, None), ("bird", 1), (None, None)]
    assert mine("bot") == [("timer", 2), ("bird", 2), (None, None)]  # not counted: all are others
    status, body, _ = call("GET", f"/daily/{DAY.isoformat()}/recap/me", user="zed")
    assert (status, body["error"]["code"]) == (404, "not_played")


def test_a_recap_is_404_while_the_day_is_live_and_until_the_closing_pass(store):
    build_board(store)
    status, body, _ = recap()
    assert (status, body["error"]["code"]) == (404, "daily_live")
    status, body, _ = call("GET", f"/daily/{DAY.isoformat()}/recap/me", user="ann")
    assert (status, body["error"]["code"]) == (404, "daily_live")
    closing_pass(store)  # still live: the pass waits for the close
    close_day(store)
    status, body, _ = recap()
    assert (status, body["error"]["code"]) == (404, "recap_not_ready")
    closing_pass(store)
    assert recap()[0] == 200


@pytest.mark.parametrize("day", ["2026-13-01", "15-01-2026", "2026-1-15"])
def test_a_bad_date_is_400(store, day):
    status, body, _ = call("GET", f"/daily/{day}/recap")
    assert status == 400 and "error" in body


def test_a_future_date_is_400_and_a_day_without_a_recap_is_404(store):
    status, body, _ = recap(DAY + timedelta(days=1))
    assert (status, body["error"]["code"]) == (400, "future_date")
    status, body, _ = recap(DAY - timedelta(days=30))
    assert (status, body["error"]["code"]) == (404, "recap_not_ready")


def test_the_words_counts_rules():
    counts = {"tram": 3, "timer": 3, "tremor": 1, "term": 7}
    assert [(w.word, w.players) for w in most_played(counts, 3)] == [("term", 7), ("timer", 3), ("tram", 3)]
    assert longest_word(counts) == "tremor" and longest_word({}) is None
    common = ["tremor", "atom", "timer", "stem", "tame", "item"]
    assert missed_common(common, {"timer"}, frozenset({"stem", "item"}), 3) == ["item", "stem", "atom"]
