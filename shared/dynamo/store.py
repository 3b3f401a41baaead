"""The adapters on one DynamoDB table (shared/dynamo/table.py; items and keys in docs/data-model.md):
one class per port of shared/services (ports.py, board_ports.py, leagues.py, player_data.py,
moderation_store.py, reminders.py), built once by `dynamo_ports` and handed to the services as they are: no
class stands in front of them.

Every adapter talks through one Client (shared/dynamo/client.py: requests, transactions, batches,
error mapping), spells keys by shared/dynamo/keys.py and items by shared/dynamo/codec.py.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.dynamo.accepted_words import DynamoAcceptedWords
from shared.dynamo.audit_log import DynamoAuditLog
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.board_review import BoardReviews
from shared.dynamo.boards import BoardReads
from shared.dynamo.client import Client
from shared.dynamo.closing import ClosingChallenges
from shared.dynamo.completion import Results
from shared.dynamo.counters import Counters
from shared.dynamo.final_boards import DynamoFinalBoards
from shared.dynamo.idempotency import Requests
from shared.dynamo.leagues import DynamoLeagues
from shared.dynamo.moderation import DynamoCases
from shared.dynamo.names import Names
from shared.dynamo.player_data import DynamoPlayerData
from shared.dynamo.puzzle_reads import PuzzleReads
from shared.dynamo.recap import DynamoRecaps
from shared.dynamo.reminders import DynamoReminders
from shared.dynamo.runs import Runs
from shared.dynamo.sanctions import DynamoSanctions
from shared.dynamo.top import TopOfBoard


@dataclass(frozen=True)
class DynamoPorts:
    """The adapters, one per port: `runs` (RunStore), `closing` (ClosingStore), `results`
    (ResultStore), `boards` (BoardStore), `ranks` (RankStore), `names` (NameStore), `leagues`
    (LeagueStore), `player_data` (PlayerDataStore), `cases`, `audit_log`, `sanctions`,
    `accepted_words`, `board_reviews`, `final_boards` (the moderation ports), `recaps`
    (RecapStore), `requests` (RequestStore). The parts they share: `db`, their client;
    `board_keys`, where a board's rows live in the `board` index (the stage's `board_shards`);
    `top`, the top of each board (the boards, ranks, names and sanctions); `puzzles`, the stored
    puzzles (the runs, a player's data and the closing pass). No adapter takes another: only
    parts (tests/architecture/test_adapters.py)."""

    db: Client
    board_keys: BoardKeys
    top: TopOfBoard
    puzzles: PuzzleReads
    runs: Runs
    closing: ClosingChallenges
    results: Results
    boards: BoardReads
    ranks: Counters
    names: Names
    leagues: DynamoLeagues
    player_data: DynamoPlayerData
    cases: DynamoCases
    audit_log: DynamoAuditLog
    sanctions: DynamoSanctions
    accepted_words: DynamoAcceptedWords
    board_reviews: BoardReviews
    final_boards: DynamoFinalBoards
    recaps: DynamoRecaps
    requests: Requests
    reminders: DynamoReminders

    @property
    def table(self) -> str:
        return self.db.table

    @property
    def client(self) -> Any:
        """botocore's DynamoDB client under `db` (benchmarks count its requests)."""
        return self.db.boto


def dynamo_ports(
    table_name: str,
    client: Any = None,
    sleep: Callable[[float], None] = time.sleep,
    rank_cache_seconds: float = 0.0,
    *,
    board_shards: int,
) -> DynamoPorts:
    """The adapters of table TABLE_NAME, through CLIENT (botocore's; by default a new one), with
    boards spread over BOARD_SHARDS partitions of the `board` index (the stage's setting,
    shared/runtime/settings.py: the caller names it)."""
    db, board_keys = Client(table_name, client, sleep), BoardKeys(board_shards)
    puzzles, top = PuzzleReads(db), TopOfBoard(db, board_keys)
    runs, boards, names = Runs(db, puzzles), BoardReads(db, top, board_keys), Names(db, top)
    return DynamoPorts(
        db=db,
        board_keys=board_keys,
        top=top,
        puzzles=puzzles,
        runs=runs,
        closing=ClosingChallenges(db),
        results=Results(db, board_keys),
        boards=boards,
        ranks=Counters(db, top, rank_cache_seconds),
        names=names,
        leagues=DynamoLeagues(db),
        player_data=DynamoPlayerData(db, puzzles),
        cases=DynamoCases(db),
        audit_log=DynamoAuditLog(db),
        sanctions=DynamoSanctions(db, top, board_keys),
        accepted_words=DynamoAcceptedWords(db),
        board_reviews=BoardReviews(db),
        final_boards=DynamoFinalBoards(db),
        recaps=DynamoRecaps(db),
        requests=Requests(db),
        reminders=DynamoReminders(db),
    )
