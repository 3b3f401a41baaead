"""The closing pass in pieces (SPEC §3b, §4a, §6; shared/services/closing_pass.py): its merge is
idempotent and order-free, a re-run piece counts once, a failed piece is retried, the Dailies'
and the challenges' passes fail apart, a missed day is caught up, a small challenge costs a
piece; and through the expiry job on both stores, a board of 30 where a one-slow-round bot and a
mimic play ends with both under review."""

import json
import random
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from functions.daily import expire as expire_module
from functions.daily.expire import handler as expire_handler
from functions.leaderboard.handler import handler as leaderboard_handler
from local.events import LambdaContext
from shared.game import clock
from shared.game.find_time import THRESHOLD, ScopeStats, run_times
from shared.game.moderation import case_id_for
from shared.game.puzzles import answers, top_words
from shared.game.recap import summarize, tally_rounds
from shared.game.results import Challenge
from shared.game.scope import Scope
from shared.services import closing_pass as closing_module
from shared.services.closing_pieces import COUNT, JUDGE, Piece
from tests.conftest import Api
from tests.fakes.dynamo_store import STORES
from tests.fakes.fake_boards import DAY, player
from tests.fakes.fake_store import served_store
from tests.services.closing_boards import daily_puzzle, mimic, one_slow_round, people_board, play
from tests.services.test_boards import close_day

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

SCOPE = Scope.daily(DAY.isoformat())
call = Api(leaderboard_handler)
PUZZLE = daily_puzzle(DAY)


@pytest.fixture
def fake(monkeypatch) -> Iterator:
    with served_store("fake", monkeypatch) as served:
        served.runs.put_puzzle(SCOPE, PUZZLE)
        yield served


@pytest.fixture(params=STORES)
def store(request, monkeypatch) -> Iterator:
    with served_store(request.param, monkeypatch) as served:
        served.runs.put_puzzle(SCOPE, PUZZLE)
        yield served


def new_challenge(fake, challenge_id: str) -> Scope:
    at = "2026-01-15T08:00:00.000Z"
    fake.table.challenges[challenge_id] = Challenge(
        challenge_id=challenge_id, creator=player("cy"), puzzle=PUZZLE, created_at=at, closes_at=at
    )
    return Scope.challenge(challenge_id)


def closing_pass():
    return expire_module.closing_pass()


def piece_queue():
    return closing_pass().queue


def pass_store():
    return closing_pass().store


def expire() -> dict:
    return expire_handler({}, LambdaContext(aws_request_id="job"))


def deliver(order: random.Random | None = None, twice: bool = False) -> int:
    """Every message on the queue (and those they send) run, in ORDER's shuffle, each TWICE."""
    queue = piece_queue()
    delivered = 0
    while queue.messages:
        batch = [body for body, _ in queue.messages]
        queue.messages.clear()
        if order:
            order.shuffle(batch)
        for body in batch:
            for _ in range(2 if twice else 1):
                closing_pass().run(body)
                delivered += 1
    return delivered


def recap_of_all(store, run_ids: list[str]):
    """The recap the one-piece pass made: every run tallied at once."""
    runs = [store.runs.get_run(run_id).run for run_id in run_ids]
    tallies = tally_rounds(PUZZLE, runs)
    common = [answers(r.prompt, r.forbidden, "common.txt") for r in PUZZLE]
    return summarize(SCOPE.id, len(runs), tallies, common, top_words())


def test_the_merge_is_order_free_and_a_rerun_piece_counts_once(fake, monkeypatch):
    monkeypatch.setattr(closing_module, "PAGE_RUNS", 2)  # shards of several pages each
    run_ids = people_board(fake, SCOPE, PUZZLE, 40)
    close_day(fake)
    assert closing_pass().close_dailies() == [DAY.isoformat()]
    deliver(random.Random(5), twice=True)
    state = fake.passes.pass_state(SCOPE)
    assert state.finished and state.done == state.expected and state.expected[COUNT] > 32
    assert fake.recaps.recap(SCOPE).recap == recap_of_all(fake, run_ids)
    whole = ScopeStats.empty(10)
    for run_id in run_ids:
        whole.add(run_times(fake.runs.get_run(run_id).run))
    assert ScopeStats.from_json(json.loads(fake.passes.scope_stats(SCOPE))) == whole
    assert len(fake.passes.evidence) == 40  # one score a player, kept once


