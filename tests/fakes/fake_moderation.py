"""The in-memory ModerationStore (shared/services/moderation_store.py), over the shared FakeTable
(tests/fakes/fake_table.py), so a decision's effects reach the same boards, ranks and profiles the other
fakes serve. tests/contract/test_moderation_store.py runs the same tests against it and the
adapter (shared/dynamo/moderation.py)."""

from shared.game.boards import BoardPosition
from shared.game.fair_play import UnrankedReason
from shared.game.moderation import (
    CASE_KINDS,
    Case,
    CaseKind,
    Correction,
    Decision,
    LogEntry,
    Report,
    Sanction,
    canonical_name,
)
from shared.game.names import name_skeleton
from shared.game.rank_moves import RankMove
from shared.game.sanctions import lift
from shared.game.scope import Scope
from shared.services.moderation_store import (
    AlreadyReported,
    BoardReview,
    CaseDecided,
    CasePosition,
    ModerationStore,
    ReportQuotaExceeded,
)
from tests.fakes.fake_table import FakeTable


class FakeModeration:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def file_report(
        self, report: Report, case: Case, day: str, quota: int, client: str | None = None
    ) -> Case:
        with self.table.lock:
            if report.reporter in self.table.reporters.get(case.case_id, []):
                raise AlreadyReported(case.case_id)
            counted = [report.reporter] + ([f"client:{client}"] if client else [])
            if any(self.table.report_quota.get((who, day), 0) >= quota for who in counted):
                raise ReportQuotaExceeded(report.reporter)
            for who in counted:
                self.table.report_quota[who, day] = self.table.report_quota.get((who, day), 0) + 1
            self.table.reasons[case.case_id, report.reporter] = report.reason
            stored = self.table.cases.setdefault(case.case_id, case.model_copy())
            stored.count += 1
            self.table.reporters.setdefault(case.case_id, []).append(report.reporter)
            self.table.reports.setdefault(report.reporter, []).append(report.model_copy())
            return stored.model_copy()

    def open_case(self, case: Case) -> bool:
        with self.table.lock:
            if case.case_id in self.table.cases:
                return False
            self.table.cases[case.case_id] = case.model_copy()
            return True

    def get_case(self, case_id: str) -> Case | None:
        found = self.table.cases.get(case_id)
        return found.model_copy() if found else None

    def cases(self, case_ids: list[str]) -> dict[str, Case]:
        return {i: self.table.cases[i].model_copy() for i in case_ids if i in self.table.cases}

    def case_reporters(self, case_id: str, limit: int) -> list[str]:
        return sorted(self.table.reporters.get(case_id, []))[:limit]

    def case_reasons(self, case_id: str, limit: int) -> list[tuple[str, str]]:
        return [(r, self.table.reasons.get((case_id, r), "")) for r in self.case_reporters(case_id, limit)]

    def has_reported(self, case_id: str, reporter: str) -> bool:
        return reporter in self.table.reporters.get(case_id, [])

    def reports_of(self, reporter: str, limit: int) -> list[Report]:
        mine = sorted(
            self.table.reports.get(reporter, []), key=lambda r: (r.reported_at, r.case_id), reverse=True
        )
        return mine[:limit]

    def open_cases(self, kind: CaseKind | None, after: CasePosition | None, limit: int) -> list[Case]:
        found = sorted(
            (c for c in self.table.cases.values() if c.status == "open" and kind in (None, c.kind)),
            key=lambda c: (c.opened_at, c.case_id),
        )
        if after is not None:
            found = [c for c in found if (c.opened_at, c.case_id) > tuple(after)]
        return [c.model_copy() for c in found[:limit]]

    def queue_figures(self) -> dict[CaseKind, tuple[int, str | None]]:
        figures: dict[CaseKind, tuple[int, str | None]] = {}
        for kind in CASE_KINDS:
            opened = sorted(
                c.opened_at for c in self.table.cases.values() if c.kind == kind and c.status == "open"
            )
            figures[kind] = (len(opened), opened[0] if opened else None)
        return figures

    def decide(self, case: Case, decision: Decision, entry: LogEntry) -> None:
        with self.table.lock:
            stored = self.table.cases[case.case_id]
            if stored.status != "open":
                raise CaseDecided(case.case_id)
            stored.status, stored.decision = "decided", decision
            self.table.log.append(entry)

    def audit_log(self, after: str | None, limit: int) -> list[LogEntry]:
        entries = sorted(self.table.log, key=_log_position, reverse=True)
        if after is not None:
            entries = [e for e in entries if _log_position(e) < after]
        return entries[:limit]

    def moderator_log(self, moderator: str) -> list[LogEntry]:
        return [e for e in sorted(self.table.log, key=_log_position) if e.moderator == moderator]

    def add_sanction(self, player: str, sanction: Sanction) -> None:
        with self.table.lock:
            held = self.table.sanctions.setdefault(player, [])
            if all(s.case_id != sanction.case_id for s in held):
                held.append(sanction)

    def sanctions(self, player: str) -> list[Sanction]:
        return list(self.table.sanctions.get(player, []))

    def void_result(self, player: str, scope: Scope, at: str) -> bool:
        with self.table.lock:
            result = self.table.results.get((player, scope))
            if result is None:
                return False
            if result.ranked:  # off the board now: the ranks below it move up
                move = RankMove(at, BoardPosition.of(result).tie, result.run_id)
                self.table.rank_moves.setdefault(scope, set()).add(move)
            self.table.results[player, scope] = result.model_copy(update={"unranked_reason": "voided"})
            return True

    def hide_name(self, player: str, skeleton: str) -> bool:
        with self.table.lock:
            held = self.table.names.get(player)
            if held is None or name_skeleton(held) != skeleton:
                return False
            self.table.names.pop(player, None)
        return True

    def lift_sanction(self, player: str, case_id: str, lifted_at: str) -> Sanction | None:
        with self.table.lock:
            held = self.table.sanctions.get(player, [])
            lifted = lift(held, case_id, lifted_at)
            if lifted is None:  # none, or lifted already
                return next((s for s in held if s.case_id == case_id), None)
            held[:] = lifted.held
            return lifted.sanction

    def restore_result(self, player: str, scope: Scope, at: str, reason: UnrankedReason = "voided") -> bool:
        with self.table.lock:
            result = self.table.results.get((player, scope))
            if result is None or result.unranked_reason != reason:
                return False
            move = RankMove(at, BoardPosition.of(result).tie, result.run_id, back=True)
            self.table.rank_moves.setdefault(scope, set()).add(move)
            self.table.results[player, scope] = result.model_copy(update={"unranked_reason": None})
            return True

    def accept_word(self, word: str, case_id: str, accepted_at: str) -> None:
        self.table.accepted.setdefault(word, case_id)

    def accepted_words(self) -> list[tuple[str, str]]:
        return sorted(self.table.accepted.items())

    def name_holder(self, name: str) -> str | None:
        claim = canonical_name(name)
        return next((p for p, n in self.table.names.items() if name_skeleton(n) == claim), None)

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        return self.table.pending_runs(scope)

    def review(self, scope: Scope) -> BoardReview:
        with self.table.lock:
            return BoardReview(self.table.pending_runs(scope), sorted(self.table.rank_moves.get(scope, ())))

    def mark_pass(self, scope: Scope, quantiles: dict[int, int]) -> bool:
        with self.table.lock:
            if scope in self.table.passes:
                return False
            self.table.passes[scope] = dict(quantiles)
            return True

    def pass_done(self, scope: Scope) -> bool:
        return scope in self.table.passes

    def pass_quantiles(self, scope: Scope) -> dict[int, int] | None:
        return self.table.passes.get(scope)

    def is_final(self, scope: Scope) -> bool:
        return scope in self.table.finals

    def mark_final(self, scope: Scope) -> None:
        self.table.finals.add(scope)

    def add_correction(self, scope: Scope, correction: Correction) -> None:
        listed = self.table.corrections.setdefault(scope, [])
        if all(c.case_id != correction.case_id for c in listed):
            listed.append(correction)

    def corrections(self, scope: Scope) -> list[Correction]:
        return list(self.table.corrections.get(scope, []))


def _log_position(entry: LogEntry) -> str:
    return f"{entry.decided_at}#{entry.case_id}"


_moderation: ModerationStore = FakeModeration(FakeTable())
