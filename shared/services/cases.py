"""Cases about the right player, judged by someone else, on the evidence as it was (SPEC §3e):
which case a report joins or opens, the evidence snapshot it keeps, the queue's view of a case (whose
run, why in words, whether the viewer is a party), and a decision with its effects, acting only on
the case's player. shared/services/moderation.py delegates here; the rules are shared/game/cases.py.
"""

from typing import TYPE_CHECKING

from shared.game.cases import (
    GENERATIONS_MAX,
    judged_in,
    name_snapshot,
    own_case,
    reopens,
    report_case_id,
    run_case,
    run_snapshot,
    skeleton_case_id,
)
from shared.game.clock import iso, parse_iso
from shared.game.constants import MAX_WORD_LENGTH
from shared.game.errors import BadRequest, Conflict, Forbidden, NotFound
from shared.game.moderation import (
    ACTIONS_FOR,
    Action,
    Case,
    Decision,
    LogEntry,
    Report,
    ReportKind,
    Sanction,
    ban_end,
    canonical_name,
    canonical_word,
    scope_of_case,
)
from shared.game.names import default_display_name
from shared.game.scope import Scope
from shared.services import appeals
from shared.services.casework import Casework
from shared.services.moderation_store import CaseDecided

if TYPE_CHECKING:
    from shared.services.board_ports import NameStore
    from shared.services.moderation_store import SanctionStore
    from shared.services.player_data import PlayerDataStore

VOIDED = "A moderator voided your result for that date: GET /me says why and how to appeal"
RANK_BANNED = "Your result for that date is not placed: you were under a rank ban (GET /me says why)"
NO_LONGER_HELD = "The player no longer holds this name: it was left to its new holder"


def for_report(m: Casework, kind: ReportKind, target: str) -> Case:
    """The case a report about TARGET joins or opens: the open one of its generation, or the
    decided one while REOPEN_AFTER has not passed, else a new generation (a name's case opened
    before its id named the holder counts as that holder's, ahead of the generations). 404
    `target_not_found` when TARGET names nothing."""
    opened = iso(m.now())
    base = _new_case(m, kind, target, opened)
    if kind == "name":  # a case opened before the holder was in its id: its holder's, if still theirs
        old = m.store.cases.get_case(skeleton_case_id(base.target))
        if old is not None and old.subject == base.subject and not reopens(old, m.now()):
            return old
    for generation in range(GENERATIONS_MAX):
        case_id = report_case_id(kind, base.target, base.subject, generation)
        stored = m.store.cases.get_case(case_id)
        if stored is None or not reopens(stored, m.now()):
            if stored is not None:
                return stored
            return base.model_copy(update={"case_id": case_id, "generation": generation})
    raise Conflict("This target has been reported too often", "too_many_cases")


def _new_case(m: Casework, kind: ReportKind, target: str, opened: str) -> Case:
    if kind == "word":
        word = canonical_word(target)
        if not word.isascii() or not word.isalpha() or len(word) > MAX_WORD_LENGTH:
            raise BadRequest("A word is 1-45 letters A-Z", "invalid_target")
        return Case(case_id="", kind="word", target=word, shown=word, opened_at=opened)
    if kind == "name":
        holder = m.store.cases.name_holder(target)
        if holder is None:
            raise NotFound("Nobody has that display name", "target_not_found")
        skeleton = canonical_name(target)
        return Case(
            case_id="",
            kind="name",
            target=skeleton,
            shown=target,
            subject=holder,
            opened_at=opened,
            snapshot=name_snapshot(target, holder),
        )
    scope_id, _, name = target.partition(":")
    holder = m.store.cases.name_holder(name) if name else None
    result = None
    if holder is not None and scope_id:
        result = m.results.official_result(holder, scope_of_case(scope_id))
    if result is None:
        raise NotFound("No such row: give `<date or challenge id>:<display name>`", "target_not_found")
    case = run_case(result.player, result.run_id, scope_id, target, opened, "report")
    return with_snapshot(m, case, name)


def guest_report(m: Casework, run_id: str, word: str, reason: str, client: str) -> tuple[Report, Case]:
    """A guest's report of a word judged in their own run RUN_ID (404 `run_not_found`, else 400
    `word_not_in_run`), counted against the run and against CLIENT (shared/game/cases.py
    `client_of`)."""
    stored = m.runs.get_run(run_id)
    if stored is None or stored.run.player is not None:
        raise NotFound("No such run", "run_not_found")
    if not judged_in(stored.run, canonical_word(word)):
        raise BadRequest("A guest reports only a word judged in their own run", "word_not_in_run")
    return m.report(f"guest:{run_id}", "word", word, reason, client)


def why_unranked(m: Casework, player: str, scope: Scope) -> None:
    """When PLAYER's result of SCOPE is off its board by a decision, 404 saying so (SPEC §3e: a
    voided result says so in the player's own views); else nothing."""
    result = m.results.official_result(player, scope)
    reason = result.unranked_reason if result else None
    if reason == "voided":
        raise NotFound(VOIDED, "result_voided")
    if reason == "rank_banned":
        raise NotFound(RANK_BANNED, "result_rank_banned")


def with_snapshot(m: Casework, case: Case, name: str | None = None) -> Case:
    """A run's CASE with its evidence snapshot (the run as stored now, whose it is)."""
    stored = m.runs.get_run(case.run_id or "")
    if stored is None:
        return case
    shown = name or m.boards.player_profile(case.subject or "").display_name
    return case.model_copy(update={"snapshot": run_snapshot(stored.run, shown)})


