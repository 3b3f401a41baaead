"""Every key of the table, in one place: partition and sort keys, the indexes' keys, scope keys
and shards (docs/data-model.md lists the items), and the rank keys (below).

Board order spelled as DynamoDB sort keys (the `board` index's `board_sk`, the top item's and
the inbox items' rows) and as the rank counters' attribute names: strings whose ascending order is
board order (shared/game/boards.py `BoardPosition.order`; tests/game/test_board_order.py proves the two
agree over every position the game can make).

A rank key is `<tie><duration>#<completed_at>#<run_id>#<longest>`: the tie key's digits and the
run's duration in milliseconds (fixed widths, shared/game/ranking.py), the completion time, the
run id (URL-safe characters, all after `#`, so a shorter id sorts first as it does alone), then
the true longest-word length, which the row shows and which never orders (the run id before it is
unique).
"""

import hashlib

from shared.dynamo.client import Item
from shared.game.boards import BoardPosition, TieKey
from shared.game.ranking import (
    DURATION,
    TIE_DIGITS,
    band_of_prefix,
    counter_band,
    counter_prefixes,
    tie_digits,
    tie_of_digits,
)
from shared.game.results import Challenge
from shared.game.scope import Scope


def rank_key(position: BoardPosition) -> str:
    """A string that sorts in board order (never holding the player's id: cursors are built from
    positions)."""
    return (
        f"{tie_digits(position.tie)}{DURATION.ascending(position.duration_ms)}"
        f"#{position.completed_at}#{position.run_id}#{position.longest_word_length}"
    )


def position_of(key: str) -> BoardPosition:
    """The inverse of `rank_key`."""
    head, completed_at, rest = key.split("#", 2)
    run_id, longest = rest.rsplit("#", 1)
    tie = tie_of_digits(head)
    duration = DURATION.check(int(head[TIE_DIGITS:]))
    return BoardPosition(tie.score, tie.best_combo, int(longest), duration, completed_at, run_id)


def band_from_counter(name: str) -> int:
    """The band a `BANDS` attribute (`b<band digits>`, see `counter_keys`) counts."""
    return band_of_prefix(name[1:])


# The `due` index (players' active runs by deadline) is spread over this many partitions: at the
# rush every run starts and completes within minutes, and each start and completion writes the
# index once (docs/data-model.md has the writes/s per partition).
DUE_SHARDS = 64
# A board's rows are spread over this many partitions of the `board` index by default (a stage sets
# its own: `board_shards` in infra/stages.json, the functions' BOARD_SHARDS, which the adapters
# reach through shared/dynamo/board_keys.py): each completion writes one row (one write unit), so
# one shard takes 1/32 of the rush. A page read from the shards reads every shard (at least half a
# read unit each); pages within the top of the board read one item instead. See
# docs/leaderboards.md.
BOARD_SHARDS = 32
# Rows for a board's top item wait in this many inbox partitions until the next fold.
TOP_INBOXES = 16
# Copies each rank counter is split over (shared/dynamo/counters.py).
COUNTER_SHARDS = 2

PLAYER = "PLAYER#"
OFFICIAL = "OFFICIAL#"  # a player's official results, by scope (sort keys of their partition)
MADE = "MADE#"  # a creator's copies of their challenges (sort keys of their partition)
LEAGUE = "LEAGUE#"
RENAME_SK = "RENAME"  # a rename's record, which the stream consumer follows (infra/schedule.py)
WATERMARK = ("JOB#EXPIRY", "WATERMARK")
# The closing job's own watermark for challenges: every challenge closing at or before it has had
# its find-time pass (shared/dynamo/closing.py).
CHALLENGES_REVIEWED = ("JOB#CLOSING", "WATERMARK")
# Challenges by the UTC date they close, each date over this many partitions (one write per
# challenge created: docs/data-model.md has the writes/s per partition).
CLOSING_SHARDS = 8


def shard(key: str, shards: int) -> int:
    """A stable shard number in [0, SHARDS) for a player or run id (or any string)."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") % shards


def scope_key(scope: Scope) -> str:
    """How a scope is spelled inside keys: `DAILY#<date>` or `CHALLENGE#<id>`."""
    return f"{scope.kind.upper()}#{scope.id}"


def official_prefix(kind: str) -> str:
    """The sort keys of a player's official results of one kind (`daily`, `challenge`) begin so."""
    return f"{OFFICIAL}{kind.upper()}#"


def scope_from_key(text: str) -> Scope:
    """The inverse of `scope_key`."""
    kind, _, ident = text.partition("#")
    return Scope.daily(ident) if kind == "DAILY" else Scope.challenge(ident)


def key(pk: str, sk: str) -> Item:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def key_of(item: Item) -> Item:
    """The key of ITEM."""
    return key(item["pk"]["S"], item["sk"]["S"])


