"""Who may use the player routes (SPEC §3e, §6): the one rule, applied to an `Admission` a store
read with the route's first request (docs/players.md, "Admission")."""

from datetime import datetime

from shared.game.errors import AccountBanned, AccountErased
from shared.game.moderation import banned_at
from shared.services.ports import Admission


def refuse_unless_admitted(admission: Admission, now: datetime, banned_ok: bool = False) -> None:
    """AccountErased or AccountBanned when ADMISSION, read with a player route's first request,
    refuses its caller at NOW (the one rule every player route applies: docs/players.md)."""
    if admission.erased:
        raise AccountErased()
    if not banned_ok and banned_at(admission.banned_until, now):
        raise AccountBanned()
