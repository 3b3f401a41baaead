"""One contract for the moderation ports (shared/services/moderation_store.py) and a decision's
effects on the numbers a player sees (board rows, ranks, the board's size, `/leaderboard/daily/me`,
history, stats), run against the in-memory fakes and against DynamoDB on in-process moto (its
stream drained through the rank counters' consumer, as Lambda would)."""

import random
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest

from local.streams import StreamPoller
from shared.dynamo.keys import BOARD_SHARDS
from shared.game.boards import TieKey
from shared.game.clock import iso
from shared.game.moderation import Case, LogEntry, Report, Sanction, case_id_for
from shared.game.puzzles import Round
from shared.game.rank_moves import RankMove
from shared.game.results import OfficialResult
from shared.game.runs import Attempt, RoundRecord, Run
from shared.game.scope import Scope
from shared.runtime.closing_wiring import store_of
from shared.runtime.piece_queue import MemoryQueue
from shared.runtime.wiring import Services, moderation_on, moderation_ports
from shared.services.cases import hide_name
from shared.services.closing_pass import ClosingPass
from shared.services.closing_pieces import COUNT
from shared.services.completion import completion_of
from shared.services.leaderboard import TOP, Boards
from shared.services.moderation_store import AlreadyReported, BoardReview, CasePosition, ReportQuotaExceeded
from shared.services.players import Players
from tests.contract.test_board_store import Subject, moto_ports, rank_counter
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import FakePorts, complete_official

DAY = "2026-01-15"
SCOPE = Scope.daily(DAY)
NOW = datetime(2026, 1, 15, 18, tzinfo=UTC)
AFTER = datetime(2026, 1, 16, 18, tzinfo=UTC)  # DAY's board is closed (its runs all completed)
AT = iso(AFTER)  # when a decision is made


class Moderated(Subject):
    def __init__(self, store, settle):
        super().__init__(store, settle, lambda: None)
        self.moderation = moderation_on(store, now=lambda: NOW)


@pytest.fixture(params=["fake", "dynamo"])
def subject(request) -> Iterator[Moderated]:
    if request.param == "fake":
        fake = FakePorts()
        fake.runs.mark_completed_through(AFTER)
        yield Moderated(fake, lambda: None)
        return
    with moto_ports() as (store, table):
        store.runs.mark_completed_through(AFTER)
        s = store
        follow = Players(s.boards, s.names, s.results, s.runs, Services(s).boards, lambda: NOW)
        yield Moderated(store, StreamPoller(table, handler=rank_counter(store, follow)).drain)


def closed_boards(subject) -> Boards:
    """The board service over SUBJECT's store, read once DAY's board has closed."""
    s = subject.store
    return Boards(s.boards, s.ranks, s.names, s.runs, now=lambda: AFTER)


def closed_rows(subject) -> list:
    """Page 1 of DAY's closed board."""
    return closed_boards(subject).daily_board(date(2026, 1, 15), TOP, 10).rows


def word_case(word: str, seconds: int = 0) -> Case:
    opened = iso(NOW + timedelta(seconds=seconds))
    return Case(case_id=case_id_for("word", word), kind="word", target=word, shown=word, opened_at=opened)


def report_of(reporter: str, case: Case) -> Report:
    return Report(
        reporter=reporter, kind=case.kind, target=case.target, reason="r", case_id=case.case_id,
        reported_at=case.opened_at,
    )  # fmt: skip


def file(subject, reporter: str, case: Case, quota: int = 20) -> Case:
    return subject.store.cases.file_report(report_of(reporter, case), case, DAY, quota)


# Reports and cases ------------------------------------------------------------------------------


def test_reports_merge_into_one_case_counting_each_reporter_once(subject):
    case = word_case("wifi")
    assert file(subject, "a", case).count == 1
    assert file(subject, "b", case).count == 2
    with pytest.raises(AlreadyReported):
        file(subject, "a", case)
    stored = subject.store.cases.get_case(case.case_id)
    assert stored.count == 2 and stored.status == "open"
    assert sorted(subject.store.cases.case_reporters(case.case_id, 10)) == ["a", "b"]
    assert [r.case_id for r in subject.store.cases.reports_of("a", 10)] == [case.case_id]


