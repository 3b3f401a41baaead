"""Moderation (SPEC §3e): reports merge into cases, moderators decide them, every decision is
logged, and a decision's sanction reaches the boards and the player. docs/moderation.md.

`ModerationStore` is the port (shared/dynamo/moderation.py on DynamoDB, tests/fakes/fake_moderation.py in
memory); the boards and runs it needs come through the BoardStore and RunStore ports.
"""

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from shared.game import clock
from shared.game.clock import iso, parse_iso
from shared.game.constants import CHALLENGE_OPEN_DAYS, MAX_WORD_LENGTH
from shared.game.daily_date import daily_date
from shared.game.errors import BadRequest, Conflict, NotFound, Throttled
from shared.game.fair_play import fastest_plausible_ms
from shared.game.moderation import (
    ACTIONS_FOR,
    REPORTS_PER_DAY,
    Action,
    BoardStatus,
    Case,
    Correction,
    Decision,
    LogEntry,
    Report,
    ReportKind,
    Sanction,
    board_final,
    canonical_name,
    canonical_word,
    case_id_for,
    scope_of_case,
)
from shared.game.names import default_display_name
from shared.game.scope import Scope
from shared.services.board_ports import BoardStore, RankStore
from shared.services.moderation_store import (
    AlreadyReported,
    CaseDecided,
    CasePosition,
    ModerationStore,
    ReportQuotaExceeded,
)
from shared.services.ports import ClosingStore, ResultStore, RunStore

if TYPE_CHECKING:
    from shared.services.leaderboard import Page

# The longest span of challenge closes one step of the closing job covers (a job that was down, or
# `make run`'s clock moved on, catches up a span a minute): a Query per UTC date and shard
# (shared/services/closing_pass.py).
CLOSES_PER_STEP = timedelta(days=CHALLENGE_OPEN_DAYS + 1)


class CaseView(NamedTuple):
    """A case with its evidence, as the queue shows it."""

    case: Case
    evidence: dict[str, object]


