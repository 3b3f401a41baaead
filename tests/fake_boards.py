"""A minimal in-memory stand-in for the board side of the Store port (shared/store.py BoardStore).

Stand-in only: the `boards` branch owns the real tests/fake_boards.py (class FakeBoardStore with
`_record_official`); at merge, theirs replaces this file. Official results are kept per player and
scope; a board is every result of its scope in rank order, counted by scanning (fine in tests).
"""

from shared.boards import rank_key
from shared.store import NameTaken, OfficialResult, OfficialTaken


def _rank_key(result: OfficialResult) -> str:
    return rank_key(
        result.score, result.best_combo, result.longest_word_length, result.completed_at, result.run_id
    )


class FakeBoardStore:
    def __init__(self) -> None:
        self.officials: dict[tuple[str, str], OfficialResult] = {}
        self.names: dict[str, str] = {}  # player -> display name

    def _record_official(self, result: OfficialResult) -> None:
        """Record RESULT; OfficialTaken when the player has one for its scope already."""
        if (result.player, result.scope) in self.officials:
            raise OfficialTaken(result.run_id)
        self.officials[(result.player, result.scope)] = result

    def board_page(self, scope: str, after: str | None, limit: int) -> list[OfficialResult]:
        rows = sorted((r for r in self.officials.values() if r.scope == scope), key=_rank_key)
        return [r for r in rows if after is None or _rank_key(r) > after][:limit]

    def count_better(self, scope: str, score: int, best_combo: int, longest: int) -> int:
        return sum(
            1
            for r in self.officials.values()
            if r.scope == scope
            and (r.score, r.best_combo, r.longest_word_length) > (score, best_combo, longest)
        )

    def official_result(self, player: str, scope: str) -> OfficialResult | None:
        return self.officials.get((player, scope))

    def history(self, player: str, after: str | None, limit: int) -> list[OfficialResult]:
        def key(result: OfficialResult) -> str:
            return f"{result.completed_at}#{result.scope}"

        mine = sorted((r for r in self.officials.values() if r.player == player), key=key, reverse=True)
        return [r for r in mine if after is None or key(r) < after][:limit]

    def display_names(self, players: list[str]) -> dict[str, str]:
        return {p: self.names[p] for p in players if p in self.names}

    def set_display_name(self, player: str, name: str) -> None:
        if any(n.lower() == name.lower() and p != player for p, n in self.names.items()):
            raise NameTaken(name)
        self.names[player] = name
