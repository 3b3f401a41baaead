"""The moderation ports (SPEC §3e): what shared/services/moderation.py needs from storage, in domain
types, by need (cases, the audit log, sanctions, accepted words, each board's review, final
boards); shared/dynamo/moderation.py implements them on DynamoDB, tests/fakes/fake_moderation.py in memory,
and tests/contract/test_moderation_store.py runs one contract on both."""

from typing import NamedTuple, Protocol

from shared.game.fair_play import UnrankedReason
from shared.game.moderation import Case, CaseKind, Correction, Decision, LogEntry, Report, Sanction
from shared.game.rank_moves import RankMove
from shared.game.scope import Scope


class ReportQuotaExceeded(Exception):
    """The reporter has filed as many reports as one Daily date allows."""


class AlreadyReported(Exception):
    """The reporter has reported this case before."""


class CaseDecided(Exception):
    """The case was decided already (another moderator's decision won)."""


class BoardReview(NamedTuple):
    """What moderation holds about one board, in one read: its runs with an open case and the
    decisions that moved its ranks (shared/game/rank_moves.py)."""

    pending: frozenset[str]
    moves: list[RankMove]


class CasePosition(NamedTuple):
    """Where a case stands in the queue: oldest first."""

    opened_at: str
    case_id: str


class CaseStore(Protocol):
    """Reports, cases, the queue and decisions (shared/services/cases.py, queue.py)."""

    def file_report(
        self, report: Report, case: Case, day: str, quota: int, client: str | None = None
    ) -> Case:
        """Record REPORT (its reason with the reporter's mark on the case) and merge it into CASE
        (created, and queued, if it is new), counting it against the reporter's QUOTA for Daily
        date DAY, and CLIENT's too when given (a guest's client: a daily salted hash, never the
        address), all at once. Returns the case as stored. Raises ReportQuotaExceeded or
        AlreadyReported."""
        ...

    def open_case(self, case: Case) -> bool:
        """Create and queue CASE unless it exists (the find-time pass); True if created."""
        ...

    def get_case(self, case_id: str) -> Case | None: ...

    def cases(self, case_ids: list[str]) -> dict[str, Case]: ...

    def case_reporters(self, case_id: str, limit: int) -> list[str]: ...

    def case_reasons(self, case_id: str, limit: int) -> list[tuple[str, str]]:
        """(reporter, reason) of CASE_ID's reports, by reporter."""
        ...

    def has_reported(self, case_id: str, reporter: str) -> bool: ...

    def reports_of(self, reporter: str, limit: int) -> list[Report]:
        """REPORTER's reports, newest first."""
        ...

    def open_cases(self, kind: CaseKind | None, after: CasePosition | None, limit: int) -> list[Case]:
        """Open cases of KIND (None: every kind), oldest first, after AFTER."""
        ...

    def queue_figures(self) -> dict[CaseKind, tuple[int, str | None]]:
        """Each kind's open cases: how many, and when the oldest was opened (None: none open)."""
        ...

    def decide(self, case: Case, decision: Decision, entry: LogEntry) -> None:
        """Record DECISION on CASE, on condition that it is still open, take it off the queue and
        append ENTRY to the audit log, all at once; the case (its snapshot with it) is then kept
        until EVIDENCE_RETENTION after the decision (shared/game/cases.py). Raises CaseDecided."""
        ...

    def name_holder(self, name: str) -> str | None:
        """The player who holds NAME (by its skeleton), if anyone does."""
        ...


class AuditLog(Protocol):
    """The moderators' decisions, as logged with each decision (CaseStore.decide)."""

    def audit_log(self, after: str | None, limit: int) -> list[LogEntry]:
        """The audit log, newest first, after the entry whose `decided_at#case_id` is AFTER."""
        ...

    def moderator_log(self, moderator: str) -> list[LogEntry]:
        """MODERATOR's own decisions (their export)."""
        ...


class SanctionStore(Protocol):
    """A decision's effects on a player: their sanctions, their name, their results on boards."""

    def add_sanction(self, player: str, sanction: Sanction) -> None: ...

    def sanctions(self, player: str) -> list[Sanction]: ...

    def void_result(self, player: str, scope: Scope, at: str) -> bool:
        """Take PLAYER's official result of SCOPE off its board and out of every rank (kept, marked
        `voided`, in their stats and history), and record the move (decided AT) with the board's
        review. False when there is none."""
        ...

    def hide_name(self, player: str, skeleton: str) -> bool:
        """PLAYER's chosen name goes, if its skeleton is SKELETON (else nothing, False: they renamed
        since): the profile shows their default name, and the claim is freed (the board rows are
        renamed by the service, shared/services/cases.py hide_name)."""
        ...

    def lift_sanction(self, player: str, case_id: str, lifted_at: str) -> Sanction | None:
        """Mark PLAYER's sanction left by CASE_ID lifted (its ban or rank ban stops holding);
        returns it, or None when they hold no such sanction."""
        ...

    def restore_result(self, player: str, scope: Scope, at: str, reason: UnrankedReason = "voided") -> bool:
        """Rank PLAYER's result of SCOPE kept off its board for REASON (voided, or completed under a
        rank ban) again (a lifted sanction): back on its board, in its ranks and its top, the move
        (decided AT) recorded as a void's is. False when there is no such result."""
        ...


class AcceptedWords(Protocol):
    """The words moderators accepted (each checked with the word list)."""

    def accept_word(self, word: str, case_id: str, accepted_at: str) -> None: ...

    def accepted_words(self) -> list[tuple[str, str]]:
        """(word, case id) of every word a moderator accepted, in word order."""
        ...


class BoardReviewStore(Protocol):
    """Each board's review: its runs with an open case, its rank moves, its find-time pass."""

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        """The runs of SCOPE with an open case (their rows show `"review": "pending"`)."""
        ...

    def review(self, scope: Scope) -> BoardReview:
        """SCOPE's runs with an open case and its rank moves, in one read."""
        ...

    def mark_pass(self, scope: Scope, quantiles: dict[int, int]) -> bool:
        """Record that SCOPE's find-time pass ran, with its hard rounds' QUANTILES (ms: the
        evidence of every run case on the scope); False if it had already."""
        ...

    def pass_done(self, scope: Scope) -> bool: ...

    def pass_quantiles(self, scope: Scope) -> dict[int, int] | None:
        """The quantiles SCOPE's find-time pass recorded; None before it ran."""
        ...


class FinalBoards(Protocol):
    """Closed boards made final, and the public corrections of a final board."""

    def is_final(self, scope: Scope) -> bool: ...

    def mark_final(self, scope: Scope) -> None: ...

    def add_correction(self, scope: Scope, correction: Correction) -> None:
        """Append CORRECTION to SCOPE's public corrections (once per case)."""
        ...

    def corrections(self, scope: Scope) -> list[Correction]:
        """SCOPE's corrections, oldest first."""
        ...


class ModerationPorts(NamedTuple):
    """The moderation ports, one each, as the moderation service takes them (the wiring's Ports
    names each: shared/runtime/wiring.py `moderation_ports`)."""

    cases: CaseStore
    log: AuditLog
    sanctions: SanctionStore
    words: AcceptedWords
    reviews: BoardReviewStore
    finals: FinalBoards