class Moderation:
    def __init__(
        self,
        store: ModerationStore,
        boards: BoardStore,
        ranks: RankStore,
        results: ResultStore,
        runs: RunStore,
        closing: ClosingStore,
        words: Callable[[], frozenset[str]],
        now: Callable[[], datetime] = clock.now,
    ):
        self.store = store
        self.boards, self.ranks, self.results = boards, ranks, results
        self.runs, self.closing = runs, closing
        self.words = words
        self.now = now
        self._final: set[Scope] = set()  # a final board never changes again

    # Reports -----------------------------------------------------------------------------------

    def report(self, reporter: str, kind: ReportKind, target: str, reason: str) -> tuple[Report, Case]:
        """File a report about TARGET: a display name, a run as `<date or challenge id>:<name>`
        (its row on that board), or a word. 404 `target_not_found` when it names nothing."""
        case = self._case_for(kind, target)
        now = iso(self.now())
        report = Report(
            reporter=reporter, kind=kind, target=target, reason=reason, case_id=case.case_id, reported_at=now
        )
        try:
            stored = self.store.file_report(report, case, daily_date(self.now()).isoformat(), REPORTS_PER_DAY)
        except ReportQuotaExceeded as error:
            raise Throttled(f"At most {REPORTS_PER_DAY} reports a day", "too_many_reports") from error
        except AlreadyReported as error:
            raise Conflict("You have reported this already", "already_reported") from error
        return report, stored

    def _case_for(self, kind: ReportKind, target: str) -> Case:
        opened = iso(self.now())
        if kind == "word":
            word = canonical_word(target)
            if not word.isascii() or not word.isalpha() or len(word) > MAX_WORD_LENGTH:
                raise BadRequest("A word is 1-45 letters A-Z", "invalid_target")
            return Case(
                case_id=case_id_for("word", word), kind="word", target=word, shown=word, opened_at=opened
            )
        if kind == "name":
            holder = self.store.name_holder(target)
            if holder is None:
                raise NotFound("Nobody has that display name", "target_not_found")
            skeleton = canonical_name(target)
            return Case(
                case_id=case_id_for("name", skeleton),
                kind="name",
                target=skeleton,
                shown=target,
                subject=holder,
                opened_at=opened,
            )
        scope_id, _, name = target.partition(":")
        holder = self.store.name_holder(name) if name else None
        result = None
        if holder is not None and scope_id:
            result = self.results.official_result(holder, scope_of_case(scope_id))
        if result is None:
            raise NotFound("No such row: give `<date or challenge id>:<display name>`", "target_not_found")
        return run_case(result.player, result.run_id, scope_id, target, opened, "report")

    def my_reports(self, reporter: str, limit: int = 100) -> list[tuple[Report, Case | None]]:
        """REPORTER's reports, newest first, each with its case (its outcome, once decided)."""
        return self.with_cases(self.store.reports_of(reporter, limit))

    def with_cases(self, reports: list[Report]) -> list[tuple[Report, Case | None]]:
        """Each of REPORTS with its case (its outcome, once decided): one read of the cases."""
        cases = self.store.cases(list({r.case_id for r in reports})) if reports else {}
        return [(r, cases.get(r.case_id)) for r in reports]

    # The queue and decisions -------------------------------------------------------------------

    def open_cases(self, kind: ReportKind | None, after: CasePosition | None, limit: int) -> list[CaseView]:
        return [CaseView(case, self._evidence(case)) for case in self.store.open_cases(kind, after, limit)]

    def _evidence(self, case: Case) -> dict[str, object]:
        reporters = self.store.case_reporters(case.case_id, 50)
        if case.kind == "word":
            return {"word": case.target, "in_dictionary": case.target in self.words(), "reporters": reporters}
        if case.kind == "name":
            return {"name": case.shown, "skeleton": case.target, "reporters": reporters}
        stored = self.runs.get_run(case.run_id or "")
        attempts = []
        if stored is not None:
            for record in stored.run.history:
                for attempt in record.attempts:
                    attempts.append(
                        {
                            "round": record.round,
                            "word": attempt.word,
                            "accepted": attempt.accepted,
                            "elapsed_ms": attempt.elapsed_ms,
                            "floor_ms": fastest_plausible_ms(len(attempt.word)),
                        }
                    )
        return {
            "run_id": case.run_id,
            "attempts": attempts,
            # a reported run's, once its board's pass has run (none while it is live)
            "hard_round_quantiles_ms": case.quantiles or self._pass_quantiles(case),
            "reporters": reporters,
        }

    def _pass_quantiles(self, case: Case) -> dict[int, int] | None:
        return self.store.pass_quantiles(scope_of_case(case.scope_id)) if case.scope_id else None

    def decide(self, moderator: str, case_id: str, action: Action, reason: str, until: str | None) -> Case:
        """Decide an open case: exactly one decision wins (409 `case_decided` for the others),
        then its effect is applied (each effect is idempotent)."""
        case = self.store.get_case(case_id)
        if case is None:
            raise NotFound("No such case", "case_not_found")
        if action not in ACTIONS_FOR[case.kind]:
            raise BadRequest(f"{action} does not apply to a {case.kind} case", "action_not_allowed")
        if action == "rank_ban":
            if until is None or parse_iso(until) <= self.now():
                raise BadRequest("A rank ban needs `until`, a time in the future", "invalid_until")
        elif until is not None:
            raise BadRequest("Only a rank ban takes `until`", "invalid_until")
        if case.status == "decided":
            raise Conflict("That case is decided already", "case_decided")
        decision = Decision(
            action=action, reason=reason, until=until, moderator=moderator, decided_at=iso(self.now())
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
        )
        try:
            self.store.decide(case, decision, entry)
        except CaseDecided as error:
            raise Conflict("That case is decided already", "case_decided") from error
        self._apply(case, decision)
        return case.model_copy(update={"status": "decided", "decision": decision})

    def _apply(self, case: Case, decision: Decision) -> None:
        action = decision.action
        if action == "accept_word":
            self.store.accept_word(case.target, case.case_id, decision.decided_at)
        if action in ("void_result", "rank_ban", "ban") and case.run_id and case.subject and case.scope_id:
            scope = scope_of_case(case.scope_id)
            if self.store.is_final(scope):
                self._correct(scope, case, decision)
            else:
                self.store.void_result(case.subject, scope)
        if action == "hide_name" and case.subject:
            self.store.hide_name(case.subject)
        if action in ("hide_name", "void_result", "rank_ban", "ban") and case.subject:
            sanction = Sanction(
                action=action,
                reason=decision.reason,
                until=decision.until,
                case_id=case.case_id,
                decided_at=decision.decided_at,
            )
            self.store.add_sanction(case.subject, sanction)

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
        self.store.add_correction(scope, correction)

    def board_status(
        self, scope: Scope, closed: bool, closes_at: datetime, pending: frozenset[str]
    ) -> BoardStatus:
        """`live`, `closed`, or `final` once the review window has ended with no case pending
        (recorded the first time, and then remembered: a final board never reopens)."""
        if scope in self._final:
            return "final"
        if not closed:
            return "live"
        if self.store.is_final(scope) or board_final(self.now(), closes_at, bool(pending)):
            self.store.mark_final(scope)
            self._final.add(scope)
            return "final"
        return "closed"

    def review_state(self, page: "Page", closes_at: datetime) -> tuple[BoardStatus, frozenset[str]]:
        """A board page's status and its runs under review (their rows say `pending`): none once
        the board is final, which no later case changes."""
        pending = page.pending if page.pending is not None else self.pending_runs(page.scope)
        state = self.board_status(page.scope, page.closed, closes_at, pending)
        return state, frozenset() if state == "final" else pending

    def corrections(self, scope: Scope) -> list[Correction]:
        return self.store.corrections(scope)

    def audit_log(self, after: str | None, limit: int) -> list[LogEntry]:
        return self.store.audit_log(after, limit)

    # Review state ------------------------------------------------------------------------------

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        return self.store.pending_runs(scope)

    def under_review(self, results: Iterable[tuple[Scope, str]]) -> frozenset[str]:
        """Of RESULTS (a board's scope and a run), the runs a case is open about on a board not yet
        final: a player's own views say `"review": "pending"`, as the board's row does. One read
        per scope, and one more for a scope holding such a run."""
        by_scope: dict[Scope, set[str]] = {}
        for scope, run_id in results:
            by_scope.setdefault(scope, set()).add(run_id)
        pending: set[str] = set()
        for scope, runs in by_scope.items():
            pending |= self.open_on(scope, frozenset(runs) & self.store.pending_runs(scope))
        return frozenset(pending)

    def open_on(self, scope: Scope, runs: frozenset[str]) -> frozenset[str]:
        """RUNS (under review on SCOPE's board, as read) while the board is not final: one read,
        only when there are any."""
        if runs and scope not in self._final and not self.store.is_final(scope):
            return runs
        return frozenset()

    # A player's sanctions ----------------------------------------------------------------------

    def sanctions(self, player: str) -> list[Sanction]:
        return self.store.sanctions(player)


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
