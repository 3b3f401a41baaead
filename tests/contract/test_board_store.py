"""One contract for the board side of the store, run against the in-memory fake and against
the adapters on in-process moto, so the fake the service tests use cannot drift from DynamoDB.

On DynamoDB ranks are counted, and the top of each board (its best TOP_ROWS rows, which page 1
reads) kept, by the stream consumer (functions/leaderboard/counters.py); the `settle` step drains
the table's stream through it, as Lambda would a second after a completion.
"""

import contextlib
import os
import random
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta

import boto3
import pytest
from moto import mock_aws

from functions.leaderboard.counters import count_stream_batch
from local.streams import StreamPoller
from shared.dynamo.completion import official_writes
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import DynamoPorts, dynamo_ports
from shared.dynamo.table import create_table_request
from shared.game.boards import TOP_ROWS, BoardPosition, HistoryPosition, TieKey
from shared.game.clock import iso
from shared.game.constants import MAX_SCORE
from shared.game.scope import Scope
from shared.services.leaderboard import Boards
from shared.services.players import Players
from shared.services.ports import NameTaken, OfficialTaken, StaleRun
from tests.conftest import put_old_stats
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import FakePorts, prepare
from tests.fakes.fake_store import complete_official as complete_with

DAY = "2026-01-15"
SCOPE = Scope.daily(DAY)
START = datetime(2026, 1, 15, 6, tzinfo=UTC)


