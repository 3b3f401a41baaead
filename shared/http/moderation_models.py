"""Request and reply models of the moderation routes (SPEC §3e): reports, the review queue,
decisions, the audit log, and the sanctions `GET /me` shows."""

from typing import TYPE_CHECKING, Literal

from pydantic import Field, StrictStr

from shared.game.moderation import (
    REASON_MAX,
    Action,
    CaseKind,
    CaseSource,
    Correction,
    LogEntry,
    ReportKind,
    SanctionKind,
)
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
    note: str | None = Field(default=None, description="what the decision could not do, in words")


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
    kind: CaseKind
    shown: str
    count: int = Field(description="reports merged into the case")
    source: CaseSource
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
            decision=Outcome(action=decision.action, decided_at=decision.decided_at, note=decision.note)
            if decision
            else None,
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


class LogView(LogEntry):
    """An audit log entry with the names its moderator and its player show now (SPEC §3e)."""

    moderator_name: str
    subject_name: str | None

    @classmethod
    def named(cls, entries: list[LogEntry], names: dict[str, str]) -> list["LogView"]:
        return [
            cls(
                **entry.model_dump(),
                moderator_name=names.get(entry.moderator, entry.moderator),
                subject_name=names.get(entry.subject) if entry.subject else None,
            )
            for entry in entries
        ]


class LogPage(Model):
    items: list[LogView]
    next_cursor: str | None


AppealState = Literal["none", "open", "upheld", "lifted"]
# What each sanction does, in words, as the player reads it (SPEC §3e: what, why, until, appeal).
SANCTION_WORDS: dict[str, str] = {
    "hide_name": "Your display name was hidden: you show as player-xxxx until you choose another",
    "void_result": "One of your results was voided: it is off its board and out of every rank",
    "rank_ban": "Your results are not placed on any board",
    "ban": "Your account is banned: you cannot play Dailies, challenges or leagues",
}
APPEAL_HOW = 'POST /me/appeals {"sanction": "<sanction>", "reason": "<why it is wrong>"}, once per sanction'


class SanctionView(Model):
    sanction: str = Field(description="the sanction's id (the case that left it): what an appeal names")
    action: SanctionKind
    what: str = Field(description="what the sanction does, in words")
    reason: str = Field(description="why, in the moderator's words")
    until: str | None = Field(description="when it ends; null: for good (or, for a voided result, done)")
    decided_at: str
    lifted_at: str | None = Field(default=None, description="when an appeal lifted it; null while it holds")
    appeal: AppealState = Field(default="none", description="the caller's appeal of it")
    appeal_how: str | None = Field(default=None, description="how to appeal it; null once appealed")

    @classmethod
    def of(cls, sanction: "Sanction", appeal: "Case | None" = None) -> "SanctionView":
        state = appeal_state(appeal)
        return cls(
            sanction=sanction.case_id,
            action=sanction.action,
            what=SANCTION_WORDS[sanction.action],
            reason=sanction.reason,
            until=sanction.until,
            decided_at=sanction.decided_at,
            lifted_at=sanction.lifted_at,
            appeal=state,
            appeal_how=APPEAL_HOW.replace("<sanction>", sanction.case_id)
            if state == "none" and sanction.lifted_at is None
            else None,
        )


def appeal_state(appeal: "Case | None") -> AppealState:
    if appeal is None:
        return "none"
    if appeal.decision is None:
        return "open"
    return "lifted" if appeal.decision.action == "lift" else "upheld"


class AppealRequest(Request):
    sanction: StrictStr = Field(
        pattern=CASE_ID_PATTERN, description="the sanction's id, as `GET /me` shows it"
    )
    reason: StrictStr = Field(min_length=1, max_length=REASON_MAX)


class AppealView(Model):
    appeal_id: str
    sanction: SanctionView
    reason: str
    opened_at: str
    state: AppealState
    decided_at: str | None
    ruling_reason: str | None = Field(description="the moderator's reason for the ruling; null while open")

    @classmethod
    def of(cls, sanction: "Sanction", appeal: "Case") -> "AppealView":
        decision = appeal.decision
        return cls(
            appeal_id=appeal.case_id,
            sanction=SanctionView.of(sanction, appeal),
            reason=str((appeal.snapshot or {}).get("reason", "")),
            opened_at=appeal.opened_at,
            state=appeal_state(appeal),
            decided_at=decision.decided_at if decision else None,
            ruling_reason=decision.reason if decision else None,
        )


class MyAppeals(Model):
    items: list[AppealView]


# docs/players.md, "Erasure": the snapshot a moderation case keeps (shared/game/cases.py).
CASE_EVIDENCE = (
    "A moderation case about you keeps a snapshot of its evidence (your run's attempts and times, "
    "or your name) from its opening until 180 days after its decision, even if you erase your account."
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
