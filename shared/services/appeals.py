"""Appeals (SPEC §3e): a sanctioned player appeals a sanction once (`POST /me/appeals`); the appeal
joins the queue as a case of kind `appeal`; a moderator other than the one who decided the sanction
rules `uphold` or `lift`; `lift` undoes its effects: the sanction stops holding, and a voided result
is ranked again while its board is not final, or gets a correction once it is.
"""

from datetime import datetime, timedelta

from shared.game.cases import appeal_snapshot
from shared.game.clock import iso, parse_iso
from shared.game.daily_date import daily_date
from shared.game.errors import Conflict, NotFound
from shared.game.fair_play import UnrankedReason
from shared.game.moderation import Case, Correction, Decision, Sanction, case_id_for, scope_of_case
from shared.game.names import default_display_name
from shared.game.results import OfficialResult
from shared.game.scope import Scope
from shared.services.casework import Casework


def appeal_id(sanction_case: str) -> str:
    """One appeal per sanction (a sanction is named by the case that left it)."""
    return case_id_for("appeal", sanction_case)


def appeal(m: Casework, player: str, sanction_case: str, reason: str) -> Case:
    """PLAYER appeals their sanction SANCTION_CASE: 404 `sanction_not_found` when they hold no such
    sanction; 409 `already_appealed` the second time, `sanction_lifted` once lifted."""
    sanction = next((s for s in m.store.sanctions.sanctions(player) if s.case_id == sanction_case), None)
    if sanction is None:
        raise NotFound("You hold no such sanction", "sanction_not_found")
    if sanction.lifted_at is not None:
        raise Conflict("That sanction was lifted already", "sanction_lifted")
    decided = m.store.cases.get_case(sanction_case)
    decided_by = decided.decision.moderator if decided and decided.decision else ""
    case = Case(
        case_id=appeal_id(sanction_case),
        kind="appeal",
        target=sanction_case,
        shown=f"Appeal of {sanction.action.replace('_', ' ')}",
        subject=player,
        source="appeal",
        opened_at=iso(m.now()),
        snapshot=appeal_snapshot(sanction, reason, decided_by, decided.scope_id if decided else None),
    )
    if not m.store.cases.open_case(case):
        raise Conflict("You have appealed this sanction already", "already_appealed")
    return case


def my_appeals(m: Casework, player: str) -> list[tuple[Sanction, Case]]:
    """PLAYER's appeals, each with its sanction, in the sanctions' order."""
    return [(s, a) for s, a in with_appeals(m, m.store.sanctions.sanctions(player)) if a is not None]


def with_appeals(m: Casework, held: list[Sanction]) -> list[tuple[Sanction, Case | None]]:
    """Each of HELD with its appeal (None: not appealed): one read of the cases, none for none."""
    found = m.store.cases.cases([appeal_id(s.case_id) for s in held]) if held else {}
    return [(s, found.get(appeal_id(s.case_id))) for s in held]


def rule(m: Casework, case: Case, decision: Decision) -> None:
    """A ruling's effects: `lift` undoes the sanction (idempotent); `uphold` changes nothing. Undone:
    the case's own run voided, and every result a lifted rank ban kept off a board (`kept_off`):
    each ranked again while its board is not final, else a correction is listed."""
    if decision.action != "lift" or case.subject is None:
        return
    lifted = m.store.sanctions.lift_sanction(case.subject, case.target, decision.decided_at)
    if lifted is None or lifted.action not in ("void_result", "rank_ban", "ban"):
        return
    sanctioned = m.store.cases.get_case(case.target)
    if sanctioned is not None and sanctioned.kind == "run" and sanctioned.scope_id:
        _put_back(m, case, decision, scope_of_case(sanctioned.scope_id), "voided")
    if lifted.action == "rank_ban":
        for result in kept_off(m, case.subject, lifted):
            _put_back(m, case, decision, result.scope, "rank_banned")


def kept_off(m: Casework, player: str, lifted: Sanction) -> list[OfficialResult]:
    """PLAYER's results the rank ban LIFTED kept off their boards: completed while it held and
    not under another rank ban of theirs that still holds (that one keeps them off)."""
    start = parse_iso(lifted.decided_at)
    others = [
        s
        for s in m.store.sanctions.sanctions(player)
        if s.action == "rank_ban" and s.lifted_at is None and s.case_id != lifted.case_id
    ]

    def held(sanction: Sanction, at: datetime) -> bool:
        return parse_iso(sanction.decided_at) <= at and (
            sanction.until is None or at < parse_iso(sanction.until)
        )

    found = []
    # a run's Daily date may be the day before the decision's (a run started before it)
    for result in m.results.results_since(player, daily_date(start) - timedelta(days=1)):
        done = parse_iso(result.completed_at)
        kept = result.unranked_reason == "rank_banned" and held(lifted, done)
        if kept and not any(held(other, done) for other in others):
            found.append(result)
    return found


def _put_back(m: Casework, case: Case, decision: Decision, scope: Scope, reason: UnrankedReason) -> None:
    """PLAYER's result of SCOPE (kept off for REASON) ranked again while SCOPE is not final; on a
    final board, a correction listed instead (the board never changes)."""
    player = case.subject or ""
    if not m.store.finals.is_final(scope):
        m.store.sanctions.restore_result(player, scope, decision.decided_at, reason)
        return
    entry = m.boards.board_entry(player, scope)
    name = (entry.display_name if entry else None) or m.boards.player_profile(player).display_name
    correction = Correction(
        rank=None,
        display_name=name or default_display_name(player),
        action="lift",
        reason_code="appeal",
        decided_at=decision.decided_at,
        case_id=case.case_id,
    )
    m.store.finals.add_correction(scope, correction)
