"""The run side of the Store port (shared/services/ports.py RunStore): one contract, two implementations.

Every test runs against the in-memory fake (tests/fakes/fake_store.py) and the adapters on in-process
moto, so the fake the service tests use cannot drift from the real adapter. Races between
conditional writes are tested on moto's server mode (tests/dynamo/test_races.py), not here.
"""

from datetime import UTC, datetime, timedelta

import pytest

from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.game.clock import iso
from shared.game.puzzles import Round
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import Run, answer, expire_if_due, new_run, skip
from shared.game.scope import Scope
from shared.services.completion import completion_of
from shared.services.ports import (
    ActiveRunExists,
    AnswerSlot,
    Completion,
    DueRun,
    OfficialTaken,
    QuotaExceeded,
    Slot,
    StaleRun,
    Version,
)
from tests.challenges import week_challenge
from tests.fakes.fake_store import FakePorts

NOW = datetime(2026, 11, 29, 18, tzinfo=UTC)
DAY = "2026-11-29"
PUZZLE = [Round("TMR", ""), Round("ALL", ""), Round("BRD", "AEO")]
WORDS = {"timer", "alley", "bird"}
DAILY = Scope.daily(DAY)


@pytest.fixture(params=["fake", "dynamo"])
def store(request):
    if request.param == "fake":
        fake = FakePorts()
        fake.runs.put_puzzle(DAILY, PUZZLE)
        return fake
    request.getfixturevalue("table")
    dynamo = dynamo_ports(request.getfixturevalue("table"), board_shards=BOARD_SHARDS)
    dynamo.runs.put_puzzle(DAILY, PUZZLE)
    return dynamo


def completion(store, run: Run) -> Completion:
    """The completion the game hands the store with an official RUN (shared/services/game.py)."""
    read = store.results.profile_for_completion(run.player)
    return completion_of(OfficialResult.of_run(run), read)


def a_run(player="p1", run_id="run-00000001", official=True, scope=DAILY, started=NOW):
    challenge_id = scope.id if scope.kind == "challenge" else None
    return new_run(run_id, scope.kind, DAY, PUZZLE, started, player, official, challenge_id)


def finish(run, at=NOW + timedelta(seconds=30)):
    for number, word in enumerate(["timer", "alley", "bird"], start=1):
        answer(run, number, 1, word, at, WORDS)
    assert run.completed
    return run


def test_the_first_puzzle_stored_for_a_scope_stays(store):
    assert store.runs.put_puzzle(DAILY, [Round("XYZ", "")]) == PUZZLE
    assert store.runs.get_puzzle(DAILY) == PUZZLE
    assert store.runs.get_puzzle(Scope.daily("2026-11-30")) is None


def test_a_stored_run_reads_back_equal_with_its_puzzle_and_history(store):
    run = a_run()
    store.runs.create_run(run)
    answer(run, 1, 1, "qzqzq", NOW + timedelta(milliseconds=1_234), WORDS)
    answer(run, 1, 2, "Q" * 60, NOW + timedelta(milliseconds=2_500), WORDS)  # cut, with its digest
    answer(run, 1, 3, "timer", NOW + timedelta(milliseconds=4_321), WORDS)
    store.runs.save_run(run, store.runs.get_run(run.run_id).version)
    active = store.runs.get_run(run.run_id).run
    assert active == run and active.round_shown_at == "2026-11-29T18:00:04.321Z"  # round 2's clock
    skip(run, 2, NOW + timedelta(seconds=6))
    answer(run, 3, 1, "bird", NOW + timedelta(milliseconds=7_890), WORDS)
    store.runs.save_run(run, store.runs.get_run(run.run_id).version)
    stored = store.runs.get_run(run.run_id).run
    assert stored == run and stored.completed and stored.history[0].attempts[1].digest
    assert [a.elapsed_ms for a in stored.history[0].attempts] == [1_234, 2_500, 4_321]
    assert (stored.history[0].speed_bonus, stored.history[2].speed_bonus) == (18, 27)
    assert store.runs.get_run("run-missing01") is None


def test_a_player_has_one_active_run_per_scope_and_scopes_do_not_block_each_other(store):
    store.runs.create_run(a_run(run_id="run-daily-01"))
    with pytest.raises(ActiveRunExists):
        store.runs.create_run(a_run(run_id="run-daily-02"))
    challenge = Challenge(
        challenge_id="chal-0001", creator="p2", puzzle=PUZZLE, created_at=iso(NOW), closes_at=iso(NOW)
    )
    store.runs.create_challenge(challenge, DAY, 20)
    store.runs.create_run(a_run(run_id="run-chall-01", scope=Scope.challenge("chal-0001")))
    store.runs.create_run(a_run(player="p2", run_id="run-daily-03"))
    assert store.runs.slot("p1", DAILY) == Slot("run-daily-01", "run-daily-01")
    assert store.runs.slot("p1", Scope.challenge("chal-0001")) == Slot("run-chall-01", "run-chall-01")
    assert store.runs.slot("p1", Scope.daily("2026-11-30")) == Slot(None, None)


