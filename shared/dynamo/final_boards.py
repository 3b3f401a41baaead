"""Final boards and their corrections on DynamoDB (the FinalBoards of
shared/services/moderation_store.py): a board's final mark, and its public corrections, oldest first."""

from shared.dynamo import moderation_keys as mod_keys
from shared.dynamo.client import Client
from shared.game.moderation import Correction
from shared.game.scope import Scope


class DynamoFinalBoards:
    def __init__(self, db: Client):
        self.db = db

    def is_final(self, scope: Scope) -> bool:
        return self.db.get(mod_keys.final_key(scope), consistent=True) is not None

    def mark_final(self, scope: Scope) -> None:
        self.db.call("put_item", Item=mod_keys.final_key(scope))

    def add_correction(self, scope: Scope, correction: Correction) -> None:
        item = {**mod_keys.correction_key(scope, correction.decided_at, correction.case_id)}
        self.db.call("put_item", Item={**item, "data": {"S": correction.model_dump_json()}})

    def corrections(self, scope: Scope) -> list[Correction]:
        items = self.db.query(
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": mod_keys.correction_key(scope, "", "")["pk"]},
        )
        return [Correction.model_validate_json(item["data"]["S"]) for item in items]
