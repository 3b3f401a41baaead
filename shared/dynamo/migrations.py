"""What the adapter still reads and retires of older layouts, each with the condition under which
it can be deleted. Nothing else in shared/dynamo/ knows an older layout.
"""

from shared.dynamo import keys
from shared.dynamo.client import Client, Item
from shared.game.runs import Run


def whole_run(item: Item) -> Run:
    """A run item written before the compact form (shared/dynamo/codec.py `encode_run`): the whole
    run as JSON in `data`, puzzle included.

    Delete when no RUN item lacks the `run` attribute (a Scan with `FilterExpression:
    attribute_not_exists(run) AND sk = RUN` finds none): practice and guest runs of that time
    have expired by their TTL, but official runs are kept, so those need rewriting first (read
    each and write it back through `Runs.save_run`)."""
    return Run.model_validate_json(item["data"]["S"])


def old_claim(name: str) -> str:
    """The claim key of a name claimed before claims were keyed by look-alike skeletons: the
    lowercased name. Such a claim is still checked when anyone claims a name and released when
    its holder renames (docs/data-model.md, "Migrations still read").

    Delete when no NAME item's key differs from the skeleton of its holder's current name: after
    every profile's name has been set again once (a Scan of PROFILE items calling
    `set_display_name(player, current_name)`), which claims each name's skeleton."""
    return name.lower()


# Stats in their own `STATS` item (before they moved onto the profile, docs/data-model.md) -------
#
# The move has finished: no request reads a `STATS` item. scripts/move_old_stats.py stays to
# check a table (it reports what is left to move, and moves it); delete it, `retire_old_stats`,
# `move_old_stats` and `keys.old_stats_key` once it reports nothing on every deployed table.


def retire_old_stats(player: str, version: int) -> Item:
    """The Delete of PLAYER's old `STATS` item in the transaction that writes their stats onto the
    profile, on condition it is still at VERSION (so a write by code of the layout before is not
    lost: the move is retried from a fresh read)."""
    return {
        "Delete": {
            "Key": keys.old_stats_key(player),
            "ConditionExpression": "version = :version",
            "ExpressionAttributeValues": {":version": {"N": str(version)}},
        }
    }


def move_old_stats(db: Client, player: str) -> str:
    """Move PLAYER's stats from an old `STATS` item onto the profile (scripts/move_old_stats.py): one
    transaction of the profile's Update (on condition it has no stats yet) and the Delete of
    the old item (on condition it is still as read). Returns what happened: "moved", "none"
    (no old item), "kept" (the profile has stats already: the old item was written after the
    move, by code of the layout before; left for a person to look at) or "changed" (a
    completion came between: run again)."""
    found = {
        item["sk"]["S"]: item
        for item in db.batch_get([keys.profile_key(player), keys.old_stats_key(player)], consistent=True)
    }
    old = found.get("STATS")
    if old is None:
        return "none"
    if "stats_version" in found.get("PROFILE", {}):
        return "kept"
    moved = {
        "Update": {
            "Key": keys.profile_key(player),
            "UpdateExpression": "SET stats = :stats, stats_version = :one",
            "ConditionExpression": "attribute_not_exists(stats_version)",
            "ExpressionAttributeValues": {":stats": old["data"], ":one": {"N": "1"}},
        }
    }
    return "changed" if db.transact([moved, retire_old_stats(player, int(old["version"]["N"]))]) else "moved"
