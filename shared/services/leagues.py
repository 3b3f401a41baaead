"""Leagues (SPEC §3c): friends who compare their official Daily results on a board of their own.

A league has a name, a creator and an unguessable invite code; players join with the code and
leave; the creator removes members and rotates the code. A league's board for a Daily date is
built, on each read, from its members' own official results (read by key, one request for all of
them): a completion writes nothing for leagues. Its order, shared ranks and word hiding are the
Daily board's (shared/game/boards.py, shared/services/leaderboard.py). How leagues are stored is the adapter's
business (shared/dynamo/leagues.py); docs/players.md has the choices.
"""

import hashlib
import secrets
from collections.abc import Callable
from datetime import date, datetime
from typing import NamedTuple, Protocol

from shared.game import clock
from shared.game.boards import BoardEntry, assign_ranks, daily_closes_at
from shared.game.clock import iso
from shared.game.constants import LEAGUE_MEMBERS_MAX, LEAGUES_PER_PLAYER_MAX
from shared.game.errors import Conflict, Forbidden, NotFound, Throttled
from shared.game.leagues import League
from shared.game.names import check_league_name, default_display_name
from shared.game.scope import Scope
from shared.services.admission import refuse_unless_admitted
from shared.services.leaderboard import Boards, Row, rows
from shared.services.ports import Admission

# `DELETE /leagues/{id}/members/me`: the caller leaves.
MYSELF = "me"


class LeagueFull(Exception):
    """The league has LEAGUE_MEMBERS_MAX members already."""


class TooManyLeagues(Exception):
    """The player is in LEAGUES_PER_PLAYER_MAX leagues already."""


class StaleLeague(Exception):
    """The league changed since it was read (its code, creator or members): read it again."""


class LeagueRows(NamedTuple):
    """What a league board reads: each member's row on the Daily board of the date (if they have a
    ranked official result) and each member's display name (as their result's row shows it, the
    profile's for a member without a result)."""

    entries: list[BoardEntry]
    names: dict[str, str]


class Member(NamedTuple):
    """A member as the league's board shows them to CALLER (`you`)."""

    member_id: str
    display_name: str
    creator: bool
    you: bool


class LeagueBoard(NamedTuple):
    """A league's board for a Daily date: its members' rows in board order, the caller's rank
    among them (None without a result) and its members, earliest joined first."""

    league: League
    day: date
    closed: bool
    rows: list[Row]
    my_rank: int | None
    members: list[Member]


class Invitation(NamedTuple):
    """What an invite code shows anyone (SPEC §4a): the league's name, its creator's display name,
    how many members it has and today's leader (their name and score; None before anyone has
    played today)."""

    name: str
    creator_name: str
    members: int
    day: date
    leader: Row | None


class LeagueStore(Protocol):
    """Leagues in storage (shared/dynamo/leagues.py, tests/fakes/fake_leagues.py)."""

    def create_league(self, league: League, leagues_max: int) -> None:
        """Store LEAGUE with its creator as its one member, counted in the creator's leagues.
        Raises TooManyLeagues."""
        ...

    def get_league(self, league_id: str, consistent: bool = True) -> League | None:
        """The league, read consistently unless CONSISTENT is False (a read that may trail a
        write by a second: a board's)."""
        ...

    def admitted_league(self, caller: str, league_id: str) -> tuple[Admission, League | None]:
        """CALLER's admission and the league, read consistently in one request."""
        ...

    def league_by_code(self, code: str) -> League | None: ...

    def join_league(
        self, league: League, player: str, joined_at: str, members_max: int, leagues_max: int
    ) -> None:
        """Add PLAYER to LEAGUE if its code is still `league.code`. Raises LeagueFull,
        TooManyLeagues, or StaleLeague (the code changed: it no longer lets anyone in)."""
        ...

    def leave_league(self, league: League, player: str, remover: str) -> None:
        """Take PLAYER out of LEAGUE, on condition that REMOVER is PLAYER or the league's creator
        and that the creator is still `league.creator`. The creator leaving hands the league to the
        member who joined first; the last member leaving deletes it. Raises StaleLeague."""
        ...

    def rotate_code(self, league: League, code: str) -> None:
        """Replace the league's code by CODE if it is still `league.code`. Raises StaleLeague."""
        ...

    def player_leagues(self, player: str) -> list[League]: ...

    def league_rows(self, players: list[str], scope: Scope) -> LeagueRows:
        """PLAYERS' rows on SCOPE's Daily board, leaving out results that are not ranked, and
        their display names, read from their own items in one request."""
        ...


def member_id(league_id: str, player: str) -> str:
    """How a league names a member to the others: derived from the league and the player, so a
    league never shows a player's account id and two leagues give one player different ids."""
    return hashlib.sha256(f"{league_id}:{player}".encode()).hexdigest()[:16]


def new_invite_code() -> str:
    """An invite code: 96 random bits (unguessable), URL-safe."""
    return secrets.token_urlsafe(12)


def _ranked_rows(entries: list[BoardEntry]) -> tuple[list[BoardEntry], list[int]]:
    """ENTRIES in Daily board order with their shared ranks among themselves (1, 2, 2, 4)."""
    ordered = sorted(entries, key=lambda entry: entry.position.order())
    return ordered, assign_ranks([entry.position.tie for entry in ordered], 0, None, 0)


