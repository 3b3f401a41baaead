"""A player's data on DynamoDB (the PlayerDataStore of shared/services/player_data.py), mixed into
`DynamoStore` (shared/dynamo/store.py).

What is held about a player: the items of their own partition (`PLAYER#<sub>`: profile, slots,
official results, challenge quotas and records, their leagues), their runs (found by the `runs`
index, and by their slots and official results), their name claim, the challenges they created
and the leagues they are in. docs/data-model.md lists the items.
"""

from typing import Any

from shared.dynamo.boards import scope_from_key
from shared.game.errors import Throttled
from shared.game.names import DELETED_PLAYER_NAME, name_skeleton
from shared.game.results import Challenge, OfficialResult
from shared.services.player_data import Holdings, SlotRecord

Item = dict[str, Any]


def _key(pk: str, sk: str) -> Item:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


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
    """The player-data side of DynamoStore (a mixin: DynamoStore gives the requests)."""

    table: str
    _call: Any
    _batch_get: Any
    _batch_delete: Any
    _transact: Any
    _query_items: Any
    get_run: Any
    get_challenge: Any
    player_profile: Any
    player_leagues: Any

    def _own_items(self, player: str) -> list[Item]:
        """Every item of the player's partition, read consistently."""
        return list(
            self._query_items(
                KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": f"PLAYER#{player}"}},
                ConsistentRead=True,
            )
        )

    def _run_ids(self, player: str, own: list[Item]) -> list[str]:
        """The player's runs: the `runs` index (eventually consistent), and, read consistently,
        the latest run of each slot (so a run just started is found) and each official run."""
        indexed = [
            item["pk"]["S"].removeprefix("RUN#")
            for item in self._query_items(
                IndexName="runs",
                KeyConditionExpression="runs_pk = :p",
                ExpressionAttributeValues={":p": {"S": f"RUNS#{player}"}},
            )
        ]
        slots = [
            item[attribute]["S"]
            for item in own
            if _kind(item) == "SLOT"
            for attribute in ("run_id", "official_run_id")
            if attribute in item
        ]
        official = [
            OfficialResult.model_validate_json(item["data"]["S"]).run_id
            for item in own
            if _kind(item) == "OFFICIAL"
        ]
        return list(dict.fromkeys(indexed + slots + official))

    def holdings(self, player: str) -> Holdings:
        own = self._own_items(player)
        profile = self.player_profile(player)
        claim = None
        if profile.display_name and profile.display_name != DELETED_PLAYER_NAME:
            key = name_skeleton(profile.display_name)
            held = self._call("get_item", Key=_key(f"NAME#{key}", "NAME"), ConsistentRead=True).get("Item")
            claim = key if held and held["player"]["S"] == player else None
        runs = [found.run for run_id in self._run_ids(player, own) if (found := self.get_run(run_id))]
        created = [_made_id(item) for item in own if _kind(item) == "MADE"]
        return Holdings(
            profile=profile,
            name_claim=claim,
            slots=[
                SlotRecord(
                    scope_from_key(_rest(item)),
                    item.get("run_id", {}).get("S"),
                    item.get("official_run_id", {}).get("S"),
                )
                for item in own
                if _kind(item) == "SLOT"
            ],
            challenge_quotas={_rest(i): int(i["created"]["N"]) for i in own if _kind(i) == "CHALLENGES"},
            official_results=[
                OfficialResult.model_validate_json(i["data"]["S"]) for i in own if _kind(i) == "OFFICIAL"
            ],
            runs=sorted(runs, key=lambda run: run.started_at),
            challenges=[c for challenge_id in created if (c := self.get_challenge(challenge_id))],
            leagues=self.player_leagues(player),
            rename=next((i["name"]["S"] for i in own if _kind(i) == "RENAME"), None),
            other=[str(item["sk"]["S"]) for item in own if _kind(item) not in _KNOWN],
        )

    def release_name(self, player: str) -> None:
        """The profile shows "deleted player" from now on (a completion racing this writes its row
        with that name), and the claims the player holds on the name go, in one transaction that
        holds only if the profile still shows the name read (else it is read again)."""
        profile_key = _key(f"PLAYER#{player}", "PROFILE")
        for _ in range(3):
            item = self._call("get_item", Key=profile_key, ConsistentRead=True).get("Item")
            name = item.get("display_name", {}).get("S") if item else None
            if item is None or name == DELETED_PLAYER_NAME:
                return
            update: Item = {
                "Key": profile_key,
                "UpdateExpression": "SET display_name = :deleted",
                "ConditionExpression": "display_name = :old"
                if name
                else "attribute_not_exists(display_name)",
                "ExpressionAttributeValues": {":deleted": {"S": DELETED_PLAYER_NAME}},
            }
            if name:
                update["ExpressionAttributeValues"][":old"] = {"S": name}
            items: list[Item] = [{"Update": update}]
            # The claim by skeleton, and one from before skeletons (by the lowercased name).
            for claim in sorted({name_skeleton(name), name.lower()} if name else set()):
                key = _key(f"NAME#{claim}", "NAME")
                holder = self._call("get_item", Key=key, ConsistentRead=True).get("Item", {})
                if holder.get("player", {}).get("S") == player:
                    items.append(
                        {
                            "Delete": {
                                "Key": key,
                                "ConditionExpression": "player = :me",
                                "ExpressionAttributeValues": {":me": {"S": player}},
                            }
                        }
                    )
            if not self._transact(items):
                return
        raise Throttled("Your profile is busy; try again")

    def delete_runs(self, player: str) -> None:
        keys = [_key(f"RUN#{run_id}", "RUN") for run_id in self._run_ids(player, self._own_items(player))]
        for start in range(0, len(keys), 25):
            self._batch_delete(keys[start : start + 25])

    def official_results(self, player: str) -> list[OfficialResult]:
        return [
            OfficialResult.model_validate_json(item["data"]["S"])
            for item in self._own_items(player)
            if _kind(item) == "OFFICIAL"
        ]

    def disown_challenges(self, player: str) -> None:
        for item in self._own_items(player):
            if _kind(item) != "MADE":
                continue
            challenge_key = _key(f"CHALLENGE#{_made_id(item)}", "CHALLENGE")
            found = self._call("get_item", Key=challenge_key, ConsistentRead=True).get("Item")
            if found is not None:
                challenge = Challenge.model_validate_json(found["data"]["S"])
                if challenge.creator == player:
                    challenge.creator = ""
                    self._call(
                        "put_item",
                        Item={**challenge_key, "data": {"S": challenge.model_dump_json()}},
                        ConditionExpression="#d = :read",
                        ExpressionAttributeNames={"#d": "data"},
                        ExpressionAttributeValues={":read": found["data"]},
                    )
            self._call("delete_item", Key=_key(item["pk"]["S"], item["sk"]["S"]))

    def delete_own_items(self, player: str) -> None:
        own = [item for item in self._own_items(player) if _kind(item) != "OFFICIAL"]
        keys = [_key(item["pk"]["S"], item["sk"]["S"]) for item in own if _kind(item) != "PROFILE"]
        for start in range(0, len(keys), 25):
            self._batch_delete(keys[start : start + 25])
        # The profile last: until it goes, a run of this erasure again still finds the name gone.
        self._call("delete_item", Key=_key(f"PLAYER#{player}", "PROFILE"))