class HandClock:
    """The wall clock of top-item claims, moved only by the store's own pauses: a consumer that
    waits for a claim's interval to end moves it there at once, and no test waits for real."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def wound_by_hand(store: DynamoPorts) -> HandClock:
    clock = HandClock()
    store.db.wall, store.db.sleep = clock, clock.sleep
    return clock


class Subject:
    """A store under contract, and how to let its rank counters catch up."""

    def __init__(self, store, settle: Callable[[], None], replay: Callable[[], None]):
        self.store = store
        self.settle = settle
        self.replay = replay  # deliver every counted record again (at-least-once delivery)


@contextlib.contextmanager
def moto_ports() -> Iterator[tuple[DynamoPorts, str]]:
    """The adapters on a fresh in-process moto table (their wall clock moved by hand), and its name."""
    with mock_aws():
        table = os.environ["TABLE_NAME"]
        boto3.client("dynamodb").create_table(**create_table_request(table))
        store = dynamo_ports(table, board_shards=BOARD_SHARDS)
        wound_by_hand(store)
        yield store, table


def rank_counter(store: DynamoPorts, follow: Players) -> Callable:
    """The stream consumer's handler: STORE's rank counters, renames followed by FOLLOW."""

    def counters(event, context):
        return count_stream_batch(event, context, store.ranks.count_official, follow.show_current_name)

    return counters


@pytest.fixture(params=["fake", "dynamo"])
def subject(request) -> Iterator[Subject]:
    if request.param == "fake":
        yield Subject(FakePorts(), lambda: None, lambda: None)
        return
    with moto_ports() as (store, table):
        follow = Players(
            store.boards,
            store.names,
            store.results,
            store.runs,
            Boards(store.boards, store.ranks, store.names, store.runs, lambda: b"cursor-key"),
            lambda: b"cursor-key",
        )
        counters = rank_counter(store, follow)
        poller = StreamPoller(table, handler=counters)
        yield Subject(store, poller.drain, lambda: StreamPoller(table, handler=counters).drain())


def at(seconds: int) -> str:
    return iso(START + timedelta(seconds=seconds))


def record(
    subject: Subject, name: str, score: int, combo: int = 0, longest: int = 0, *, seconds: int = 0, **kw
):
    result = official(name, score, combo, longest, completed_at=at(seconds), day=kw.pop("day", DAY), **kw)
    complete_with(subject.store, result)
    return result


# Recording ------------------------------------------------------------------------------------


def test_a_recorded_result_is_the_players_official_result(subject):
    result = record(subject, "ann", 120, 2, 6, seconds=5)
    assert subject.store.results.official_result(player("ann"), SCOPE) == result
    assert subject.store.results.official_result(player("ann"), Scope.daily("2026-01-16")) is None
    assert subject.store.results.official_result(player("bob"), SCOPE) is None


def test_a_second_official_result_for_the_same_scope_is_refused(subject):
    record(subject, "ann", 120, seconds=5)
    with pytest.raises(OfficialTaken):
        record(subject, "ann", 500, seconds=9, run_id="another-run")
    assert subject.store.results.official_result(player("ann"), SCOPE).score == 120
    record(subject, "ann", 80, day="2026-01-16")  # another date is another scope


# Board pages -----------------------------------------------------------------------------------


def results(subject: Subject, count: int, seed: int = 3) -> list:
    rng = random.Random(seed)
    written = []
    for i in range(count):
        written.append(
            record(
                subject,
                f"p{i:03d}",
                rng.choice((100, 135, 200, 205, 295, 400)),  # some share a band of 100 points
                rng.choice((0, 1, 2)),
                rng.choice((4, 5, 12, 13, 30)),  # 12, 13 and 30 letters tie (capped at 12)
                seconds=rng.randrange(3600),
                duration_ms=rng.choice((45_000, 90_123, 180_000)),  # ties go to the faster run
            )
        )
    return written


def board_order(written: list) -> list[str]:
    return [r.player for r in sorted(written, key=lambda r: BoardPosition.of(r).order())]


def test_a_board_page_is_the_best_rows_in_board_order(subject):
    written = results(subject, 45)
    subject.settle()

    page = subject.store.boards.board_page(SCOPE, None, 20)

    assert [e.player for e in page] == board_order(written)[:20]
    assert page[0].position == BoardPosition.of(next(r for r in written if r.player == page[0].player))
    assert page[0].words == ["timer"]


def test_pages_after_a_position_continue_without_gaps_or_repeats(subject):
    written = results(subject, 30)
    subject.settle()
    for limit in (4, 17, 50):
        seen, after = [], None
        while True:
            page = subject.store.boards.board_page(SCOPE, after, limit)
            seen += [e.player for e in page]
            if len(page) < limit:
                break
            after = page[-1].position
        assert seen == board_order(written), f"limit={limit}"


def test_a_board_holds_only_its_own_scope(subject):
    record(subject, "ann", 100)
    record(subject, "bob", 200, day="2026-01-16")
    record(subject, "cat", 300, challenge_id="challenge-1")
    subject.settle()

    assert [e.player for e in subject.store.boards.board_page(SCOPE, None, 10)] == [player("ann")]
    assert [e.player for e in subject.store.boards.board_page(Scope.challenge("challenge-1"), None, 10)] == [
        player("cat")
    ]


def test_a_row_shows_the_name_at_completion_until_its_rows_are_renamed(subject):
    subject.store.names.set_display_name(player("ann"), "Annie")
    record(subject, "ann", 100)
    record(subject, "ann", 70, day="2026-01-14")
    record(subject, "bob", 50)
    subject.settle()
    subject.store.names.set_display_name(player("ann"), "Renamed")

    assert [e.display_name for e in subject.store.boards.board_page(SCOPE, None, 10)] == ["Annie", None]
    subject.store.names.rename_rows(player("ann"), [SCOPE, Scope.daily("2026-01-13")], "Renamed")
    assert [e.display_name for e in subject.store.boards.board_page(SCOPE, None, 10)] == ["Renamed", None]
    assert subject.store.boards.board_page(Scope.daily("2026-01-14"), None, 10)[0].display_name == "Annie"
    assert subject.store.boards.board_entry(player("ann"), SCOPE).display_name == "Renamed"
    assert subject.store.names.display_names([player("ann"), player("bob")]) == {player("ann"): "Renamed"}


def test_a_name_that_looks_like_a_taken_one_is_taken_too(subject):
    """Names are unique by their look-alike skeleton (shared/game/names.py), in the fake as on
    DynamoDB: `0LIVER` is `OLIVER`, `Bi11` is `Bill`, `ann - lee` is `Ann_Lee`."""
    for taken, look_alike in (("OLIVER", "0LIVER"), ("Bill", "Bi11"), ("Ann_Lee", "ann - lee")):
        subject.store.names.set_display_name(player("ann"), taken)
        with pytest.raises(NameTaken):
            subject.store.names.set_display_name(player("bob"), look_alike)
        subject.store.names.set_display_name(player("ann"), look_alike)  # its holder may take it
    subject.store.names.set_display_name(player("bob"), "OLIVER")  # released by ann's renames
    assert subject.store.names.display_names([player("ann"), player("bob")]) == {
        player("ann"): "ann - lee",
        player("bob"): "OLIVER",
    }


def test_a_board_entry_is_the_players_row(subject):
    result = record(subject, "ann", 120, 2, 6, seconds=5, words=("timer", "tremor"))
    entry = subject.store.boards.board_entry(player("ann"), SCOPE)
    assert (entry.player, entry.position, entry.words) == (
        player("ann"),
        BoardPosition.of(result),
        ["timer", "tremor"],
    )
    assert subject.store.boards.board_entry(player("bob"), SCOPE) is None


def test_results_since_a_date_are_the_players_daily_and_challenge_results_from_then(subject):
    for day in ("2026-01-05", "2026-01-07", "2026-01-15"):
        record(subject, "ann", 100, day=day)
    record(subject, "ann", 50, day="2026-01-06", challenge_id="old-challenge")
    record(subject, "ann", 60, day="2026-01-14", challenge_id="new-challenge")
    record(subject, "bob", 70, day="2026-01-15")

    found = subject.store.results.results_since(player("ann"), date(2026, 1, 7))

    assert sorted((r.date, r.challenge_id or "") for r in found) == [
        ("2026-01-07", ""),
        ("2026-01-14", "new-challenge"),
        ("2026-01-15", ""),
    ]


# Ranks -----------------------------------------------------------------------------------------


def test_count_better_counts_results_strictly_better_once_settled(subject):
    written = results(subject, 25)
    subject.settle()

    for result in written:
        tie = BoardPosition.of(result).tie
        expected = sum(1 for r in written if BoardPosition.of(r).tie.outranks(tie))
        assert subject.store.ranks.count_better(SCOPE, tie) == expected
    assert subject.store.ranks.count_better(SCOPE, TieKey(MAX_SCORE, 10, 12)) == 0
    assert subject.store.ranks.count_better(Scope.daily("2026-01-16"), TieKey(0, 0, 0)) == 0


def test_board_order_a_tie_on_score_combo_and_longest_word_up_to_12_goes_to_the_faster_run(subject):
    record(subject, "novelty", 500, 3, 34, seconds=10, duration_ms=120_000)  # 34 letters rank as 12
    record(subject, "quick", 500, 3, 12, seconds=900, duration_ms=60_000)
    record(subject, "eleven", 500, 3, 11, seconds=5, duration_ms=30_000)  # 11 < 12: below both
    subject.settle()

    page = subject.store.boards.board_page(SCOPE, None, 10)
    assert [e.player for e in page] == [player("quick"), player("novelty"), player("eleven")]
    assert page[1].position.longest_word_length == 34  # the row shows the true length
    assert subject.store.ranks.count_better(SCOPE, page[1].position.tie) == 0  # both share rank 1


def test_board_order_equally_fast_tied_runs_go_to_the_earlier_completion(subject):
    record(subject, "late", 500, 3, 7, seconds=900, duration_ms=60_000)
    record(subject, "early", 500, 3, 7, seconds=100, duration_ms=60_000)
    subject.settle()

    assert [e.player for e in subject.store.boards.board_page(SCOPE, None, 10)] == [
        player("early"),
        player("late"),
    ]


def test_an_implausible_result_is_official_in_history_and_stats_but_off_the_board_and_the_ranks(subject):
    record(subject, "ann", 300, 2, 6, seconds=20)
    bot = record(subject, "bot", 2085, 10, 12, seconds=10, unranked_reason="implausible_speed")
    record(subject, "bot", 900, challenge_id="challenge-1", unranked_reason="implausible_speed")
    subject.settle()

    assert subject.store.results.official_result(player("bot"), SCOPE) == bot
    assert [r.score for r in subject.store.results.history(player("bot"), None, 10)] == [2085, 900]
    assert subject.store.boards.player_profile(player("bot")).stats.best_score == 2085
    assert [e.player for e in subject.store.boards.board_page(SCOPE, None, 10)] == [player("ann")]
    assert subject.store.boards.board_page(Scope.challenge("challenge-1"), None, 10) == []
    assert subject.store.boards.board_entry(player("bot"), SCOPE) is None
    assert subject.store.ranks.count_better(SCOPE, TieKey(0, 0, 0)) == 1  # ann alone


def test_a_result_delivered_again_is_not_counted_twice(subject):
    written = results(subject, 12)
    subject.settle()
    subject.replay()
    subject.settle()

    assert subject.store.ranks.count_better(SCOPE, TieKey(0, 0, 0)) == len(written)
    assert [e.player for e in subject.store.boards.board_page(SCOPE, None, 50)] == board_order(written)


# The top of the board at a tenth of its size, with pages of a tenth of 50: the same seams as
# TOP_ROWS (101) and pages of 50 (pages 1 and 2 from the top, 3 on from the shards), on tens of
# results instead of hundreds (each a transaction that in-process moto makes slower as the table grows).
SMALL_TOP, SMALL_PAGE = TOP_ROWS // 10 + 1, 5


def small_top(subject) -> None:
    if isinstance(subject.store, DynamoPorts):  # (the fake has no top item and serves every page alike)
        subject.store.top.rows = SMALL_TOP


def test_pages_beyond_the_top_of_the_board_continue_it_without_gaps_or_repeats(subject):
    """Page 1 and page 2 lie within the top of the board; page 3 on is merged from the board's
    shards. The seams do not show."""
    small_top(subject)
    written = results(subject, SMALL_TOP + 30, seed=5)
    subject.settle()
    seen, after, shown = [], None, 0
    while True:
        page = subject.store.boards.board_page(SCOPE, after, SMALL_PAGE + 1, shown)
        seen += [e.player for e in page[:SMALL_PAGE]]
        if len(page) <= SMALL_PAGE:
            break
        after, shown = page[SMALL_PAGE - 1].position, shown + SMALL_PAGE
    assert seen == board_order(written)


def test_a_rename_shows_on_the_top_of_the_board_and_deeper_pages_alike(subject):
    small_top(subject)
    written = results(subject, SMALL_TOP + 10, seed=6)
    subject.settle()
    order = board_order(written)
    first, last = order[0], order[-1]
    for who in (first, last):
        subject.store.names.set_display_name(who, f"New {who}")
        subject.store.names.rename_rows(who, [SCOPE], f"New {who}")

    page_1 = subject.store.boards.board_page(SCOPE, None, SMALL_PAGE + 1)
    deep = subject.store.boards.board_page(SCOPE, page_1[SMALL_PAGE - 1].position, 200, SMALL_PAGE)
    names = {e.player: e.display_name for e in page_1[:SMALL_PAGE] + deep}
    assert names[first] == f"New {first}" and names[last] == f"New {last}"
    assert sum(1 for name in names.values() if name) == 2


# History, stats, names -------------------------------------------------------------------------


def test_history_is_newest_first_and_pages_after_a_position(subject):
    days = ["2026-01-12", "2026-01-13", "2026-01-14", "2026-01-15"]
    for i, day in enumerate(days):
        record(subject, "ann", 100 + i, day=day, seconds=86_400 * (i - 3))
    record(subject, "ann", 50, challenge_id="challenge-1", seconds=60)
    record(subject, "bob", 70, seconds=30)

    whole = subject.store.results.history(player("ann"), None, 10)
    assert [(r.date, r.challenge_id) for r in whole] == [
        (DAY, "challenge-1"),
        *[(d, None) for d in reversed(days)],
    ]
    last = whole[1]
    after = HistoryPosition(last.completed_at, Scope.daily(last.date))
    assert subject.store.results.history(player("ann"), after, 2) == whole[2:4]


def test_daily_results_update_the_players_stats_and_challenges_do_not(subject):
    assert subject.store.boards.player_profile(player("ann")).stats is None
    record(subject, "ann", 300, day="2026-01-14")
    record(subject, "ann", 200, day="2026-01-15")
    record(subject, "ann", 999, challenge_id="challenge-1")

    stats = subject.store.boards.player_profile(player("ann")).stats

    assert (stats.played, stats.best_score, stats.max_streak, stats.last_played) == (2, 300, 2, "2026-01-15")


def test_streak_freezes_held_and_the_dates_they_covered_are_the_same_on_both_stores(subject):
    for day in range(1, 11):  # ten consecutive Dailies earn a freeze
        record(subject, "ann", 100, day=f"2026-01-{day:02}")
    assert subject.store.boards.player_profile(player("ann")).stats.freezes == 1
    record(subject, "ann", 100, day="2026-01-12")  # the 11th missed: the freeze covers it

    stats = subject.store.boards.player_profile(player("ann")).stats

    assert (stats.freezes, stats.covered, stats.played, stats.max_streak) == (0, ["2026-01-11"], 11, 12)


def test_a_players_profile_holds_the_name_and_the_stats_and_a_rename_keeps_the_stats(subject):
    assert subject.store.boards.player_profile(player("ann"))[:2] == (None, None)
    record(subject, "ann", 300, day="2026-01-14")
    subject.store.names.set_display_name(player("ann"), "Annie")
    record(subject, "ann", 200, day="2026-01-15")
    subject.store.names.set_display_name(player("ann"), "Renamed")

    profile = subject.store.boards.player_profile(player("ann"))

    assert profile.display_name == "Renamed"
    assert (profile.stats.played, profile.stats.best_score, profile.stats.max_streak) == (2, 300, 2)
    assert subject.store.boards.player_profile(player("bob"))[:2] == (None, None)


def test_display_names_are_only_those_set(subject):
    subject.store.names.set_display_name(player("ann"), "Annie")
    assert subject.store.names.display_names([player("ann"), player("bob"), player("ann")]) == {
        player("ann"): "Annie"
    }


# DynamoDB only: the completing write's conditions -----------------------------------------------


@pytest.fixture
def dynamo() -> Iterator[DynamoPorts]:
    with mock_aws():
        boto3.client("dynamodb").create_table(**create_table_request(os.environ["TABLE_NAME"]))
        store = dynamo_ports(os.environ["TABLE_NAME"], board_shards=BOARD_SHARDS)
        wound_by_hand(store)
        yield store


def test_a_stats_update_read_before_another_completion_is_refused_as_stale(dynamo):
    """Two completions of one player (two dates) racing: the one that read the stats first
    must not overwrite the other's update."""
    first = official("ann", 300, completed_at=at(5), day="2026-01-14")
    second = official("ann", 200, completed_at=at(6), day="2026-01-15")
    stale = prepare(dynamo, first)  # reads the stats: none yet
    complete_with(dynamo, second)

    assert [next(iter(i)) for i in official_writes(stale[2], BOARD_SHARDS)] == ["Put", "Update"]
    with pytest.raises(StaleRun):
        dynamo.results.complete_run(*stale)
    complete_with(dynamo, first)  # read again: both count
    assert dynamo.boards.player_profile(player("ann")).stats.played == 2


