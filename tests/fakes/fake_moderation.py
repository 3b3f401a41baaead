"""The in-memory moderation ports (shared/services/moderation_store.py): here the CaseStore (the
others in tests/fakes/fake_sanctions.py and fake_reviews.py), over the shared FakeTable
(tests/fakes/fake_table.py), so a decision's effects reach the same boards, ranks and profiles the
other fakes serve. tests/contract/test_moderation_store.py runs the same tests against it and the
adapters (shared/dynamo/moderation.py)."""

from shared.game.moderation import CASE_KINDS, Case, CaseKind, Decision, LogEntry, Report, canonical_name
from shared.game.names import name_skeleton
from shared.services.moderation_store import (
    AlreadyReported,
    CaseDecided,
    CasePosition,
    ReportQuotaExceeded,
)
from tests.fakes.fake_table import FakeTable


class FakeCases:
    """Reports, cases, the queue and decisions (the CaseStore)."""

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

    def name_holder(self, name: str) -> str | None:
        claim = canonical_name(name)
        return next((p for p, n in self.table.names.items() if name_skeleton(n) == claim), None)