def test_a_failed_piece_is_delivered_again_and_the_pass_ends(fake):
    people_board(fake, SCOPE, PUZZLE, 12)
    close_day(fake)
    store, failures = pass_store(), []
    real = store.read_runs

    def flaky(scope, run_ids):
        if run_ids and not failures:
            failures.append(run_ids)
            raise TimeoutError("throttled")
        return real(scope, run_ids)

    store.read_runs = flaky
    expire()
    assert failures and not piece_queue().dead
    assert fake.passes.pass_state(SCOPE).finished and fake.recaps.recap(SCOPE).recap.players == 12


def in_challenge(fake, challenge: Scope, name: str, found) -> str:
    """NAME's run of CHALLENGE (on PUZZLE) with FOUND, played on the day the tests' challenges open."""
    return play(fake, challenge, PUZZLE, name, found, datetime(2026, 1, 15, 9, tzinfo=UTC))


def test_a_piece_that_always_fails_holds_up_its_daily_and_not_the_challenges(fake):
    people_board(fake, SCOPE, PUZZLE, 3)
    challenge = new_challenge(fake, "c" * 16)
    in_challenge(fake, challenge, "cy", one_slow_round(PUZZLE, random.Random(1)))
    close_day(fake)
    store = pass_store()
    real = store.read_runs
    store.read_runs = lambda scope, ids: (
        (_ for _ in ()).throw(OSError("down")) if scope == SCOPE else real(scope, ids)
    )
    closing_pass().close_dailies()
    closing_pass()._start(challenge)
    piece_queue().drain(closing_pass().run)
    assert not fake.passes.pass_state(SCOPE).finished and piece_queue().dead  # dead-lettered, not lost
    assert fake.passes.pass_state(challenge).finished
    assert fake.table.cases[case_id_for("run", f"run-cy-{challenge.id}")].status == "open"


def test_a_missed_day_is_caught_up(fake):
    days = [DAY - timedelta(days=2), DAY - timedelta(days=1), DAY]
    for day in days:
        fake.runs.put_puzzle(Scope.daily(day.isoformat()), daily_puzzle(day))
    fake.passes.mark_dailies_done(DAY - timedelta(days=3))  # the job was down for three days
    close_day(fake)
    for _ in range(2):  # a minute starts the days; the next sees them done and moves the mark
        expire()
    assert all(fake.passes.pass_state(Scope.daily(d.isoformat())).finished for d in days)
    assert fake.passes.dailies_done_through() == DAY
    assert fake.recaps.recap(Scope.daily((DAY - timedelta(days=2)).isoformat())).recap.players == 0


def test_a_small_challenges_pass_is_one_piece_not_a_piece_a_shard(fake):
    challenge = new_challenge(fake, "d" * 16)
    for i in range(3):
        in_challenge(fake, challenge, f"q{i}", one_slow_round(PUZZLE, random.Random(i)))
    closing_pass()._start(challenge)
    queue = piece_queue()
    assert [Piece.of(body).piece_id for body, _ in queue.messages] == ["all"]
    assert queue.drain(closing_pass().run) == 3  # its count, its merge, its judging
    assert fake.passes.pass_state(challenge).expected == {COUNT: 1, JUDGE: 1}


def test_a_judging_piece_writes_its_scores_several_at_a_time(fake):
    """Its writers' UpdateItems are in flight together: each score write here waits until all
    four are (a barrier), which one write at a time would never reach."""
    challenge = new_challenge(fake, "e" * 16)
    for i in range(4):
        in_challenge(fake, challenge, f"w{i}", mimic(PUZZLE, random.Random(i)))
    service, store = closing_pass(), pass_store()
    together, real = threading.Barrier(4, timeout=5), store.keep_score

    def held(*args):
        together.wait()
        return real(*args)

    store.keep_score = held
    service.writers = 4
    service._start(challenge)
    assert piece_queue().drain(service.run) == 3 and not piece_queue().dead
    assert store.pass_state(challenge).finished
    assert {p for p, kept in fake.passes.evidence.items() if any(s == challenge.id for s in kept)} == {
        player(f"w{i}") for i in range(4)
    }


