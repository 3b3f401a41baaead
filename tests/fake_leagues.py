"""An in-memory LeagueStore (shared/services/leagues.py) for service and handler tests; the contract tests
(tests/contract/test_league_store.py) run the same tests against it and DynamoStore."""

import json
import threading

from shared.game.boards import BoardEntry, BoardPosition
from shared.game.results import OfficialResult
from shared.game.scope import Scope
from shared.services.leagues import League, LeagueFull, LeagueRows, StaleLeague, TooManyLeagues, successor
from shared.services.ports import Admission


class FakeLeagueStore:
    """Leagues in memory. Board rows come from `results` and `names` (what a FakeBoardStore holds,
    when combined with one) or from `put_result` alone."""

    def __init__(self) -> None:
        super().__init__()
        self._league_lock = threading.RLock()
        self.leagues: dict[str, League] = {}
        self.codes: dict[str, str] = {}
        self.memberships: dict[str, set[str]] = {}
        if not hasattr(self, "results"):
            self.results: dict[tuple[str, Scope], OfficialResult] = {}
            self.row_names: dict[tuple[str, Scope], str | None] = {}
            self.names: dict[str, str] = {}
        self.unranked: set[tuple[str, Scope]] = set()

    def _count_in(self, league_id: str, player: str, leagues_max: int) -> None:
        mine = self.memberships.setdefault(player, set())
        if league_id not in mine and len(mine) >= leagues_max:
            raise TooManyLeagues(player)
        mine.add(league_id)

    def create_league(self, league: League, leagues_max: int) -> None:
        with self._league_lock:
            self._count_in(league.league_id, league.creator, leagues_max)
            self.leagues[league.league_id] = league.model_copy(deep=True)
            self.codes[league.code] = league.league_id

    def get_league(self, league_id: str, consistent: bool = True) -> League | None:
        with self._league_lock:
            found = self.leagues.get(league_id)
            return found.model_copy(deep=True) if found else None

    def admitted_league(self, caller: str, league_id: str) -> tuple[Admission, League | None]:
        """No tombstones nor bans here: every caller is admitted."""
        return Admission(False, None), self.get_league(league_id)

    def league_by_code(self, code: str) -> League | None:
        with self._league_lock:
            league_id = self.codes.get(code)
            return self.get_league(league_id) if league_id else None

    def join_league(
        self, league: League, player: str, joined_at: str, members_max: int, leagues_max: int
    ) -> None:
        with self._league_lock:
            stored = self.leagues.get(league.league_id)
            if stored is None or stored.code != league.code:
                raise StaleLeague(league.league_id)
            if player not in stored.members and len(stored.members) >= members_max:
                raise LeagueFull(league.league_id)
            self._count_in(league.league_id, player, leagues_max)
            stored.members.setdefault(player, joined_at)

    def leave_league(self, league: League, player: str, remover: str) -> None:
        with self._league_lock:
            stored = self.leagues.get(league.league_id)
            if (
                stored is None
                or player not in stored.members
                or stored.creator != league.creator
                or remover not in (player, league.creator)
            ):
                raise StaleLeague(league.league_id)
            heir = successor(stored, player)
            if heir is None:
                del self.leagues[league.league_id]
                self.codes.pop(stored.code, None)
            else:
                del stored.members[player]
                stored.creator = heir
            self.memberships.get(player, set()).discard(league.league_id)

    def rotate_code(self, league: League, code: str) -> None:
        with self._league_lock:
            stored = self.leagues.get(league.league_id)
            if stored is None or stored.code != league.code or stored.creator != league.creator:
                raise StaleLeague(league.league_id)
            del self.codes[stored.code]
            self.codes[code] = league.league_id
            stored.code = code

    def player_leagues(self, player: str) -> list[League]:
        with self._league_lock:
            return [self.leagues[i].model_copy(deep=True) for i in sorted(self.memberships.get(player, ()))]

    def put_result(self, result: OfficialResult, name: str | None = None, unranked: bool = False) -> None:
        """An official result as a completion records it (with the name its row shows)."""
        scope = Scope.of(result.date, result.challenge_id)
        self.results[result.player, scope] = result
        self.row_names[result.player, scope] = name
        if unranked:
            self.unranked.add((result.player, scope))

    def league_rows(self, players: list[str], scope: Scope) -> LeagueRows:
        entries = [
            BoardEntry(p, BoardPosition.of(r), r.words, self.row_names.get((p, scope)))
            for p in players
            if (r := self.results.get((p, scope))) is not None
            and (p, scope) not in self.unranked
            and json.loads(r.model_dump_json()).get("unranked_reason") is None
        ]
        shown = {p: self.row_names.get((p, scope)) for p in players if (p, scope) in self.results}
        named = {p: shown[p] if p in shown else self.names.get(p) for p in players}
        return LeagueRows(entries, {p: name for p, name in named.items() if name})
