"""Moderation (SPEC §3e): reports merge into cases, moderators decide them, every decision is
logged, and a decision's sanction reaches the boards and the player. docs/moderation.md.

Its storage is six ports, by need (`ModerationPorts`, shared/services/moderation_store.py: cases,
the audit log, sanctions, accepted words, each board's review, final boards); the boards, runs,
names and a player's data it needs come through their own ports.
"""

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from shared.game import clock
from shared.game.clock import iso
from shared.game.constants import CHALLENGE_OPEN_DAYS
from shared.game.daily_date import daily_date
from shared.game.errors import Conflict, Throttled
from shared.game.moderation import (
    REPORTS_PER_DAY,
    Action,
    BoardStatus,
    Case,
    CaseKind,
    Correction,
    Decision,
    LogEntry,
    Report,
    ReportKind,
    Sanction,
    board_final,
    scope_of_case,
)
from shared.game.names import default_display_name
from shared.game.rank_moves import RankMove
from shared.game.scope import Scope
from shared.services import cases
from shared.services.board_ports import BoardStore, NameStore, RankStore
from shared.services.moderation_store import (
    AlreadyReported,
    CasePosition,
    ModerationPorts,
    ReportQuotaExceeded,
)
from shared.services.player_data import PlayerDataStore
from shared.services.ports import ClosingStore, ResultStore, RunStore

if TYPE_CHECKING:
    from shared.services.leaderboard import Page

# The longest span of challenge closes one step of the closing job covers (a job that was down, or
# `make run`'s clock moved on, catches up a span a minute): a Query per UTC date and shard
# (shared/services/closing_pass.py).
CLOSES_PER_STEP = timedelta(days=CHALLENGE_OPEN_DAYS + 1)


class UnderReview(NamedTuple):
    """Of a player's results, those a case is open about on a board not yet final, and the rank
    moves of their boards (shared/game/rank_moves.py)."""

    pending: frozenset[str]
    moves: dict[Scope, list[RankMove]]


class CaseView(NamedTuple):
    """A case with its evidence, as the queue shows it."""

    case: Case
    evidence: dict[str, object]


