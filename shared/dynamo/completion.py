"""Official results on DynamoDB (the ResultStore port): the completing transaction (the completed
run, its official result and the player's stats, written as the service decided them:
shared/services/ports.py `Completion`), and the reads of a player's results and history.

Nothing here is written by every completion: only the player's own items, the official result
(whose `board` index row lands in one of BOARD_SHARDS partitions) and the player's profile
(which keeps the player's stats). Rank counters and the top of each board follow from the
table's stream (shared/dynamo/counters.py, shared/dynamo/top.py).
"""

from datetime import date

from shared.dynamo import keys
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.client import Client, Item
from shared.dynamo.codec import official_item, official_result_of, stored_profile
from shared.dynamo.runs import save_run, versioned_put
from shared.dynamo.tombstone import admission_of
from shared.game.boards import HistoryPosition
from shared.game.results import OfficialResult
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.services.ports import Admission, Completion, OfficialTaken, StaleRun, StoredProfile, Version


def same_name(name: str | None) -> tuple[str, Item]:
    """The condition that a profile still shows NAME (None: no name set), and its values."""
    if name:
        return "display_name = :name", {":name": {"S": name}}
    return "attribute_not_exists(display_name)", {}


class Results:
    def __init__(self, db: Client, board_keys: BoardKeys):
        self.db = db
        self.board_keys = board_keys

    def profile_for_completion(self, player: str) -> StoredProfile:
        """One consistent GetItem of the player's profile."""
        return stored_profile(self.db.get(keys.profile_key(player), consistent=True))

    def complete_run(self, run: Run, version: Version, completion: Completion | None = None) -> None:
        """Write the completed run and, with COMPLETION, its official result and the player's
        stats, in one transaction; any other run is one conditional put (its slot needs no
        write)."""
        if completion is None:
            save_run(self.db, run, version)
            return
        codes = self.db.transact(
            [{"Put": versioned_put(run, version)}, *official_writes(completion, self.board_keys.shards)]
        )
        if not codes:
            return
        if codes[0] == "ConditionalCheckFailed":
            raise StaleRun(run.run_id)  # read again: the run may have completed meanwhile
        if codes[1] == "ConditionalCheckFailed":
            raise OfficialTaken(run.run_id)
        raise StaleRun(run.run_id)  # the player's profile (name or stats) changed since it was read

    def official_result(self, player: str, scope: Scope) -> OfficialResult | None:
        item = self.db.get(keys.official_key(player, scope))
        return official_result_of(item) if item else None

    def admitted_result(self, player: str, scope: Scope) -> tuple[Admission, OfficialResult | None]:
        """One BatchGetItem, eventually consistent: the profile (admission) and the result."""
        official = keys.official_key(player, scope)
        found = {i["sk"]["S"]: i for i in self.db.batch_get([keys.profile_key(player), official])}
        item = found.get(official["sk"]["S"])
        return admission_of(found.get("PROFILE")), official_result_of(item) if item else None

    def results_since(self, player: str, day: date) -> list[OfficialResult]:
        """Read consistently from the player's own partition: the Daily results are sorted by date
        there, the challenge results are few."""
        partition = {":p": {"S": keys.player_partition(player)}}
        daily, _ = self.db.query_page(
            KeyConditionExpression="pk = :p AND sk BETWEEN :from AND :to",
            ExpressionAttributeValues={
                **partition,
                ":from": keys.official_key(player, Scope.daily(day.isoformat()))["sk"],
                ":to": {"S": keys.official_prefix("daily") + "~"},
            },
            ConsistentRead=True,
        )
        challenges = list(
            self.db.query(
                KeyConditionExpression="pk = :p AND begins_with(sk, :c)",
                ExpressionAttributeValues={**partition, ":c": {"S": keys.official_prefix("challenge")}},
                ConsistentRead=True,
            )
        )
        results = [official_result_of(item) for item in daily + challenges]
        return [r for r in results if r.date >= day.isoformat()]

    def history(self, player: str, after: HistoryPosition | None, limit: int) -> list[OfficialResult]:
        """The player's official results, newest first, after AFTER."""
        condition = "history_pk = :p" + (" AND history_sk < :a" if after else "")
        values = {":p": {"S": keys.history_partition(player)}}
        if after:
            values[":a"] = {"S": keys.history_sort(after.completed_at, after.scope)}
        items, _ = self.db.query_page(
            IndexName="history",
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            ScanIndexForward=False,
            Limit=limit,
        )
        return [official_result_of(item) for item in items]


def official_writes(completion: Completion, shards: int) -> list[Item]:
    """The transaction items that record a completion (its board row in one of SHARDS), in this order:

    1. Put of the official result (with its board row and the player's display name as read), on
       condition that the player has none for the scope (a failure means OfficialTaken);
    2. one conditional write of the player's profile, on condition that it still shows the name
       read (a failure means a rename came between: read again and retry, StaleRun), so a rename
       never misses a row (Players.set_display_name renames the rows of live boards). For a
       Daily result it is the Update of the stats kept on the profile, on condition too that
       they are still as read (a failure means another completion of the same player changed
       them first: StaleRun); for a challenge, a ConditionCheck."""
    result, read = completion.result, completion.read
    name = read.profile.display_name
    items: list[Item] = [
        {
            "Put": {
                "Item": official_item(result, name, shards),
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
    ]
    name_condition, values = same_name(name)
    if completion.stats is None:
        check: Item = {"Key": keys.profile_key(result.player), "ConditionExpression": name_condition}
        if values:
            check["ExpressionAttributeValues"] = values
        return [*items, {"ConditionCheck": check}]
    version = read.version.stats
    values[":stats"] = {"S": completion.stats.model_dump_json()}
    values[":next"] = {"N": str(version + 1)}
    stats_condition = "attribute_not_exists(stats_version)"
    if version:
        stats_condition = "stats_version = :version"
        values[":version"] = {"N": str(version)}
    items.append(
        {
            "Update": {
                "Key": keys.profile_key(result.player),
                "UpdateExpression": "SET stats = :stats, stats_version = :next",
                "ConditionExpression": f"{name_condition} AND {stats_condition}",
                "ExpressionAttributeValues": values,
            }
        }
    )
    return items