class Leagues:
    def __init__(self, store: LeagueStore, boards: Boards, now: Callable[[], datetime] = clock.now):
        self.store = store
        self.boards = boards
        self.now = now

    def create(self, player: str, name: str) -> League:
        league = League(
            league_id=secrets.token_urlsafe(12),
            name=check_league_name(name),
            creator=player,
            code=new_invite_code(),
            created_at=iso(self.now()),
            members={player: iso(self.now())},
        )
        try:
            self.store.create_league(league, LEAGUES_PER_PLAYER_MAX)
        except TooManyLeagues as error:
            raise _too_many() from error
        return league

    def invitation(self, code: str) -> Invitation:
        """The league an invite code lets one join, as anyone may see it before joining."""
        league = self.store.league_by_code(code)
        if league is None:
            raise NotFound("No league has that invite code", "league_not_found")
        board_day = self.boards.board_date(None)
        rows_read = self.store.league_rows(list(league.members), Scope.daily(board_day.isoformat()))
        ordered, ranks = _ranked_rows(rows_read.entries)
        leader = rows(ordered[:1], ranks[:1], False)  # never a word: only the name and the score are shown
        return Invitation(
            name=league.name,
            creator_name=rows_read.names.get(league.creator) or default_display_name(league.creator),
            members=len(league.members),
            day=board_day,
            leader=leader[0] if leader else None,
        )

    def mine(self, player: str) -> list[League]:
        """The player's leagues, earliest joined first."""
        leagues = [league for league in self.store.player_leagues(player) if player in league.members]
        leagues.sort(key=lambda league: league.members[player])
        return leagues

    def join(self, player: str, code: str) -> League:
        """Join with an invite code; joining a league one is in already is a no-op."""
        for _ in range(3):
            league = self.store.league_by_code(code)
            if league is None:
                raise NotFound("No league has that invite code", "league_not_found")
            if player in league.members:
                return league
            try:
                self.store.join_league(
                    league, player, iso(self.now()), LEAGUE_MEMBERS_MAX, LEAGUES_PER_PLAYER_MAX
                )
            except LeagueFull as error:
                raise Conflict(f"A league has at most {LEAGUE_MEMBERS_MAX} members", "league_full") from error
            except TooManyLeagues as error:
                raise _too_many() from error
            except StaleLeague:
                continue
            league.members[player] = iso(self.now())
            return league
        raise Throttled("The league is busy; try again")

    def remove(self, caller: str, league_id: str, member: str) -> None:
        """The caller leaves (MEMBER is `me` or their own member id), or the creator removes
        MEMBER."""
        for _ in range(3):
            league = self._members_league(caller, league_id)
            if member in (MYSELF, member_id(league_id, caller)):
                player = caller
            else:
                if caller != league.creator:
                    raise Forbidden("Only the league's creator removes members", "not_league_creator")
                found = [p for p in league.members if member_id(league_id, p) == member]
                if not found:
                    raise NotFound("No such member of this league", "member_not_found")
                player = found[0]
            try:
                self.store.leave_league(league, player, caller)
                return
            except StaleLeague:
                continue
        raise Throttled("The league is busy; try again")

    def rotate_code(self, caller: str, league_id: str) -> League:
        """A new invite code: the old one stops letting anyone in."""
        league = self._members_league(caller, league_id)
        if caller != league.creator:
            raise Forbidden("Only the league's creator rotates its code", "not_league_creator")
        code = new_invite_code()
        try:
            self.store.rotate_code(league, code)
        except StaleLeague as error:
            raise Conflict("The league changed meanwhile; try again", "league_changed") from error
        league.code = code
        return league

    def board(self, caller: str, league_id: str, day: str | None) -> LeagueBoard:
        """The league's board for a Daily date (today by default): its members' official results
        with the Daily board's order, shared ranks, status and word hiding."""
        admission, league = self.store.admitted_league(caller, league_id)  # the route admits here
        refuse_unless_admitted(admission, self.now())
        if league is None or caller not in league.members:
            raise NotFound("No such league", "league_not_found")
        board_day = self.boards.board_date(day)
        scope = Scope.daily(board_day.isoformat())
        closed = self.boards.closed(scope, daily_closes_at(board_day))
        members = sorted(league.members, key=lambda p: league.members[p])
        rows_read = self.store.league_rows(members, scope)
        ordered, ranks = _ranked_rows(rows_read.entries)
        mine = [rank for entry, rank in zip(ordered, ranks, strict=True) if entry.player == caller]
        return LeagueBoard(
            league=league,
            day=board_day,
            closed=closed,
            rows=rows(ordered, ranks, closed),
            my_rank=mine[0] if mine else None,
            members=[
                Member(
                    member_id=member_id(league_id, p),
                    display_name=rows_read.names.get(p) or default_display_name(p),
                    creator=p == league.creator,
                    you=p == caller,
                )
                for p in members
            ],
        )

    def league(self, caller: str, league_id: str) -> League:
        """The league, as its member CALLER reads it (404 to anyone else)."""
        return self._members_league(caller, league_id)

    def _members_league(self, caller: str, league_id: str, consistent: bool = True) -> League:
        """The league, if the caller is a member; to anyone else it does not exist (404). A board
        reads it eventually consistently: a join or a leave shows on it within a second."""
        league = self.store.get_league(league_id, consistent)
        if league is None or caller not in league.members:
            raise NotFound("No such league", "league_not_found")
        return league


def _too_many() -> Throttled:
    return Throttled(f"A player is in at most {LEAGUES_PER_PLAYER_MAX} leagues", "too_many_leagues")
