"""A name's case opened before its id named the holder (its id the name's skeleton alone) follows
the rule of every name case (SPEC §3e): it is about the name as held by its player. A report joins
it while that player holds the name (and within REOPEN_AFTER of its decision); a report of the name
held by someone else opens a new case, and a decision on the old one acts on its player alone. On
the in-memory fake and on DynamoDB (in-process moto) alike; the fixture is
tests/contract/test_moderation_store.py's."""

from shared.game.cases import REOPEN_AFTER, name_case_id, skeleton_case_id
from shared.game.moderation import Case, canonical_name
from tests.contract.test_cases_store import at
from tests.contract.test_moderation_store import NOW, subject  # noqa: F401 (the fixture)
from tests.fakes.fake_boards import player


def old_case(subject, name: str, holder: str) -> Case:  # noqa: F811
    """A name's case as a report opened it before the holder was in the id."""
    skeleton = canonical_name(name)
    case = Case(
        case_id=skeleton_case_id(skeleton),
        kind="name",
        target=skeleton,
        shown=name,
        subject=player(holder),
        opened_at="2026-01-01T10:00:00Z",
    )
    assert subject.store.cases.open_case(case)
    return case


def test_an_old_name_case_is_joined_only_while_its_player_holds_the_name(subject):  # noqa: F811
    names = subject.store.names
    names.set_display_name(player("a"), "Rude1")
    old = old_case(subject, "Rude1", "a")
    _, joined = at(subject).report(player("ann"), "name", "Rude1", "rude")
    assert joined.case_id == old.case_id
    names.set_display_name(player("a"), "Polite")
    names.set_display_name(player("b"), "Rude1")
    _, other = at(subject).report(player("bob"), "name", "Rude1", "rude too")
    assert other.case_id == name_case_id("Rude1", player("b")) and other.subject == player("b")
    decided = at(subject).decide("mod", old.case_id, "hide_name", "offensive", None)
    assert decided.decision is not None and decided.decision.note  # A no longer holds it
    assert subject.store.boards.player_profile(player("b")).display_name == "Rude1"  # B keeps it


def test_an_old_decided_name_case_reopens_after_30_days_as_its_players_new_case(subject):  # noqa: F811
    subject.store.names.set_display_name(player("a"), "Rude1")
    old = old_case(subject, "Rude1", "a")
    at(subject).decide("mod", old.case_id, "dismiss", "fine", None)
    _, joined = at(subject).report(player("ann"), "name", "Rude1", "rude")
    assert joined.case_id == old.case_id and joined.status == "decided"
    _, reopened = at(subject, NOW + REOPEN_AFTER).report(player("cat"), "name", "Rude1", "again")
    assert reopened.case_id == name_case_id("Rude1", player("a")) and reopened.status == "open"