def test_a_reporters_quota_counts_reports_per_date(subject):
    file(subject, "a", word_case("one"), quota=2)
    file(subject, "a", word_case("two"), quota=2)
    with pytest.raises(ReportQuotaExceeded):
        file(subject, "a", word_case("three"), quota=2)
    assert subject.store.cases.get_case(word_case("three").case_id) is None


def test_the_queue_is_oldest_first_by_kind_and_pages_from_a_position(subject):
    cases = [word_case(f"w{n}", seconds=n) for n in range(7)]
    for case in reversed(cases):
        file(subject, "a", case)
    first = subject.store.cases.open_cases("word", None, 4)
    assert [c.target for c in first] == [f"w{n}" for n in range(4)]
    rest = subject.store.cases.open_cases("word", CasePosition(first[-1].opened_at, first[-1].case_id), 4)
    assert [c.target for c in rest] == ["w4", "w5", "w6"]
    assert subject.store.cases.open_cases("name", None, 4) == []


def test_a_decision_holds_once_leaves_the_queue_and_is_logged(subject):
    case = word_case("wifi")
    file(subject, "a", case)
    service = subject.moderation
    service.decide("mod", case.case_id, "accept_word", "in use", None)
    with pytest.raises(Exception, match="decided"):
        service.decide("mod2", case.case_id, "dismiss", "no", None)
    assert subject.store.cases.open_cases(None, None, 10) == []
    (entry,) = subject.store.audit_log.audit_log(None, 10)
    assert isinstance(entry, LogEntry) and (entry.moderator, entry.action) == ("mod", "accept_word")
    assert (
        subject.store.audit_log.moderator_log("mod") == [entry]
        and subject.store.audit_log.moderator_log("mod2") == []
    )
    assert subject.store.accepted_words.accepted_words() == [("wifi", case.case_id)]


def test_sanctions_are_kept_once_per_case(subject):
    sanction = Sanction(action="ban", reason="r", until=None, case_id="c1", decided_at=iso(NOW))
    subject.store.sanctions.add_sanction(player("zed"), sanction)
    subject.store.sanctions.add_sanction(player("zed"), sanction)
    assert subject.store.sanctions.sanctions(player("zed")) == [sanction]
    assert subject.store.sanctions.sanctions(player("ann")) == []


# A decision's effects on what players see ---------------------------------------------------------


def record(subject, name: str, score: int, seconds: int) -> None:
    completed = iso(datetime(2026, 1, 15, 7, tzinfo=UTC) + timedelta(seconds=seconds))
    complete_official(subject.store, official(name, score, completed_at=completed, day=DAY))


def test_a_void_during_the_review_window_reranks_the_rows_below_it(subject):
    for n, (name, score) in enumerate([("ann", 900), ("zed", 2000), ("bob", 900), ("cat", 500)]):
        record(subject, name, score, n)
    subject.settle()
    boards = closed_boards(subject)
    assert boards.daily_rank(DAY, player("cat")).row.rank == 4
    assert subject.store.sanctions.void_result(player("zed"), SCOPE, AT)
    subject.settle()
    rows = boards.daily_board(date(2026, 1, 15), TOP, 10).rows
    assert [(r.rank, r.score) for r in rows] == [(1, 900), (1, 900), (3, 500)]
    assert boards.daily_rank(DAY, player("cat")).row.rank == 3
    assert subject.store.ranks.count_better(SCOPE, TieKey(500, 0, 0)) == 2
    assert subject.store.boards.board_entry(player("zed"), SCOPE) is None
    kept = subject.store.results.official_result(player("zed"), SCOPE)
    assert kept.score == 2000 and kept.unranked_reason == "voided"  # in their history and stats
    assert subject.store.boards.player_profile(player("zed")).stats.best_score == 2000
    assert subject.store.sanctions.void_result(player("zed"), SCOPE, AT)  # again: nothing changes
    assert subject.store.ranks.count_better(SCOPE, TieKey(500, 0, 0)) == 2
    voided = RankMove(AT, TieKey(2000, 0, 0), kept.run_id)
    assert subject.store.board_reviews.review(SCOPE) == BoardReview(frozenset(), [voided])  # history reads it
    later = iso(AFTER + timedelta(hours=1))
    assert subject.store.sanctions.restore_result(player("zed"), SCOPE, later)
    assert subject.store.board_reviews.review(SCOPE).moves == [
        voided,
        voided._replace(decided_at=later, back=True),
    ]
    assert boards.daily_rank(DAY, player("cat")).row.rank == 4


