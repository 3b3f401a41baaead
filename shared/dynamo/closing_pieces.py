"""The closing pass on DynamoDB (shared/services/closing_pieces.py `PassStore`).

Items (docs/moderation.md, "The closing pass"):
- `PASS#<scope>` / `STATE`: per phase, the pieces expected (`e1`, `e2`) and stored (`d1`, `d2`);
  `finished`; the merged find-time stats (`stats`, JSON, written once with `e2`).
- `PASS#<scope>#<phase>#<shard>` / `<page>`: one piece's result (phase 1: its partial counts,
  zlib JSON; phase 2: the cases it opened), one partition per shard, so the pieces' writes spread.
- `PLAYER#<player>` / `EVIDENCE`: the player's find-time scores, an attribute `e<scope>` each,
  `<completed_at> <score>`, the last RUNNING_RUNS kept.
- `JOB#CLOSING` / `DAILIES`: the last Daily whose pass is done (its watermark).
"""

import json
from collections.abc import Iterator
from datetime import date

from shared.dynamo import keys
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.client import Client, ConditionFailed, Item
from shared.dynamo.codec import decode_run
from shared.dynamo.counters import standing_keys, standing_of
from shared.dynamo.keys import position_of
from shared.dynamo.puzzle_reads import PuzzleReads
from shared.dynamo.top_item import TopItem
from shared.game.find_time import RUNNING_RUNS
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.services.closing_pieces import COUNT, JUDGE, LISTED, PassState, Piece

_PRUNE_AT = RUNNING_RUNS + 10  # scores kept before the oldest are dropped (one write in ten)
_BATCH = 100
_QUERY_ROWS = 100  # rows a Query of a piece's page reads
DAILIES = keys.DAILIES_CLOSED
state_key, evidence_key = keys.pass_state_key, keys.evidence_key


def piece_key(piece: Piece) -> Item:
    shard = "all" if piece.shard == LISTED else str(piece.shard)
    return keys.key(keys.pass_piece_partition(piece.scope, piece.phase, shard), f"{piece.page:06d}")