def player_of(item: Item) -> str:
    """The player whose partition (`PLAYER#<sub>`) ITEM is in."""
    return str(item["pk"]["S"]).removeprefix(PLAYER)


# The player's own partition -------------------------------------------------------------------


def player_partition(player: str) -> str:
    return f"{PLAYER}{player}"


def profile_key(player: str) -> Item:
    """The player's profile: display name and Daily stats."""
    return key(player_partition(player), "PROFILE")


def old_stats_key(player: str) -> Item:
    """The stats item of the layout before stats moved onto the profile (shared/dynamo/migrations.py)."""
    return key(player_partition(player), "STATS")


def slot_key(player: str, scope: Scope) -> Item:
    """The player's slot in one scope: their latest run of it and their official run of it."""
    return key(player_partition(player), f"SLOT#{scope_key(scope)}")


def official_key(player: str, scope: Scope) -> Item:
    return key(player_partition(player), f"{OFFICIAL}{scope_key(scope)}")


def made_key(challenge: Challenge) -> Item:
    """The creator's copy of a challenge they made, newest last in their partition."""
    return key(player_partition(challenge.creator), f"{MADE}{challenge.created_at}#{challenge.challenge_id}")


def challenge_quota_key(player: str, day: str) -> Item:
    """The count of challenges PLAYER created on Daily date DAY."""
    return key(player_partition(player), f"CHALLENGES#{day}")


def leagues_key(player: str) -> Item:
    """The player's own item listing the leagues they are in."""
    return key(player_partition(player), "LEAGUES")


def rename_key(player: str) -> Item:
    return key(player_partition(player), RENAME_SK)


# Runs, puzzles, challenges, names, leagues ----------------------------------------------------


def run_key(run_id: str) -> Item:
    return key(f"RUN#{run_id}", "RUN")


def run_id_of(item: Item) -> str:
    return str(item["pk"]["S"]).removeprefix("RUN#")


def runs_partition(player: str) -> str:
    """The `runs` index partition of PLAYER's runs."""
    return f"RUNS#{player}"


def due_partition(run_id: str) -> str:
    """The `due` index partition of a run (one of DUE_SHARDS)."""
    return due_shard_partition(shard(run_id, DUE_SHARDS))


def due_shard_partition(number: int) -> str:
    return f"DUE#{number}"


def due_sort(deadline: str, run_id: str) -> str:
    """`<deadline>#<run id>`: sorts before `<now>$` exactly when the deadline is at or before now."""
    return f"{deadline}#{run_id}"


def puzzle_key(scope: Scope) -> Item:
    """A Daily's puzzle item, or a challenge's item (which holds its puzzle)."""
    if scope.kind == "challenge":
        return challenge_key(scope.id)
    return key(f"PUZZLE#{scope_key(scope)}", "PUZZLE")


def closing_partition(day: str, number: int) -> str:
    """One of the CLOSING_SHARDS partitions of the challenges closing on DAY (`YYYY-MM-DD`, UTC)."""
    return f"CLOSING#{day}#{number}"


def closing_key(challenge: Challenge) -> Item:
    """A challenge's entry among those closing on its UTC date, sorted by its close time."""
    number = shard(challenge.challenge_id, CLOSING_SHARDS)
    return key(
        closing_partition(challenge.closes_at[:10], number), f"{challenge.closes_at}#{challenge.challenge_id}"
    )


def challenge_key(challenge_id: str) -> Item:
    return key(f"CHALLENGE#{challenge_id}", "CHALLENGE")


def name_key(claim: str) -> Item:
    """A display name's claim, keyed by the name's look-alike skeleton (shared/game/names.py)."""
    return key(f"NAME#{claim}", "NAME")


def league_key(league_id: str) -> Item:
    return key(f"{LEAGUE}{league_id}", "LEAGUE")


def code_key(code: str) -> Item:
    return key(f"LEAGUECODE#{code}", "CODE")


# Boards ---------------------------------------------------------------------------------------


def board_partition(scope: Scope, number: int) -> str:
    """Shard NUMBER of SCOPE's board in the `board` index."""
    return f"BOARD#{scope_key(scope)}#{number}"


def board_partition_of(scope: Scope, player: str, shards: int) -> str:
    """The `board` index partition of PLAYER's row on SCOPE's board, of SHARDS."""
    return board_partition(scope, shard(player, shards))


def history_partition(player: str) -> str:
    return f"HISTORY#{player}"


def history_sort(completed_at: str, scope: Scope) -> str:
    return f"{completed_at}#{scope_key(scope)}"


def top_key(scope: Scope) -> Item:
    return key(f"TOP#{scope_key(scope)}", "TOP")


