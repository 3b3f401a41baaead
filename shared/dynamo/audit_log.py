"""The moderators' audit log on DynamoDB (the AuditLog of shared/services/moderation_store.py):
each entry written with its decision (shared/dynamo/moderation.py `decide`), once in the log's
partition (newest first) and once in the moderator's own."""

from shared.dynamo import keys
from shared.dynamo import moderation_keys as mod_keys
from shared.dynamo.client import Client, Item
from shared.game.moderation import LogEntry


class DynamoAuditLog:
    def __init__(self, db: Client):
        self.db = db

    def audit_log(self, after: str | None, limit: int) -> list[LogEntry]:
        query: Item = {
            "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": {"S": mod_keys.MOD_LOG}},
            "ScanIndexForward": False,
            "Limit": limit,
        }
        if after is not None:
            query["ExclusiveStartKey"] = keys.key(mod_keys.MOD_LOG, after)
        items, _ = self.db.query_page(**query)
        return [LogEntry.model_validate_json(item["data"]["S"]) for item in items]

    def moderator_log(self, moderator: str) -> list[LogEntry]:
        items = self.db.query(
            KeyConditionExpression="pk = :p AND begins_with(sk, :log)",
            ExpressionAttributeValues={
                ":p": {"S": keys.player_partition(moderator)},
                ":log": {"S": mod_keys.LOG_ENTRY},
            },
        )
        return [LogEntry.model_validate_json(item["data"]["S"]) for item in items]