class Moderation:
    def __init__(
        self,
        store: ModerationPorts,
        boards: BoardStore,
        ranks: RankStore,
        results: ResultStore,
        runs: RunStore,
        closing: ClosingStore,
        words: Callable[[], frozenset[str]],
        now: Callable[[], datetime] = clock.now,
        *,
        names: NameStore,
        player_data: PlayerDataStore,
    ):
        self.store = store
        self.names, self.player_data = names, player_data  # a decision's effects beyond moderation
        self.boards, self.ranks, self.results = boards, ranks, results
        self.runs, self.closing = runs, closing
        self.words = words
        self.now = now
        self._final: set[Scope] = set()  # a final board never changes again

    # Reports -----------------------------------------------------------------------------------

    def report(
        self, reporter: str, kind: ReportKind, target: str, reason: str, client: str | None = None
    ) -> tuple[Report, Case]:
        """File a report about TARGET: a display name, a run as `<date or challenge id>:<name>`
        (its row on that board), or a word (CLIENT: a guest's, counted too). 404
        `target_not_found` when it names nothing."""
        case = self._case_for(kind, target)
        now = iso(self.now())
        report = Report(
            reporter=reporter, kind=kind, target=target, reason=reason, case_id=case.case_id, reported_at=now
        )
        try:
            day = daily_date(self.now()).isoformat()
            stored = self.store.cases.file_report(report, case, day, REPORTS_PER_DAY, client)
        except ReportQuotaExceeded as error:
            raise Throttled(f"At most {REPORTS_PER_DAY} reports a day", "too_many_reports") from error
        except AlreadyReported as error:
            raise Conflict("You have reported this already", "already_reported") from error
        return report, stored

    def _case_for(self, kind: ReportKind, target: str) -> Case:
        return cases.for_report(self, kind, target)

    def my_reports(self, reporter: str, limit: int = 100) -> list[tuple[Report, Case | None]]:
        """REPORTER's reports, newest first, each with its case (its outcome, once decided)."""
        return self.with_cases(self.store.cases.reports_of(reporter, limit))

    def with_cases(self, reports: list[Report]) -> list[tuple[Report, Case | None]]:
        """Each of REPORTS with its case (its outcome, once decided): one read of the cases."""
        cases = self.store.cases.cases(list({r.case_id for r in reports})) if reports else {}
        return [(r, cases.get(r.case_id)) for r in reports]

    # The queue and decisions -------------------------------------------------------------------

    def open_cases(
        self, kind: CaseKind | None, after: CasePosition | None, limit: int, moderator: str | None = None
    ) -> list[CaseView]:
        """Open cases oldest first, each with its evidence as MODERATOR sees it (shared/services/cases.py)."""
        found = self.store.cases.open_cases(kind, after, limit)
        return [CaseView(case, cases.evidence(self, case, moderator)) for case in found]

    def _pass_quantiles(self, case: Case) -> dict[int, int] | None:
        return self.store.reviews.pass_quantiles(scope_of_case(case.scope_id)) if case.scope_id else None

    def decide(self, moderator: str, case_id: str, action: Action, reason: str, until: str | None) -> Case:
        """Decide an open case (shared/services/cases.py): never by a party to it."""
        return cases.decide(self, moderator, case_id, action, reason, until)

    def _correct(self, scope: Scope, case: Case, decision: Decision) -> None:
        """A decision about a row of a final board: the row stays; a correction is listed."""
        entry = self.boards.board_entry(case.subject or "", scope)
        rank = 1 + self.ranks.count_better(scope, entry.position.tie) if entry else None
        name = (entry.display_name if entry else None) or default_display_name(case.subject or "")
        correction = Correction(
            rank=rank,
            display_name=name,
            action=decision.action,
            reason_code=case.source,
            decided_at=decision.decided_at,
            case_id=case.case_id,
        )
        self.store.finals.add_correction(scope, correction)

    def board_status(
        self, scope: Scope, closed: bool, closes_at: datetime, pending: frozenset[str]
    ) -> BoardStatus:
        """`live`, `closed`, or `final` once the review window has ended with no case pending
        (recorded the first time, and then remembered: a final board never reopens)."""
        if scope in self._final or not closed:
            return "final" if scope in self._final else "live"
        if not self.store.finals.is_final(scope):
            if not board_final(self.now(), closes_at, bool(pending)):
                return "closed"
            self.store.finals.mark_final(
                scope
            )  # once, when it is decided: a read of a final board writes nothing
        self._final.add(scope)
        return "final"

    def review_state(self, page: "Page", closes_at: datetime) -> tuple[BoardStatus, frozenset[str]]:
        """A board page's status and its runs under review (their rows say `pending`): none once
        the board is final, which no later case changes."""
        pending = page.pending if page.pending is not None else self.pending_runs(page.scope)
        state = self.board_status(page.scope, page.closed, closes_at, pending)
        return state, frozenset() if state == "final" else pending

    def corrections(self, scope: Scope) -> list[Correction]:
        return self.store.finals.corrections(scope)

    def audit_log(self, after: str | None, limit: int) -> list[LogEntry]:
        return self.store.log.audit_log(after, limit)

    # Review state ------------------------------------------------------------------------------

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        return self.store.reviews.pending_runs(scope)

    def under_review(self, results: Iterable[tuple[Scope, str]]) -> UnderReview:
        """Of RESULTS (a board's scope and a run), the runs a case is open about on a board not yet
        final: a player's own views say `"review": "pending"`, as the board's row does; and each
        board's rank moves, which history shows. One read per scope, and one more for a scope
        holding such a run."""
        by_scope: dict[Scope, set[str]] = {}
        for scope, run_id in results:
            by_scope.setdefault(scope, set()).add(run_id)
        pending: set[str] = set()
        moves: dict[Scope, list[RankMove]] = {}
        for scope, runs in by_scope.items():
            review = self.store.reviews.review(scope)
            pending |= self.open_on(scope, frozenset(runs) & review.pending)
            if review.moves:
                moves[scope] = review.moves
        return UnderReview(frozenset(pending), moves)

    def open_on(self, scope: Scope, runs: frozenset[str]) -> frozenset[str]:
        """RUNS (under review on SCOPE's board, as read) while the board is not final: one read,
        only when there are any."""
        if runs and scope not in self._final and not self.store.finals.is_final(scope):
            return runs
        return frozenset()

    # A player's sanctions ----------------------------------------------------------------------

    def sanctions(self, player: str) -> list[Sanction]:
        return self.store.sanctions.sanctions(player)
