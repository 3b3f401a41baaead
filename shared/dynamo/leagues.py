"""Leagues on DynamoDB (the LeagueStore of shared/services/leagues.py). Items and keys are in
docs/data-model.md.

A league is one item holding its members (at most 50, so it stays a few KB); its invite code is
an item of its own, so a join finds the league by one GetItem; each player's leagues are one item
of the player's own (a set of at most 10 ids). A join, a leave, a removal, a creation and a code
rotation are each one transaction whose conditions hold the limits, so two joins racing for the
last seat cannot both win. A league board reads its members' own official results by key, in
one BatchGetItem of at most 50 keys, and the profiles of members without a result in a second:
nothing is written for leagues when a run completes.
"""

from shared.dynamo import keys
from shared.dynamo.client import Client, Item
from shared.dynamo.codec import entry, ranked
from shared.dynamo.keys import code_key, league_key, leagues_key
from shared.dynamo.tombstone import admission_of, not_erased, refuse_if_erased
from shared.game.boards import BoardEntry
from shared.game.leagues import League, successor
from shared.game.scope import Scope
from shared.services.leagues import LeagueFull, LeagueRows, StaleLeague, TooManyLeagues
from shared.services.ports import Admission


def _league_item(league: League) -> Item:
    return {
        **league_key(league.league_id),
        "name": {"S": league.name},
        "creator": {"S": league.creator},
        "code": {"S": league.code},
        "created_at": {"S": league.created_at},
        "members": {"M": {player: {"S": joined} for player, joined in league.members.items()}},
    }


def league_of(item: Item) -> League:
    """The league a league item holds."""
    return League(
        league_id=item["pk"]["S"].removeprefix(keys.LEAGUE),
        name=item["name"]["S"],
        creator=item["creator"]["S"],
        code=item["code"]["S"],
        created_at=item["created_at"]["S"],
        members={player: joined["S"] for player, joined in item["members"]["M"].items()},
    )