def test_a_shards_pages_read_in_small_queries_hold_each_run_once(monkeypatch):
    """On DynamoDB a page is read in Queries of _QUERY_ROWS rows (one here): a shard read a page
    of LIMIT after another, or whole, lists each of its runs once."""
    from shared.dynamo import closing_pieces as dynamo_pieces

    with served_store("dynamo", monkeypatch) as served:
        served.runs.put_puzzle(SCOPE, PUZZLE)
        run_ids = people_board(served, SCOPE, PUZZLE, 20)
        monkeypatch.setattr(dynamo_pieces, "_QUERY_ROWS", 1)
        store = pass_store()
        whole, paged = [], []
        for shard in range(32):
            whole += store.board_page(SCOPE, shard, None, 1000)[0]
            start = None
            while True:
                ids, start = store.board_page(SCOPE, shard, start, 2)
                paged += ids
                if start is None:
                    break
        assert sorted(whole) == sorted(paged) == sorted(run_ids)


def test_runs_each_just_under_the_threshold_open_a_case_that_shows_the_days(fake):
    run_ids = people_board(fake, SCOPE, PUZZLE, 5)
    for day in range(1, 7):  # six earlier days each just under the threshold
        at = f"2026-01-0{day}T09:00:00Z"
        fake.passes.keep_score(player("p000"), Scope.daily(f"2026-01-0{day}"), at, THRESHOLD - 0.1)
    close_day(fake)
    expire()
    case = fake.table.cases[case_id_for("run", run_ids[0])]
    just_under = f"{THRESHOLD - 0.1:.2f}"
    assert f"2026-01-01 {just_under}" in case.shown and f"2026-01-06 {just_under}" in case.shown
    assert fake.table.cases.keys() == {case.case_id}  # today's run alone is not suspect


def test_a_board_of_30_with_a_one_slow_round_bot_and_a_mimic_ends_with_both_pending(store):
    people_board(store, SCOPE, PUZZLE, 28)
    start = datetime(2026, 1, 15, 10, tzinfo=UTC)
    bots = [
        play(store, SCOPE, PUZZLE, "slowround", one_slow_round(PUZZLE, random.Random(2)), start),
        play(store, SCOPE, PUZZLE, "mimic", mimic(PUZZLE, random.Random(3)), start),
    ]
    if hasattr(store, "settle"):
        store.settle()
    close_day(store)
    expire()
    assert store.board_reviews.pending_runs(SCOPE) == frozenset(bots)
    for run_id in bots:
        assert "found" in store.cases.get_case(case_id_for("run", run_id)).shown
    assert store.recaps.recap(SCOPE).recap.players == 30
    mine = call("GET", "/leaderboard/daily/me", user="mimic", query={"date": DAY.isoformat()})[1]
    (item,) = call("GET", "/me/history", user="mimic")[1]["items"]
    assert (mine["review"], item["review"]) == ("pending", "pending")  # the player's own view says only that
    assert "found" not in json.dumps([mine, item]) and "find-time" not in json.dumps([mine, item])
    clock.advance(60)
    expire()  # the next minute: the pass is done, no piece is sent again
    assert pass_store().dailies_done_through() == DAY


def test_the_worker_reports_a_failed_piece_for_redelivery_and_drops_what_is_no_piece(fake, monkeypatch):
    from functions.daily import closing_piece

    monkeypatch.setattr(closing_piece, "closing_pass", closing_pass)
    people_board(fake, SCOPE, PUZZLE, 2)
    close_day(fake)
    closing_pass()._start(SCOPE)
    good = [body for body, _ in piece_queue().messages][0]
    pass_store().read_runs = lambda scope, ids: (_ for _ in ()).throw(OSError("throttled"))
    records = [
        {"messageId": "a", "body": json.dumps(good)},
        {"messageId": "b", "body": json.dumps({"kind": "daily", "phase": 9})},
        {"messageId": "c", "body": "not json"},
    ]
    reply = closing_piece.handler({"Records": records}, LambdaContext(aws_request_id="piece"))
    assert reply == {"batchItemFailures": [{"itemIdentifier": "a"}]}
