"""The closing pass (SPEC §3b, §4a, §6): once a board has closed, its runs are read in pieces
(shared/services/closing_pieces.py) that run in parallel, at least once, each in constant memory.

- Phase 1 (`COUNT`): each piece reads its runs and stores its partial counts (the Daily's recap
  tallies) and find-time figures (`ScopeStats`) under its id; a piece whose page is not its
  shard's last sends the next page first. The store counts a piece done once, however often it
  runs, so the pass knows when every piece is in.
- Merge: the last piece in sends `MERGE`: the partials summed into the recap (a Daily's) and the
  scope's stats, then one phase-2 piece per phase-1 piece.
- Phase 2 (`JUDGE`): each piece reads its runs again and judges each against the scope's stats;
  each run's evidence score is kept with the player's results; a case is opened (SPEC §3e) for a
  suspect run, or when the player's running evidence over their last 30 official runs says so.
  The last piece in marks the pass done.

The expiry job (functions/daily/expire.py) starts passes every minute: each Daily whose board has
closed, from the day after the last one done (a missed day is caught up), and each challenge
closed since the last minute; the Dailies and the challenges apart, so one failing never holds
up the other. A challenge whose board fits its top item is one listed piece: its cost follows
its runs, not the board's shards. docs/moderation.md, "The closing pass".
"""

import json
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import date, datetime, timedelta
from typing import Any

from shared.game import clock
from shared.game.boards import SETTLE_SECONDS, TOP_ROWS, board_closed, daily_closes_at
from shared.game.cases import run_case, run_snapshot
from shared.game.clock import iso
from shared.game.constants import TIME_LIMIT_SECONDS
from shared.game.daily_date import daily_date
from shared.game.find_time import (
    Evidence,
    ScopeStats,
    describe,
    judge,
    run_times,
    running_evidence,
    typical_ms,
)
from shared.game.puzzles import Round, answers, top_words
from shared.game.recap import RoundTally, summarize, tally_rounds
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.services.closing_pieces import (
    COUNT,
    JUDGE,
    LISTED,
    MERGE,
    PAGE_RUNS,
    Partial,
    PassStore,
    Piece,
    PieceQueue,
    add_tallies,
)
from shared.services.moderation import CLOSES_PER_STEP
from shared.services.moderation_store import ModerationPorts
from shared.services.ports import ClosingStore, RecapStore, RunStore

DAYS_PER_STEP = 3  # Dailies one step of the job starts at most (a missed day, then the next)
WRITERS = 8  # a judging piece's score writes in flight (botocore's client pools 10 connections)
IN_FLIGHT = 2  # runs judged and waiting for their write, a writer: the decoded runs it holds


