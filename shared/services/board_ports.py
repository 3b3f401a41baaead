"""The ports of boards and profiles, ranks, and names (as shared/services/ports.py has the others),
in domain types: shared/dynamo/boards.py, counters.py and names.py implement them on DynamoDB."""

from typing import Protocol

from shared.game.boards import BoardEntry, BoardPosition, PlayerProfile, TieKey
from shared.game.moderation import Sanction
from shared.game.results import OfficialResult
from shared.game.scope import Scope
from shared.game.standing import Standing
from shared.services.ports import Admission


class BoardStore(Protocol):
    """Board pages and rows, and a player's profile and admission (SPEC §4, §3e)."""

    def board_page(
        self, scope: Scope, after: BoardPosition | None, limit: int, shown: int = 0, words: bool = True
    ) -> list[BoardEntry]:
        """The best LIMIT rows of SCOPE's board that come after AFTER (SHOWN rows come before it),
        in board order. The best TOP_ROWS rows are served from the top of the board, which (like
        ranks) shows a completion once the counters have caught up with it (a second or two).
        Without WORDS (a live board hides them) a row's words may be left out, and not read."""
        ...

    def board_entry(self, player: str, scope: Scope) -> BoardEntry | None:
        """PLAYER's row on SCOPE's board, if they have an official result there."""
        ...

    def admitted_entry(
        self, player: str, scope: Scope
    ) -> tuple[Admission, BoardEntry | None, frozenset[str]]:
        """PLAYER's admission, their row on SCOPE's board and the board's runs under review (the
        row's `review`), read consistently in one request."""
        ...

    def top_page(
        self, scope: Scope, limit: int, words: bool
    ) -> tuple[list[BoardEntry], frozenset[str]] | None:
        """The first LIMIT rows of SCOPE's board (with their words if WORDS) and its runs under
        review, in one request, when the top of the board holds them; else None."""
        ...

    def player_profile(self, player: str) -> PlayerProfile:
        """PLAYER's display name and Daily stats, read consistently."""
        ...

    def admission(self, player: str) -> Admission:
        """PLAYER's tombstone and ban, read consistently in one request (their profile's)."""
        ...

    def own_profile(self, player: str) -> tuple[Admission, PlayerProfile, list[Sanction]]:
        """What `GET /me` shows and who it admits: one consistent read of the profile (a second of
        the old `STATS` item only while the profile has no stats)."""
        ...


class RankStore(Protocol):
    """The rank counters: counted by the stream consumer (functions/leaderboard/counters.py),
    read for ranks and score bands."""

    def count_better(self, scope: Scope, tie: TieKey) -> int:
        """How many official results of SCOPE rank strictly better than TIE (counted once the
        counters have caught up with completions: a second or two)."""
        ...

    def standing(self, scope: Scope, tie: TieKey | None) -> Standing:
        """SCOPE's ranked results per score band and, for a TIE, how many rank strictly better
        and how many share it, from the same counters as `count_better` (the bands alone cost
        one small item's read per counter copy)."""
        ...

    def count_official(self, results: list[OfficialResult]) -> int:
        """Count RESULTS (a stream batch's official results) for ranks and the tops of their boards,
        each exactly once however often it is delivered; returns how many were counted now."""
        ...


class NameStore(Protocol):
    """Display names: claims unique by skeleton, and the name each board row shows (SPEC §4)."""

    def rename_rows(self, player: str, scopes: list[Scope], name: str) -> None:
        """Show NAME on PLAYER's rows of the boards of SCOPES (the top of each board too)."""
        ...

    def display_names(self, players: list[str]) -> dict[str, str]:
        """The chosen display name of each of PLAYERS who has set one."""
        ...

    def set_display_name(self, player: str, name: str) -> None:
        """Claim NAME for PLAYER (unique by skeleton); raises NameTaken."""
        ...