def test_a_daily_completion_writes_two_items_the_result_and_the_profile_with_its_stats(dynamo):
    """Issue #11 (b): the name check and the stats are one conditional write of the profile."""
    daily = official_writes(
        prepare(dynamo, official("ann", 300, completed_at=at(5), day=DAY))[2], BOARD_SHARDS
    )
    challenge = official_writes(
        prepare(dynamo, official("ann", 300, completed_at=at(5), day=DAY, challenge_id="c1"))[2], BOARD_SHARDS
    )

    assert [next(iter(i)) for i in daily] == ["Put", "Update"]
    assert daily[0]["Put"]["Item"]["sk"]["S"].startswith("OFFICIAL#")
    assert daily[1]["Update"]["Key"]["sk"]["S"] == "PROFILE"
    assert daily[1]["Update"]["ConditionExpression"] == (
        "attribute_not_exists(display_name) AND attribute_not_exists(stats_version)"
    )
    assert [next(iter(i)) for i in challenge] == ["Put", "ConditionCheck"]
    assert challenge[1]["ConditionCheck"]["Key"]["sk"]["S"] == "PROFILE"


def test_a_completion_that_read_the_name_before_a_rename_is_refused_as_stale(dynamo):
    """A rename renames the rows it finds; a completion that read the old name must not land a
    row with it after the rename looked."""
    dynamo.names.set_display_name(player("ann"), "Annie")
    daily = prepare(dynamo, official("ann", 300, completed_at=at(5), day=DAY))
    challenge = prepare(dynamo, official("ann", 90, completed_at=at(5), day=DAY, challenge_id="c1"))
    dynamo.names.set_display_name(player("ann"), "Renamed")

    for stale in (daily, challenge):
        with pytest.raises(StaleRun):
            dynamo.results.complete_run(*stale)
    complete_with(dynamo, official("ann", 300, completed_at=at(5), day=DAY))
    assert dynamo.boards.board_entry(player("ann"), SCOPE).display_name == "Renamed"
    assert dynamo.boards.player_profile(player("ann")).stats.played == 1