class ClosingPass:
    def __init__(
        self,
        store: PassStore,
        queue: PieceQueue,
        runs: RunStore,
        moderation: ModerationPorts,
        recaps: RecapStore,
        closing: ClosingStore,
        first_date: Callable[[], date],
        daily_puzzle: Callable[[str], list[Round]],
        *,
        shards: int,  # the `board` index's shards: the stage's setting (a Daily's count reads each)
        now: Callable[[], datetime] = clock.now,
        writers: int = WRITERS,
    ):
        self.store, self.queue = store, queue
        self.runs, self.moderation, self.recaps, self.closing = runs, moderation, recaps, closing
        self.first_date, self.daily_puzzle = first_date, daily_puzzle
        self.now, self.shards, self.writers = now, shards, writers
        self._puzzles: dict[Scope, list[Round]] = {}
        self._stats: dict[Scope, Any] = {}

    # The orchestrator: the expiry job's steps --------------------------------------------------

    def close_dailies(self) -> list[str]:
        """Start the pass of each Daily whose board has closed, from the day after the last one
        done (a missed day is caught up), at most DAYS_PER_STEP a step; move the mark past the
        days done in a row. A pass whose merge was lost is sent it again. Returns the days started."""
        yesterday = daily_date(self.now()) - timedelta(days=1)
        through = self.store.dailies_done_through()
        if through is None:  # the first step of a deployment: from yesterday on
            through = max(yesterday, self.first_date()) - timedelta(days=1)
            self.store.mark_dailies_done(through)
        day, done_through, completed = through + timedelta(days=1), through, self.runs.completed_through()
        started: list[str] = []
        while day <= yesterday and len(started) < DAYS_PER_STEP:
            scope = Scope.daily(day.isoformat())
            if not board_closed(self.now(), daily_closes_at(day), completed):
                break
            state = self.store.pass_state(scope)
            if state is None and self.moderation.reviews.pass_done(scope):  # passed by the one-piece engine
                self.store.start_pass(scope, 0)
                self.store.finish_pass(scope)
                state = self.store.pass_state(scope)
            if state is None:
                self.daily_puzzle(day.isoformat())  # stored by its reset; a day nobody played too
                self._start(scope)
                started.append(day.isoformat())
            elif state.complete(COUNT) and JUDGE not in state.expected:
                self.queue.send([Piece(scope, MERGE).message()])  # its merge was lost: again
            if state is not None and state.finished and done_through == day - timedelta(days=1):
                done_through = day
            day += timedelta(days=1)
        if done_through != through:
            self.store.mark_dailies_done(done_through)
        return started

    def close_challenges(self) -> list[str]:
        """Start the pass of each challenge whose board has closed since the last step (by the
        expiry watermark), by close time, at most CLOSES_PER_STEP of them; then the step's own
        watermark moves past them. Returns the challenges started."""
        completed = self.runs.completed_through()
        if completed is None:
            return []
        closed_through = completed - timedelta(seconds=SETTLE_SECONDS + TIME_LIMIT_SECONDS)
        after = self.closing.challenges_reviewed_through() or closed_through - CLOSES_PER_STEP
        through = min(closed_through, after + CLOSES_PER_STEP)
        if through <= after:
            return []
        started = []
        for challenge_id in self.closing.challenges_closing(after, through):
            scope = Scope.challenge(challenge_id)
            if self.store.pass_state(scope) is None:
                self._start(scope)
                started.append(challenge_id)
        self.closing.mark_challenges_reviewed(through)
        return started

    def _start(self, scope: Scope) -> None:
        """Its first pieces: the board listed whole when it fits its top item, else a first page
        of each shard; sent before the pass's item is made, so a step that fails between the two
        finds no pass and starts it again (its pieces wait for the item: they fail and come back)."""
        # A Daily's shards always: it is large, and its listing would trust the counters and top
        # item that the stream consumer keeps (a second behind; a challenge's pass comes minutes
        # after its close).
        listed = self.store.listed_board(scope, TOP_ROWS) if scope.kind == "challenge" else None
        if listed is not None:
            pieces = [Piece(scope, COUNT, LISTED, 0, None, tuple(listed))]
        else:
            pieces = [Piece(scope, COUNT, shard) for shard in range(self.shards)]
        self.queue.send([piece.message() for piece in pieces])
        self.store.start_pass(scope, len(pieces))

    # The workers: one piece a message ----------------------------------------------------------

    def run(self, body: dict[str, Any]) -> None:
        """The piece BODY names (BadPiece when it names none). Raises when it failed: the queue
        delivers it again."""
        piece = Piece.of(body)
        if piece.phase == COUNT:
            self._count(piece)
        elif piece.phase == MERGE:
            self._merge(piece.scope)
        else:
            self._judge(piece)

    def _page(self, piece: Piece) -> tuple[list[str], str | None]:
        if piece.shard == LISTED:
            return list(piece.runs), None
        return self.store.board_page(piece.scope, piece.shard, piece.start, PAGE_RUNS)

    def _count(self, piece: Piece) -> None:
        scope = piece.scope
        run_ids, following = self._page(piece)
        if following is not None:
            self.queue.send([piece.successor(following).message()])
        puzzle = self._puzzle(scope)
        stats, players = ScopeStats.empty(len(puzzle)), 0

        def measured(runs: Iterator[Run]) -> Iterator[Run]:
            """Each run's find times and count taken as it passes (one decoded run held at a time)."""
            nonlocal stats, players
            for run in runs:
                if stats.rounds < len(run.puzzle):  # a challenge's rounds: its runs hold its puzzle
                    stats = stats.merge(ScopeStats.empty(len(run.puzzle)))
                stats.add(run_times(run))
                players += 1
                yield run

        runs = measured(self.store.read_runs(scope, run_ids))
        tallies = tally_rounds(puzzle, runs) if puzzle else []  # a Daily's recap tallies
        for _ in runs:  # a challenge's: no tallies
            pass
        partial = Partial(piece.message(), players, tallies, stats.to_json())
        state = self.store.put_piece(piece, partial.encode(), following is not None)
        if state.complete(COUNT):
            self.queue.send([Piece(scope, MERGE).message()])

    def _merge(self, scope: Scope) -> None:
        """Every phase-1 result summed (in any order, each once: they are read by piece id), the
        recap and the scope's stats stored, the phase-2 pieces sent. Run again, it does the same."""
        state = self.store.pass_state(scope)
        if state is None or not state.complete(COUNT):
            return  # sent early by a re-run piece: the last piece in sends it again
        puzzle = self._puzzle(scope)
        tallies: list[RoundTally] = tally_rounds(puzzle, []) if puzzle else []
        stats, players, judging = ScopeStats.empty(len(puzzle)), 0, []
        for data in self.store.piece_results(scope):
            partial = Partial.decode(data)
            if tallies:
                add_tallies(tallies, partial.rounds)
            stats = stats.merge(ScopeStats.from_json(partial.stats))
            players += partial.players
            judging.append(Piece.of(partial.piece).judging())
        if len(judging) < state.expected[COUNT]:
            raise RuntimeError(f"{scope.id}: {len(judging)} of {state.expected[COUNT]} pieces read")
        if scope.kind == "daily":
            common = [answers(r.prompt, r.forbidden, "common.txt") for r in puzzle]
            self.recaps.put_recap(scope, summarize(scope.id, players, tallies, common, top_words()), tallies)
        self.store.begin_judging(scope, len(judging), json.dumps(stats.to_json(), separators=(",", ":")))
        self.queue.send([piece.message() for piece in judging])

    def _judge(self, piece: Piece) -> None:
        scope = piece.scope
        stats = self._scope_stats(scope)
        run_ids, _ = self._page(piece)
        opened, puzzle = 0, self._puzzle(scope)
        # The scores are written `writers` at a time (each an UpdateItem of its own player's item,
        # idempotent); a case waits for its run's write, which returns the player's running scores.
        waiting: deque[tuple[Run, Evidence, Future[list[tuple[str, float]]]]] = deque()
        with ThreadPoolExecutor(self.writers) as pool:
            for run in self.store.read_runs(scope, run_ids):
                puzzle = puzzle or run.puzzle
                if run.player is None:
                    continue
                evidence = judge(run_times(run), run.puzzle, stats)
                kept = pool.submit(
                    self.store.keep_score, run.player, scope, run.completed_at or "", evidence.score
                )
                waiting.append((run, evidence, kept))
                if len(waiting) == IN_FLIGHT * self.writers:
                    opened += self._review(scope, *waiting.popleft())
            while waiting:
                opened += self._review(scope, *waiting.popleft())
        state = self.store.put_piece(piece, str(opened).encode(), False)
        if state.complete(JUDGE):
            self.store.finish_pass(scope)
            # The board's pass has run; the moderation views show each round's typical find time.
            quantiles = typical_ms(puzzle or self.runs.get_puzzle(scope) or [], stats)
            self.moderation.reviews.mark_pass(scope, quantiles)

    def _review(
        self, scope: Scope, run: Run, evidence: Evidence, kept: "Future[list[tuple[str, float]]]"
    ) -> int:
        """A case opened for RUN when its EVIDENCE or the player's running evidence (their scores
        KEPT with this one) says so: 1 when one was opened."""
        scores = kept.result()
        running = running_evidence([score for _, score in scores])
        if not (evidence.suspect or running.suspect):
            return 0
        shown = f"{scope.id}: {describe(evidence, running)}"
        if running.suspect:  # the days that made it
            shown += "\nthe days: " + ", ".join(f"{scope_id} {score:.2f}" for scope_id, score in scores)
        assert run.player is not None
        case = run_case(run.player, run.run_id, scope.id, shown, iso(self.now()), "find_time")
        case = case.model_copy(update={"snapshot": run_snapshot(run, None)})  # evidence kept
        return self.moderation.cases.open_case(case)

    def _puzzle(self, scope: Scope) -> list[Round]:
        """A Daily's puzzle (its recap's rounds); none for a challenge: its runs hold it."""
        if scope.kind == "challenge":
            return []
        if scope not in self._puzzles:
            self._puzzles[scope] = self.runs.get_puzzle(scope) or []
        return self._puzzles[scope]

    def _scope_stats(self, scope: Scope) -> Any:
        if scope not in self._stats:
            kept = self.store.scope_stats(scope)
            if kept is None:
                raise RuntimeError(f"{scope.id}: judged before its stats were merged")
            self._stats[scope] = ScopeStats.from_json(json.loads(kept))
        return self._stats[scope]
