"""The in-memory SanctionStore (shared/services/moderation_store.py) over the shared FakeTable: a
decision's effects reach the profiles, names and boards the other fakes serve."""

from shared.game.boards import BoardPosition
from shared.game.fair_play import UnrankedReason
from shared.game.moderation import Sanction
from shared.game.names import name_skeleton
from shared.game.rank_moves import RankMove
from shared.game.sanctions import lift
from shared.game.scope import Scope
from shared.services.moderation_store import SanctionStore
from tests.fakes.fake_table import FakeTable


class FakeSanctions:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

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


_sanctions: SanctionStore = FakeSanctions(FakeTable())
