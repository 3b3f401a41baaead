"""The in-memory LeagueStore (shared/services/leagues.py), over the shared FakeTable
(tests/fakes/fake_table.py): a league's rows are the official results and names the other fakes keep.
tests/contract/test_league_store.py runs the same tests against it and the adapter
(shared/dynamo/leagues.py)."""

from shared.game.boards import BoardEntry, BoardPosition
from shared.game.leagues import League, successor
from shared.game.scope import Scope
from shared.services.leagues import LeagueFull, LeagueRows, LeagueStore, StaleLeague, TooManyLeagues
from shared.services.ports import Admission
from tests.fakes.fake_table import FakeTable


class FakeLeagues:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def _count_in(self, league_id: str, player: str, leagues_max: int) -> None:
        mine = self.table.memberships.setdefault(player, set())
        if league_id not in mine and len(mine) >= leagues_max:
            raise TooManyLeagues(player)
        mine.add(league_id)

    def create_league(self, league: League, leagues_max: int) -> None:
        with self.table.lock:
            self._count_in(league.league_id, league.creator, leagues_max)
            self.table.leagues[league.league_id] = league.model_copy(deep=True)
            self.table.codes[league.code] = league.league_id

    def get_league(self, league_id: str, consistent: bool = True) -> League | None:
        with self.table.lock:
            found = self.table.leagues.get(league_id)
            return found.model_copy(deep=True) if found else None

    def admitted_league(self, caller: str, league_id: str) -> tuple[Admission, League | None]:
        return self.table.admission(caller), self.get_league(league_id)

    def league_by_code(self, code: str) -> League | None:
        with self.table.lock:
            league_id = self.table.codes.get(code)
            return self.get_league(league_id) if league_id else None

    def join_league(
        self, league: League, player: str, joined_at: str, members_max: int, leagues_max: int
    ) -> None:
        with self.table.lock:
            stored = self.table.leagues.get(league.league_id)
            if stored is None or stored.code != league.code:
                raise StaleLeague(league.league_id)
            if player not in stored.members and len(stored.members) >= members_max:
                raise LeagueFull(league.league_id)
            self._count_in(league.league_id, player, leagues_max)
            stored.members.setdefault(player, joined_at)

    def leave_league(self, league: League, player: str, remover: str) -> None:
        with self.table.lock:
            stored = self.table.leagues.get(league.league_id)
            if (
                stored is None
                or player not in stored.members
                or stored.creator != league.creator
                or remover not in (player, league.creator)
            ):
                raise StaleLeague(league.league_id)
            heir = successor(stored, player)
            if heir is None:
                del self.table.leagues[league.league_id]
                self.table.codes.pop(stored.code, None)
            else:
                del stored.members[player]
                stored.creator = heir
            self.table.memberships.get(player, set()).discard(league.league_id)

    def rotate_code(self, league: League, code: str) -> None:
        with self.table.lock:
            stored = self.table.leagues.get(league.league_id)
            if stored is None or stored.code != league.code or stored.creator != league.creator:
                raise StaleLeague(league.league_id)
            del self.table.codes[stored.code]
            self.table.codes[code] = league.league_id
            stored.code = code

    def player_leagues(self, player: str) -> list[League]:
        with self.table.lock:
            return [
                self.table.leagues[i].model_copy(deep=True)
                for i in sorted(self.table.memberships.get(player, ()))
            ]

    def league_rows(self, players: list[str], scope: Scope) -> LeagueRows:
        entries = [
            BoardEntry(p, BoardPosition.of(r), r.words, self.table.row_names.get((p, scope)))
            for p in players
            if (r := self.table.results.get((p, scope))) is not None and r.ranked
        ]
        shown = {p: self.table.row_names.get((p, scope)) for p in players if (p, scope) in self.table.results}
        named = {p: shown[p] if p in shown else self.table.names.get(p) for p in players}
        return LeagueRows(entries, {p: name for p, name in named.items() if name})


_leagues: LeagueStore = FakeLeagues(FakeTable())
