"""A board's review item on DynamoDB (`MODPENDING#<scope>`, shared/dynamo/moderation_keys.py): its
runs under review (`runs`) and its rank moves (shared/game/rank_moves.py), a string set `moves`.
The board pages and a player's history read it already, so history learns of the moves without a
request of its own. A void adds its move in the transaction that takes the result off the board;
a restore, in the one that puts it back (docs/data-model.md, "Moderation")."""

import json

from shared.dynamo import moderation_keys as mod_keys
from shared.dynamo.client import Client, ConditionFailed, Item
from shared.dynamo.codec import pending_of
from shared.dynamo.moderation_keys import pending_runs_key
from shared.game.rank_moves import RankMove
from shared.game.ranking import tie_digits, tie_of_digits
from shared.game.scope import Scope
from shared.services.moderation_store import BoardReview

MOVES = "moves"


def move_value(move: RankMove) -> str:
    """`<decided_at>#<v|l>#<tie digits>#<run id>`: one string per decision and run."""
    return f"{move.decided_at}#{'l' if move.back else 'v'}#{tie_digits(move.tie)}#{move.run_id}"


def move_of(value: str) -> RankMove:
    decided_at, kind, digits, run_id = value.split("#", 3)
    return RankMove(decided_at, tie_of_digits(digits), run_id, kind == "l")


def add_move(scope: Scope, move: RankMove) -> Item:
    """The transaction item that records MOVE with SCOPE's review."""
    return {
        "Update": {
            "Key": pending_runs_key(scope),
            "UpdateExpression": f"ADD {MOVES} :move",
            "ExpressionAttributeValues": {":move": {"SS": [move_value(move)]}},
        }
    }


class BoardReviews:
    """Each board's review (the BoardReviewStore): its review item, and its find-time pass."""

    def __init__(self, db: Client):
        self.db = db

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        return pending_of(self.db.get(pending_runs_key(scope)))

    def review(self, scope: Scope) -> BoardReview:
        """SCOPE's runs under review and its rank moves: one read of its review item."""
        item = self.db.get(pending_runs_key(scope))
        moves = sorted(move_of(v) for v in (item or {}).get(MOVES, {}).get("SS", []))
        return BoardReview(pending_of(item), moves)

    def mark_pass(self, scope: Scope, quantiles: dict[int, int]) -> bool:
        try:
            self.db.call(
                "put_item",
                Item={**mod_keys.find_time_pass_key(scope), "quantiles": {"S": json.dumps(quantiles)}},
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ConditionFailed:
            return False
        return True

    def pass_done(self, scope: Scope) -> bool:
        return self.db.get(mod_keys.find_time_pass_key(scope), consistent=True) is not None

    def pass_quantiles(self, scope: Scope) -> dict[int, int] | None:
        item = self.db.get(mod_keys.find_time_pass_key(scope))
        if item is None:
            return None
        kept = json.loads(item.get("quantiles", {}).get("S", "{}"))  # a pass marked before: none
        return {int(number): ms for number, ms in kept.items()}
