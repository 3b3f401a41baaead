"""The newer moderation items on DynamoDB (SPEC §3e), beside shared/dynamo/moderation.py: reporters'
reasons, report quotas (a reporter's, and a guest client's under a daily salted hash of its address),
and what an appeal's `lift` undoes: the sanction marked lifted on the profile (its ban or rank ban
recomputed from those still holding) and a voided result ranked again.
"""

from shared.dynamo import keys
from shared.dynamo import moderation_keys as mod_keys
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.board_review import add_move
from shared.dynamo.client import Client, Item
from shared.dynamo.codec import official_result_of
from shared.dynamo.counters import count_official
from shared.dynamo.keys import rank_key
from shared.dynamo.tombstone import BANNED_UNTIL, RANK_BANNED_UNTIL, SANCTIONS, sanctions_of
from shared.dynamo.top import TopOfBoard
from shared.game.boards import BoardPosition
from shared.game.errors import Throttled
from shared.game.fair_play import UnrankedReason
from shared.game.moderation import CASE_KINDS, CaseKind, Sanction
from shared.game.rank_moves import RankMove
from shared.game.sanctions import lift
from shared.game.scope import Scope

_ATTEMPTS = 5
_BUSY = "The game is busy; try again shortly"
CLIENT_QUOTA_DAYS = 2  # a client's quota item outlives its Daily date by a day, then goes


def case_reasons(db: Client, case_id: str, limit: int) -> list[tuple[str, str]]:
    """(reporter, reason) of the case's reporters' marks, by reporter (a mark made before reasons
    were kept: an empty reason)."""
    items, _ = db.query_page(
        KeyConditionExpression="pk = :p AND begins_with(sk, :by)",
        ExpressionAttributeValues={":p": mod_keys.case_key(case_id)["pk"], ":by": {"S": mod_keys.BY}},
        Limit=limit,
    )
    return [
        (item["sk"]["S"].removeprefix(mod_keys.BY), item.get("reason", {}).get("S", "")) for item in items
    ]


def queue_figures(db: Client) -> dict[CaseKind, tuple[int, str | None]]:
    """Each kind's open cases, counted from the queue's partitions (their keys only, oldest
    first: a shard's first key is its oldest case), and the oldest's opening time."""
    figures: dict[CaseKind, tuple[int, str | None]] = {}
    for kind in CASE_KINDS:
        count, oldest = 0, []
        for number in range(mod_keys.CASE_QUEUE_SHARDS):
            items = list(
                db.query(
                    KeyConditionExpression="pk = :p",
                    ExpressionAttributeValues={":p": {"S": mod_keys.case_queue_partition(kind, number)}},
                    ProjectionExpression="sk",
                )
            )
            count += len(items)
            oldest += [items[0]["sk"]["S"].rpartition("#")[0]] if items else []
        figures[kind] = (count, min(oldest) if oldest else None)
    return figures


def quota_item(key: Item, quota: int) -> Item:
    """A transaction's Update counting one report against the quota item KEY, at most QUOTA."""
    return {
        "Key": key,
        "UpdateExpression": "ADD reports :one",
        "ConditionExpression": "attribute_not_exists(reports) OR reports < :quota",
        "ExpressionAttributeValues": {":one": {"N": "1"}, ":quota": {"N": str(quota)}},
    }


def client_quota(client: str, day: str, quota: int, now: int) -> Item:
    """A guest client's quota for DAY (CLIENT: the daily salted hash, never the address), gone with
    the table's TTL CLIENT_QUOTA_DAYS later."""
    update = quota_item(mod_keys.client_quota_key(client, day), quota)
    update["UpdateExpression"] += " SET expires_at = :expires"
    update["ExpressionAttributeValues"][":expires"] = {"N": str(now + CLIENT_QUOTA_DAYS * 86400)}
    return update


def lift_sanction(db: Client, player: str, case_id: str, lifted_at: str) -> Sanction | None:
    """The sanction left by CASE_ID marked lifted on PLAYER's profile, and the ban and rank ban ends
    as `lift` recomputes them, in one write on condition the list is as read."""
    for _ in range(_ATTEMPTS):
        item = db.get(keys.profile_key(player), consistent=True) or {}
        held = sanctions_of(item)
        lifted = lift(held, case_id, lifted_at)
        if lifted is None:  # none, or lifted already
            return next((s for s in held if s.case_id == case_id), None)
        values: Item = {
            ":new": {"L": [{"S": s.model_dump_json()} for s in lifted.held]},
            ":old": item[SANCTIONS],
        }
        sets, removes = [f"{SANCTIONS} = :new"], []
        ends = (
            (BANNED_UNTIL, lifted.banned_until, ":ban"),
            (RANK_BANNED_UNTIL, lifted.rank_banned_until, ":rank"),
        )
        for name, end, value in ends:
            if end:
                sets.append(f"{name} = {value}")
                values[value] = {"S": end}
            else:
                removes.append(name)
        update = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
        condition = f"{SANCTIONS} = :old"
        write = {
            "Key": keys.profile_key(player),
            "UpdateExpression": update,
            "ConditionExpression": condition,
        }
        if not db.transact([{"Update": {**write, "ExpressionAttributeValues": values}}]):
            return lifted.sanction
    raise Throttled(_BUSY)


def restore_result(
    db: Client,
    top: TopOfBoard,
    board_keys: BoardKeys,
    player: str,
    scope: Scope,
    at: str,
    reason: UnrankedReason = "voided",
) -> bool:
    """PLAYER's result of SCOPE kept off for REASON (voided, or completed under a rank ban) back on
    its board: its row in the `board` index again (on condition it is still kept off so) with the
    move (decided AT) recorded with the board's review, then counted for ranks and brought into the
    top item as a completion's is (idempotent: a retried restore counts nothing twice)."""
    item = db.get(keys.official_key(player, scope), consistent=True)
    if item is None or item.get("unranked_reason", {}).get("S") != reason:
        return False
    restored = official_result_of(item).model_copy(update={"unranked_reason": None})
    codes = db.transact(
        [
            {
                "Update": {
                    "Key": keys.official_key(player, scope),
                    "UpdateExpression": "SET #data = :data, board_pk = :pk, board_sk = :sk "
                    "REMOVE unranked_reason, counted",
                    "ConditionExpression": "unranked_reason = :reason",
                    "ExpressionAttributeNames": {"#data": "data"},
                    "ExpressionAttributeValues": {
                        ":data": {"S": restored.model_dump_json()},
                        ":pk": {"S": board_keys.partition_of(scope, player)},
                        ":sk": {"S": rank_key(BoardPosition.of(restored))},
                        ":reason": {"S": reason},
                    },
                }
            },
            add_move(scope, RankMove(at, BoardPosition.of(restored).tie, restored.run_id, back=True)),
        ]
    )
    if codes:
        return False
    count_official(db, top, [restored])
    return True