def evidence(m: Casework, case: Case, moderator: str | None) -> dict[str, object]:
    """CASE's evidence as the queue shows it: its snapshot (else, for a case opened before
    snapshots, the run as stored), the reporters with their reasons in words, and whether MODERATOR
    is a party (`own_case`: another moderator decides it)."""
    reasons = m.store.cases.case_reasons(case.case_id, 50)
    reporters = [reporter for reporter, _ in reasons]
    seen: dict[str, object] = {
        "reporters": reporters,
        "reasons": [{"reporter": reporter, "reason": reason} for reporter, reason in reasons],
        "subject": case.subject,
        "own_case": moderator is not None and own_case(moderator, case, moderator in reporters),
    }
    snapshot = dict(case.snapshot or {})
    if case.kind == "word":
        return {"word": case.target, "in_dictionary": case.target in m.words(), **seen}
    if case.kind == "name":
        return {"name": case.shown, "skeleton": case.target, **snapshot, **seen}
    if case.kind == "appeal":
        return {**snapshot, **seen}
    if not snapshot:
        snapshot = with_snapshot(m, case).snapshot or {"attempts": []}
    if not snapshot.get("display_name") and case.subject and case.scope_id:  # a find-time case: its row's
        entry = m.boards.board_entry(case.subject, scope_of_case(case.scope_id))
        snapshot["display_name"] = entry.display_name if entry else None
    return {
        "run_id": case.run_id,
        "scope_id": case.scope_id,
        **snapshot,
        # a reported run's, once its board's pass has run (none while it is live)
        "hard_round_quantiles_ms": case.quantiles or m._pass_quantiles(case),
        **seen,
    }


def decide(m: Casework, moderator: str, case_id: str, action: Action, reason: str, until: str | None) -> Case:
    """Decide an open case: never by a party to it (403 `own_case`); exactly one decision wins
    (409 `case_decided` for the others), then its effect, on the case's player alone."""
    case = m.store.cases.get_case(case_id)
    if case is None:
        raise NotFound("No such case", "case_not_found")
    if action not in ACTIONS_FOR[case.kind]:
        raise BadRequest(f"{action} does not apply to a {case.kind} case", "action_not_allowed")
    if action == "rank_ban":
        if until is None or parse_iso(until) <= m.now():
            raise BadRequest("A rank ban needs `until`, a time in the future", "invalid_until")
    elif until is not None:
        raise BadRequest("Only a rank ban takes `until`", "invalid_until")
    if case.status == "decided":
        raise Conflict("That case is decided already", "case_decided")
    if own_case(moderator, case, m.store.cases.has_reported(case.case_id, moderator)):
        raise Forbidden(
            "Another moderator decides a case about you, your report or your decision", "own_case"
        )
    note = None
    if case.kind == "name" and m.store.cases.name_holder(case.shown) != case.subject:
        note = NO_LONGER_HELD
    decision = Decision(
        action=action, reason=reason, until=until, moderator=moderator, decided_at=iso(m.now()), note=note
    )
    entry = LogEntry(
        case_id=case.case_id,
        moderator=moderator,
        kind=case.kind,
        target=case.target,
        action=action,
        reason=reason,
        until=until,
        decided_at=decision.decided_at,
        subject=case.subject,
        note=note,
    )
    try:
        m.store.cases.decide(case, decision, entry)
    except CaseDecided as error:
        raise Conflict("That case is decided already", "case_decided") from error
    apply(m, case, decision)
    return case.model_copy(update={"status": "decided", "decision": decision})


def apply(m: Casework, case: Case, decision: Decision) -> None:
    """DECISION's effects (each idempotent), on the case's player alone: a name is hidden only
    while that player still holds it."""
    action = decision.action
    if case.kind == "appeal":
        appeals.rule(m, case, decision)
        return
    if action == "accept_word":
        m.store.words.accept_word(case.target, case.case_id, decision.decided_at)
    if action in ("void_result", "rank_ban", "ban") and case.run_id and case.subject and case.scope_id:
        scope = scope_of_case(case.scope_id)
        if m.store.finals.is_final(scope):
            m._correct(scope, case, decision)
        else:
            m.store.sanctions.void_result(case.subject, scope, decision.decided_at)
    if action == "hide_name" and case.subject:
        hide_name(m.store.sanctions, m.names, m.player_data, case.subject, case.target)
    if action in ("hide_name", "void_result", "rank_ban", "ban") and case.subject:
        sanction = Sanction(
            action=action,
            reason=decision.reason,
            until=decision.until,
            case_id=case.case_id,
            decided_at=decision.decided_at,
        )
        add_sanction(m.store.sanctions, m.player_data, case.subject, sanction)


def hide_name(
    store: "SanctionStore", names: "NameStore", player_data: "PlayerDataStore", player: str, skeleton: str
) -> bool:
    """PLAYER's chosen name goes, if its skeleton is SKELETON (else False: they renamed since):
    the profile and every board row of theirs show their default name, the claim is freed."""
    if not store.hide_name(player, skeleton):
        return False
    scopes = [result.scope for result in player_data.official_results(player)]
    names.rename_rows(player, scopes, default_display_name(player))
    return True


def add_sanction(
    store: "SanctionStore", player_data: "PlayerDataStore", player: str, sanction: Sanction
) -> None:
    """SANCTION kept on PLAYER's profile (once per case); a ban then stops their runs in play, whose
    one-request answers read no profile."""
    store.add_sanction(player, sanction)
    if ban_end(sanction) is not None:
        player_data.stop_answers(player, sanction.decided_at)


def shown_names(names: "NameStore", players: list[str]) -> dict[str, str]:
    """The name each of PLAYERS shows now (their default name if they chose none): one read."""
    wanted = list(dict.fromkeys(players))
    chosen = names.display_names(wanted) if wanted else {}
    return {p: chosen.get(p) or default_display_name(p) for p in wanted}
