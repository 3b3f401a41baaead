"""A player's data on DynamoDB (the PlayerDataStore of shared/services/player_data.py).

What is held about a player: the items of their own partition (`PLAYER#<sub>`: profile, slots,
official results, challenge quotas and records, their leagues), their runs (found by the `runs`
index, and by their slots and official results), their name claim, the challenges they created
and the leagues they are in. docs/data-model.md lists the items.
"""

from shared.dynamo import keys, migrations
from shared.dynamo.boards import BoardReads
from shared.dynamo.client import Client, Item
from shared.dynamo.codec import display_name, official_result_of
from shared.dynamo.leagues import DynamoLeagues, league_of
from shared.dynamo.names import Names
from shared.dynamo.runs import Runs
from shared.game.boards import PlayerProfile
from shared.game.names import DELETED_PLAYER_NAME, name_skeleton
from shared.game.results import Challenge, OfficialResult
from shared.services.player_data import Holdings, SlotRecord


def _kind(item: Item) -> str:
    """An item of the player's partition by its kind: the sort key up to its first `#`."""
    return str(item["sk"]["S"]).split("#", 1)[0]


def _rest(item: Item) -> str:
    return str(item["sk"]["S"]).split("#", 1)[1]


def _made_id(item: Item) -> str:
    """The challenge id of a creator's copy of a challenge (`MADE#<created_at>#<challenge_id>`)."""
    return str(item["sk"]["S"]).rsplit("#", 1)[1]


# The kinds of the player's partition an export reads by their own rules (the rest go to `other`).
_KNOWN = {"PROFILE", "STATS", "SLOT", "OFFICIAL", "CHALLENGES", "MADE", "LEAGUES", "RENAME"}


class DynamoPlayerData:
    def __init__(self, db: Client, runs: Runs, boards: BoardReads, names: Names, leagues: DynamoLeagues):
        self.db = db
        self.runs = runs
        self.boards = boards
        self.names = names
        self.leagues = leagues

    def _own_items(self, player: str) -> list[Item]:
        """Every item of the player's partition, read consistently."""
        return list(
            self.db.query(
                KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": keys.player_partition(player)}},
                ConsistentRead=True,
            )
        )

    def _run_ids(self, player: str, own: list[Item]) -> list[str]:
        """The player's runs: the `runs` index (eventually consistent), and, read consistently,
        the latest run of each slot (so a run just started is found) and each official run."""
        indexed = [
            keys.run_id_of(item)
            for item in self.db.query(
                IndexName="runs",
                KeyConditionExpression="runs_pk = :p",
                ExpressionAttributeValues={":p": {"S": keys.runs_partition(player)}},
            )
        ]
        slots = [
            item[attribute]["S"]
            for item in own
            if _kind(item) == "SLOT"
            for attribute in ("run_id", "official_run_id")
            if attribute in item
        ]
        official = [official_result_of(item).run_id for item in own if _kind(item) == "OFFICIAL"]
        return list(dict.fromkeys(indexed + slots + official))

    def holdings(self, player: str) -> Holdings:
        """Three requests whatever the player holds (more only past 100 runs and leagues): the
        player's partition (profile, stats, slots, results, their copies of the challenges they
        made, their list of leagues), read consistently, the `runs` index, and one BatchGetItem of
        the runs, the name claim and the leagues (eventually consistent: a run written in the
        second before the export may show as it was a second earlier)."""
        own = self._own_items(player)
        items = {_kind(item): item for item in own if _kind(item) in ("PROFILE", "STATS", "LEAGUES")}
        profile_item = items.get("PROFILE", {})
        old = None if "stats_version" in profile_item else items.get("STATS")
        profile = PlayerProfile(display_name(profile_item), migrations.stats_of(profile_item, old)[0])
        claim = None
        wanted = [keys.run_key(run_id) for run_id in self._run_ids(player, own)]
        if profile.display_name and profile.display_name != DELETED_PLAYER_NAME:
            claim = name_skeleton(profile.display_name)
            wanted.append(keys.name_key(claim))
        league_ids = sorted(items.get("LEAGUES", {}).get("ids", {}).get("SS", []))
        wanted += [keys.league_key(league_id) for league_id in league_ids]
        found: dict[str, list[Item]] = {"RUN": [], "NAME": [], "LEAGUE": []}
        for item in self.db.batch_get(wanted):  # eventually consistent; by the partition key's kind
            found[str(item["pk"]["S"]).split("#", 1)[0]].append(item)
        runs = [self.runs.stored_run(keys.run_id_of(item), item).run for item in found["RUN"]]
        if not any(item.get("player", {}).get("S") == player for item in found["NAME"]):
            claim = None
        return Holdings(
            profile=profile,
            name_claim=claim,
            slots=[
                SlotRecord(
                    keys.scope_from_key(_rest(item)),
                    item.get("run_id", {}).get("S"),
                    item.get("official_run_id", {}).get("S"),
                )
                for item in own
                if _kind(item) == "SLOT"
            ],
            challenge_quotas={_rest(i): int(i["created"]["N"]) for i in own if _kind(i) == "CHALLENGES"},
            official_results=[official_result_of(i) for i in own if _kind(i) == "OFFICIAL"],
            runs=sorted(runs, key=lambda run: run.started_at),
            challenges=[Challenge.model_validate_json(i["data"]["S"]) for i in own if _kind(i) == "MADE"],
            leagues=sorted(
                (league_of(item) for item in found["LEAGUE"]), key=lambda league: league.league_id
            ),
            rename=next((i["name"]["S"] for i in own if _kind(i) == "RENAME"), None),
            other=[str(item["sk"]["S"]) for item in own if _kind(item) not in _KNOWN],
        )

    def delete_runs(self, player: str) -> None:
        self.db.batch_delete(
            [keys.run_key(run_id) for run_id in self._run_ids(player, self._own_items(player))]
        )

    def official_results(self, player: str) -> list[OfficialResult]:
        return [official_result_of(item) for item in self._own_items(player) if _kind(item) == "OFFICIAL"]

    def disown_challenges(self, player: str) -> None:
        for item in self._own_items(player):
            if _kind(item) != "MADE":
                continue
            challenge_key = keys.challenge_key(_made_id(item))
            found = self.db.get(challenge_key, consistent=True)
            if found is not None:
                challenge = Challenge.model_validate_json(found["data"]["S"])
                if challenge.creator == player:
                    challenge.creator = ""
                    self.db.call(
                        "put_item",
                        Item={**challenge_key, "data": {"S": challenge.model_dump_json()}},
                        ConditionExpression="#d = :read",
                        ExpressionAttributeNames={"#d": "data"},
                        ExpressionAttributeValues={":read": found["data"]},
                    )
            self.db.call("delete_item", Key=keys.key_of(item))

    def delete_own_items(self, player: str) -> None:
        own = [item for item in self._own_items(player) if _kind(item) != "OFFICIAL"]
        self.db.batch_delete([keys.key_of(item) for item in own if _kind(item) != "PROFILE"])
        # The profile last: until it goes, a run of this erasure again still finds the name gone.
        self.db.call("delete_item", Key=keys.profile_key(player))