class DynamoPasses:
    def __init__(self, db: Client, puzzles: PuzzleReads, board_keys: BoardKeys):
        self.db, self.puzzles, self.board_keys = db, puzzles, board_keys
        self.top = TopItem(db)

    def board_page(
        self, scope: Scope, shard: int, start: str | None, limit: int
    ) -> tuple[list[str], str | None]:
        """Up to LIMIT run ids of the shard, read in Query pages of _QUERY_ROWS (a row of the index
        is about 700 bytes: a page of a 2,000 would pass a Query's 1 MB, and its reply alone would
        be the piece's largest holding)."""
        run_ids: list[str] = []
        following = json.loads(start) if start else None
        while len(run_ids) < limit:
            query: Item = {
                "IndexName": "board",
                "KeyConditionExpression": "board_pk = :p",
                "ExpressionAttributeValues": {":p": {"S": self.board_keys.partition(scope, shard)}},
                "ProjectionExpression": "board_sk",
                "Limit": min(_QUERY_ROWS, limit - len(run_ids)),
            }
            if following:
                query["ExclusiveStartKey"] = following
            items, following = self.db.query_page(**query)
            run_ids += [position_of(item["board_sk"]["S"]).run_id for item in items]
            if not following:
                break
        return run_ids, json.dumps(following, sort_keys=True) if following else None

    def listed_board(self, scope: Scope, limit: int) -> list[str] | None:
        """The top item's rows when the rank counters say they are the whole board: one GetItem
        and one BatchGetItem of the counters' two band items."""
        players = standing_of(self.db.batch_get(standing_keys(scope, None)), None).players
        if players >= limit:
            return None
        rows, _ = self.top.read(scope, consistent=True, words=False)
        if len(rows) != players:
            return None
        return [row.position.run_id for row in rows]

    def read_runs(self, scope: Scope, run_ids: list[str]) -> Iterator[Run]:
        """The runs in BatchGetItems of 100 (eventually consistent: they completed before the board
        closed), decoded against the scope's puzzle (read once)."""
        puzzle = self.puzzles.get(scope) or []
        for start in range(0, len(run_ids), _BATCH):
            chunk = [keys.run_key(run_id) for run_id in run_ids[start : start + _BATCH]]
            for item in self.db.batch_get(chunk):
                if "run" in item:
                    yield decode_run(keys.run_id_of(item), item["run"]["S"], puzzle)

    def start_pass(self, scope: Scope, pieces: int) -> bool:
        try:
            self.db.call(
                "put_item",
                Item={**state_key(scope), "e1": {"N": str(pieces)}, "d1": {"N": "0"}},
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ConditionFailed:
            return False
        return True

    def pass_state(self, scope: Scope, consistent: bool = True) -> PassState | None:
        item = self.db.get(state_key(scope), consistent=consistent)
        if item is None:
            return None
        expected = {phase: int(item[f"e{phase}"]["N"]) for phase in (COUNT, JUDGE) if f"e{phase}" in item}
        done = {phase: int(item[f"d{phase}"]["N"]) for phase in (COUNT, JUDGE) if f"d{phase}" in item}
        return PassState(expected, done, "finished" in item)

    def put_piece(self, piece: Piece, result: bytes, successor: bool) -> PassState:
        """One transaction: the result (on condition it is new) and the count (and the successor
        expected). A result stored already is replaced by a plain PutItem, counted nothing."""
        item = {**piece_key(piece), "data": {"B": result}}
        phase = piece.phase
        codes = self.db.transact(
            [
                {"Put": {"Item": item, "ConditionExpression": "attribute_not_exists(pk)"}},
                {
                    "Update": {
                        "Key": state_key(piece.scope),
                        "UpdateExpression": f"ADD d{phase} :one, e{phase} :more",
                        "ConditionExpression": "attribute_exists(pk)",
                        "ExpressionAttributeValues": {
                            ":one": {"N": "1"},
                            ":more": {"N": str(int(successor))},
                        },
                    }
                },
            ]
        )
        if codes:
            if codes[1] == "ConditionalCheckFailed":
                raise RuntimeError(f"{piece.scope.id}: a piece of a pass not started")
            self.db.call("put_item", Item=item)
        state = self.pass_state(piece.scope)
        assert state is not None
        return state

    def piece_results(self, scope: Scope) -> Iterator[bytes]:
        for shard in ["all", *map(str, range(self.board_keys.shards))]:
            for item in self.db.query(
                KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": keys.pass_piece_partition(scope, COUNT, shard)}},
                ConsistentRead=True,
            ):
                yield item["data"]["B"]

    def begin_judging(self, scope: Scope, pieces: int, stats: str) -> None:
        """`e2` and the stats, once: a second merge finds them set and changes nothing."""
        self.db.call(
            "update_item",
            Key=state_key(scope),
            UpdateExpression="SET e2 = if_not_exists(e2, :pieces), d2 = if_not_exists(d2, :zero), "
            "stats = if_not_exists(stats, :stats)",
            ExpressionAttributeValues={
                ":pieces": {"N": str(pieces)},
                ":zero": {"N": "0"},
                ":stats": {"S": stats},
            },
        )

    def scope_stats(self, scope: Scope) -> str | None:
        item = self.db.get(state_key(scope), consistent=True) or {}
        return item["stats"]["S"] if "stats" in item else None

    def finish_pass(self, scope: Scope) -> None:
        self.db.call(
            "update_item",
            Key=state_key(scope),
            UpdateExpression="SET finished = :yes",
            ExpressionAttributeValues={":yes": {"BOOL": True}},
        )

    def keep_score(
        self, player: str, scope: Scope, completed_at: str, score: float
    ) -> list[tuple[str, float]]:
        """One UpdateItem returning the player's scores; past _PRUNE_AT of them, one more dropping
        the oldest down to RUNNING_RUNS."""
        name = f"e{scope.id}"
        reply = self.db.call(
            "update_item",
            Key=evidence_key(player),
            UpdateExpression="SET #s = :v",
            ExpressionAttributeNames={"#s": name},
            ExpressionAttributeValues={":v": {"S": f"{completed_at} {score:.4f}"}},
            ReturnValues="ALL_NEW",
        )
        kept = sorted(
            (value["S"].split(" ")[0], attribute[1:], float(value["S"].split(" ")[1]))
            for attribute, value in reply["Attributes"].items()
            if attribute.startswith("e")
        )
        if len(kept) > _PRUNE_AT:
            dropped = kept[: len(kept) - RUNNING_RUNS]
            names = {f"#d{i}": f"e{scope_id}" for i, (_, scope_id, _) in enumerate(dropped)}
            self.db.call(
                "update_item",
                Key=evidence_key(player),
                UpdateExpression="REMOVE " + ", ".join(names),
                ExpressionAttributeNames=names,
            )
        return [(scope_id, value) for _, scope_id, value in kept[-RUNNING_RUNS:]]

    def dailies_done_through(self) -> date | None:
        item = self.db.get(keys.key(*DAILIES), consistent=True)
        return date.fromisoformat(item["through"]["S"]) if item else None

    def mark_dailies_done(self, day: date) -> None:
        """Forward only (a step that read an older mark never moves it back)."""
        try:
            self.db.call(
                "put_item",
                Item={**keys.key(*DAILIES), "through": {"S": day.isoformat()}},
                ConditionExpression="attribute_not_exists(pk) OR through < :day",
                ExpressionAttributeValues={":day": {"S": day.isoformat()}},
            )
        except ConditionFailed:
            return