class DynamoLeagues:
    def __init__(self, db: Client):
        self.db = db

    def create_league(self, league: League, leagues_max: int) -> None:
        codes = self.db.transact(
            [
                {"Put": {"Item": _league_item(league), "ConditionExpression": "attribute_not_exists(pk)"}},
                {
                    "Put": {
                        "Item": {**code_key(league.code), "league_id": {"S": league.league_id}},
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                },
                _count_in(league.league_id, league.creator, leagues_max),
                not_erased(league.creator),
            ]
        )
        refuse_if_erased(codes)
        if codes[2:3] == ["ConditionalCheckFailed"]:
            raise TooManyLeagues(league.creator)
        if codes:
            raise StaleLeague(league.league_id)  # an id or code drawn twice: 96 random bits each

    def get_league(self, league_id: str, consistent: bool = True) -> League | None:
        item = self.db.get(league_key(league_id), consistent=consistent)
        return league_of(item) if item else None

    def admitted_league(self, caller: str, league_id: str) -> tuple[Admission, League | None]:
        """One BatchGetItem, eventually consistent as a board's reads are (a read-only route: its
        admission may trail a tombstone or a ban by under a second, docs/players.md): the
        caller's profile (their admission) and the league."""
        found = {
            i["sk"]["S"]: i for i in self.db.batch_get([league_key(league_id), keys.profile_key(caller)])
        }
        item = found.get(league_key(league_id)["sk"]["S"])
        return admission_of(found.get("PROFILE")), league_of(item) if item else None

    def league_by_code(self, code: str) -> League | None:
        item = self.db.get(code_key(code), consistent=True)
        return self.get_league(item["league_id"]["S"]) if item else None

    def join_league(
        self, league: League, player: str, joined_at: str, members_max: int, leagues_max: int
    ) -> None:
        """One transaction: the member's seat, on condition the code is unchanged and the league
        has a free seat, and the league in the player's own list, on condition it has room."""
        codes = self.db.transact(
            [
                {
                    "Update": {
                        "Key": league_key(league.league_id),
                        "UpdateExpression": "SET members.#p = if_not_exists(members.#p, :t)",
                        "ConditionExpression": (
                            "code = :code AND (attribute_exists(members.#p) OR size(members) < :max)"
                        ),
                        "ExpressionAttributeNames": {"#p": player},
                        "ExpressionAttributeValues": {
                            ":t": {"S": joined_at},
                            ":code": {"S": league.code},
                            ":max": {"N": str(members_max)},
                        },
                    }
                },
                _count_in(league.league_id, player, leagues_max),
                not_erased(player),
            ]
        )
        if not codes:
            return
        refuse_if_erased(codes)
        if codes[0] == "ConditionalCheckFailed":
            now = self.get_league(league.league_id)
            if now is None or now.code != league.code:
                raise StaleLeague(league.league_id)
            raise LeagueFull(league.league_id)
        raise TooManyLeagues(player)

    def leave_league(self, league: League, player: str, remover: str) -> None:
        mine = {
            "Update": {
                "Key": leagues_key(player),
                "UpdateExpression": "DELETE ids :ids",
                "ExpressionAttributeValues": {":ids": {"SS": [league.league_id]}},
            }
        }
        items = [*leave_items(league, player, successor(league, player)), mine]
        if remover not in (player, league.creator) or self.db.transact(items):
            raise StaleLeague(league.league_id)

    def rotate_code(self, league: League, code: str) -> None:
        codes = self.db.transact(
            [
                {
                    "Put": {
                        "Item": {**code_key(code), "league_id": {"S": league.league_id}},
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                },
                {"Delete": {"Key": code_key(league.code)}},
                {
                    "Update": {
                        "Key": league_key(league.league_id),
                        "UpdateExpression": "SET code = :new",
                        "ConditionExpression": "code = :old AND creator = :creator",
                        "ExpressionAttributeValues": {
                            ":new": {"S": code},
                            ":old": {"S": league.code},
                            ":creator": {"S": league.creator},
                        },
                    }
                },
            ]
        )
        if codes:
            raise StaleLeague(league.league_id)

    def player_leagues(self, player: str) -> list[League]:
        item = self.db.get(leagues_key(player), consistent=True) or {}
        ids = sorted(item.get("ids", {}).get("SS", []))
        return [
            league_of(found) for found in self.db.batch_get([league_key(i) for i in ids], consistent=True)
        ]

    def league_rows(self, players: list[str], scope: Scope) -> LeagueRows:
        """Each member's official result for SCOPE (one BatchGetItem of at most 50 keys), whose
        row carries the member's name (none: none chosen); the profiles of only the members
        without a result, in a second."""
        entries: list[BoardEntry] = []
        names: dict[str, str] = {}
        found = set()
        for item in self.db.batch_get([keys.official_key(p, scope) for p in players]):
            found.add(keys.player_of(item))
            if "name" in item:
                names[keys.player_of(item)] = item["name"]["S"]
            if ranked(item):
                entries.append(entry(item))
        unnamed = [keys.profile_key(p) for p in players if p not in found]
        for item in self.db.batch_get(unnamed) if unnamed else []:
            if "display_name" in item:
                names[keys.player_of(item)] = item["display_name"]["S"]
        return LeagueRows(entries, names)


def _count_in(league_id: str, player: str, leagues_max: int) -> Item:
    """The update adding LEAGUE_ID to PLAYER's own list of leagues, on condition it has room (or
    holds it already)."""
    return {
        "Update": {
            "Key": leagues_key(player),
            "UpdateExpression": "ADD ids :ids",
            "ConditionExpression": "attribute_not_exists(ids) OR contains(ids, :id) OR size(ids) < :max",
            "ExpressionAttributeValues": {
                ":ids": {"SS": [league_id]},
                ":id": {"S": league_id},
                ":max": {"N": str(leagues_max)},
            },
        }
    }


def leave_items(league: League, player: str, heir: str | None) -> list[Item]:
    """The transaction items that take PLAYER out of LEAGUE, as read: the league's update (HEIR
    its creator), or, for its last member (no HEIR), the league's and its code's deletion. Their
    conditions fail if the league changed since it was read."""
    names = {"#p": player}
    if heir is None:  # the last member: the league goes
        return [
            {
                "Delete": {
                    "Key": league_key(league.league_id),
                    "ConditionExpression": "attribute_exists(members.#p) AND size(members) = :one",
                    "ExpressionAttributeNames": names,
                    "ExpressionAttributeValues": {":one": {"N": "1"}},
                }
            },
            {"Delete": {"Key": code_key(league.code)}},
        ]
    return [
        {
            "Update": {
                "Key": league_key(league.league_id),
                "UpdateExpression": "REMOVE members.#p SET creator = :heir",
                "ConditionExpression": "attribute_exists(members.#p) AND creator = :creator",
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": {":heir": {"S": heir}, ":creator": {"S": league.creator}},
            }
        }
    ]
