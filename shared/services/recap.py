"""A closed day's recap (SPEC §4a): written once by the closing pass from the runs it already
reads (no write at the rush), then read by `GET /daily/{date}/recap` and, for a player's own
words, `GET /daily/{date}/recap/me`. docs/leaderboards.md, "The day's recap"."""

from collections.abc import Callable
from datetime import date, datetime

from shared.game import clock
from shared.game.constants import DAILY_ROUNDS
from shared.game.daily_date import daily_date
from shared.game.errors import NotFound
from shared.game.puzzles import Round, answers, top_words
from shared.game.recap import DayRecap, MyRoundWord, my_words, summarize, tally_rounds
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.services.admission import refuse_unless_admitted
from shared.services.ports import RecapStore, ResultStore, RunStore


class Recaps:
    def __init__(
        self,
        store: RecapStore,
        results: ResultStore,
        runs: RunStore,
        now: Callable[[], datetime] = clock.now,
    ):
        self.store = store
        self.results, self.runs = results, runs
        self.now = now

    def record(self, scope: Scope, puzzle: list[Round], counted: list[Run]) -> DayRecap:
        """The closing pass's step: tally the board's COUNTED runs (its ranked official runs when
        it closed) and store the recap. Idempotent: the same runs give the same items."""
        tallies = tally_rounds(puzzle, counted)
        common = [answers(r.prompt, r.forbidden, "common.txt") for r in puzzle]
        recap = summarize(scope.id, len(counted), tallies, common, top_words())
        self.store.put_recap(scope, recap, tallies)
        return recap

    def day_recap(self, day: date, status: Callable[[Scope], str]) -> tuple[DayRecap, bool]:
        """DAY's recap and whether its board is final; 404 while DAY is live, and until its
        closing pass has run. Once the recap item says final, that item is the one read; before,
        STATUS (the board's) is asked, and the first `final` it says is noted on the recap."""
        scope = self._closed_scope(day)
        stored = self.store.recap(scope)
        if stored is None:
            raise NotFound(
                "That day's recap is not ready: it comes once its board has closed", "recap_not_ready"
            )
        if stored.final:
            return stored.recap, True
        final = status(scope) == "final"
        if final:
            self.store.mark_final(scope)
        return stored.recap, final

    def my_words(self, day: date, player: str) -> list[MyRoundWord]:
        """PLAYER's word in each round of DAY's official run and how many others played it; 404
        `not_played` without an official result, `recap_not_ready` before the closing pass."""
        scope = self._closed_scope(day)
        admission, result = self.results.admitted_result(player, scope)  # the route admits here
        refuse_unless_admitted(admission, self.now())
        stored = self.runs.get_run(result.run_id, consistent=False) if result else None  # it is done
        if result is None or stored is None:
            raise NotFound("No official result for that date", "not_played")
        run = stored.run
        played = sorted({r.round for r in run.history if any(a.accepted for a in r.attempts)})
        counts = self.store.round_words(scope, played) if played else {}
        if len(counts) < len(played):
            raise NotFound(
                "That day's recap is not ready: it comes once its board has closed", "recap_not_ready"
            )
        # Counted at the close: a ranked result, or one a moderator voided since.
        counted = result.unranked_reason in (None, "voided")
        return my_words(run, counts, counted, DAILY_ROUNDS)

    def _closed_scope(self, day: date) -> Scope:
        if day >= daily_date(self.now()):
            raise NotFound("A day's recap comes once its board has closed", "daily_live")
        return Scope.daily(day.isoformat())
