"""SPEC §3b fair play: an accepted answer sooner than 250 + 40 × (n + 1) ms after its round was
shown makes its run implausible: it completes and counts in its player's stats, but is never on a
board nor in a rank, and says so to its player."""

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest

from shared.game.dictionary import words
from shared.game.errors import NotFound
from shared.game.fair_play import fastest_plausible_ms, ranked, unranked_reason
from shared.game.puzzles import Round, answers
from shared.game.runs import answer, new_run
from shared.http.models import RunView
from shared.services.game import Game
from shared.services.leaderboard import TOP, Boards
from shared.services.players import Players
from tests.fakes.dynamo_store import STORES, settled_store
from tests.fakes.fake_boards import player
from tests.fakes.fake_store import FakePorts

START = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)  # 12:00 Central on 2026-11-29
PUZZLE = [Round("TMR", "")] * 7 + [Round("TMR", "ABC")] * 3
WORDS = frozenset({"timer", "tumor", "meter"})


def test_fair_play_the_fastest_plausible_answer_is_250_ms_plus_40_per_key_enter_included():
    assert fastest_plausible_ms(5) == 250 + 40 * 6 == 490
    assert fastest_plausible_ms(12) == 770


@pytest.mark.parametrize(("elapsed_ms", "reason"), [(490, None), (489, "implausible_speed")])
def test_fair_play_an_accepted_answer_sooner_than_the_threshold_makes_an_official_run_implausible(
    elapsed_ms, reason
):
    run = new_run("run-1", "daily", "2026-11-29", PUZZLE, START, player="p", official=True)
    answer(run, 1, 1, "timer", START + timedelta(milliseconds=elapsed_ms), WORDS)
    assert unranked_reason(run) == reason and ranked(run) is (reason is None)
    view = RunView.from_run(run)
    assert (view.ranked, view.unranked_reason) == (reason is None, reason)


def test_fair_play_a_rejected_answer_however_fast_changes_nothing():
    run = new_run("run-1", "daily", "2026-11-29", PUZZLE, START, player="p", official=True)
    answer(run, 1, 1, "xyz", START + timedelta(milliseconds=10), WORDS)
    answer(run, 1, 2, "timer", START + timedelta(seconds=2), WORDS)
    assert ranked(run) and unranked_reason(run) is None


def test_fair_play_guest_and_practice_runs_never_rank_and_have_no_reason():
    for run in (
        new_run("guest", "daily", "2026-11-29", PUZZLE, START),
        new_run("practice", "daily", "2026-11-29", PUZZLE, START, player="p", official=False),
    ):
        answer(run, 1, 1, "timer", START + timedelta(milliseconds=10), WORDS)
        assert (ranked(run), unranked_reason(run)) == (False, None)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def play(game: Game, clock: Clock, name: str, seconds_per_answer: float) -> RunView:
    run, _ = game.start_daily(player(name))
    used: set[str] = set()
    while not run.completed:
        current = run.puzzle[run.round_number - 1]
        word = next(w for w in answers(current.prompt, current.forbidden) if w not in used)
        used.add(word)
        clock.now += timedelta(seconds=seconds_per_answer)
        _, run = game.answer(run.run_id, player(name), run.round_number, run.attempt_number, word)
    return RunView.from_run(run)


@pytest.fixture(params=STORES)
def store(request) -> Iterator:
    """The in-memory store, and DynamoDB (moto) with the stream consumer run after each completion."""
    if request.param == "fake":
        yield FakePorts()
        return
    with settled_store() as dynamo:
        yield dynamo


def test_an_implausible_run_is_off_the_board_and_out_of_the_ranks_but_in_the_stats(store):
    clock, recorded = Clock(START), []
    game = Game(
        store.runs,
        store.results,
        lambda: b"seed",
        words,
        record=lambda *a, **kw: recorded.append((a, kw)),
        now=clock,
    )
    boards = Boards(store.boards, store.ranks, store.names, store.runs, now=clock)
    players = Players(store.boards, store.names, store.results, store.runs, boards, now=clock)

    person = play(game, clock, "ann", 3)
    bot = play(game, clock, "bot", 0.05)

    assert (person.ranked, person.unranked_reason) == (True, None)
    assert (bot.status, bot.ranked, bot.unranked_reason) == ("completed", False, "implausible_speed")
    assert bot.score > person.score
    board = boards.daily_board(date(2026, 11, 29), TOP, 10)
    assert [row.score for row in board.rows] == [person.score]
    assert boards.daily_rank("2026-11-29", player("ann")).row.rank == 1
    with pytest.raises(NotFound):
        boards.daily_rank("2026-11-29", player("bot"))
    assert players.me(player("bot")).stats.best_score == bot.score  # it counts for its player
    flagged = [kw for (metric, *_), kw in recorded if metric == "ImplausibleRuns"]
    assert len(flagged) == 1 and flagged[0]["run_id"] == bot.run_id and flagged[0]["too_fast"]

    clock.now = START + timedelta(days=2)
    store.runs.mark_completed_through(clock.now)  # the board has closed: ranks are final
    (flagged_item,) = players.history(player("bot"), None, 10).items
    assert (flagged_item.rank, flagged_item.result.unranked_reason) == (None, "implausible_speed")
    assert [i.rank for i in players.history(player("ann"), None, 10).items] == [1]
