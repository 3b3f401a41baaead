"""The moderation items' keys (docs/data-model.md, "Moderation"): reports, cases and their queue,
sanctions, the audit log, accepted words, and a board's review marks. The key helpers they are
built from are keys.py's."""

from shared.dynamo.client import Item
from shared.dynamo.keys import key, player_partition, scope_key, shard
from shared.game.scope import Scope

# The queue of open cases of one kind is spread over this many partitions, so that opening many
# cases at once (the find-time pass at close, a wave of reports) does not write one partition.
CASE_QUEUE_SHARDS = 4
MOD_LOG = "MODLOG"  # the audit log's one partition (decisions are made by hand: a few a minute)
REPORT = "REPORT#"  # a reporter's reports (sort keys of their partition)
LOG_ENTRY = "MODLOG#"  # a moderator's copies of their decisions (sort keys of their partition)
BY = "BY#"  # a reporter's mark on a case (sort keys of the case's partition)
MOD_WORDS = "MODWORDS"  # words moderators accepted, for the next dictionary build


def case_key(case_id: str) -> Item:
    return key(f"MODCASE#{case_id}", "CASE")


def case_reporter_key(case_id: str, reporter: str) -> Item:
    """One reporter's mark on a case: a reporter reports a case once."""
    return key(f"MODCASE#{case_id}", f"{BY}{reporter}")


def case_queue_key(kind: str, opened_at: str, case_id: str) -> Item:
    """An open case's place in the queue of its kind, oldest first."""
    return key(case_queue_partition(kind, shard(case_id, CASE_QUEUE_SHARDS)), f"{opened_at}#{case_id}")


def case_queue_partition(kind: str, number: int) -> str:
    return f"MODQUEUE#{kind}#{number}"


def reporter_partition(reporter: str) -> str:
    """A player's own partition; a guest reporter (`guest:<run id>`) has one of its own."""
    if reporter.startswith("guest:"):
        return f"MODGUEST#{reporter.removeprefix('guest:')}"
    return player_partition(reporter)


def report_key(reporter: str, reported_at: str, case_id: str) -> Item:
    return key(reporter_partition(reporter), f"{REPORT}{reported_at}#{case_id}")


def report_quota_key(reporter: str, day: str) -> Item:
    return key(reporter_partition(reporter), f"REPORTS#{day}")


def client_quota_key(client: str, day: str) -> Item:
    """A guest client's reports on a Daily date (CLIENT: a daily salted hash of its address)."""
    return key(f"MODCLIENT#{client}", f"REPORTS#{day}")


def log_key(decided_at: str, case_id: str) -> Item:
    return key(MOD_LOG, f"{decided_at}#{case_id}")


def moderator_log_key(moderator: str, decided_at: str, case_id: str) -> Item:
    """The moderator's own copy of a log entry (their export)."""
    return key(player_partition(moderator), f"{LOG_ENTRY}{decided_at}#{case_id}")


def accepted_word_key(word: str) -> Item:
    return key(MOD_WORDS, word)


def pending_runs_key(scope: Scope) -> Item:
    """The runs of SCOPE with an open case: their board rows show `"review": "pending"`."""
    return key(f"MODPENDING#{scope_key(scope)}", "PENDING")


def find_time_pass_key(scope: Scope) -> Item:
    """Marks SCOPE's find-time pass as done (the closing job runs it once)."""
    return key(f"MODPASS#{scope_key(scope)}", "PASS")


def final_key(scope: Scope) -> Item:
    """Marks SCOPE's board final (SPEC §4): it never changes again."""
    return key(f"MODFINAL#{scope_key(scope)}", "FINAL")


def correction_key(scope: Scope, decided_at: str, case_id: str) -> Item:
    """One of a final board's public corrections, oldest first."""
    return key(f"MODCORR#{scope_key(scope)}", f"{decided_at}#{case_id}")
