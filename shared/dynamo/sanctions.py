"""A decision's effects on DynamoDB (SPEC §3e): a voided result leaves its board (the `board`
index, its rank counters, the board's top item) and stays in its player's stats and history; a
hidden name leaves the profile and its claim; a sanction joins the list on the
player's profile, and a ban moves its `banned_until` (shared/dynamo/tombstone.py).
shared/dynamo/moderation.py calls these; tests/contract/test_moderation_store.py checks them
against the in-memory fake.
"""

import contextlib
from typing import Protocol

from shared.dynamo import keys
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.board_review import add_move
from shared.dynamo.client import Client, ConditionFailed, Item
from shared.dynamo.codec import display_name, official_result_of
from shared.dynamo.keys import rank_key
from shared.dynamo.names import release_claim
from shared.dynamo.reports import lift_sanction, restore_result
from shared.dynamo.tombstone import BANNED_UNTIL, RANK_BANNED_UNTIL, SANCTION_CASES, SANCTIONS, sanctions_of
from shared.dynamo.top import TopOfBoard
from shared.game.boards import BoardPosition
from shared.game.errors import Throttled
from shared.game.fair_play import UnrankedReason
from shared.game.moderation import Sanction, ban_end
from shared.game.names import name_skeleton
from shared.game.rank_moves import RankMove
from shared.game.scope import Scope


class Reach(Protocol):
    """What a decision reaches through (DynamoSanctions)."""

    db: Client
    top: TopOfBoard


_ATTEMPTS = 5
_BUSY = "The game is busy; try again shortly"


def void_result(parts: Reach, player: str, scope: Scope, at: str) -> bool:
    """In one transaction, on condition the result is as read: the result marked `voided`
    (stats and history keep it), its board row gone from the `board` index, the move (decided AT)
    recorded with the board's review (shared/dynamo/rank_moves.py) and, if the stream consumer
    counted it already, its three rank counters taken back down. (Not yet counted, the consumer
    finds no board row and never counts it.) Then its row leaves the top item."""
    for _ in range(_ATTEMPTS):
        item = parts.db.get(keys.official_key(player, scope), consistent=True)
        if item is None:
            return False
        if "board_sk" not in item:
            return True  # voided already, or never ranked
        result = official_result_of(item)
        voided = result.model_copy(update={"unranked_reason": "voided"})
        counted = "counted" in item
        values: Item = {
            ":data": {"S": voided.model_dump_json()},
            ":reason": {"S": "voided"},
            ":position": {"S": rank_key(BoardPosition.of(result))},
        }
        items: list[Item] = [
            {
                "Update": {
                    "Key": keys.official_key(player, scope),
                    "UpdateExpression": "SET #data = :data, unranked_reason = :reason "
                    "REMOVE board_pk, board_sk",
                    "ConditionExpression": "board_sk = :position AND "
                    + ("attribute_exists(counted)" if counted else "attribute_not_exists(counted)"),
                    "ExpressionAttributeNames": {"#data": "data"},
                    "ExpressionAttributeValues": values,
                }
            },
            add_move(scope, RankMove(at, BoardPosition.of(result).tie, result.run_id)),
        ]
        if counted:
            tie = BoardPosition.of(result).tie
            for key, name in keys.counter_keys(scope, tie, 0):
                items.append(
                    {
                        "Update": {
                            "Key": key,
                            "UpdateExpression": "ADD #a :minus",
                            "ExpressionAttributeNames": {"#a": name},
                            "ExpressionAttributeValues": {":minus": {"N": "-1"}},
                        }
                    }
                )
        if not parts.db.transact(items):
            parts.top.drop(scope, player)
            return True
    raise Throttled(_BUSY)


