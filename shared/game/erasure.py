"""The erasure's decisions (SPEC §5 `DELETE /me`, docs/players.md): from what storage read of a
player, the plan of what the erasure changes: the name claims released, the board rows renamed,
the leagues left and who inherits each, the challenges disowned. Storage carries the plan out in
the writes it names (shared/dynamo/player_data.py, tests/fakes/fake_player_data.py); the service
reads, plans and asks again when the plan's writes found something changed
(shared/services/player_data.py)."""

from collections.abc import Set
from dataclasses import dataclass, field

from shared.game.leagues import League, successor
from shared.game.names import DELETED_PLAYER_NAME
from shared.game.results import Challenge
from shared.game.scope import Scope


@dataclass(frozen=True)
class ErasureRead:
    """What storage read of PLAYER for the erasure, once the tombstone is on."""

    player: str
    claims: list[str]  # the name claims the name they showed may hold
    rows: list[tuple[Scope, str]]  # each board row of theirs (official result) and the name it shows
    leagues: list[League]  # the leagues on their list, as read (gone ones left out)
    challenges: list[Challenge]  # the challenges they made, as read (gone ones left out)
    # What the store needs back with the plan to carry it out (the versions its conditions hold):
    # the store's own business, never read outside it.
    stored: object = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Departure:
    """PLAYER leaves LEAGUE (as read); HEIR holds it after (None: it had no one else, it goes)."""

    league: League
    heir: str | None


@dataclass(frozen=True)
class ErasurePlan:
    release: list[str]  # the name claims released, the player's (but those someone else holds)
    rename: list[Scope]  # the rows to show DELETED_PLAYER_NAME
    boards: list[Scope]  # every board with a row of theirs: its top shows DELETED_PLAYER_NAME too
    leave: list[Departure]
    disown: list[str]  # the challenges (ids) that keep going with no creator


@dataclass(frozen=True)
class Carried:
    """How the plan's writes went: DONE, or refused because something changed since the read
    (read again and plan again), FOREIGN naming the claims found held by someone else."""

    done: bool
    foreign: frozenset[str] = frozenset()


def erasure_plan(read: ErasureRead, foreign: Set[str] = frozenset()) -> ErasurePlan:
    """The plan for READ: the claims it names but FOREIGN ones (a look-alike someone else holds
    from before skeletons), the rows that do not show DELETED_PLAYER_NAME yet, every league the
    player is still a member of (as if they left: its successor inherits it), every challenge
    they are still the creator of."""
    player = read.player
    return ErasurePlan(
        release=[claim for claim in read.claims if claim not in foreign],
        rename=[scope for scope, name in read.rows if name != DELETED_PLAYER_NAME],
        boards=list(dict.fromkeys(scope for scope, _ in read.rows)),
        leave=[
            Departure(league, successor(league, player))
            for league in sorted(read.leagues, key=lambda league: league.league_id)
            if player in league.members
        ],
        disown=[c.challenge_id for c in read.challenges if c.creator == player],
    )