def test_a_rename_after_a_completion_read_the_stats_keeps_them(dynamo):
    """The rename is an update of the name alone: the stats a completion wrote stay."""
    completing = prepare(dynamo, official("ann", 300, completed_at=at(5), day=DAY))
    dynamo.results.complete_run(*completing)
    dynamo.names.set_display_name(player("ann"), "Annie")
    assert dynamo.boards.player_profile(player("ann")).stats.played == 1


def test_no_completion_writes_an_item_other_players_write(dynamo):
    """SPEC §4: the completing write touches only the player's own items (its board row lands in
    one of the board's shards through the index)."""
    for name in ("ann", "bob"):
        items = official_writes(
            prepare(dynamo, official(name, 300, completed_at=at(5), day=DAY))[2], BOARD_SHARDS
        )
        keys = {(i.get("Put", {}).get("Item") or next(iter(i.values()))["Key"])["pk"]["S"] for i in items}
        assert keys == {f"PLAYER#{player(name)}"}


# DynamoDB only: stats written before they moved onto the profile ---------------------------------


def test_no_request_reads_an_old_stats_item_the_move_has_finished(dynamo):
    """The stats moved onto the profile (shared/dynamo/migrations.py): a `STATS` item left behind
    is neither read nor retired by a completion or a profile read."""
    put_old_stats(dynamo, player("ann"), "2026-01-13", "2026-01-14")
    sent: list[str] = []
    dynamo.client.meta.events.register(
        "before-parameter-build.dynamodb", lambda params, **_: sent.append(str(params))
    )

    completing = prepare(dynamo, official("ann", 300, completed_at=at(5), day=DAY))
    assert [next(iter(i)) for i in official_writes(completing[2], BOARD_SHARDS)] == ["Put", "Update"]
    dynamo.results.complete_run(*completing)

    assert dynamo.boards.player_profile(player("ann")).stats.played == 1
    assert sent and not [request for request in sent if "'STATS'" in request]


