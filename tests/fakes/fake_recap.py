"""The in-memory RecapStore (shared/services/ports.py), over the shared FakeTable
(tests/fakes/fake_table.py); tests/services/test_recap.py runs the same tests on it and on DynamoDB."""

from shared.game.recap import DayRecap, RoundTally
from shared.game.scope import Scope
from shared.services.ports import RecapStore, StoredRecap
from tests.fakes.fake_table import FakeTable


class FakeRecaps:
    def __init__(self, table: FakeTable) -> None:
        self.table = table
        self.final: set[Scope] = set()

    def put_recap(self, scope: Scope, recap: DayRecap, tallies: list[RoundTally]) -> None:
        for tally in tallies:
            self.table.round_counts[(scope, tally.round)] = dict(tally.words)
        self.table.recaps[scope] = recap.model_copy(deep=True)
        self.final.discard(scope)  # the item put again, as DynamoDB's PutItem replaces it

    def recap(self, scope: Scope) -> StoredRecap | None:
        found = self.table.recaps.get(scope)
        return StoredRecap(found.model_copy(deep=True), scope in self.final) if found else None

    def mark_final(self, scope: Scope) -> None:
        if scope in self.table.recaps:
            self.final.add(scope)

    def round_words(self, scope: Scope, rounds: list[int]) -> dict[int, dict[str, int]]:
        return {
            n: dict(self.table.round_counts[(scope, n)])
            for n in rounds
            if (scope, n) in self.table.round_counts
        }


_recaps: RecapStore = FakeRecaps(FakeTable())
