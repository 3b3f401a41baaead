"""What each function may do to the table and which secrets it may read: one table, read by the
stack (infra/functions.py) and by the template tests, so a change of the code's calls is one edit.

The lists are the calls each function's code makes (shared/dynamo.py and the boards' data layer),
in IAM's names. A transaction needs no action of its own: IAM checks each item of a
TransactWriteItems as its PutItem, UpdateItem, DeleteItem or ConditionCheckItem. `Query` is
granted on the named indexes only (nobody queries the base table). `write_leading_keys` limits the
writes to items whose partition key matches one of the patterns (`dynamodb:LeadingKeys`).
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TableAccess:
    reads: tuple[str, ...] = ()  # item reads on the base table
    writes: tuple[str, ...] = ()  # item writes on the base table
    indexes: tuple[str, ...] = ()  # GSIs it queries
    write_leading_keys: tuple[str, ...] = ()  # if set, writes only to these partition keys
    stream: bool = False  # reads the table's stream (event source)

    def actions(self) -> set[str]:
        return {f"dynamodb:{a}" for a in (*self.reads, *self.writes, *(["Query"] if self.indexes else []))}


@dataclass(frozen=True)
class Access:
    table: TableAccess | None = None
    secrets: tuple[str, ...] = field(default=())  # "seed" (puzzles), "cursor" (board cursor signing)


ACCESS: dict[str, Access] = {
    # Pure: rules and the shipped word list.
    "validate": Access(),
    # Runs and challenges: get/put runs, puzzles and challenges (GetItem, PutItem), the active-slot
    # and official-result check (BatchGetItem), the completion transaction (Put run, Delete active
    # slot, Put official result, Update rank counters), a challenge's board (Query board, counters
    # and names by BatchGetItem).
    "daily": Access(
        table=TableAccess(
            reads=("GetItem", "BatchGetItem"),
            writes=("PutItem", "UpdateItem", "DeleteItem"),
            indexes=("board",),
        ),
        secrets=("seed", "cursor"),
    ),
    # Boards, ranks, profile and history: reads anything of a board; writes only a player's
    # profile and display-name claims (PutItem, DeleteItem in the rename transaction).
    "leaderboard": Access(
        table=TableAccess(
            reads=("GetItem", "BatchGetItem"),
            writes=("PutItem", "DeleteItem"),
            indexes=("board", "history"),
            write_leading_keys=("PLAYER#*", "NAME#*"),
        ),
        secrets=("cursor",),
    ),
    # The midnight job: stores the new date's puzzle (get, then a conditional put).
    "reset": Access(
        table=TableAccess(reads=("GetItem",), writes=("PutItem",), write_leading_keys=("PUZZLE#*",)),
        secrets=("seed",),
    ),
    # The one-minute job: finds active runs (Query active), reads each, completes the expired ones
    # with the same completion transaction as daily, and closes boards.
    "expire": Access(
        table=TableAccess(
            reads=("GetItem", "BatchGetItem"),
            writes=("PutItem", "UpdateItem", "DeleteItem"),
            indexes=("active",),
        ),
    ),
    # The stream consumer: adds INSERTed official results to the rank counters (UpdateItem).
    "counters": Access(
        table=TableAccess(writes=("UpdateItem",), write_leading_keys=("COUNT#*",), stream=True),
    ),
}

# What DynamoEventSource grants for a stream (CDK's grantStreamRead): ListStreams on *, the rest on
# the stream's ARN.
STREAM_ACTIONS = {
    "dynamodb:ListStreams",
    "dynamodb:DescribeStream",
    "dynamodb:GetRecords",
    "dynamodb:GetShardIterator",
}
