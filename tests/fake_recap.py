"""An in-memory RecapStore (shared/services/ports.py), part of the in-memory FakeStore
(tests/fake_store.py); tests/test_recap.py runs the same tests on it and on DynamoDB."""

from shared.game.recap import DayRecap, RoundTally
from shared.game.scope import Scope


class FakeRecaps:
    def __init__(self) -> None:
        super().__init__()
        self.recaps: dict[Scope, DayRecap] = {}
        self.round_counts: dict[tuple[Scope, int], dict[str, int]] = {}

    def put_recap(self, scope: Scope, recap: DayRecap, tallies: list[RoundTally]) -> None:
        for tally in tallies:
            self.round_counts[(scope, tally.round)] = dict(tally.words)
        self.recaps[scope] = recap.model_copy(deep=True)

    def recap(self, scope: Scope) -> DayRecap | None:
        found = self.recaps.get(scope)
        return found.model_copy(deep=True) if found else None

    def round_words(self, scope: Scope, rounds: list[int]) -> dict[int, dict[str, int]]:
        return {n: dict(self.round_counts[(scope, n)]) for n in rounds if (scope, n) in self.round_counts}
