"""The DynamoDB adapter: conditional writes and DynamoDB's errors become the domain's (moto, in-process)."""

from datetime import UTC, datetime

import pytest
from botocore.exceptions import ClientError

from local.streams import StreamPoller
from shared.boards import TieKey
from shared.dynamo import DynamoStore
from shared.errors import Throttled
from shared.puzzles import Round
from shared.runs import new_run
from shared.scope import Scope
from shared.store import ActiveRunExists, OfficialResult, OfficialTaken, StaleRun

NOW = datetime(2026, 11, 29, 18, tzinfo=UTC)
PUZZLE = [Round("TMR", "")] * 10


def run_for(player, run_id="run-00000001", official=True):
    return new_run(run_id, "daily", "2026-11-29", PUZZLE, NOW, player, official)


def result_for(run, score=100):
    return OfficialResult(
        player=run.player,
        scope=run.scope,
        kind="daily",
        date=run.date,
        challenge_id=None,
        run_id=run.run_id,
        score=score,
        best_combo=1,
        longest_word_length=5,
        completed_at="2026-11-29T18:01:00.000Z",
        words=["timer"],
    )


@pytest.fixture
def store(table):
    return DynamoStore(table)


def test_put_puzzle_keeps_the_first_puzzle_stored(store):
    first = [Round("ABC", "")]
    assert store.put_puzzle("DAILY#2026-11-29", first) == first
    assert store.put_puzzle("DAILY#2026-11-29", [Round("XYZ", "")]) == first


def test_a_player_has_one_active_run_slot_per_scope(store):
    store.create_run(run_for("p1", "run-00000001"))
    with pytest.raises(ActiveRunExists) as caught:
        store.create_run(run_for("p1", "run-00000002"))
    assert caught.value.run_id == "run-00000001"
    assert store.player_status("p1", "DAILY#2026-11-29") == ("run-00000001", False)


def test_save_run_is_conditional_on_the_version_read(store):
    run = run_for("p1")
    store.create_run(run)
    stale = store.get_run(run.run_id)
    store.save_run(run)
    with pytest.raises(StaleRun):
        store.save_run(stale)
    assert store.get_run(run.run_id).version == 1


def test_completion_writes_run_official_result_and_frees_the_slot_and_the_stream_counts_it(store):
    run = run_for("p1")
    store.create_run(run)
    run.completed_at, run.ended_by = "2026-11-29T18:01:00.000Z", "finished"
    store.complete_run(run, result_for(run))
    assert store.player_status("p1", "DAILY#2026-11-29") == (None, True)
    StreamPoller(store.table).drain()  # the rank counters' consumer (functions/leaderboard/counters.py)
    assert store.count_better(Scope.daily("2026-11-29"), TieKey(99, 0, 0)) == 1
    assert store.count_better(Scope.daily("2026-11-29"), TieKey(100, 1, 5)) == 0
    assert list(store.active_run_ids("2026-11-29")) == []


def test_a_second_official_result_for_the_same_scope_is_refused(store):
    first, second = run_for("p1", "run-00000001"), run_for("p1", "run-00000002")
    for run in (first, second):
        store._call("put_item", Item=store._run_item(run))
        run.completed_at, run.ended_by = "2026-11-29T18:01:00.000Z", "finished"
    store.complete_run(first, result_for(first))
    with pytest.raises(OfficialTaken):
        store.complete_run(second, result_for(second))


class ConflictingClient:
    """Stands in for the boto3 client: cancels the first CONFLICTS transactions with TransactionConflict."""

    def __init__(self, conflicts, code="TransactionConflict"):
        self.conflicts, self.code, self.calls = conflicts, code, 0

    def transact_write_items(self, TransactItems):  # noqa: N803 - boto3's name
        self.calls += 1
        if self.calls <= self.conflicts:
            raise ClientError(
                {
                    "Error": {"Code": "TransactionCanceledException"},
                    "CancellationReasons": [{"Code": self.code}],
                },
                "TransactWriteItems",
            )


def test_a_transaction_conflict_is_retried_before_it_becomes_429():
    client = ConflictingClient(conflicts=2)
    assert DynamoStore("t", client)._transact([{"Put": {"Item": {}}}]) == []
    assert client.calls == 3
    with pytest.raises(Throttled):
        DynamoStore("t", ConflictingClient(conflicts=99))._transact([{"Put": {"Item": {}}}])


def test_throttling_becomes_429_not_500():
    with pytest.raises(Throttled):
        DynamoStore("t", ConflictingClient(1, "ThrottlingError"))._transact([{"Put": {"Item": {}}}])

    class Throttling:
        def get_item(self, **_):
            raise ClientError({"Error": {"Code": "ProvisionedThroughputExceededException"}}, "GetItem")

    with pytest.raises(Throttled):
        DynamoStore("t", Throttling()).get_run("run-00000001")


def test_keys_left_unprocessed_by_batch_get_are_throttled_not_silently_missing(store):
    class Unprocessing:
        def batch_get_item(self, RequestItems):  # noqa: N803 - boto3's name
            return {"Responses": {"t": []}, "UnprocessedKeys": RequestItems}

    with pytest.raises(Throttled):
        DynamoStore("t", Unprocessing()).player_status("p1", "DAILY#2026-11-29")


def test_only_players_runs_wait_in_the_active_index_for_the_reset_job(store):
    store.create_run(run_for(None, "guest-run-001"))
    store.create_run(run_for("p1", "player-run-01"))
    assert list(store.active_run_ids("2026-11-29")) == ["player-run-01"]
