"""Moderation that is just (SPEC §3e), on the in-memory fake and on DynamoDB (in-process moto) alike:
a name's case is about the name as held by one player, a decided target reopens after 30 days, no
moderator judges their own case, a case keeps its evidence, reporters' reasons reach the moderator,
a guest client's reports are bounded, and an appeal's `lift` undoes a void. The fixture is
tests/contract/test_moderation_store.py's."""

from datetime import date, timedelta

import pytest

from shared.dynamo import moderation_keys
from shared.game.cases import REOPEN_AFTER, name_case_id
from shared.game.errors import Conflict, Forbidden
from shared.game.moderation import Case, canonical_name
from shared.runtime.wiring import moderation_on
from shared.services import appeals
from shared.services.moderation import Moderation
from shared.services.moderation_store import ReportQuotaExceeded
from tests.contract.test_moderation_store import (  # noqa: F401 (the fixture)
    AFTER,
    DAY,
    NOW,
    PUZZLE,
    SCOPE,
    closed_rows,
    record,
    report_of,
    subject,
    word_case,
)
from tests.fakes.fake_boards import player


def at(subject, when=NOW) -> Moderation:  # noqa: F811
    s = subject.store
    return moderation_on(s, now=lambda: when)


def board_scores(subject) -> list[int]:  # noqa: F811
    return [row.score for row in closed_rows(subject)]


def test_a_name_case_is_about_the_name_as_held_by_one_player(subject):  # noqa: F811
    names = subject.store.names
    names.set_display_name(player("a"), "Rude1")
    _, first = at(subject).report(player("ann"), "name", "Rude1", "rude")
    assert first.case_id == name_case_id("Rude1", player("a")) and first.subject == player("a")
    names.set_display_name(player("a"), "Polite")
    names.set_display_name(player("b"), "RudeI")  # the same skeleton, another holder
    _, second = at(subject).report(player("ann"), "name", "Rude1", "rude again")
    assert second.case_id != first.case_id and second.subject == player("b")
    decided = at(subject).decide("mod", first.case_id, "hide_name", "offensive", None)
    assert decided.decision is not None and decided.decision.note  # A no longer holds it: says so
    assert subject.store.boards.player_profile(player("a")).display_name == "Polite"
    assert subject.store.boards.player_profile(player("b")).display_name == "RudeI"  # B keeps it
    at(subject).decide("mod", second.case_id, "hide_name", "offensive", None)
    assert subject.store.boards.player_profile(player("b")).display_name is None
    assert subject.store.cases.name_holder("Rude1") is None


def test_a_decided_target_is_reported_again_as_a_new_case_after_30_days(subject):  # noqa: F811
    _, case = at(subject).report(player("ann"), "word", "zzqx", "a word")
    at(subject).decide("mod", case.case_id, "dismiss", "no", None)
    _, joined = at(subject, NOW + timedelta(days=29)).report(player("bob"), "word", "zzqx", "still")
    assert joined.case_id == case.case_id
    later = NOW + REOPEN_AFTER
    _, reopened = at(subject, later).report(player("cat"), "word", "zzqx", "again")
    assert reopened.case_id != case.case_id and reopened.generation == 1 and reopened.status == "open"
    assert [v.case.case_id for v in at(subject, later).open_cases("word", None, 10)] == [reopened.case_id]


def test_no_moderator_decides_a_case_about_themselves_or_one_they_reported(subject):  # noqa: F811
    subject.store.names.set_display_name(player("mod"), "Modd")
    _, about = at(subject).report(player("ann"), "name", "Modd", "rude")
    _, reported = at(subject).report(player("mod"), "word", "zzqx", "a word")
    for case in (about, reported):
        with pytest.raises(Forbidden) as refused:
            at(subject).decide(player("mod"), case.case_id, "dismiss", "mine", None)
        assert refused.value.code == "own_case"
    views = at(subject).open_cases(None, None, 10, player("mod"))
    assert {v.case.case_id: v.evidence["own_case"] for v in views} == {
        about.case_id: True,
        reported.case_id: True,
    }
    at(subject).decide(player("other"), about.case_id, "dismiss", "fine", None)