def test_a_void_before_the_counters_caught_up_is_never_counted(subject):
    record(subject, "zed", 2000, 0)
    record(subject, "ann", 900, 1)
    subject.store.sanctions.void_result(player("zed"), SCOPE, AT)
    subject.settle()
    assert subject.store.ranks.count_better(SCOPE, TieKey(0, 0, 0)) == 1
    rows = closed_rows(subject)
    assert [r.score for r in rows] == [900]


def test_hide_name_frees_the_claim_and_shows_the_default_name_on_the_rows(subject):
    subject.store.names.set_display_name(player("zed"), "Zed")
    record(subject, "zed", 700, 0)
    subject.settle()
    assert subject.store.cases.name_holder("ZED") == player("zed")
    assert hide_name(
        subject.store.sanctions, subject.store.names, subject.store.player_data, player("zed"), "zed"
    )
    subject.settle()
    assert subject.store.cases.name_holder("Zed") is None
    assert subject.store.boards.player_profile(player("zed")).display_name is None
    (row,) = closed_rows(subject)
    assert row.display_name.startswith("player-")
    subject.store.names.set_display_name(player("ann"), "Zed")  # the claim is free


# The find-time pass --------------------------------------------------------------------------------

PUZZLE = [Round("TMR", "")] * 7 + [Round("BRD", "AEO"), Round("CLT", "AEI"), Round("PNT", "AEU")]


def played(subject, name: str, score: int, found_ms: list[int]) -> None:
    """NAME's official run of DAY, completed through the RunStore port with its attempts."""
    start = datetime(2026, 1, 15, 7, tzinfo=UTC)
    run = Run(
        run_id=f"run-{name}", kind="daily", date=DAY, player=player(name), official=True, puzzle=PUZZLE,
        started_at=iso(start), deadline=iso(start + timedelta(seconds=180)),
        history=[
            RoundRecord(
                round=n, prompt=r.prompt, forbidden=r.forbidden, outcome="accepted",
                attempts=[Attempt(word="timer", accepted=True, reason=None, elapsed_ms=ms)],
            )
            for n, (r, ms) in enumerate(zip(PUZZLE, found_ms, strict=True), start=1)
        ],
    )  # fmt: skip
    version = subject.store.runs.create_run(run)
    run = run.model_copy(update={"score": score, "completed_at": iso(start + timedelta(seconds=90))})
    run.ended_by = "finished"
    result = OfficialResult.of_run(run)
    subject.store.results.complete_run(
        run, version, completion_of(result, subject.store.results.profile_for_completion(run.player))
    )


def test_the_find_time_pass_reads_each_ranked_run_and_a_suspects_row_is_pending_until_decided(subject):
    subject.store.runs.put_puzzle(SCOPE, PUZZLE)
    rng = random.Random(4)
    for n in range(30):
        played(subject, f"p{n}", 1000 + n, [int(rng.lognormvariate(8.5, 0.6)) for _ in PUZZLE])
    played(subject, "bot", 2000, [1_050] * 10)
    subject.settle()
    closing = ClosingPass(
        store_of(subject.store), MemoryQueue(), subject.store.runs, moderation_ports(subject.store),
        subject.store.recaps, subject.store.closing, lambda: date.fromisoformat(DAY), lambda day: PUZZLE,
        shards=BOARD_SHARDS,
    )  # fmt: skip
    closing._start(SCOPE)
    closing.queue.drain(closing.run)
    assert closing.store.pass_state(SCOPE).expected[COUNT] == BOARD_SHARDS  # a piece a shard
    case = subject.store.cases.get_case(case_id_for("run", "run-bot"))
    assert case is not None and case.run_id == "run-bot" and case.source == "find_time"
    assert not any(subject.store.cases.get_case(case_id_for("run", f"run-p{n}")) for n in range(30))
    assert (
        subject.store.board_reviews.pass_done(SCOPE) and subject.store.recaps.recap(SCOPE).recap.players == 31
    )
    assert subject.store.board_reviews.pending_runs(SCOPE) == {"run-bot"}
    subject.moderation.decide("mod", case.case_id, "void_result", "scripted", None)
    assert subject.store.board_reviews.pending_runs(SCOPE) == frozenset()
    assert subject.store.boards.board_entry(player("bot"), SCOPE) is None
