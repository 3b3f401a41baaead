"""An erased player's tombstone: `erased_at` on their profile item (`PLAYER#<sub>` / `PROFILE`),
set by the first step of `DELETE /me` and kept for good, with "deleted player" and nothing else
once the erasure is done (docs/players.md). Every player route reads it with the profile before anything else
(Players.admit), and every write that would make an item naming the player carries `not_erased`
in its own transaction, so a request that read the profile before the erasure began still writes
nothing after it.
"""

from shared.dynamo import keys
from shared.dynamo.client import Item
from shared.game.errors import AccountErased
from shared.game.names import DELETED_PLAYER_NAME

ERASED_AT = "erased_at"
HELD_NAME = "held_name"  # the name the profile showed, until the erasure released its claims
NOT_ERASED = f"attribute_not_exists({ERASED_AT})"


def not_erased(player: str) -> Item:
    """A transaction's check that PLAYER's erasure has not begun (no profile at all passes)."""
    return {"ConditionCheck": {"Key": keys.profile_key(player), "ConditionExpression": NOT_ERASED}}


def refuse_if_erased(codes: list[str]) -> None:
    """AccountErased when the transaction's last item, its `not_erased` check, failed."""
    if codes[-1:] == ["ConditionalCheckFailed"]:
        raise AccountErased()


def tombstone_item(player: str, profile: Item | None) -> Item:
    """The profile an erasure leaves: the tombstone (its `erased_at` from PROFILE, when set) and
    "deleted player", nothing else."""
    erased_at = (profile or {}).get(ERASED_AT) or {"S": ""}
    return {**keys.profile_key(player), "display_name": {"S": DELETED_PLAYER_NAME}, ERASED_AT: erased_at}
