"""The stored puzzles, each read once (a stored puzzle never changes), and a run item decoded
with its puzzle: a part the runs (shared/dynamo/runs.py) and a player's data
(shared/dynamo/player_data.py) share, as the boards share the top of each board."""

import json

from shared.dynamo import keys, migrations
from shared.dynamo.client import Client, DataError, Item
from shared.dynamo.codec import apply_tail, decode_run
from shared.game.puzzles import Round
from shared.game.results import Challenge
from shared.game.scope import Scope
from shared.services.ports import StoredRun, Version


class PuzzleReads:
    def __init__(self, db: Client):
        self.db = db
        self.known: dict[Scope, list[Round]] = {}

    def get(self, scope: Scope) -> list[Round] | None:
        if scope not in self.known:
            item = self.db.get(keys.puzzle_key(scope))
            if item is None:
                return None
            if scope.kind == "challenge":
                self.known[scope] = Challenge.model_validate_json(item["data"]["S"]).puzzle
            else:
                self.known[scope] = [Round(*r) for r in json.loads(item["rounds"]["S"])]
        return self.known[scope]

    def stored_run(self, run_id: str, item: Item) -> StoredRun:
        """The run a run item holds, its tail's attempts applied, with its version."""
        version = Version(int(item["version"]["N"]))
        if "run" not in item:
            return StoredRun(migrations.whole_run(item), version)
        text = item["run"]["S"]
        body = json.loads(text)
        puzzle = self.get(Scope.of(body["d"], body.get("c")))
        if puzzle is None:
            raise DataError(f"The puzzle of run {run_id} is missing")
        run = decode_run(run_id, text, puzzle)
        apply_tail(run, [event["S"] for event in item.get("tl", {}).get("L", [])])
        return StoredRun(run, version)
