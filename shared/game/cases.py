"""Who a case is about and who may judge it (SPEC §3e): a name's case is about the name as held by
one player; a decided target may be reported again after REOPEN_AFTER (or with new evidence, which
is a new case by its key: a new holder, a new run); a moderator never judges a case about
themselves, one they reported, or (an appeal) their own decision; a case keeps a snapshot of its
evidence, for EVIDENCE_RETENTION after its decision. Plain rules; docs/moderation.md.
"""

import hashlib
import hmac
from datetime import datetime, timedelta

from shared.game.clock import parse_iso
from shared.game.fair_play import fastest_plausible_ms
from shared.game.moderation import Case, CaseKind, Sanction, canonical_name, case_id_for
from shared.game.runs import Run

# A decided target can be reported again this long after its decision (a new case).
REOPEN_AFTER = timedelta(days=30)
# A decided case (its snapshot of the evidence with it) is kept this long after its decision,
# whether or not its player erased their account since: long enough for an appeal and its ruling.
EVIDENCE_RETENTION = timedelta(days=180)
# How many generations of a target's cases a report looks through (one a month: 8 years).
GENERATIONS_MAX = 100


def report_case_id(kind: CaseKind, target: str, holder: str | None, generation: int) -> str:
    """The case id of the GENERATION-th case about TARGET (a name's: as held by HOLDER)."""
    key = f"{target}\n{holder}" if kind == "name" else target
    return case_id_for(kind, key if generation == 0 else f"{key}\n#{generation}")


def skeleton_case_id(skeleton: str) -> str:
    """The id a name's case had before a case was about a name as held by one player: the name's
    skeleton alone. A report reads it (shared/services/cases.py `for_report`) and takes such a case
    as its holder's first only while that player still holds the name."""
    return case_id_for("name", skeleton)


def reopens(case: Case, now: datetime) -> bool:
    """Whether a report about CASE's target at NOW opens a new case: CASE was decided REOPEN_AFTER
    ago or more (earlier, reports join the decided case)."""
    decision = case.decision
    return decision is not None and now >= parse_iso(decision.decided_at) + REOPEN_AFTER


def own_case(moderator: str, case: Case, reported: bool) -> bool:
    """Whether MODERATOR is a party to CASE: its subject, a reporter (REPORTED), or, for an appeal,
    the one whose decision it appeals."""
    if moderator == case.subject or reported:
        return True
    return case.kind == "appeal" and (case.snapshot or {}).get("decided_by") == moderator


def run_snapshot(run: Run, display_name: str | None) -> dict[str, object]:
    """A run's evidence as the case keeps it: whose run, each attempt's word, outcome and time
    against the typing floor."""
    attempts = [
        {
            "round": record.round,
            "word": attempt.word,
            "accepted": attempt.accepted,
            "elapsed_ms": attempt.elapsed_ms,
            "floor_ms": fastest_plausible_ms(len(attempt.word)),
        }
        for record in run.history
        for attempt in record.attempts
    ]
    return {
        "player": run.player,
        "display_name": display_name,
        "score": run.score,
        "started_at": run.started_at,
        "completed_at": run.completed_at,
        "attempts": attempts,
    }


def name_snapshot(name: str, holder: str) -> dict[str, object]:
    return {"name": name, "player": holder}


def appeal_snapshot(
    sanction: Sanction, reason: str, decided_by: str, scope_id: str | None
) -> dict[str, object]:
    """An appeal's evidence: the sanction appealed, who decided it, and the player's reason."""
    return {
        "sanction": sanction.model_dump(mode="json"),
        "decided_by": decided_by,
        "scope_id": scope_id,
        "reason": reason,
    }


def retained_until(decided_at: str) -> datetime:
    """When a case decided at DECIDED_AT (and its snapshot) goes."""
    return parse_iso(decided_at) + EVIDENCE_RETENTION


def name_case_id(name: str, holder: str) -> str:
    """The first case about NAME as held by HOLDER."""
    return report_case_id("name", canonical_name(name), holder, 0)


def client_of(address: str, day: str, salt: bytes) -> str:
    """A guest's client for DAY's report quota: a salted hash of its source ADDRESS that changes
    every Daily date, so the address is never stored and two days' clients cannot be linked."""
    return hmac.new(salt, f"{day}\n{address}".encode(), hashlib.sha256).hexdigest()[:32]


def judged_in(run: Run, word: str) -> bool:
    """Whether WORD (lowercased) was judged in RUN: a guest reports only words of their own run."""
    return any(attempt.word.lower() == word for record in run.history for attempt in record.attempts)


def run_case(player: str, run_id: str, scope_id: str, shown: str, opened: str, source: str) -> Case:
    """The case about one run (reports about the run and the find-time pass share it)."""
    return Case(
        case_id=case_id_for("run", run_id),
        kind="run",
        target=run_id,
        shown=shown,
        subject=player,
        run_id=run_id,
        scope_id=scope_id,
        source="find_time" if source == "find_time" else "report",
        opened_at=opened,
    )
