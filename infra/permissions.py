"""What each function may do to the table and which secrets it may read: one table, read by the
stack (infra/functions.py) and by the template tests, so a change of the code's calls is one edit.

The lists are the calls each function's code makes, in IAM's names, through the parts of
shared/dynamo/ (runs.py: runs, slots, puzzles, challenges, the expiry watermark; completion.py:
official results with the player's stats kept on the profile; names.py: claims and renames of live
board rows; counters.py and top.py: rank counters and top items kept by the stream consumer). A
transaction needs no action of its own: IAM checks each item of a TransactWriteItems as its
PutItem, UpdateItem, DeleteItem or ConditionCheckItem. `Query` is granted on the named
indexes, and on the base table only where `own_partition_queries` says so, limited to those partition keys.
`write_leading_keys` limits the writes to items whose partition key matches one of the patterns
(`dynamodb:LeadingKeys`). tests/infra/test_permissions_code.py checks these names against the
operations the data layer really sends; tests/infra/test_permissions_routes.py runs each
function's routes and checks every request, partition keys included, against its own entry.

To grant a function more (a new route's writes, another service's action), extend its entry here
and, for a service other than DynamoDB and Secrets Manager, add its statement where infra/stack.py
creates the resource it names (the user pool exists only after the functions).
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TableAccess:
    reads: tuple[str, ...] = ()  # item reads on the base table
    writes: tuple[str, ...] = ()  # item writes on the base table (transaction items included)
    indexes: tuple[str, ...] = ()  # GSIs it queries
    write_leading_keys: tuple[str, ...] = ()  # if set, writes only to these partition keys
    own_partition_queries: tuple[str, ...] = ()  # base-table Query, only on these partition keys
    stream: bool = False  # reads the table's stream (event source)

    def actions(self) -> set[str]:
        queries = ["Query"] if self.indexes or self.own_partition_queries else []
        return {f"dynamodb:{a}" for a in (*self.reads, *self.writes, *queries)}


@dataclass(frozen=True)
class Access:
    table: TableAccess | None = None
    secrets: tuple[str, ...] = field(default=())  # "seed" (puzzles), "cursor" (board cursor signing)
    # Actions on the stack's own Cognito user pool (and no other), e.g. AdminDeleteUser.
    user_pool: tuple[str, ...] = field(default=())


# Moderation (shared/dynamo/moderation.py, reports.py, sanctions.py), by the moderation function
# alone: a report's transaction (UpdateItem of the case and the reporter's quota, and a guest
# client's (MODCLIENT#), PutItem of the reporter's mark, their report and a new case's queue
# item), a decision's (UpdateItem of the case, DeleteItem of its queue item, PutItem of the log
# entry and the moderator's copy), a sanction and its lift (UpdateItem, PLAYER#), an accepted word
# (PutItem), a voided result: UpdateItem of the official result (PLAYER#), of the board's review
# item (MODPENDING#: the rank move) and, once counted, of its three rank counters (COUNT#), then a
# conditional PutItem of the board's top item (TOP#, refilled from the `board` index); a hidden
# name (the profile, its claim NAME#, the player's board rows and tops); a ban stops the player's
# runs in play (RUN#); a lifted void puts the result back, records the move and counts it
# (PLAYER#, MODPENDING#, COUNT#, TOP#). Query of the queue, a case's reporters, the log, the
# accepted words and a guest reporter's partition. A decision about a final board's run appends a
# correction (PutItem, MODCORR#), which `GET .../corrections` queries.
MODERATION_WRITES = (
    "MODCASE#*", "MODQUEUE#*", "MODGUEST#*", "MODCLIENT#*", "MODPENDING#*", "MODLOG", "MODWORDS",
    "COUNT#*", "MODFINAL#*", "MODCORR#*",
)  # fmt: skip
# The audit log: only the moderation function's role may write it (SPEC §3e).
AUDIT_LOG = "MODLOG"
# The closing pass's pieces (shared/services/closing_pass.py), by its worker (CLOSING_ACCESS,
# below): per suspect a transaction of UpdateItem (the case, the board's pending runs) and PutItem
# (its queue item); the day's recap: PutItem of each round's played words and of the summary
# (RECAP#); the pass's marker (MODPASS#).
FIND_TIME_WRITES = ("MODCASE#*", "MODQUEUE#*", "MODPENDING#*", "MODPASS#*", "RECAP#*")
MODERATION_QUERIES = ("MODCASE#*", "MODQUEUE#*", "MODGUEST#*", "MODLOG", "MODWORDS", "MODCORR#*")

# The closing pass's worker (infra/closing.py; shared/services/closing_pass.py): Query of a board
# shard (`board` index) and of the pass's own partitions (PASS#); GetItem and BatchGetItem of
# runs, puzzles, a small board's top item and rank counters; a piece's transaction (PutItem of its
# result, UpdateItem of the pass: PASS#); the recap (RECAP#); each run's score (UpdateItem,
# PLAYER#); a case (MODCASE#, MODQUEUE#, MODPENDING#) and the pass's mark (MODPASS#).
CLOSING_ACCESS = TableAccess(
    reads=("GetItem", "BatchGetItem"),
    writes=("PutItem", "UpdateItem"),
    indexes=("board",),
    write_leading_keys=("PASS#*", "PLAYER#*", *FIND_TIME_WRITES),
    own_partition_queries=("PASS#*",),
)

ACCESS: dict[str, Access] = {
    # Pure: rules and the shipped word list.
    "validate": Access(),
    # The Daily, runs and challenges (shared/services/game.py; challenge boards: services/leaderboard.py).
    # GetItem: puzzle, challenge, run, slot, the expiry watermark (a board's status).
    # BatchGetItem: the player's profile (and an old STATS item) read before a completion; rank
    #   counters and display names for a challenge's board.
    # PutItem: a guest run, every versioned run save, a puzzle not yet stored; in transactions:
    #   a new player run, a challenge, the official result.
    # UpdateItem: the player's slot when a run starts, the per-day challenge quota, the stats on
    #   the player's profile when a Daily run completes (transactions).
    # DeleteItem: an old STATS item, when a completion moves its stats onto the profile.
    # ConditionCheckItem: a challenge completion holds only if the profile still shows the name read.
    # Query: `board` (a challenge's board page); the player's own partition (PLAYER#) for the
    #   challenges they made (a challenge's creation puts the creator's copy there: PutItem).
    #   A challenge's creation also puts its entry by close hour (CLOSING#, shared/dynamo/closing.py).
    #   A challenge's board found final records it (PutItem, MODFINAL#), as the Daily's does.
    # A creation with an Idempotency-Key (shared/dynamo/idempotency.py): a conditional PutItem of
    #   its record (IDEMPOTENCY#), GetItem of it when held, PutItem once done, DeleteItem if it failed.
    # Writes, only on RUN#, PUZZLE#, CHALLENGE#, PLAYER#, CLOSING# and MODFINAL# items: never the
    #   rank counters (COUNT#), a board's top item (TOP#) or a name claim (NAME#). IAM cannot tell
    #   the caller's own PLAYER# items from another's (the function's role is the same for all).
    "daily": Access(
        table=TableAccess(
            reads=("GetItem", "BatchGetItem"),
            writes=("PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem"),
            indexes=("board",),
            write_leading_keys=(
                "RUN#*",
                "PUZZLE#*",
                "CHALLENGE#*",
                "PLAYER#*",
                "CLOSING#*",
                "MODFINAL#*",
                "IDEMPOTENCY#*",
            ),
            # the player's own partition; a final challenge's corrections (MODCORR#)
            own_partition_queries=("PLAYER#*", "MODCORR#*"),
        ),
        secrets=("seed", "cursor"),
    ),
    # Boards, ranks, profile, stats and history (shared/services/leaderboard.py, shared/services/players.py).
    # GetItem: a player's board entry / official result, profile (an old STATS item while the
    #   profile has no stats), a name claim's holder,
    #   a challenge (when its board closes), the expiry watermark.
    # BatchGetItem: rank counters, display names.
    # GetItem of a closed day's recap; BatchGetItem of its rounds' played words (the caller's).
    # Query: `board` pages, `history` pages.
    # Writes, on PLAYER# and NAME# items (a rename, in one transaction): PutItem (name claim,
    #   the rename's record for the boards), DeleteItem (the released claim), ConditionCheckItem
    #   (a pre-skeleton claim), UpdateItem (the profile's name).
    # Leagues (shared/dynamo/leagues.py), on LEAGUE#, LEAGUECODE# and PLAYER# items: GetItem (a
    #   league, a code, the player's LEAGUES item), BatchGetItem (leagues; a league board's
    #   members' official results and profiles), transactions of PutItem (a league, a code),
    #   UpdateItem (members, the player's LEAGUES item, a rotated code) and DeleteItem (the last
    #   member's league, an old code).
    # A player's data (shared/dynamo/player_data.py): Query of `runs` (the player's runs) and of
    #   the player's own partition (PLAYER#, consistent); GetItem of their runs and challenges;
    #   the erasure's writes: BatchWriteItem deletes of RUN# and PLAYER# items, DeleteItem (the
    #   profile, a challenge record, a name claim), PutItem of a CHALLENGE# item (its creator
    #   taken off), UpdateItem of the name on every one of the player's board rows and PutItem of
    #   the boards' top items (TOP#) that show them (`rename_rows`, closed boards too); and
    #   AdminUserGlobalSignOut (the player's refresh tokens), then AdminDeleteUser, on the stack's
    #   user pool.
    # A league's creation with an Idempotency-Key: its record's writes and read, as daily's (IDEMPOTENCY#).
    "leaderboard": Access(
        table=TableAccess(
            reads=("GetItem", "BatchGetItem"),
            writes=("PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem", "BatchWriteItem"),
            indexes=("board", "history", "runs"),
            # A board read that finds a board final records it (PutItem, MODFINAL#).
            write_leading_keys=(
                "PLAYER#*",
                "NAME#*",
                "TOP#*",
                "LEAGUE#*",
                "LEAGUECODE#*",
                "RUN#*",
                "CHALLENGE#*",
                "IDEMPOTENCY#*",
                "MODFINAL#*",
                "REMIND#*",  # a reminder's subscription, by send minute (PUT/DELETE /me/reminder)
                "RECAP#*",  # a day's recap read as its board turns final: marked final (UpdateItem)
            ),
            own_partition_queries=("PLAYER#*", "MODCORR#*"),
        ),
        secrets=("cursor",),
        user_pool=("cognito-idp:AdminUserGlobalSignOut", "cognito-idp:AdminDeleteUser"),
    ),
    # Reports, the queue, decisions and their effects, the audit log, appeals (MODERATION_WRITES
    # above): GetItem and BatchGetItem of cases, profiles, official results, runs, counters and
    # names; Query of `board` (a top refilled), `runs` and the player's partition (their results,
    # for a hidden name's rows). Its secret: the cursor key, which salts a guest client's hash.
    "moderation": Access(
        table=TableAccess(
            reads=("GetItem", "BatchGetItem"),
            writes=("PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem", "BatchWriteItem"),
            indexes=("board", "history", "runs"),
            write_leading_keys=("PLAYER#*", "NAME#*", "TOP#*", "RUN#*", *MODERATION_WRITES),
            own_partition_queries=("PLAYER#*", "TOP#*", *MODERATION_QUERIES),
        ),
        secrets=("cursor",),
        # The roster (shared/runtime/roster.py): is the caller still in the moderators' group?
        user_pool=("cognito-idp:AdminListGroupsForUser",),
    ),
    # The midnight job only stores the new date's puzzle: GetItem, then a conditional PutItem.
    "reset": Access(
        table=TableAccess(reads=("GetItem",), writes=("PutItem",), write_leading_keys=("PUZZLE#*",)),
        secrets=("seed",),
    ),
    # The one-minute job (shared/services/game.py expire_due_runs): Query `due`; GetItem of each run (and
    # its puzzle or challenge), the watermark; BatchGetItem of the player's profile (and an old
    # STATS item); completes each run with the same transaction as daily: PutItem (run, official
    # result), UpdateItem (the stats on the profile), DeleteItem (an old STATS item moved),
    # ConditionCheckItem (profile name); PutItem of the watermark. Writes only on RUN# and
    # PLAYER# items and the watermark (JOB#EXPIRY). Then the closing passes' start
    # (shared/services/closing_pass.py; the pieces run in infra/closing.py): GetItem and PutItem
    # of each pass (PASS#) and of the Dailies' mark (JOB#CLOSING), a missing day's puzzle
    # (PUZZLE#); Query of the partitions of the challenges closing (CLOSING#), GetItem of a small
    # challenge's top item and BatchGetItem of its rank counters; PutItem of the challenges'
    # watermark (JOB#CLOSING). The review queue's figures (shared/services/queue.py): Query of
    # each kind's queue partitions (MODQUEUE#).
    "expire": Access(
        table=TableAccess(
            reads=("GetItem", "BatchGetItem"),
            writes=("PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem"),
            indexes=("due",),
            write_leading_keys=("RUN#*", "PLAYER#*", "JOB#EXPIRY", "JOB#CLOSING", "PASS#*", "PUZZLE#*"),
            own_partition_queries=("CLOSING#*", "MODQUEUE#*"),
        ),
    ),
    # The stream consumer (shared/dynamo/counters.py count_official, top.py): one transaction of UpdateItem
    # per batch, marking each official result `counted` (PLAYER#) and adding to the rank counters
    # (COUNT#); then each board's top item (TOP#): GetItem of it and of its claim, PutItem of an
    # inbox item and of the claim; the fold: Query of the inbox partitions, BatchGetItem of the
    # entering rows' official results, a conditional PutItem of the top, BatchWriteItem deleting
    # the inbox items it read; the first fold into a board without a top item seeds it from the
    # `board` index (Query). A rename's record (shared/services/players.py show_current_name): GetItem of
    # the profile (and an old STATS item) and of the player's challenges, Query of the player's
    # own partition (PLAYER#, consistent) for the results of live boards, UpdateItem of the name
    # on those rows (transactions), GetItem and a conditional PutItem of each board's top item.
    "counters": Access(
        table=TableAccess(
            reads=("GetItem", "BatchGetItem"),
            writes=("UpdateItem", "PutItem", "BatchWriteItem"),
            indexes=("board",),
            write_leading_keys=("PLAYER#*", "COUNT#*", "TOP#*"),
            own_partition_queries=("TOP#*", "PLAYER#*"),
            stream=True,
        ),
    ),
    # The closing pass's worker, on the piece queue (infra/closing.py): CLOSING_ACCESS below.
    "closing": Access(table=CLOSING_ACCESS),
    # The reminder scan, every minute (functions/reminders/scan.py): Query of the send minute's
    # subscriptions, one partition per shard (REMIND#), and nothing else of the table.
    "remind": Access(table=TableAccess(own_partition_queries=("REMIND#*",))),
    # The reminder sender, on the reminder queue (functions/reminders/send.py): GetItem of a slot,
    # an official result and the player's REMINDER item; UpdateItem (the send, conditional) and
    # DeleteItem (a subscription ended) of subscriptions (REMIND#) and the player's item (PLAYER#).
    "push": Access(
        table=TableAccess(
            reads=("GetItem",),
            writes=("UpdateItem", "DeleteItem"),
            write_leading_keys=("REMIND#*", "PLAYER#*"),
        ),
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