def top_words_key(scope: Scope) -> Item:
    """The words of the top item's rows: read only for a closed board's page."""
    return key(f"TOP#{scope_key(scope)}", "WORDS")


def top_claim_key(scope: Scope) -> Item:
    return key(f"TOP#{scope_key(scope)}#CLAIM", "CLAIM")


def inbox_partition(scope: Scope, inbox: int) -> str:
    return f"TOP#{scope_key(scope)}#IN{inbox}"


def inbox_key(scope: Scope, now: float, token: str) -> Item:
    """An inbox item's key: in the inbox partition TOKEN picks, sorted by when it was left."""
    return key(inbox_partition(scope, shard(token, TOP_INBOXES)), f"{now:.3f}#{token}")


def counter_keys(scope: Scope, tie: TieKey, number: int = 0) -> list[tuple[Item, str]]:
    """The three counter items of counter shard NUMBER a result of TIE adds one to, each with the
    attribute it adds to, named `b`, `s` or `t` and a prefix of TIE's rank key
    (`counter_prefixes`), so that rows better than a tie are counted by
    the attributes whose names sort before its own:
    - `COUNT#<scope>` / `BANDS`: `b<band digits>`, results per band of SCORE_BAND_POINTS points;
    - `COUNT#<scope>#B<band>` / `SCORES`: `s<score digits>`, results per score within the band;
    - `COUNT#<scope>#<score>` / `TIES`: `t<tie digits>`, results per tie key within the score;
    with `#C<shard>` after the scope for shards other than 0. Each has its own partition key, so
    the counters of a board spread over partitions."""
    band, score, own = counter_prefixes(tie)
    prefix = _counter_prefix(scope, number)
    return [
        (bands_key(scope, number), f"b{band}"),
        (key(f"{prefix}#B{counter_band(tie.score)}", "SCORES"), f"s{score}"),
        (key(f"{prefix}#{tie.score}", "TIES"), f"t{own}"),
    ]


def _counter_prefix(scope: Scope, number: int) -> str:
    return f"COUNT#{scope_key(scope)}" + (f"#C{number}" if number else "")


def bands_key(scope: Scope, number: int) -> Item:
    """The `BANDS` counter item of counter shard NUMBER (`counter_keys`): results per score band."""
    return key(_counter_prefix(scope, number), "BANDS")


def recap_key(scope: Scope) -> Item:
    """A closed day's recap (its summary), written once by the closing pass."""
    return key(f"RECAP#{scope_key(scope)}", "RECAP")


def recap_round_key(scope: Scope, number: int) -> Item:
    """Round NUMBER's played words with their counts: one partition a round, so the pass's few
    large writes never meet in one partition."""
    return key(f"RECAP#{scope_key(scope)}#R{number}", "WORDS")


# Safe retries -----------------------------------------------------------------------------------

IDEMPOTENCY = "IDEMPOTENCY#"


def request_key(request: str) -> Item:
    """A creation's idempotency record (shared/services/idempotency.py), REQUEST being the hash of
    the route, the caller and the key they sent: one partition each, naming no one."""
    return key(f"{IDEMPOTENCY}{request}", "REQUEST")


# Reminders --------------------------------------------------------------------------------------

REMIND = "REMIND#"  # reminders by send minute and shard (shared/dynamo/reminders.py)
REMINDER_SK = "REMINDER"  # in the player's partition: where their reminder is held


def reminder_partition(minute: int, shard: int) -> str:
    """One send minute's (0-1439, Central) subscriptions, shard SHARD of shared/game/reminders.py's
    SHARDS: one query reads a shard's sends of a minute."""
    return f"{REMIND}{minute:04d}#{shard:02d}"


def reminder_key(minute: int, shard: int, player: str) -> Item:
    return key(reminder_partition(minute, shard), player)


def reminder_pointer_key(player: str) -> Item:
    """The player's own item naming their reminder's send minute (PUT moves it, DELETE finds it)."""
    return key(player_partition(player), REMINDER_SK)


# The closing pass (shared/dynamo/closing_pieces.py) ------------------------------------------

# The last Daily whose closing pass is done (the closing job's mark for Dailies).
DAILIES_CLOSED = ("JOB#CLOSING", "DAILIES")


def pass_state_key(scope: Scope) -> Item:
    """A closing pass's progress and merged figures."""
    return key(f"PASS#{scope_key(scope)}", "STATE")


def pass_piece_partition(scope: Scope, phase: int, shard: str) -> str:
    """The results of one board shard's pieces (SHARD: a number, or `all` for a listed board)."""
    return f"PASS#{scope_key(scope)}#{phase}#{shard}"


def evidence_key(player: str) -> Item:
    """A player's find-time scores, their last official runs' (SPEC §3b)."""
    return key(player_partition(player), "EVIDENCE")