def test_reporters_reasons_reach_the_moderator_in_words(subject):  # noqa: F811
    at(subject).report(player("ann"), "word", "zzqx", "it is in every dictionary")
    at(subject).report(player("bob"), "word", "zzqx", "my club plays it")
    (view,) = at(subject).open_cases("word", None, 10, "mod")
    assert sorted(r["reason"] for r in view.evidence["reasons"]) == [
        "it is in every dictionary",
        "my club plays it",
    ]


def test_a_case_keeps_its_evidence_snapshot_from_its_opening(subject):  # noqa: F811
    subject.store.runs.put_puzzle(SCOPE, PUZZLE)
    subject.store.names.set_display_name(player("zed"), "Zed")
    record(subject, "zed", 900, 0)
    subject.settle()
    service = at(subject, AFTER)
    _, case = service.report(player("ann"), "run", f"{DAY}:Zed", "too good")
    stored = subject.store.cases.get_case(case.case_id)
    assert stored.snapshot is not None and stored.snapshot["display_name"] == "Zed"
    assert stored.snapshot["player"] == player("zed")
    (view,) = service.open_cases("run", None, 10, "mod")
    assert view.evidence["display_name"] == "Zed" and view.evidence["subject"] == player("zed")


def test_a_guest_clients_reports_count_against_the_client_as_well_as_the_run(subject):  # noqa: F811
    for n in range(2):
        subject.store.cases.file_report(
            file_report_of(f"guest:run{n}", word_case(f"w{n}")), word_case(f"w{n}"), DAY, 2, "client-1"
        )
    with pytest.raises(ReportQuotaExceeded):
        subject.store.cases.file_report(
            file_report_of("guest:run9", word_case("w9")), word_case("w9"), DAY, 2, "client-1"
        )
    assert subject.store.cases.get_case(word_case("w9").case_id) is None
    subject.store.cases.file_report(
        file_report_of("guest:run9", word_case("w9")), word_case("w9"), DAY, 2, "client-2"
    )


def file_report_of(reporter, case):

    return report_of(reporter, case)


def zed_voided(subject) -> tuple[Moderation, Case]:  # noqa: F811
    """Zed's 2000 over Ann's 900 on DAY, reported by Bob and voided by mod-a, the board settled:
    the moderation service after DAY closed, and the run's case."""
    subject.store.runs.put_puzzle(SCOPE, PUZZLE)
    subject.store.names.set_display_name(player("zed"), "Zed")
    record(subject, "zed", 2000, 0)
    record(subject, "ann", 900, 1)
    subject.settle()
    service = at(subject, AFTER)
    _, case = service.report(player("bob"), "run", f"{DAY}:Zed", "too good")
    service.decide("mod-a", case.case_id, "void_result", "scripted", None)
    subject.settle()
    return service, case


def test_an_appeal_is_once_per_sanction_ruled_by_another_moderator_and_lift_reranks(subject):  # noqa: F811
    service, case = zed_voided(subject)
    assert board_scores(subject) == [900]
    appeal = appeals.appeal(service, player("zed"), case.case_id, "I type fast")
    with pytest.raises(Conflict):
        appeals.appeal(service, player("zed"), case.case_id, "again")
    (queued,) = service.open_cases("appeal", None, 10, "mod-a")
    assert queued.evidence["own_case"] and queued.evidence["reason"] == "I type fast"
    with pytest.raises(Forbidden):
        service.decide("mod-a", appeal.case_id, "lift", "my own", None)
    service.decide("mod-b", appeal.case_id, "lift", "a fair typist", None)
    subject.settle()
    assert board_scores(subject) == [2000, 900]
    (sanction,) = subject.store.sanctions.sanctions(player("zed"))
    assert sanction.lifted_at is not None
    assert subject.store.results.official_result(player("zed"), SCOPE).unranked_reason is None