def test_a_guest_run_takes_no_slot(store):
    store.runs.create_run(a_run(player=None, run_id="guest-run-01"))
    store.runs.create_run(a_run(player=None, run_id="guest-run-02"))
    assert store.runs.get_run("guest-run-02").run.player is None


def test_a_new_runs_official_flag_must_match_the_slots_decision(store):
    with pytest.raises(ActiveRunExists):
        store.runs.create_run(a_run(official=False))  # nothing is official yet: the run must be
    first = a_run()
    store.runs.create_run(first)
    assert store.runs.slot("p1", DAILY) == Slot(first.run_id, first.run_id), "decided when it starts"
    store.results.complete_run(finish(first), store.runs.get_run(first.run_id).version)
    with pytest.raises(ActiveRunExists):
        store.runs.create_run(a_run(run_id="run-00000002", official=True))
    store.runs.create_run(a_run(run_id="run-00000003", official=False), replacing=first.run_id)
    assert store.runs.slot("p1", DAILY) == Slot("run-00000003", first.run_id)


def test_a_new_run_takes_the_slot_only_from_the_run_the_caller_names(store):
    store.runs.create_run(a_run(run_id="run-00000001"))
    with pytest.raises(ActiveRunExists):
        store.runs.create_run(a_run(run_id="run-00000002"))
    with pytest.raises(ActiveRunExists):
        store.runs.create_run(a_run(run_id="run-00000002"), replacing="run-someother")
    store.runs.create_run(a_run(run_id="run-00000002"), replacing="run-00000001")  # seen missing
    assert store.runs.slot("p1", DAILY) == Slot("run-00000002", "run-00000002")


def test_a_write_holds_only_at_the_version_read(store):
    run = a_run()
    version = store.runs.create_run(run)
    answer(run, 1, 1, "timer", NOW, WORDS)
    newer = store.runs.save_run(run, version)
    assert newer != version and store.runs.get_run(run.run_id).version == newer
    with pytest.raises(StaleRun):
        store.runs.save_run(run, version)
    with pytest.raises(StaleRun):
        store.results.complete_run(finish(run), version)
    assert not store.runs.get_run(run.run_id).run.completed


def test_completing_an_official_run_frees_the_slot_and_records_the_result(store):
    run = a_run()
    store.runs.create_run(run)
    store.results.complete_run(finish(run), store.runs.get_run(run.run_id).version, completion(store, run))
    assert store.runs.slot("p1", DAILY) == Slot(run.run_id, run.run_id)
    result = store.results.official_result("p1", DAILY)
    assert (result.run_id, result.score, result.words) == (run.run_id, run.score, ["timer", "alley", "bird"])
    assert store.runs.get_run(run.run_id).run.completed


def test_an_implausible_official_run_records_an_unranked_result(store):
    run = a_run()
    store.runs.create_run(run)
    for number, word in enumerate(["timer", "alley", "bird"], start=1):  # 0.1 s a round: a script
        answer(run, number, 1, word, NOW + timedelta(milliseconds=100 * number), WORDS)
    store.results.complete_run(run, store.runs.get_run(run.run_id).version, completion(store, run))
    result = store.results.official_result("p1", DAILY)
    assert (result.run_id, result.unranked_reason, result.ranked) == (run.run_id, "implausible_speed", False)
    assert result.started_at == run.started_at


def test_a_second_official_result_in_a_scope_is_refused_and_changes_nothing(store):
    first = a_run()
    store.runs.create_run(first)
    store.results.complete_run(
        finish(first), store.runs.get_run(first.run_id).version, completion(store, first)
    )
    second = a_run(run_id="run-00000002", official=False)
    version = store.runs.create_run(second, replacing=first.run_id)
    second.official = True  # as if flagged before the first completed
    with pytest.raises(OfficialTaken):
        store.results.complete_run(finish(second), version, completion(store, second))
    assert store.runs.get_run(second.run_id).version == version
    assert store.results.official_result("p1", DAILY).run_id == first.run_id
    second.official = False
    store.results.complete_run(second, version)
    assert store.runs.slot("p1", DAILY) == Slot(second.run_id, first.run_id)