def hide_name(parts: Reach, player: str, skeleton: str) -> bool:
    """The profile's name removed and its claim released, in one transaction on condition the
    name is still the one read, and only if its skeleton is SKELETON (a player who renamed since
    keeps their new name: False). The rows are the service's to rename (shared/services/cases.py)."""
    for _ in range(_ATTEMPTS):
        name = display_name(parts.db.get(keys.profile_key(player), consistent=True))
        if name is None or name_skeleton(name) != skeleton:
            return False
        items: list[Item] = [
            {
                "Update": {
                    "Key": keys.profile_key(player),
                    "UpdateExpression": "REMOVE display_name",
                    "ConditionExpression": "display_name = :old",
                    "ExpressionAttributeValues": {":old": {"S": name}},
                }
            }
        ]
        claim = name_skeleton(name)
        holder = parts.db.get(keys.name_key(claim), consistent=True) or {}
        if holder.get("player", {}).get("S") == player:
            items.append(release_claim(claim, player))
        if not parts.db.transact(items):
            break
    else:
        raise Throttled(_BUSY)
    return True


def add_sanction(parts: Reach, player: str, sanction: Sanction) -> None:
    """Append SANCTION to the list on the player's profile, once per case (a retried decision
    adds nothing), in the same write as its effect there: a ban sets `banned_until` (what every
    player route reads to admit its caller, shared/dynamo/tombstone.py), a rank ban
    `rank_banned_until` (what a completion reads). The service then stops a banned player's runs
    in play (PlayerDataStore.stop_answers), whose one-request answers read no profile."""
    values: Item = {
        ":none": {"L": []},
        ":new": {"L": [{"S": sanction.model_dump_json()}]},
        ":id": {"SS": [sanction.case_id]},
        ":case": {"S": sanction.case_id},
    }
    update = f"SET {SANCTIONS} = list_append(if_not_exists({SANCTIONS}, :none), :new)"
    # The sanction's effect in the same write as its listing, so neither is ever without the
    # other: a ban is for good; a rank ban's end is the latest decision's.
    until = ban_end(sanction)
    if until is not None:
        update += f", {BANNED_UNTIL} = :until"
        values[":until"] = {"S": until}
    elif sanction.action == "rank_ban" and sanction.until:
        update += f", {RANK_BANNED_UNTIL} = :until"
        values[":until"] = {"S": sanction.until}
    condition = f"attribute_not_exists({SANCTION_CASES}) OR NOT contains({SANCTION_CASES}, :case)"
    with contextlib.suppress(ConditionFailed):  # listed before: a retried decision
        parts.db.call(
            "update_item",
            Key=keys.profile_key(player),
            UpdateExpression=f"{update} ADD {SANCTION_CASES} :id",
            ConditionExpression=condition,
            ExpressionAttributeValues=values,
        )


def sanctions(parts: Reach, player: str) -> list[Sanction]:
    item = (
        parts.db.call(
            "get_item", Key=keys.profile_key(player), ConsistentRead=True, ProjectionExpression=SANCTIONS
        ).get("Item")
        or {}
    )
    return sanctions_of(item)


class DynamoSanctions:
    """A decision's effects on a player (the SanctionStore): their sanctions, their name, their
    results on boards (the top of each board a part they reach through)."""

    def __init__(self, db: Client, top: TopOfBoard, board_keys: BoardKeys):
        self.db, self.top, self.board_keys = db, top, board_keys

    def add_sanction(self, player: str, sanction: Sanction) -> None:
        add_sanction(self, player, sanction)

    def sanctions(self, player: str) -> list[Sanction]:
        return sanctions(self, player)

    def void_result(self, player: str, scope: Scope, at: str) -> bool:
        return void_result(self, player, scope, at)

    def hide_name(self, player: str, skeleton: str) -> bool:
        return hide_name(self, player, skeleton)

    def lift_sanction(self, player: str, case_id: str, lifted_at: str) -> Sanction | None:
        return lift_sanction(self.db, player, case_id, lifted_at)

    def restore_result(self, player: str, scope: Scope, at: str, reason: UnrankedReason = "voided") -> bool:
        return restore_result(self.db, self.top, self.board_keys, player, scope, at, reason)
