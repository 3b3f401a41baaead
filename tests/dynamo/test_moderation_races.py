"""Races of moderation's conditional writes (SPEC §3e) against moto's SERVER mode over real HTTP
(tests/dynamo/test_races.py explains why, and provides the server): two moderators deciding one case,
reports racing into one new case, a decision racing a rename of the player it hides."""

from datetime import UTC, datetime, timedelta

import pytest

from shared.dynamo.store import DynamoPorts
from shared.game.clock import iso
from shared.game.dictionary import words
from shared.game.errors import Conflict
from shared.game.moderation import canonical_name, case_id_for
from shared.game.scope import Scope
from shared.services.moderation import Moderation
from tests.dynamo.test_races import ROUNDS, client, race, scan, store  # noqa: F401 (fixtures)
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import complete_official

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("moto_server_races")]

NOW = datetime(2031, 3, 5, 18, tzinfo=UTC)


def moderation_of(table: DynamoPorts, minutes: int = 0) -> Moderation:
    instant = NOW + timedelta(minutes=minutes)
    return Moderation(
        table.moderation,
        table.boards,
        table.ranks,
        table.results,
        table.runs,
        table.closing,
        words,
        now=lambda: instant,
    )


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
        stored = service.store.get_case(case_id)
        assert stored is not None and stored.decision is not None
        assert stored.decision.action == won[0].decision.action
        assert [e.case_id for e in service.audit_log(None, 100)].count(case_id) == 1
        accepted = dict(service.store.accepted_words())
        assert (word in accepted) == (stored.decision.action == "accept_word")


def test_first_reports_racing_into_one_new_case_merge_into_one_queued_case(store):  # noqa: F811
    service = moderation_of(store)
    for n in range(ROUNDS):
        word = f"vvq{'b' * (n + 1)}"
        reporters = [f"r{n}-{i}" for i in range(6)]
        outcomes = race([lambda r=r, w=word: service.report(player(r), "word", w, "x") for r in reporters])
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        case = service.store.get_case(case_id_for("word", word))
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
                lambda m=name: service.decide(
                    "mod", case_id_for("name", canonical_name(m)), "hide_name", "r", None
                ),
                lambda u=user, m=new: store.names.set_display_name(player(u), m),
            ]
        )
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        shown = store.boards.player_profile(player(user)).display_name
        assert shown in (None, new)  # the hidden name is gone either way
        assert service.store.name_holder(name) is None
        holder = service.store.name_holder(new)
        assert holder == (player(user) if shown == new else None) or shown is None
        row = store.boards.board_entry(player(user), Scope.daily("2031-03-05"))
        assert row is not None and row.display_name != name