def test_due_runs_are_players_active_runs_whose_deadline_has_passed(store):
    early = a_run(run_id="run-early001", started=NOW - timedelta(seconds=200))
    on_time = a_run(player="p2", run_id="run-ontime01", started=NOW - timedelta(seconds=180))
    later = a_run(player="p3", run_id="run-later001", started=NOW - timedelta(seconds=10))
    guest = a_run(player=None, run_id="guest-run-01", started=NOW - timedelta(seconds=300))
    done = a_run(player="p4", run_id="run-done0001", started=NOW - timedelta(seconds=300))
    for run in (early, on_time, later, guest, done):
        store.runs.create_run(run)
    expire_if_due(done, NOW)
    store.results.complete_run(done, store.runs.get_run(done.run_id).version)
    assert sorted(store.runs.due_runs(NOW)) == [
        DueRun("run-early001", early.deadline),
        DueRun("run-ontime01", on_time.deadline),
    ]


def test_the_completed_through_watermark_only_moves_forward(store):
    assert store.runs.completed_through() is None
    store.runs.mark_completed_through(NOW)
    store.runs.mark_completed_through(NOW - timedelta(minutes=1))
    assert store.runs.completed_through() == NOW
    store.runs.mark_completed_through(NOW + timedelta(minutes=1))
    assert store.runs.completed_through() == NOW + timedelta(minutes=1)


def test_a_player_creates_at_most_the_quota_of_challenges_per_daily_date(store):
    def challenge(number, creator="p1"):
        return week_challenge(f"chal-{creator}-{number:04d}", NOW, creator, PUZZLE)

    for number in range(3):
        store.runs.create_challenge(challenge(number), DAY, 3)
    with pytest.raises(QuotaExceeded):
        store.runs.create_challenge(challenge(3), DAY, 3)
    assert store.runs.get_challenge("chal-p1-0003") is None
    store.runs.create_challenge(challenge(4), "2026-11-30", 3)
    store.runs.create_challenge(challenge(0, creator="p2"), DAY, 3)
    assert store.runs.get_challenge("chal-p1-0000") == challenge(0)
    assert store.runs.get_puzzle(Scope.challenge("chal-p1-0000")) == PUZZLE


def past_daily_run(run_id: str, player: str | None = "p1"):
    return new_run(run_id, "daily", DAY, PUZZLE, NOW, player, False, None, archive=True)


def test_an_archive_run_takes_the_dates_slot_without_an_official_run_and_completes_as_practice(store):
    run = past_daily_run("run-past-001")
    store.runs.create_run(run)
    assert store.runs.slot("p1", DAILY) == Slot("run-past-001", None)
    with pytest.raises(ActiveRunExists):
        store.runs.create_run(past_daily_run("run-past-002"))
    stored = store.runs.get_run("run-past-001")
    assert stored.run.archive and not stored.run.official
    finish(run)
    store.results.complete_run(run, stored.version)
    assert store.results.official_result("p1", DAILY) is None
    store.runs.create_run(past_daily_run("run-past-003"), replacing="run-past-001")
    assert store.runs.slot("p1", DAILY) == Slot("run-past-003", None)


def test_a_creator_lists_the_challenges_they_made_newest_first(store):
    def challenge(number, creator="maker"):
        made = NOW + timedelta(minutes=number)
        return week_challenge(f"chal-{creator}-{number:04d}", made, creator, PUZZLE)

    for number in range(4):
        store.runs.create_challenge(challenge(number), DAY, 20)
    store.runs.create_challenge(challenge(9, creator="someone-else"), DAY, 20)
    with pytest.raises(QuotaExceeded):  # a refused challenge is not listed either
        store.runs.create_challenge(challenge(5), DAY, 4)
    assert store.runs.created_challenges("maker", 3) == [challenge(3), challenge(2), challenge(1)]
    assert store.runs.created_challenges("nobody", 3) == []


# An answer in one write (RunStore.answer_in_place) -------------------------------------------------


