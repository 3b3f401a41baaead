"""The words moderators accepted, on DynamoDB (the AcceptedWords of
shared/services/moderation_store.py): one item each, kept by the first case that accepted it."""

from shared.dynamo import moderation_keys as mod_keys
from shared.dynamo.client import Client, ConditionFailed


class DynamoAcceptedWords:
    def __init__(self, db: Client):
        self.db = db

    def accept_word(self, word: str, case_id: str, accepted_at: str) -> None:
        try:
            self.db.call(
                "put_item",
                Item={
                    **mod_keys.accepted_word_key(word),
                    "case_id": {"S": case_id},
                    "accepted_at": {"S": accepted_at},
                },
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ConditionFailed:
            return

    def accepted_words(self) -> list[tuple[str, str]]:
        items = self.db.query(
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": mod_keys.MOD_WORDS}},
        )
        return [(item["sk"]["S"], item["case_id"]["S"]) for item in items]
