"""The in-memory ModerationStore (shared/services/moderation_store.py), over the shared FakeTable
(tests/fakes/fake_table.py), so a decision's effects reach the same boards, ranks and profiles the other
fakes serve. tests/contract/test_moderation_store.py runs the same tests against it and the
adapter (shared/dynamo/moderation.py)."""

from shared.game.moderation import (
    Case,
    Correction,
    Decision,
    LogEntry,
    Report,
    ReportKind,
    Sanction,
    canonical_name,
)
from shared.game.names import default_display_name, name_skeleton
from shared.game.scope import Scope
from shared.services.moderation_store import (
    AlreadyReported,
    CaseDecided,
    CasePosition,
    ModerationStore,
    ReportQuotaExceeded,
)
from tests.fakes.fake_table import FakeTable


class FakeModeration:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def file_report(self, report: Report, case: Case, day: str, quota: int) -> Case:
        with self.table.lock:
            if report.reporter in self.table.reporters.get(case.case_id, []):
                raise AlreadyReported(case.case_id)
            if self.table.report_quota.get((report.reporter, day), 0) >= quota:
                raise ReportQuotaExceeded(report.reporter)
            self.table.report_quota[report.reporter, day] = (
                self.table.report_quota.get((report.reporter, day), 0) + 1
            )
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

    def reports_of(self, reporter: str, limit: int) -> list[Report]:
        mine = sorted(
            self.table.reports.get(reporter, []), key=lambda r: (r.reported_at, r.case_id), reverse=True
        )
        return mine[:limit]

    def open_cases(self, kind: ReportKind | None, after: CasePosition | None, limit: int) -> list[Case]:
        found = sorted(
            (c for c in self.table.cases.values() if c.status == "open" and kind in (None, c.kind)),
            key=lambda c: (c.opened_at, c.case_id),
        )
        if after is not None:
            found = [c for c in found if (c.opened_at, c.case_id) > tuple(after)]
        return [c.model_copy() for c in found[:limit]]

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

    def void_result(self, player: str, scope: Scope) -> bool:
        result = self.table.results.get((player, scope))
        if result is None:
            return False
        self.table.results[player, scope] = result.model_copy(update={"unranked_reason": "voided"})
        return True

    def hide_name(self, player: str) -> None:
        self.table.names.pop(player, None)
        scopes = [s for (p, s) in self.table.results if p == player]
        self.table.rename_rows(player, scopes, default_display_name(player))

    def accept_word(self, word: str, case_id: str, accepted_at: str) -> None:
        self.table.accepted.setdefault(word, case_id)

    def accepted_words(self) -> list[tuple[str, str]]:
        return sorted(self.table.accepted.items())

    def name_holder(self, name: str) -> str | None:
        claim = canonical_name(name)
        return next((p for p, n in self.table.names.items() if name_skeleton(n) == claim), None)

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        return self.table.pending_runs(scope)

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
