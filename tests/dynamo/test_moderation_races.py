"""Races of moderation's conditional writes (SPEC §3e) against moto's SERVER mode over real HTTP
(tests/dynamo/test_races.py explains why, and provides the server): two moderators deciding one case,
reports racing into one new case, a decision racing a rename of the player it hides."""

from datetime import UTC, datetime, timedelta

import pytest

from shared.dynamo.store import DynamoPorts
from shared.game.cases import name_case_id
from shared.game.clock import iso
from shared.game.errors import Conflict, Forbidden
from shared.game.moderation import case_id_for
from shared.game.scope import Scope
from shared.runtime.wiring import moderation_on
from shared.services import appeals
from shared.services.moderation import Moderation
from tests.dynamo.test_races import ROUNDS, client, race, scan, store  # noqa: F401 (fixtures)
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import complete_official

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("moto_server_races")]

NOW = datetime(2031, 3, 5, 18, tzinfo=UTC)


def moderation_of(table: DynamoPorts, minutes: int = 0) -> Moderation:
    instant = NOW + timedelta(minutes=minutes)
    return moderation_on(table, now=lambda: instant)


def test_two_moderators_deciding_one_case_exactly_one_wins_and_one_entry_is_logged(store):  # noqa: F811
    service = moderation_of(store)
    for n in range(ROUNDS):
        word = f"qzx{'a' * (n + 1)}"
        service.report(player("ann"), "word", word, "a word")
        case_id = case_id_for("word", word)
        outcomes = race(
            [
                lambda c=case_id: moderation_of(store, 1).decide("mod-a", c, "accept_word", "yes", None),
                lambda c=case_id: moderation_of(store, 1).decide("mod-b", c, "dismiss", "no", None),
            ]
        )
        won = [o for o in outcomes if not isinstance(o, Exception)]
        lost = [o for o in outcomes if isinstance(o, Exception)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert isinstance(lost[0], Conflict) and lost[0].code == "case_decided"
        stored = service.store.cases.get_case(case_id)
        assert stored is not None and stored.decision is not None
        assert stored.decision.action == won[0].decision.action
        assert [e.case_id for e in service.audit_log(None, 100)].count(case_id) == 1
        accepted = dict(service.store.words.accepted_words())
        assert (word in accepted) == (stored.decision.action == "accept_word")


def test_first_reports_racing_into_one_new_case_merge_into_one_queued_case(store):  # noqa: F811
    service = moderation_of(store)
    for n in range(ROUNDS):
        word = f"vvq{'b' * (n + 1)}"
        reporters = [f"r{n}-{i}" for i in range(6)]
        outcomes = race([lambda r=r, w=word: service.report(player(r), "word", w, "x") for r in reporters])
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        case = service.store.cases.get_case(case_id_for("word", word))
        assert case is not None and case.count == len(reporters)
        queued = [i for i in scan(store, "MODQUEUE#") if i["sk"]["S"].endswith(case.case_id)]
        assert len(queued) == 1


def test_hiding_a_name_racing_its_rename_leaves_one_consistent_name(store):  # noqa: F811
    service = moderation_of(store)
    for n in range(ROUNDS):
        user, name, new = f"zed{n}", f"Zed{n}", f"Zedd{n}"
        store.names.set_display_name(player(user), name)
        complete_official(store, official(user, 500, completed_at=iso(NOW), day="2031-03-05"))
        service.report(player("ann"), "name", name, "offensive")
        outcomes = race(
            [
                lambda m=name, u=user: service.decide(
                    "mod", name_case_id(m, player(u)), "hide_name", "r", None
                ),
                lambda u=user, m=new: store.names.set_display_name(player(u), m),
            ]
        )
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        shown = store.boards.player_profile(player(user)).display_name
        assert shown in (None, new)  # the hidden name is gone either way
        assert service.store.cases.name_holder(name) is None
        holder = service.store.cases.name_holder(new)
        assert holder == (player(user) if shown == new else None) or shown is None
        assert shown == new  # hidden, then renamed; or renamed first, and the decision left it


def test_a_name_decision_racing_its_holders_rename_and_a_new_holder_acts_on_the_reported_player_only(
    store,  # noqa: F811
):
    """A is reported, then A renames and B claims the name, while a moderator hides it: A's case hides
    A's name or nothing (A renamed first); B keeps the name either way."""
    service = moderation_of(store)
    for n in range(ROUNDS):
        a, b, name = player(f"a{n}"), player(f"b{n}"), f"Rude{n}"
        store.names.set_display_name(a, name)
        service.report(player("ann"), "name", name, "offensive")

        def rename_then_claim(a=a, b=b, name=name, n=n):
            store.names.set_display_name(a, f"Polite{n}")
            store.names.set_display_name(b, name)

        outcomes = race(
            [
                lambda a=a, m=name: service.decide("mod", name_case_id(m, a), "hide_name", "r", None),
                rename_then_claim,
            ]
        )
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        assert store.boards.player_profile(a).display_name == f"Polite{n}"
        assert store.boards.player_profile(b).display_name == name
        assert service.store.cases.name_holder(name) == b


def test_an_appeal_ruled_by_two_moderators_at_once_has_one_ruling_and_its_effect(store):  # noqa: F811
    service = moderation_of(store)
    for n in range(ROUNDS):
        zed, name = player(f"zed{n}"), f"Zed{n}"
        store.names.set_display_name(zed, name)
        service.report(player("ann"), "name", name, "abuse")
        sanction = name_case_id(name, zed)
        service.decide("mod-a", sanction, "ban", "abuse", None)
        filed = race([lambda z=zed, s=sanction: appeals.appeal(service, z, s, "not me") for _ in range(2)])
        assert sorted(type(o).__name__ for o in filed) == ["Case", "Conflict"], filed
        appeal = appeals.appeal_id(sanction)
        outcomes = race(
            [
                lambda a=appeal: moderation_of(store, 1).decide("mod-b", a, "lift", "ok", None),
                lambda a=appeal: moderation_of(store, 1).decide("mod-c", a, "uphold", "no", None),
                lambda a=appeal: moderation_of(store, 1).decide("mod-a", a, "lift", "mine", None),
            ]
        )
        won = [o for o in outcomes if not isinstance(o, Exception)]
        assert len(won) == 1 and isinstance(outcomes[2], Forbidden), outcomes
        (held,) = service.store.sanctions.sanctions(zed)
        assert (held.lifted_at is not None) == (won[0].decision.action == "lift")
        admission = store.boards.admitted_entry(zed, Scope.daily("2031-03-05"))[0]
        assert (admission.banned_until is None) == (won[0].decision.action == "lift")