def test_an_answer_written_in_place_reads_back_as_the_same_answer_applied_to_the_run(store):
    """The write appends the judged attempt; the run it returns, the run read later and the run
    the rules give by applying the same answers in memory are one run."""
    expected = a_run()
    store.runs.create_run(expected)
    slots = [
        AnswerSlot(1, 1, "qzqzq", "letter_order"),
        AnswerSlot(1, 2, "timer", None),
        AnswerSlot(2, 1, "alley", None),
    ]
    for seconds, slot in enumerate(slots, start=1):
        at = NOW + timedelta(seconds=seconds, milliseconds=250)
        written, version = store.runs.answer_in_place(expected.run_id, "p1", slot, at)[:2]
        answer(expected, slot.round_number, slot.attempt_number, slot.word, at, WORDS)
        assert written == expected and version == seconds
    assert store.runs.get_run(expected.run_id)[:2] == (expected, 3)
    assert (expected.combo, expected.round_number) == (2, 3)
    store.runs.save_run(expected, Version(3))  # a whole write folds the appended attempts in
    assert store.runs.get_run(expected.run_id)[:2] == (expected, 4)
    written = store.runs.answer_in_place(
        expected.run_id, "p1", AnswerSlot(3, 1, "qzqzq", "letter_order"), NOW
    ).run
    assert written.history[2].attempts[0].word == "qzqzq"


@pytest.mark.parametrize(
    ("case", "slot", "player", "seconds"),
    [
        ("not the next slot", AnswerSlot(1, 2, "timer", None), "p1", 5),
        ("a slot already used", AnswerSlot(1, 1, "timer", None), "p1", 5),
        ("a word already used", AnswerSlot(2, 1, "timer", None), "p1", 5),
        ("another player", AnswerSlot(2, 1, "alley", None), "p2", 5),
        ("a guest", AnswerSlot(2, 1, "alley", None), None, 5),
        ("past the deadline", AnswerSlot(2, 1, "alley", None), "p1", 180),
    ],
)
def test_an_answer_written_in_place_is_refused_when_the_run_is_not_as_judged(
    store, case, slot, player, seconds
):
    run = a_run()
    store.runs.create_run(run)
    store.runs.answer_in_place(run.run_id, "p1", AnswerSlot(1, 1, "timer", None), NOW + timedelta(seconds=1))
    before = store.runs.get_run(run.run_id)
    with pytest.raises(StaleRun):
        store.runs.answer_in_place(run.run_id, player, slot, NOW + timedelta(seconds=seconds))
    assert store.runs.get_run(run.run_id) == before, case


def test_a_skip_written_in_place_reads_back_as_the_same_skip_applied_to_the_run(store):
    """A skip at any attempt of the round in play is one write; answers after it follow on."""
    expected = a_run()
    store.runs.create_run(expected)
    rejected, at = AnswerSlot(1, 1, "qzqzq", "letter_order"), NOW + timedelta(seconds=1)
    store.runs.answer_in_place(expected.run_id, "p1", rejected, at)
    answer(expected, 1, 1, "qzqzq", at, WORDS)
    at = NOW + timedelta(seconds=2, milliseconds=500)
    written, version = store.runs.skip_in_place(expected.run_id, "p1", 1, at)[:2]
    skip(expected, 1, at)
    assert (written, version) == (expected, 2)
    at = NOW + timedelta(seconds=4)
    store.runs.answer_in_place(expected.run_id, "p1", AnswerSlot(2, 1, "alley", None), at)
    answer(expected, 2, 1, "alley", at, WORDS)
    assert store.runs.get_run(expected.run_id)[:2] == (expected, 3)
    assert [r.outcome for r in expected.history] == ["skipped", "accepted"]


@pytest.mark.parametrize(
    ("case", "round_number", "player", "seconds"),
    [
        ("a round skipped already (a replay)", 1, "p1", 5),
        ("not the round in play", 3, "p1", 5),
        ("another player", 2, "p2", 5),
        ("a guest", 2, None, 5),
        ("past the deadline", 2, "p1", 180),
    ],
)
def test_a_skip_written_in_place_is_refused_when_the_run_is_not_as_assumed(
    store, case, round_number, player, seconds
):
    run = a_run()
    store.runs.create_run(run)
    store.runs.skip_in_place(run.run_id, "p1", 1, NOW + timedelta(seconds=1))
    before = store.runs.get_run(run.run_id)
    with pytest.raises(StaleRun):
        store.runs.skip_in_place(run.run_id, player, round_number, NOW + timedelta(seconds=seconds))
    assert store.runs.get_run(run.run_id) == before, case


def test_an_answer_in_place_refuses_a_completed_or_missing_run(store):
    run = finish(a_run(player=None, run_id="guest-run-01"))
    store.runs.create_run(run)
    with pytest.raises(StaleRun):
        store.runs.answer_in_place(run.run_id, None, AnswerSlot(1, 1, "qzqzq", "letter_order"), NOW)
    with pytest.raises(StaleRun):
        store.runs.answer_in_place("run-missing01", None, AnswerSlot(1, 1, "qzqzq", "letter_order"), NOW)