def test_a_lifted_ban_admits_the_player_again(subject):  # noqa: F811
    subject.store.names.set_display_name(player("zed"), "Zed")
    service = at(subject)
    _, case = service.report(player("bob"), "name", "Zed", "abuse")
    service.decide("mod-a", case.case_id, "ban", "abuse", None)
    assert subject.store.boards.admitted_entry(player("zed"), SCOPE)[0].banned_until is not None
    appeal = appeals.appeal(service, player("zed"), case.case_id, "not me")
    service.decide("mod-b", appeal.case_id, "lift", "hacked account", None)
    assert subject.store.boards.admitted_entry(player("zed"), SCOPE)[0].banned_until is None


def test_a_decided_case_is_kept_for_the_retention_period_then_goes(subject):  # noqa: F811
    _, case = at(subject).report(player("ann"), "word", "zzqx", "a word")
    at(subject).decide("mod", case.case_id, "dismiss", "no", None)
    if hasattr(subject.store, "db"):  # DynamoDB: the table's TTL removes it (docs/players.md)
        item = subject.store.db.get(moderation_keys.case_key(case.case_id))
        assert int(item["expires_at"]["N"]) > int((NOW + timedelta(days=179)).timestamp())
    assert subject.store.cases.get_case(case.case_id).decision is not None
    assert canonical_name("Zed") == "zed"


def test_every_board_is_final_7_days_after_its_close_and_a_case_open_then_is_decided_as_a_correction(
    subject,  # noqa: F811
):
    from shared.game.boards import daily_closes_at
    from shared.game.moderation import FINAL_AT_LATEST

    subject.store.runs.put_puzzle(SCOPE, PUZZLE)
    subject.store.names.set_display_name(player("zed"), "Zed")
    record(subject, "zed", 900, 0)
    subject.settle()
    _, case = at(subject, AFTER).report(player("ann"), "run", f"{DAY}:Zed", "too good")
    closes = daily_closes_at(date(2026, 1, 15))
    pending = subject.store.board_reviews.pending_runs(SCOPE)
    assert (
        pending
        and at(subject, closes + timedelta(days=6)).board_status(SCOPE, True, closes, pending) == "closed"
    )
    later = at(subject, closes + FINAL_AT_LATEST + timedelta(minutes=5))
    assert later.board_status(SCOPE, True, closes, pending) == "final"
    later.decide("mod", case.case_id, "void_result", "scripted", None)
    (correction,) = later.corrections(SCOPE)
    assert (correction.case_id, correction.action) == (case.case_id, "void_result")
    assert board_scores(subject) == [900]  # the final board's rows never change


def test_the_queue_is_measured_by_kind_with_its_oldest_case(subject):  # noqa: F811
    from shared.services import queue

    for n, word in enumerate(("zzqa", "zzqb")):
        at(subject, NOW + timedelta(hours=n)).report(player("ann"), "word", word, "a word")
    figures = queue.measure(subject.store.cases, NOW + timedelta(hours=49))
    assert figures.open_by_kind == {"name": 0, "run": 0, "word": 2, "appeal": 0}
    assert figures.oldest_hours == 49.0


def test_a_lift_on_a_final_board_is_a_correction_and_changes_no_row(subject):  # noqa: F811
    service, case = zed_voided(subject)
    subject.store.final_boards.mark_final(SCOPE)
    appeal = appeals.appeal(service, player("zed"), case.case_id, "I type fast")
    service.decide("mod-b", appeal.case_id, "lift", "a fair typist", None)
    subject.settle()
    assert board_scores(subject) == [900]  # the final board stays as it was
    (correction,) = service.corrections(SCOPE)
    assert (correction.action, correction.reason_code, correction.case_id) == (
        "lift",
        "appeal",
        appeal.case_id,
    )
    assert subject.store.sanctions.sanctions(player("zed"))[0].lifted_at is not None
