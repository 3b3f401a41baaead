"""Request and reply models of the moderation routes (SPEC §3e): reports, the review queue,
decisions, the audit log, and the sanctions `GET /me` shows."""

from typing import TYPE_CHECKING, Literal

from pydantic import Field, StrictStr

from shared.game.moderation import REASON_MAX, Action, Correction, LogEntry, ReportKind, SanctionKind
from shared.http.models import Model, Request

if TYPE_CHECKING:
    from shared.game.moderation import Case, Report, Sanction
    from shared.services.moderation import CaseView

TIME_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$"
CASE_ID_PATTERN = r"^[0-9a-f]{24}$"
TARGET_MAX = 100


class ReportRequest(Request):
    kind: ReportKind = Field(description="`name`, `run` or `word`")
    target: StrictStr = Field(
        min_length=1,
        max_length=TARGET_MAX,
        description="a display name; a run as `<date or challenge id>:<display name>` (its row on "
        "that board); or a word the game refused",
    )
    reason: StrictStr = Field(min_length=1, max_length=REASON_MAX)


class GuestReportRequest(Request):
    kind: Literal["word"] = Field(description="a guest reports words only")
    target: StrictStr = Field(min_length=1, max_length=TARGET_MAX, description="the word the game refused")
    reason: StrictStr = Field(min_length=1, max_length=REASON_MAX)
    run_id: StrictStr = Field(
        pattern=r"^[A-Za-z0-9_-]{8,64}$", description="the guest's run (its unguessable id is the credential)"
    )


class Outcome(Model):
    action: Action
    decided_at: str


class ReportView(Model):
    case_id: str
    kind: ReportKind
    target: str
    reason: str
    reported_at: str
    outcome: Outcome | None = Field(description="the case's decision; null while it is open")

    @classmethod
    def of(cls, report: "Report", case: "Case | None") -> "ReportView":
        decision = case.decision if case else None
        return cls(
            case_id=report.case_id,
            kind=report.kind,
            target=report.target,
            reason=report.reason,
            reported_at=report.reported_at,
            outcome=Outcome(action=decision.action, decided_at=decision.decided_at) if decision else None,
        )


class MyReports(Model):
    items: list[ReportView]


class CaseSummary(Model):
    case_id: str
    kind: ReportKind
    shown: str
    count: int = Field(description="reports merged into the case")
    source: Literal["report", "find_time"]
    opened_at: str
    status: Literal["open", "decided"]
    decision: Outcome | None

    @classmethod
    def of(cls, case: "Case") -> "CaseSummary":
        decision = case.decision
        return cls(
            case_id=case.case_id,
            kind=case.kind,
            shown=case.shown,
            count=case.count,
            source=case.source,
            opened_at=case.opened_at,
            status=case.status,
            decision=Outcome(action=decision.action, decided_at=decision.decided_at) if decision else None,
        )


class CaseWithEvidence(CaseSummary):
    evidence: dict[str, object]

    @classmethod
    def with_evidence(cls, view: "CaseView") -> "CaseWithEvidence":
        return cls(**CaseSummary.of(view.case).model_dump(), evidence=view.evidence)


class CasePage(Model):
    items: list[CaseWithEvidence]
    next_cursor: str | None


class DecisionRequest(Request):
    action: Action
    reason: StrictStr = Field(min_length=1, max_length=REASON_MAX)
    until: StrictStr | None = Field(
        default=None, pattern=TIME_PATTERN, description="a rank ban's end, ISO 8601 UTC with milliseconds"
    )


class LogPage(Model):
    items: list[LogEntry]
    next_cursor: str | None


class SanctionView(Model):
    action: SanctionKind
    reason: str
    until: str | None = Field(description="when it ends; null: for good (or, for a voided result, done)")
    decided_at: str

    @classmethod
    def of(cls, sanction: "Sanction") -> "SanctionView":
        return cls(
            action=sanction.action,
            reason=sanction.reason,
            until=sanction.until,
            decided_at=sanction.decided_at,
        )


CORRECTIONS = "decisions made after the board became final, oldest first"


class CorrectionsPage(Model):
    """A final Daily board's corrections (SPEC §4)."""

    date: str
    items: list[Correction] = Field(description=CORRECTIONS)


class ChallengeCorrections(Model):
    """A final challenge board's corrections, as a Daily's."""

    challenge_id: str
    items: list[Correction] = Field(description=CORRECTIONS)
