"""The closing pass's store in memory (shared/services/closing_pieces.py `PassStore`), over the
FakeTable of FakePorts: a board's shards are its ranked results split by the player's shard (as
the `board` index splits them), in board order, paged by position."""

import threading
from collections.abc import Iterator
from datetime import date
from typing import Any

from shared.dynamo.keys import BOARD_SHARDS, shard
from shared.game.boards import TOP_ROWS
from shared.game.find_time import RUNNING_RUNS
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.services.closing_pieces import COUNT, JUDGE, PassState, PassStore, Piece
from tests.fakes.fake_table import FakeTable


class FakePasses:
    def __init__(self, table: FakeTable, shards: int = BOARD_SHARDS) -> None:
        self.table, self.shards = table, shards
        self.lock = threading.RLock()
        self.states: dict[Scope, dict[str, Any]] = {}
        self.results: dict[tuple[Scope, int, str], bytes] = {}
        self.evidence: dict[str, dict[str, tuple[str, float]]] = {}
        self.dailies: date | None = None
        self.listed_limit = TOP_ROWS

    def _rows(self, scope: Scope, number: int) -> list[str]:
        entries = sorted(
            (
                self.table.entry(player, s)
                for (player, s), r in self.table.results.items()
                if s == scope and r.ranked
            ),
            key=lambda e: e.position.order(),
        )
        return [e.position.run_id for e in entries if shard(e.player, self.shards) == number]

    def board_page(
        self, scope: Scope, shard: int, start: str | None, limit: int
    ) -> tuple[list[str], str | None]:
        rows = self._rows(scope, shard)
        begin = int(start or 0)
        page = rows[begin : begin + limit]
        return page, str(begin + limit) if begin + limit <= len(rows) and page else None

    def listed_board(self, scope: Scope, limit: int) -> list[str] | None:
        rows = [r for n in range(self.shards) for r in self._rows(scope, n)]
        return rows if len(rows) < limit else None

    def read_runs(self, scope: Scope, run_ids: list[str]) -> Iterator[Run]:
        for run_id in run_ids:
            if run_id in self.table.runs:
                yield self.table.runs[run_id][0].model_copy(deep=True)

    def start_pass(self, scope: Scope, pieces: int) -> bool:
        with self.lock:
            if scope in self.states:
                return False
            self.states[scope] = {"e": {COUNT: pieces}, "d": {COUNT: 0}, "finished": False, "stats": None}
            return True

    def pass_state(self, scope: Scope) -> PassState | None:
        state = self.states.get(scope)
        if state is None:
            return None
        return PassState(dict(state["e"]), dict(state["d"]), state["finished"])

    def put_piece(self, piece: Piece, result: bytes, successor: bool) -> PassState:
        with self.lock:
            state = self.states.get(piece.scope)
            if state is None:
                raise RuntimeError(f"{piece.scope.id}: a piece of a pass not started")
            key = (piece.scope, piece.phase, piece.piece_id)
            if key not in self.results:
                state["d"][piece.phase] = state["d"].get(piece.phase, 0) + 1
                state["e"][piece.phase] = state["e"].get(piece.phase, 0) + int(successor)
            self.results[key] = result
        found = self.pass_state(piece.scope)
        assert found is not None
        return found

    def piece_results(self, scope: Scope) -> Iterator[bytes]:
        for (s, phase, _), data in sorted(self.results.items(), key=lambda item: item[0][2]):
            if s == scope and phase == COUNT:
                yield data

    def begin_judging(self, scope: Scope, pieces: int, stats: str) -> None:
        with self.lock:
            state = self.states[scope]
            state["e"].setdefault(JUDGE, pieces)
            state["d"].setdefault(JUDGE, 0)
            state["stats"] = state["stats"] or stats

    def scope_stats(self, scope: Scope) -> str | None:
        state = self.states.get(scope)
        return state["stats"] if state else None

    def finish_pass(self, scope: Scope) -> None:
        self.states[scope]["finished"] = True

    def keep_score(
        self, player: str, scope: Scope, completed_at: str, score: float
    ) -> list[tuple[str, float]]:
        with self.lock:
            kept = self.evidence.setdefault(player, {})
            kept[scope.id] = (completed_at, score)
            ordered = sorted(kept.items(), key=lambda item: (item[1][0], item[0]))[-RUNNING_RUNS:]
            self.evidence[player] = dict(ordered)
            return [(scope_id, value) for scope_id, (_, value) in ordered]

    def dailies_done_through(self) -> date | None:
        return self.dailies

    def mark_dailies_done(self, day: date) -> None:
        if self.dailies is None or day > self.dailies:
            self.dailies = day


_passes: PassStore = FakePasses(FakeTable())
