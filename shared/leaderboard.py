"""Boards, a player's rank, and history (SPEC §4): ordered reads that cost the same for 10 or
10 million players. See docs/leaderboards.md for the design and its limits."""

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from shared import clock
from shared.boards import (
    assign_ranks,
    daily_closes_at,
    decode_cursor,
    encode_cursor,
    rank_key,
    scope_of,
    tie_key,
)
from shared.clock import parse_iso
from shared.constants import TIME_LIMIT_SECONDS
from shared.daily_date import daily_date
from shared.errors import BadRequest, Conflict, NotFound
from shared.profiles import check_display_name, default_display_name
from shared.store import Challenge, NameTaken, OfficialResult, Store

_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
HISTORY_PAGE_DEFAULT = 20
HISTORY_PAGE_MAX = 50


class Boards:
    def __init__(
        self, store: Store, cursor_key: Callable[[], bytes], now: Callable[[], datetime] = clock.now
    ):
        self.store = store
        self.cursor_key = cursor_key
        self.now = now

    # Daily boards --------------------------------------------------------------------------

    def daily_board(self, day: str | None, cursor: str | None, limit: int) -> dict[str, Any]:
        board_day = self._board_date(day)
        return {
            "date": board_day.isoformat(),
            **self._page(scope_of(board_day.isoformat()), daily_closes_at(board_day), cursor, limit),
        }

    def daily_rank(self, day: str | None, player: str) -> dict[str, Any]:
        board_day = self._board_date(day)
        scope = scope_of(board_day.isoformat())
        result = self.store.official_result(player, scope)
        if result is None:
            raise NotFound("No official result for that date", "not_ranked")
        visible = self.now() >= daily_closes_at(board_day)
        row = self._rows([result], [self._rank_of(result)], visible)[0]
        return {"date": board_day.isoformat(), "status": "closed" if visible else "live", **row}

    def _board_date(self, day: str | None) -> date:
        """The board's date: today by default; a past or present YYYY-MM-DD, else 400."""
        today = daily_date(self.now())
        if day is None:
            return today
        try:
            if not _ISO_DATE.fullmatch(day):
                raise ValueError(day)
            parsed = date.fromisoformat(day)
        except ValueError as error:
            raise BadRequest("A date is YYYY-MM-DD", "invalid_date") from error
        if parsed > today:
            raise BadRequest("That date has not started yet", "future_date")
        return parsed

    # Challenge boards ----------------------------------------------------------------------

    def challenge_view(self, challenge: Challenge, cursor: str | None, limit: int) -> dict[str, Any]:
        closes = parse_iso(challenge.closes_at)
        return {
            "challenge_id": challenge.challenge_id,
            "rounds": len(challenge.puzzle),
            "forbidden_rounds": sum(1 for r in challenge.puzzle if r.forbidden),
            "time_limit_seconds": TIME_LIMIT_SECONDS,
            "created_at": challenge.created_at,
            "closes_at": challenge.closes_at,
            "open": self.now() < closes,
            **self._page(
                scope_of(day="", challenge_id=challenge.challenge_id),
                closes + timedelta(seconds=TIME_LIMIT_SECONDS),
                cursor,
                limit,
            ),
        }

    # Pages and ranks -----------------------------------------------------------------------

    def _page(self, scope: str, words_from: datetime, cursor: str | None, limit: int) -> dict[str, Any]:
        """One page of a board. The cursor carries where the last page ended (its rank key,
        position and rank), signed, so no page ever counts the rows before it."""
        after, position, previous, previous_rank = None, 0, None, 0
        if cursor:
            state = decode_cursor(cursor, self.cursor_key())
            try:
                if state["scope"] != scope:
                    raise ValueError("another board")
                after, position = str(state["after"]), int(state["position"])
                previous, previous_rank = tuple(state["tie"]), int(state["rank"])
            except (KeyError, TypeError, ValueError) as error:
                raise BadRequest("The cursor is not one this API gave out", "invalid_cursor") from error
        results = self.store.board_page(scope, after, limit + 1)
        more = len(results) > limit
        results = results[:limit]
        keys = [tie_key(r.score, r.best_combo, r.longest_word_length) for r in results]
        ranks = assign_ranks(keys, position, previous, previous_rank)
        visible = self.now() >= words_from
        next_cursor = None
        if more:
            last = results[-1]
            next_cursor = encode_cursor(
                {
                    "scope": scope,
                    "position": position + len(results),
                    "rank": ranks[-1],
                    "tie": list(keys[-1]),
                    "after": rank_key(
                        last.score, last.best_combo, last.longest_word_length, last.completed_at, last.run_id
                    ),
                },
                self.cursor_key(),
            )
        return {
            "status": "closed" if visible else "live",
            "rows": self._rows(results, ranks, visible),
            "next_cursor": next_cursor,
        }

    def _rank_of(self, result: OfficialResult) -> int:
        return 1 + self.store.count_better(
            result.scope, result.score, result.best_combo, result.longest_word_length
        )

    def _rows(
        self, results: list[OfficialResult], ranks: list[int], words_visible: bool
    ) -> list[dict[str, Any]]:
        names = self.store.display_names([r.player for r in results]) if results else {}
        return [
            {
                "rank": rank,
                "display_name": names.get(r.player) or default_display_name(r.player),
                "score": r.score,
                "best_combo": r.best_combo,
                "longest_word_length": r.longest_word_length,
                "words": r.words if words_visible else None,
            }
            for r, rank in zip(results, ranks, strict=True)
        ]

    # Profiles and history ------------------------------------------------------------------

    def profile(self, player: str) -> dict[str, Any]:
        name = self.store.display_names([player]).get(player)
        return {"display_name": name or default_display_name(player)}

    def set_display_name(self, player: str, name: str) -> dict[str, Any]:
        try:
            self.store.set_display_name(player, check_display_name(name))
        except NameTaken as error:
            raise Conflict("That display name is taken", "display_name_taken") from error
        return {"display_name": name}

    def history(self, player: str, cursor: str | None, limit: int) -> dict[str, Any]:
        after = None
        if cursor:
            state = decode_cursor(cursor, self.cursor_key())
            if state.get("history") != player or not isinstance(state.get("after"), str):
                raise BadRequest("The cursor is not one this API gave out", "invalid_cursor")
            after = state["after"]
        results = self.store.history(player, after, limit + 1)
        more = len(results) > limit
        results = results[:limit]
        items = [
            {
                "kind": r.kind,
                "date": r.date,
                "challenge_id": r.challenge_id,
                "score": r.score,
                "best_combo": r.best_combo,
                "longest_word_length": r.longest_word_length,
                "completed_at": r.completed_at,
                "rank": self._final_rank(r),
            }
            for r in results
        ]
        next_cursor = None
        if more:
            last = results[-1]
            next_cursor = encode_cursor(
                {"history": player, "after": f"{last.completed_at}#{last.scope}"}, self.cursor_key()
            )
        return {"items": items, "next_cursor": next_cursor}

    def _final_rank(self, result: OfficialResult) -> int | None:
        """The final rank once the date or challenge is closed; None while it is live."""
        if result.kind == "daily":
            closes = daily_closes_at(date.fromisoformat(result.date))
        else:
            challenge = self.store.get_challenge(result.challenge_id or "")
            if challenge is None:
                return None
            closes = parse_iso(challenge.closes_at) + timedelta(seconds=TIME_LIMIT_SECONDS)
        return self._rank_of(result) if self.now() >= closes else None
