"""The closing pass's pieces (SPEC §6): what one message of the piece queue asks for, the pass's
progress, a phase-1 piece's partial result, and the ports the pass runs on (`PassStore`: on
DynamoDB shared/dynamo/closing_pieces.py, in memory tests/fakes/fake_passes.py; `PieceQueue`:
shared/runtime/piece_queue.py). docs/moderation.md, "The closing pass", has the protocol.

A piece is one page of one shard of a board's `board` index (at most PAGE_RUNS runs), or, for a
board small enough to be read whole from its top item, the board's runs listed (`runs`).
"""

import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple, Protocol

from shared.game.recap import RoundTally
from shared.game.runs import Run
from shared.game.scope import Scope

# Runs one piece reads: its memory holds their ids and one BatchGetItem of them (100) at a time;
# its time is about a millisecond a run (benchmarks/closing_pass.py).
PAGE_RUNS = 2_000
LISTED = -1  # the shard of a piece that lists its runs
COUNT, MERGE, JUDGE = 1, 0, 2  # a piece's phase: read and count; merge the counts; judge each run


class BadPiece(ValueError):
    """A message that is not a piece (a worker drops it: no retry would mend it)."""


@dataclass(frozen=True)
class Piece:
    scope: Scope
    phase: int
    shard: int = LISTED
    page: int = 0
    start: str | None = None  # where the page starts in its shard (the store's position), or its start
    runs: tuple[str, ...] = field(default=())

    @property
    def piece_id(self) -> str:
        """The piece's name within its pass: its result is stored under it (a re-run replaces)."""
        return "all" if self.shard == LISTED else f"{self.shard:02d}#{self.page:06d}"

    def message(self) -> dict[str, Any]:
        body: dict[str, Any] = {"kind": self.scope.kind, "scope": self.scope.id, "phase": self.phase}
        if self.phase != MERGE:
            body |= {"shard": self.shard, "page": self.page, "start": self.start, "runs": list(self.runs)}
        return body

    @classmethod
    def of(cls, body: dict[str, Any]) -> "Piece":
        try:
            kind, phase = body["kind"], int(body["phase"])
            if kind not in ("daily", "challenge") or phase not in (COUNT, MERGE, JUDGE):
                raise BadPiece(f"not a piece: {body!r}")
            scope = Scope(kind, str(body["scope"]))
            if phase == MERGE:
                return cls(scope, MERGE)
            return cls(
                scope,
                phase,
                int(body["shard"]),
                int(body["page"]),
                body.get("start"),
                tuple(body.get("runs") or ()),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise BadPiece(f"not a piece: {body!r}") from error

    def successor(self, start: str) -> "Piece":
        """The next page of the same shard."""
        return Piece(self.scope, self.phase, self.shard, self.page + 1, start)

    def judging(self) -> "Piece":
        """The same runs, for phase 2."""
        return Piece(self.scope, JUDGE, self.shard, self.page, self.start, self.runs)


class PassState(NamedTuple):
    """A pass's progress: per phase (COUNT, JUDGE), the pieces it has and the pieces stored."""

    expected: dict[int, int]
    done: dict[int, int]
    finished: bool = False

    def complete(self, phase: int) -> bool:
        return phase in self.expected and self.done.get(phase, 0) >= self.expected[phase]


@dataclass
class Partial:
    """A phase-1 piece's result: the piece, its runs' count, each round's recap tally (a Daily's),
    and the find-time figures of its runs (`ScopeStats.to_json()`), merged once all are in."""

    piece: dict[str, Any]
    players: int
    rounds: list[RoundTally]
    stats: Any

    def encode(self) -> bytes:
        body = {
            "piece": self.piece,
            "players": self.players,
            "rounds": [t.model_dump() for t in self.rounds],
            "stats": self.stats,
        }
        return zlib.compress(json.dumps(body, separators=(",", ":")).encode(), 6)

    @classmethod
    def decode(cls, data: bytes) -> "Partial":
        body = json.loads(zlib.decompress(data))
        rounds = [RoundTally.model_validate(t) for t in body["rounds"]]
        return cls(body["piece"], body["players"], rounds, body["stats"])


def add_tallies(into: list[RoundTally], more: list[RoundTally]) -> None:
    """MORE's counts added to INTO's (the same rounds)."""
    for total, tally in zip(into, more, strict=True):
        for word, count in tally.words.items():
            total.words[word] = total.words.get(word, 0) + count
        total.lost += tally.lost
        total.skipped += tally.skipped


class PassStore(Protocol):
    """Where a pass reads its runs and keeps its progress, its pieces' results and its figures."""

    def board_page(
        self, scope: Scope, shard: int, start: str | None, limit: int
    ) -> tuple[list[str], str | None]:
        """Up to LIMIT run ids of shard SHARD of SCOPE's board from START, and where the next page
        starts (None: the shard ends here)."""
        ...

    def listed_board(self, scope: Scope, limit: int) -> list[str] | None:
        """SCOPE's whole board's run ids when it holds fewer than LIMIT rows, read without its
        shards (its top item and rank counters); None otherwise."""
        ...

    def read_runs(self, scope: Scope, run_ids: list[str]) -> Iterator[Run]:
        """The runs, a batch at a time (memory: one batch)."""
        ...

    def start_pass(self, scope: Scope, pieces: int) -> bool:
        """The pass's progress, created with PIECES phase-1 pieces; False when it exists."""
        ...

    def pass_state(self, scope: Scope) -> PassState | None: ...

    def put_piece(self, piece: Piece, result: bytes, successor: bool) -> PassState:
        """PIECE's RESULT stored under its id; the first time, it is counted done (and a
        SUCCESSOR page expected) in the same write; a re-run replaces it and counts nothing."""
        ...

    def piece_results(self, scope: Scope) -> Iterator[bytes]:
        """Every phase-1 piece's result."""
        ...

    def begin_judging(self, scope: Scope, pieces: int, stats: str) -> None:
        """The merged STATS stored, and PIECES phase-2 pieces expected (once: idempotent)."""
        ...

    def scope_stats(self, scope: Scope) -> str | None: ...

    def finish_pass(self, scope: Scope) -> None: ...

    def keep_score(
        self, player: str, scope: Scope, completed_at: str, score: float
    ) -> list[tuple[str, float]]:
        """PLAYER's evidence SCORE of SCOPE kept with their results (a re-run replaces it); returns
        their last RUNNING_RUNS (scope id, score), oldest first."""
        ...

    def dailies_done_through(self) -> date | None: ...

    def mark_dailies_done(self, day: date) -> None: ...


class PieceQueue(Protocol):
    def send(self, messages: list[dict[str, Any]]) -> None: ...
