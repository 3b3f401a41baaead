"""A board's review item on DynamoDB (`MODPENDING#<scope>`, shared/dynamo/moderation_keys.py): its
runs under review (`runs`) and its rank moves (shared/game/rank_moves.py), a string set `moves`.
The board pages and a player's history read it already, so history learns of the moves without a
request of its own. A void adds its move in the transaction that takes the result off the board;
a restore, in the one that puts it back (docs/data-model.md, "Moderation")."""

from shared.dynamo.client import Client, Item
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
    """DynamoModeration's reads of a board's review item (shared/dynamo/moderation.py)."""

    db: Client

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        return pending_of(self.db.get(pending_runs_key(scope)))

    def review(self, scope: Scope) -> BoardReview:
        """SCOPE's runs under review and its rank moves: one read of its review item."""
        item = self.db.get(pending_runs_key(scope))
        moves = sorted(move_of(v) for v in (item or {}).get(MOVES, {}).get("SS", []))
        return BoardReview(pending_of(item), moves)
