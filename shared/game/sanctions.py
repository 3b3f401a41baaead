"""A sanction lifted (SPEC §3e): what a player's sanctions become, and the ban ends they hold."""

from typing import NamedTuple

from shared.game.moderation import Sanction, ban_end


class Lifted(NamedTuple):
    sanction: Sanction  # the sanction, lifted
    held: list[Sanction]  # every sanction of the player's after it
    banned_until: str | None  # the latest end of a ban still holding (None: no ban holds)
    rank_banned_until: str | None  # the latest end of a rank ban still holding


def lift(held: list[Sanction], case_id: str, at: str) -> Lifted | None:
    """HELD with the sanction CASE_ID left lifted AT, and the ban ends of those still holding;
    None when CASE_ID left none, or it is lifted already."""
    found = next((s for s in held if s.case_id == case_id), None)
    if found is None or found.lifted_at is not None:
        return None
    lifted = found.model_copy(update={"lifted_at": at})
    after = [lifted if s.case_id == case_id else s for s in held]
    bans = [end for end in map(ban_end, after) if end]
    rank_bans = [s.until for s in after if s.until and s.action == "rank_ban" and s.lifted_at is None]
    return Lifted(lifted, after, max(bans, default=None), max(rank_bans, default=None))
