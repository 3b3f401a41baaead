"""The in-memory AuditLog, AcceptedWords, BoardReviewStore and FinalBoards
(shared/services/moderation_store.py) over the shared FakeTable."""

from shared.game.moderation import Correction, LogEntry
from shared.game.scope import Scope
from shared.services.moderation_store import (
    AcceptedWords,
    AuditLog,
    BoardReview,
    BoardReviewStore,
    FinalBoards,
)
from tests.fakes.fake_table import FakeTable


class FakeAuditLog:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def audit_log(self, after: str | None, limit: int) -> list[LogEntry]:
        entries = sorted(self.table.log, key=_log_position, reverse=True)
        if after is not None:
            entries = [e for e in entries if _log_position(e) < after]
        return entries[:limit]

    def moderator_log(self, moderator: str) -> list[LogEntry]:
        return [e for e in sorted(self.table.log, key=_log_position) if e.moderator == moderator]


class FakeAcceptedWords:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def accept_word(self, word: str, case_id: str, accepted_at: str) -> None:
        self.table.accepted.setdefault(word, case_id)

    def accepted_words(self) -> list[tuple[str, str]]:
        return sorted(self.table.accepted.items())


class FakeBoardReviews:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

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


class FakeFinalBoards:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

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


_audit_log: AuditLog = FakeAuditLog(FakeTable())
_accepted_words: AcceptedWords = FakeAcceptedWords(FakeTable())
_board_reviews: BoardReviewStore = FakeBoardReviews(FakeTable())
_final_boards: FinalBoards = FakeFinalBoards(FakeTable())
