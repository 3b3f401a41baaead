"""A lifted rank ban undoes all it did (SPEC §3e, appeals), through the handlers, on the in-memory
fake and on DynamoDB (moto) alike: every result the player completed while it held, which no board
placed, is ranked again while its board is not final, and gets a correction once it is; a result
another rank ban of theirs still holds stays off."""

from datetime import timedelta

from functions.daily.handler import handler as daily_handler
from shared.game import clock
from shared.game.cases import name_case_id
from shared.game.clock import iso
from shared.game.scope import Scope
from tests.conftest import Api
from tests.fakes.fake_boards import DAY, NOON, official, player
from tests.fakes.fake_store import complete_official
from tests.play import play_out
from tests.routed import handler as leaderboard_handler  # with the moderation routes

boards = Api(leaderboard_handler)
daily = Api(daily_handler)
MODS = "[moderators]"
FIRST = DAY.isoformat()
LATER = (DAY + timedelta(days=8)).isoformat()  # FIRST's board is final by then


def _decide(moderator: str, case_id: str, action: str, **extra) -> dict:
    body = {"action": action, "reason": "by the rules", **extra}
    path = f"/moderation/cases/{case_id}/decision"
    status, reply, _ = boards("POST", path, body, user=moderator, groups=MODS)
    assert status == 200, reply
    return reply


def _rank_ban(name: str, days: int, user: str = "zed") -> str:
    """USER, named NAME, rank-banned for DAYS by Mo on Ann's report of their name: the sanction."""
    assert boards("PUT", "/me", {"display_name": name}, user=user)[0] == 200
    body = {"kind": "name", "target": name, "reason": "rude"}
    assert boards("POST", "/reports", body, user="ann")[0] == 201
    case_id = name_case_id(name, player(user))
    _decide("mo", case_id, "rank_ban", until=iso(clock.now() + timedelta(days=days)))
    return case_id


def _play(store, name: str, score: int, day: str) -> None:
    clock.advance(60)
    complete_official(store, official(name, score, completed_at=iso(clock.now()), day=day))


def _close(store, day_after: int) -> None:
    """The clock DAY_AFTER days past NOON: the boards of the days before have closed."""
    clock.travel_to(NOON + timedelta(days=day_after))
    store.runs.mark_completed_through(clock.now())


def _lift(user: str, sanction: str) -> None:
    body = {"sanction": sanction, "reason": "I was polite"}
    status, appealed, _ = boards("POST", "/me/appeals", body, user=user)
    assert status == 201, appealed
    _decide("judy", appealed["appeal_id"], "lift")


def _history(user: str) -> dict[str, tuple[int | None, str | None]]:
    items = boards("GET", "/me/history", user=user)[1]["items"]
    return {item["date"]: (item["rank"], item["unranked_reason"]) for item in items}


def test_a_lift_ranks_again_every_result_the_rank_ban_kept_off_and_corrects_final_boards(store):
    sanction = _rank_ban("Zed", days=10)
    _play(store, "zed", 2000, FIRST)
    _play(store, "ann", 900, FIRST)
    clock.travel_to(NOON + timedelta(days=8))
    store.final_boards.mark_final(Scope.daily(FIRST))
    _play(store, "zed", 2000, LATER)
    _play(store, "ann", 900, LATER)
    _close(store, 9)  # LATER's board closed, in its review window
    assert _history("zed") == {FIRST: (None, "rank_banned"), LATER: (None, "rank_banned")}
    assert _history("ann")[LATER] == (1, None)
    _lift("zed", sanction)
    assert _history("zed") == {FIRST: (None, "rank_banned"), LATER: (1, None)}
    assert _history("ann") == {FIRST: (1, None), LATER: (2, None)}
    later = boards("GET", "/me/history", user="ann")[1]["items"][0]
    assert later["rank_before_correction"] == 1  # "rank 1 → 2, corrected"
    (corrected,) = store.final_boards.corrections(Scope.daily(FIRST))
    assert (corrected.action, corrected.rank, corrected.display_name) == ("lift", None, "Zed")
    assert store.final_boards.corrections(Scope.daily(LATER)) == []


def test_a_result_another_rank_ban_still_holds_stays_off_after_a_lift(store):
    first = _rank_ban("Zed", days=10)
    second = _rank_ban("Zee", days=10)  # Zed renamed, and rank-banned again
    _play(store, "zed", 2000, FIRST)
    _close(store, 1)
    _lift("zed", first)
    assert _history("zed") == {FIRST: (None, "rank_banned")}
    _lift("zed", second)
    assert _history("zed") == {FIRST: (1, None)}


def test_a_lifted_rank_bans_run_says_ranked_again_as_its_board_places_it(store):
    sanction = _rank_ban("Zed", days=10)
    done = play_out(daily, daily("POST", "/daily/runs", user="zed")[1], "zed")
    assert done["ranked"] is False and done["unranked_reason"] == "rank_banned"
    _lift("zed", sanction)
    status, run, _ = daily("GET", f"/runs/{done['run_id']}", user="zed")
    assert status == 200 and run["ranked"] is True and run["unranked_reason"] is None, run
    assert _history("zed")[done["date"]] == (None, None)  # ranked; the rank once the board closes