def test_get_me_reads_one_item_once_the_profile_holds_the_stats(dynamo):
    calls: list[str] = []
    dynamo.client.meta.events.register("before-call.dynamodb", lambda model, **_: calls.append(model.name))
    complete_with(dynamo, official("ann", 300, completed_at=at(5), day=DAY))
    calls.clear()

    assert dynamo.boards.player_profile(player("ann")).stats.played == 1
    assert calls == ["GetItem"]


def test_a_record_that_is_not_the_stored_result_never_enters_the_top_of_the_board(dynamo):
    """moto's stream carries records of cancelled transactions: a result the table does not hold
    (here another run of a player whose official result is stored) is neither counted nor shown."""
    stored = official("ann", 100, completed_at=at(5), day=DAY)
    complete_with(dynamo, stored)
    ghost = official("ann", 900, completed_at=at(6), day=DAY, run_id="cancelled-run")
    nobody = official("bob", 800, completed_at=at(7), day=DAY)

    assert dynamo.ranks.count_official([stored]) == 1
    assert dynamo.ranks.count_official([ghost, nobody]) == 0

    assert [(e.player, e.position.score) for e in dynamo.boards.board_page(SCOPE, None, 10)] == [
        (player("ann"), 100)
    ]


def test_a_board_live_before_top_items_existed_gets_every_earlier_row_in_its_first_top(dynamo):
    """A board whose results were counted before the consumer kept top items (a deploy during a
    live Daily): the first merge seeds the top from the board index, so page 1 misses none."""
    earlier = [official(f"e{i}", 100 + 5 * i, completed_at=at(i), day=DAY) for i in range(5)]
    for result in earlier:
        complete_with(dynamo, result)
    dynamo.ranks.count_official(earlier)
    dynamo.client.delete_item(
        TableName=dynamo.table, Key={"pk": {"S": f"TOP#DAILY#{DAY}"}, "sk": {"S": "TOP"}}
    )
    assert dynamo.boards.board_page(SCOPE, None, 10) == []  # what such a board shows until then

    late = official("late", 110, completed_at=at(60), day=DAY)
    complete_with(dynamo, late)
    dynamo.ranks.count_official([late])

    expected = sorted([*earlier, late], key=lambda r: BoardPosition.of(r).order())
    assert [e.player for e in dynamo.boards.board_page(SCOPE, None, 10)] == [r.player for r in expected]


