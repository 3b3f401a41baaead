"""Display names on DynamoDB: claims (unique by look-alike skeleton, shared/game/names.py), the
name on the profile, a rename's record for the stream consumer, the rows that show a name, and a
name's release when a player's data is erased.
"""

from shared.dynamo import keys, migrations
from shared.dynamo.client import Client, Item
from shared.dynamo.codec import display_name, rename_item
from shared.dynamo.tombstone import ERASED_AT, NOT_ERASED
from shared.dynamo.top import TopOfBoard
from shared.game.errors import AccountErased, Throttled
from shared.game.names import name_skeleton
from shared.game.scope import Scope
from shared.services.ports import NameTaken

_TRANSACTION_ITEMS = 100  # DynamoDB's limit on items per TransactWriteItems
_ATTEMPTS = 3  # reads of a profile a rename or a release makes before it is Throttled


def _claims(name: str) -> list[str]:
    """The claim keys NAME may hold: its skeleton's, and one from before skeletons."""
    return list(dict.fromkeys([name_skeleton(name), migrations.old_claim(name)]))


class Names:
    def __init__(self, db: Client, top: TopOfBoard):
        self.db = db
        self.top = top

    def _held(self, claim: str, player: str) -> bool:
        holder = self.db.get(keys.name_key(claim), consistent=True) or {}
        return bool(holder.get("player", {}).get("S") == player)

    def set_display_name(self, player: str, name: str) -> None:
        """Claim NAME (unique by its look-alike skeleton), release the old one and set the profile's
        name (an update: the profile keeps the stats too), in one transaction that holds only if
        the profile still shows the name read first (a concurrent rename by the same player makes
        it read again; a completion writing the stats meanwhile does not: it leaves the name)."""
        mine = {":me": {"S": player}}
        for _ in range(_ATTEMPTS):
            profile = self.db.get(keys.profile_key(player), consistent=True)
            if profile is not None and ERASED_AT in profile:
                raise AccountErased()
            old_name = display_name(profile)
            profile_update: Item = {
                "Key": keys.profile_key(player),
                "UpdateExpression": "SET display_name = :new",  # the name alone: the stats stay
                "ExpressionAttributeValues": {":new": {"S": name}},
                "ConditionExpression": f"attribute_not_exists(display_name) AND {NOT_ERASED}",
            }
            if old_name:
                profile_update["ConditionExpression"] = f"display_name = :old AND {NOT_ERASED}"
                profile_update["ExpressionAttributeValues"][":old"] = {"S": old_name}
            claim, *old_claims = _claims(name)
            items: list[Item] = [
                {
                    "Put": {
                        "Item": {**keys.name_key(claim), "player": {"S": player}},
                        "ConditionExpression": "attribute_not_exists(pk) OR player = :me",
                        "ExpressionAttributeValues": mine,
                    }
                },
                *(
                    {
                        "ConditionCheck": {
                            "Key": keys.name_key(other),
                            "ConditionExpression": "attribute_not_exists(pk) OR player = :me",
                            "ExpressionAttributeValues": mine,
                        }
                    }
                    for other in old_claims
                ),
            ]
            claimed = len(items)
            items.append({"Update": profile_update})
            # The rename's record for the boards: the table's stream hands it to the consumer,
            # which shows the profile's name on the live boards (shared/dynamo/codec.py).
            items.append({"Put": {"Item": rename_item(player, name)}})
            released = set(_claims(old_name)) - {claim, *old_claims} if old_name else set()
            # Of two look-alike names taken before skeletons, only one holds the skeleton.
            items += [release_claim(other, player) for other in sorted(released) if self._held(other, player)]
            codes = self.db.transact(items)
            if not codes:
                return
            if "ConditionalCheckFailed" in codes[:claimed]:
                raise NameTaken(name)
        raise Throttled("Your profile is busy; try again")

    def display_names(self, players: list[str]) -> dict[str, str]:
        """The chosen display name of each player who has set one."""
        wanted = [keys.profile_key(p) for p in dict.fromkeys(players)]
        return {
            keys.player_of(item): item["display_name"]["S"]
            for item in self.db.batch_get(wanted)
            if "display_name" in item
        }

    def rename_rows(self, player: str, scopes: list[Scope], name: str) -> None:
        """Transactions of up to 100 rows, each update on condition that the row exists: one that
        does not is left out and the rest written again. Then the row in each board's top item."""
        unique = list(dict.fromkeys(scopes))
        for start in range(0, len(unique), _TRANSACTION_ITEMS):
            pending = unique[start : start + _TRANSACTION_ITEMS]
            while pending:
                codes = self.db.transact([rename_row(player, scope, name) for scope in pending])
                pending = [
                    s for s, code in zip(pending, codes, strict=False) if code != "ConditionalCheckFailed"
                ]
        # After the rows: a consumer merging this player into a top reads the row's name after
        # its write, so either it sees the new name or this finds the player in the top.
        self.top.rename_all(unique, {player: name})


def release_claim(claim: str, player: str, gone_ok: bool = False) -> Item:
    """A name claim's deletion, if it is PLAYER's (or, GONE_OK, gone already)."""
    condition = "attribute_not_exists(pk) OR player = :me" if gone_ok else "player = :me"
    return {
        "Delete": {
            "Key": keys.name_key(claim),
            "ConditionExpression": condition,
            "ExpressionAttributeValues": {":me": {"S": player}},
        }
    }


def rename_row(player: str, scope: Scope, name: str) -> Item:
    """The update that shows NAME on PLAYER's row of SCOPE (their official result), if it exists."""
    return {
        "Update": {
            "Key": keys.official_key(player, scope),
            "UpdateExpression": "SET #name = :name",
            "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeNames": {"#name": "name"},
            "ExpressionAttributeValues": {":name": {"S": name}},
        }
    }
