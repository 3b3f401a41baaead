"""A player's admission on their profile item (`PLAYER#<sub>` / `PROFILE`): the erasure's
tombstone `erased_at`, set by the first step of `DELETE /me` and kept for good, with "deleted
player" and nothing else once the erasure is done (docs/players.md); and `banned_until`, the end
of the latest ban on them (SPEC §3e), beside the list of their sanctions.

Every player route learns both from one read of the profile, made with the route's own first read
where it reads the profile (or, for a start, as the condition of its transaction), else as the
route's first request (Players.admit). Every write that would make an item naming the player
carries `not_erased` (a start: `admitted`) in its own transaction, so a request that read the
profile before the erasure began still writes nothing after it.
"""

from shared.dynamo import keys
from shared.dynamo.client import Client, Item
from shared.game.errors import AccountBanned, AccountErased
from shared.game.moderation import Sanction
from shared.game.names import DELETED_PLAYER_NAME
from shared.services.ports import Admission

ERASED_AT = "erased_at"
BANNED_UNTIL = "banned_until"
RANK_BANNED_UNTIL = "rank_banned_until"  # a rank ban's end: a completion before it is unranked
SANCTIONS = "sanctions"  # the list of the player's sanctions, as `GET /me` shows them
SANCTION_CASES = "sanction_cases"  # the cases whose sanction is in the list: each is added once
# On a run item: when its player's admission changed (an erasure began, a ban), so that its
# one-request answers, which read no profile, are refused and take the read that explains.
STOPPED_AT = "stopped_at"
HELD_NAME = "held_name"  # the name the profile showed, until the erasure released its claims
NOT_ERASED = f"attribute_not_exists({ERASED_AT})"
ADMISSION = f"{ERASED_AT}, {BANNED_UNTIL}"  # the projection of a profile read for it alone


def admission_of(profile: Item | None) -> Admission:
    """The admission a profile item (or its projection) holds; no profile: admitted."""
    item = profile or {}
    return Admission(ERASED_AT in item, item.get(BANNED_UNTIL, {}).get("S"))


def sanctions_of(profile: Item) -> list[Sanction]:
    """The sanctions a profile item (or its projection) lists, oldest first."""
    return [Sanction.model_validate_json(s["S"]) for s in profile.get(SANCTIONS, {}).get("L", [])]


def read_admission(db: Client, player: str) -> Admission:
    """PLAYER's admission: one consistent GetItem of their profile's two attributes."""
    found = db.call(
        "get_item", Key=keys.profile_key(player), ConsistentRead=True, ProjectionExpression=ADMISSION
    )
    return admission_of(found.get("Item"))


def admitted(player: str, at: str) -> Item:
    """A transaction's check that PLAYER's erasure has not begun and no ban holds them at AT."""
    return {
        "ConditionCheck": {
            "Key": keys.profile_key(player),
            "ConditionExpression": f"{NOT_ERASED} AND "
            f"(attribute_not_exists({BANNED_UNTIL}) OR {BANNED_UNTIL} <= :at)",
            "ExpressionAttributeValues": {":at": {"S": at}},
        }
    }


def refuse_unadmitted(db: Client, player: str, codes: list[str]) -> None:
    """When the transaction's last item, its `admitted` check, failed: AccountErased or
    AccountBanned, as one read of the profile explains."""
    if codes[-1:] != ["ConditionalCheckFailed"]:
        return
    admission = read_admission(db, player)
    if admission.erased:
        raise AccountErased()
    if admission.banned_until is not None:
        raise AccountBanned()


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