# The top item's writes are bounded: one fold per interval, whatever the number of consumers ---
# (each interleaving of the protocol, named, is in tests/dynamo/test_top_protocol.py)


def top_puts(store: DynamoPorts) -> list[str]:
    """Records each write of a top-of-board item (the claims and inboxes are other items)."""
    puts: list[str] = []

    def seen(params, **_):
        if params.get("Item", {}).get("sk", {}).get("S") == "TOP":
            puts.append(params["Item"]["pk"]["S"])

    def seen_in_transaction(params, **_):  # the top item and its words item are put together
        for entry in params["TransactItems"]:
            seen(entry.get("Put", {}))

    store.client.meta.events.register("provide-client-params.dynamodb.PutItem", seen)
    store.client.meta.events.register(
        "provide-client-params.dynamodb.TransactWriteItems", seen_in_transaction
    )
    return puts


def inbox_items(store: DynamoPorts) -> list[dict]:
    items = store.client.scan(TableName=store.table)["Items"]
    return [i for i in items if "#IN" in i["pk"]["S"]]


def test_a_burst_of_consumers_writes_the_top_item_at_most_once_per_interval(dynamo):
    """Ten consumer batches in a row, each bringing a new best row: the top item is written
    once per interval of the wall clock (the waits move it), and holds every row."""
    clock = wound_by_hand(dynamo)
    written = [official(f"p{i}", 100 + 5 * i, completed_at=at(i), day=DAY) for i in range(10)]
    puts = top_puts(dynamo)
    times: list[float] = []
    dynamo.client.meta.events.register(
        "provide-client-params.dynamodb.PutItem",
        lambda params, **_: times.append(clock.now) if params["Item"]["sk"]["S"] == "TOP" else None,
    )
    start = clock.now
    for result in written:
        complete_with(dynamo, result)
        dynamo.ranks.count_official([result])

    assert len(puts) == len(written)
    assert all(b - a >= dynamo.top.interval for a, b in zip(times, times[1:], strict=False))
    assert clock.now - start >= (len(written) - 1) * dynamo.top.interval
    expected = sorted(written, key=lambda r: BoardPosition.of(r).order())
    assert [e.player for e in dynamo.boards.board_page(SCOPE, None, 50)] == [r.player for r in expected]


