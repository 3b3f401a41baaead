"""A closed day's recap on DynamoDB (shared/services/ports.py `RecapStore`): the summary in one
item, each round's played words in an item of its own partition (keys in shared/dynamo/keys.py;
docs/data-model.md, "The day's recap"). Both are zlib-compressed: items cost by size."""

import zlib
from contextlib import suppress

from shared.dynamo import keys
from shared.dynamo.client import Client, ConditionFailed, Item
from shared.game.recap import DayRecap, RoundTally
from shared.game.scope import Scope
from shared.services.ports import StoredRecap


def encode_words(words: dict[str, int]) -> bytes:
    """WORDS as `word count` lines, the most played first, compressed. A round's played words are
    among its dictionary answers (at most 11,766 for the pool's widest prompt: about 70 KB here)."""
    lines = sorted(words.items(), key=lambda item: (-item[1], item[0]))
    return zlib.compress("\n".join(f"{word} {count}" for word, count in lines).encode("ascii"), 9)


def decode_words(data: bytes) -> dict[str, int]:
    text = zlib.decompress(data).decode("ascii")
    return {word: int(count) for word, _, count in (line.partition(" ") for line in text.splitlines())}


class DynamoRecaps:
    """The recap items of the table."""

    def __init__(self, db: Client):
        self.db = db

    def put_recap(self, scope: Scope, recap: DayRecap, tallies: list[RoundTally]) -> None:
        """One PutItem a round (unconditional: the pass writes the same tallies if it runs again),
        then the summary: once the summary reads, every round's words do."""
        for tally in tallies:
            item: Item = {
                **keys.recap_round_key(scope, tally.round),
                "words": {"B": encode_words(tally.words)},
            }
            self.db.call("put_item", Item=item)
        summary = zlib.compress(recap.model_dump_json().encode(), 9)
        self.db.call("put_item", Item={**keys.recap_key(scope), "data": {"B": summary}})

    def recap(self, scope: Scope) -> StoredRecap | None:
        """One GetItem, eventually consistent (about 1.4 KB: half a read unit)."""
        item = self.db.get(keys.recap_key(scope))
        if item is None:
            return None
        recap = DayRecap.model_validate_json(zlib.decompress(item["data"]["B"]))
        return StoredRecap(recap, "board_final" in item)

    def mark_final(self, scope: Scope) -> None:
        """The summary's `board_final` attribute (an UpdateItem of the item that exists: a recap the
        pass has not written yet is left alone)."""
        with suppress(ConditionFailed):
            self.db.call(
                "update_item",
                Key=keys.recap_key(scope),
                UpdateExpression="SET board_final = :t",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues={":t": {"BOOL": True}},
            )

    def round_words(self, scope: Scope, rounds: list[int]) -> dict[int, dict[str, int]]:
        """One BatchGetItem, eventually consistent (written once, before the summary)."""
        found = {}
        for item in self.db.batch_get([keys.recap_round_key(scope, n) for n in rounds]):
            number = int(item["pk"]["S"].rpartition("#R")[2])
            found[number] = decode_words(item["words"]["B"])
        return found
