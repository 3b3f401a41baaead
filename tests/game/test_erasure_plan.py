"""The erasure's decisions (shared/game/erasure.py) and a sanction's lifting (shared/game/sanctions.py),
pure: what storage carries out is checked on both stores in tests/contract/test_player_data_store.py."""

from shared.game.erasure import Departure, ErasureRead, erasure_plan
from shared.game.leagues import League
from shared.game.moderation import Sanction
from shared.game.names import DELETED_PLAYER_NAME
from shared.game.results import Challenge
from shared.game.sanctions import lift
from shared.game.scope import Scope

ANN, BOB, CAT = "ann", "bob", "cat"
DAY, OTHER = Scope.daily("2026-01-15"), Scope.challenge("c1")


def league(league_id: str, creator: str, **members: str) -> League:
    return League(
        league_id=league_id, name=league_id, creator=creator, code="k", created_at="t", members=members
    )


def challenge(challenge_id: str, creator: str) -> Challenge:
    return Challenge(challenge_id=challenge_id, creator=creator, puzzle=[], created_at="t", closes_at="t")


def test_the_plan_names_each_write_the_erasure_needs_and_nothing_else():
    read = ErasureRead(
        player=ANN,
        claims=["ann", "Ann"],
        rows=[(DAY, "Ann"), (OTHER, DELETED_PLAYER_NAME)],
        leagues=[
            league("l3", BOB, ann="2", bob="1"),  # Bob's: he keeps it
            league("l1", ANN, ann="1", cat="3", bob="2"),  # Ann's: Bob joined first after her
            league("l2", ANN, ann="1"),  # Ann alone: it goes
            league("l4", BOB, bob="1"),  # no longer hers
        ],
        challenges=[challenge("c1", ANN), challenge("c2", "")],
    )
    plan = erasure_plan(read, foreign={"Ann"})
    assert plan.release == ["ann"]  # the look-alike someone else holds is left to them
    assert plan.rename == [DAY] and plan.boards == [DAY, OTHER]
    assert [(d.league.league_id, d.heir) for d in plan.leave] == [("l1", BOB), ("l2", None), ("l3", BOB)]
    assert all(isinstance(d, Departure) for d in plan.leave)
    assert plan.disown == ["c1"]


def test_a_plan_for_what_is_erased_already_names_nothing():
    read = ErasureRead(
        ANN, [], [(DAY, DELETED_PLAYER_NAME)], [league("l1", BOB, bob="1")], [challenge("c1", "")]
    )
    plan = erasure_plan(read)
    assert (plan.release, plan.rename, plan.leave, plan.disown) == ([], [], [], [])


def sanction(case_id: str, action: str, until: str | None, lifted_at: str | None = None) -> Sanction:
    return Sanction.model_validate(
        {
            "action": action,
            "reason": "r",
            "until": until,
            "case_id": case_id,
            "decided_at": "t",
            "lifted_at": lifted_at,
        }
    )


def test_lifting_a_sanction_recomputes_the_ends_of_those_still_holding():
    held = [
        sanction("a", "ban", "2026-03-01"),
        sanction("b", "rank_ban", "2026-02-01"),
        sanction("c", "ban", "2026-04-01"),
    ]
    lifted = lift(held, "c", "2026-01-20")
    assert lifted is not None and lifted.sanction.lifted_at == "2026-01-20"
    assert [s.lifted_at for s in lifted.held] == [None, None, "2026-01-20"]
    assert (lifted.banned_until, lifted.rank_banned_until) == ("2026-03-01", "2026-02-01")
    after = lift(lifted.held, "b", "2026-01-21")
    assert after is not None and (after.banned_until, after.rank_banned_until) == ("2026-03-01", None)
    assert lift(after.held, "b", "2026-01-22") is None and lift(held, "nope", "t") is None