def test_rows_that_cannot_enter_a_full_top_are_not_left_in_the_inbox(dynamo):
    """Once the top holds TOP_ROWS better rows, a consumer's worse rows cost one read of the top
    item and nothing else: no inbox item, no claim, no write."""
    dynamo.top.rows = 3
    best = [official(f"b{i}", 500 + 5 * i, completed_at=at(i), day=DAY) for i in range(3)]
    worse = official("w", 100, completed_at=at(10), day=DAY)
    for result in [*best, worse]:
        complete_with(dynamo, result)
    dynamo.ranks.count_official(best)
    calls: list[str] = []
    dynamo.client.meta.events.register("before-call.dynamodb", lambda model, **_: calls.append(model.name))

    dynamo.ranks.count_official([worse])

    assert calls == ["TransactWriteItems", "GetItem"]  # counted; the top read; nothing else
    assert inbox_items(dynamo) == []


def test_an_implausible_result_item_says_why_and_has_no_board_row(dynamo):
    """League boards read members' official items and filter on `unranked_reason` (absent: ranked)."""
    complete_with(dynamo, official("ann", 300, completed_at=at(5), day=DAY))
    complete_with(
        dynamo, official("bot", 2085, completed_at=at(6), day=DAY, unranked_reason="implausible_speed")
    )

    def item(name):
        key = {"pk": {"S": f"PLAYER#{player(name)}"}, "sk": {"S": f"OFFICIAL#DAILY#{DAY}"}}
        return dynamo.client.get_item(TableName=dynamo.table, Key=key)["Item"]

    assert item("bot")["unranked_reason"] == {"S": "implausible_speed"}
    assert "board_pk" not in item("bot") and "board_sk" not in item("bot")
    assert "unranked_reason" not in item("ann") and "board_sk" in item("ann")
