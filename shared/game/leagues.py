"""A league's membership rules (SPEC §3c): the league as held, and who holds it when a member goes.
Storage and the services (shared/services/leagues.py) take both from here."""

from pydantic import BaseModel


class League(BaseModel):
    league_id: str
    name: str
    creator: str
    code: str
    created_at: str
    members: dict[str, str]  # player -> when they joined


def successor(league: League, leaving: str) -> str | None:
    """Who holds the league after LEAVING goes: the creator stays unless it is they who leave, then
    the member who joined first (None: nobody is left)."""
    if leaving != league.creator:
        return league.creator
    others = sorted((joined, player) for player, joined in league.members.items() if player != leaving)
    return others[0][1] if others else None
