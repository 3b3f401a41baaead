"""An in-memory ModerationStore (shared/services/moderation.py), part of the in-memory FakeStore
(tests/fake_store.py), so a decision's effects reach the same boards, ranks and profiles the fake
serves. tests/contract/test_moderation_store.py runs the same tests against it and DynamoStore."""

import threading

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
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.services.moderation_store import AlreadyReported, CaseDecided, CasePosition, ReportQuotaExceeded
from tests.fake_boards import FakeBoardStore


class FakeModeration(FakeBoardStore):
    """The moderation side; FakeStore combines it with the run and board sides (whose runs and
    results a decision changes)."""

    runs: dict[str, tuple[Run, int]]

    def __init__(self) -> None:
        super().__init__()
        self._moderation_lock = threading.RLock()
        self.cases_by_id: dict[str, Case] = {}
        self.reporters: dict[str, list[str]] = {}
        self.reports: dict[str, list[Report]] = {}
        self.quota: dict[tuple[str, str], int] = {}
        self.log: list[LogEntry] = []
        self.sanctions_of: dict[str, list[Sanction]] = {}
        self.accepted: dict[str, str] = {}
        self.passes: dict[Scope, dict[int, int]] = {}  # scope -> its pass's quantiles
        self.finals: set[Scope] = set()
        self.corrections_of: dict[Scope, list[Correction]] = {}

    def file_report(self, report: Report, case: Case, day: str, quota: int) -> Case:
        with self._moderation_lock:
            if report.reporter in self.reporters.get(case.case_id, []):
                raise AlreadyReported(case.case_id)
            if self.quota.get((report.reporter, day), 0) >= quota:
                raise ReportQuotaExceeded(report.reporter)
            self.quota[report.reporter, day] = self.quota.get((report.reporter, day), 0) + 1
            stored = self.cases_by_id.setdefault(case.case_id, case.model_copy())
            stored.count += 1
            self.reporters.setdefault(case.case_id, []).append(report.reporter)
            self.reports.setdefault(report.reporter, []).append(report.model_copy())
            return stored.model_copy()

    def open_case(self, case: Case) -> bool:
        with self._moderation_lock:
            if case.case_id in self.cases_by_id:
                return False
            self.cases_by_id[case.case_id] = case.model_copy()
            return True

    def get_case(self, case_id: str) -> Case | None:
        found = self.cases_by_id.get(case_id)
        return found.model_copy() if found else None

    def cases(self, case_ids: list[str]) -> dict[str, Case]:
        return {i: self.cases_by_id[i].model_copy() for i in case_ids if i in self.cases_by_id}

    def case_reporters(self, case_id: str, limit: int) -> list[str]:
        return sorted(self.reporters.get(case_id, []))[:limit]

    def reports_of(self, reporter: str, limit: int) -> list[Report]:
        mine = sorted(self.reports.get(reporter, []), key=lambda r: (r.reported_at, r.case_id), reverse=True)
        return mine[:limit]

    def open_cases(self, kind: ReportKind | None, after: CasePosition | None, limit: int) -> list[Case]:
        found = sorted(
            (c for c in self.cases_by_id.values() if c.status == "open" and kind in (None, c.kind)),
            key=lambda c: (c.opened_at, c.case_id),
        )
        if after is not None:
            found = [c for c in found if (c.opened_at, c.case_id) > tuple(after)]
        return [c.model_copy() for c in found[:limit]]

    def decide(self, case: Case, decision: Decision, entry: LogEntry) -> None:
        with self._moderation_lock:
            stored = self.cases_by_id[case.case_id]
            if stored.status != "open":
                raise CaseDecided(case.case_id)
            stored.status, stored.decision = "decided", decision
            self.log.append(entry)

    def audit_log(self, after: str | None, limit: int) -> list[LogEntry]:
        entries = sorted(self.log, key=_log_position, reverse=True)
        if after is not None:
            entries = [e for e in entries if _log_position(e) < after]
        return entries[:limit]

    def moderator_log(self, moderator: str) -> list[LogEntry]:
        return [e for e in sorted(self.log, key=_log_position) if e.moderator == moderator]

    def add_sanction(self, player: str, sanction: Sanction) -> None:
        with self._moderation_lock:
            held = self.sanctions_of.setdefault(player, [])
            if all(s.case_id != sanction.case_id for s in held):
                held.append(sanction)

    def sanctions(self, player: str) -> list[Sanction]:
        return list(self.sanctions_of.get(player, []))

    def void_result(self, player: str, scope: Scope) -> bool:
        result = self.results.get((player, scope))
        if result is None:
            return False
        self.results[player, scope] = result.model_copy(update={"unranked_reason": "voided"})
        return True

    def hide_name(self, player: str) -> None:
        self.names.pop(player, None)
        scopes = [s for (p, s) in self.results if p == player]
        self.rename_rows(player, scopes, default_display_name(player))

    def accept_word(self, word: str, case_id: str, accepted_at: str) -> None:
        self.accepted.setdefault(word, case_id)

    def accepted_words(self) -> list[tuple[str, str]]:
        return sorted(self.accepted.items())

    def name_holder(self, name: str) -> str | None:
        claim = canonical_name(name)
        return next((p for p, n in self.names.items() if name_skeleton(n) == claim), None)

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        return frozenset(
            c.run_id
            for c in self.cases_by_id.values()
            if c.kind == "run" and c.status == "open" and c.run_id and c.scope_id == scope.id
        )

    def scope_runs(self, scope: Scope) -> list[Run]:
        ids = [r.run_id for (_, s), r in self.results.items() if s == scope and r.ranked]
        return [self.runs[run_id][0].model_copy(deep=True) for run_id in ids if run_id in self.runs]

    def mark_pass(self, scope: Scope, quantiles: dict[int, int]) -> bool:
        with self._moderation_lock:
            if scope in self.passes:
                return False
            self.passes[scope] = dict(quantiles)
            return True

    def pass_done(self, scope: Scope) -> bool:
        return scope in self.passes

    def pass_quantiles(self, scope: Scope) -> dict[int, int] | None:
        return self.passes.get(scope)

    def is_final(self, scope: Scope) -> bool:
        return scope in self.finals

    def mark_final(self, scope: Scope) -> None:
        self.finals.add(scope)

    def add_correction(self, scope: Scope, correction: Correction) -> None:
        listed = self.corrections_of.setdefault(scope, [])
        if all(c.case_id != correction.case_id for c in listed):
            listed.append(correction)

    def corrections(self, scope: Scope) -> list[Correction]:
        return list(self.corrections_of.get(scope, []))


def _log_position(entry: LogEntry) -> str:
    return f"{entry.decided_at}#{entry.case_id}"
