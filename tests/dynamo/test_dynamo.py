"""The DynamoDB adapter itself: item layout costs, retention, and how each DynamoDB error maps to
the domain's (SPEC §5: only a failed condition is a conflict, only throttling is 429, anything else
a logged 500). Behaviour shared with the fake is in tests/contract/; races in tests/dynamo/test_races.py."""

from datetime import UTC, datetime, timedelta

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError
from botocore.stub import Stubber

from local.streams import StreamPoller
from shared.dynamo.client import DataError
from shared.dynamo.keys import BOARD_SHARDS, COUNTER_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.game.boards import TieKey
from shared.game.clock import iso
from shared.game.constants import GUEST_RUN_TTL_SECONDS, PRACTICE_RUN_TTL_SECONDS
from shared.game.errors import Throttled
from shared.game.puzzles import Round
from shared.game.results import OfficialResult
from shared.game.runs import answer, new_run
from shared.game.scope import Scope
from shared.services.completion import completion_of
from shared.services.game import Game
from shared.services.ports import AnswerSlot, StaleRun
from shared.services.retry import ATTEMPTS
from tests.fakes.fake_store import complete_official

NOW = datetime(2026, 11, 29, 18, tzinfo=UTC)
DAY = "2026-11-29"
PUZZLE = [Round("TMR", "")] * 7 + [Round("BRD", "AEO")] * 3


def run_for(player, run_id="run-00000001", official=True):
    return new_run(run_id, "daily", DAY, PUZZLE, NOW, player, official)


@pytest.fixture
def store(table):
    dynamo = dynamo_ports(table, board_shards=BOARD_SHARDS)
    dynamo.runs.put_puzzle(Scope.daily(DAY), PUZZLE)
    return dynamo


def stored_item(store, run_id):
    key = {"pk": {"S": f"RUN#{run_id}"}, "sk": {"S": "RUN"}}
    return store.client.get_item(TableName=store.table, Key=key)["Item"]


def item_size(item: dict) -> int:
    """DynamoDB's item size: attribute names plus values (strings as UTF-8, numbers ~ digits; a
    list 3 bytes and 1 an element, a string set its strings)."""
    return sum(len(name.encode()) + value_size(value) for name, value in item.items())


def value_size(value: dict) -> int:
    ((kind, inner),) = value.items()
    if kind == "L":
        return 3 + sum(1 + value_size(element) for element in inner)
    if kind == "SS":
        return sum(len(element.encode()) for element in inner)
    return len(str(inner).encode())


def test_practice_runs_are_deleted_after_30_days_guests_after_2_and_official_runs_kept(store):
    start = int(NOW.timestamp())
    store.runs.create_run(run_for("p1", "run-official", official=True))
    store.runs.create_run(run_for(None, "run-guest001", official=False))
    assert "expires_at" not in stored_item(store, "run-official")
    assert int(stored_item(store, "run-guest001")["expires_at"]["N"]) == start + GUEST_RUN_TTL_SECONDS
    official = run_for("p3", "run-becomes1", official=True)
    version = store.runs.create_run(official)
    official.official = False  # it lost the official result to a racing run: stored as practice
    store.runs.save_run(official, version)
    assert int(stored_item(store, "run-becomes1")["expires_at"]["N"]) == start + PRACTICE_RUN_TTL_SECONDS


@pytest.mark.parametrize(("rejections", "limit"), [(1, 1024), (2, 2048)])
def test_a_whole_run_item_stays_within_its_write_units_with_long_attempts_in_every_round(
    store, rejections, limit
):
    """One rejection and one accepted 12-letter word in every round stays under 1 KB (one write
    unit); two rejections in every round under 2 KB (each attempt keeps its elapsed time)."""
    run = run_for("a-player-id-as-long-as-a-cognito-sub-0001", "r" * 22)
    version = store.runs.create_run(run)
    tick = iter(range(1, 31))  # attempts spread over the time limit: 5-digit elapsed times
    for number in range(1, 11):
        for attempt in range(1, rejections + 1):
            at = NOW + timedelta(milliseconds=5_987 * next(tick))
            answer(run, number, attempt, "qzqzqzqzqzq", at, set())
        # Ten different 12-letter words: a word is accepted once per run (already_used).
        word = ("transmitter" if number <= 7 else "bridgingbrd") + "abcdefghij"[number - 1]
        answer(run, number, rejections + 1, word, NOW + timedelta(milliseconds=5_987 * next(tick)), {word})
        version = store.runs.save_run(run, version)
    assert run.completed and len(run.accepted_words()) == 10
    assert item_size(stored_item(store, run.run_id)) < limit


def test_a_run_answered_in_place_stays_under_1_kb_with_a_rejection_and_a_long_word_in_every_round(store):
    """Answers appended without a read (RunStore.answer_in_place) keep each attempt with its arrival
    time: a player's run with one rejection and one accepted 12-letter word in each of rounds 1-9
    (the 10th completes the run, a whole write) stays under 1 KB, one write unit an answer."""
    run = run_for("a-player-id-as-long-as-a-cognito-sub-0001", "d20261129" + "r" * 22)
    store.runs.create_run(run)
    tick = iter(range(1, 31))
    for number in range(1, 10):
        word = ("transmitter" if number <= 7 else "bridgingbrd") + "abcdefghij"[number - 1]
        for attempt, (tried, reason) in enumerate([("qzqzqzqzqzq", "letter_order"), (word, None)], start=1):
            at = NOW + timedelta(milliseconds=5_987 * next(tick))
            store.runs.answer_in_place(run.run_id, run.player, AnswerSlot(number, attempt, tried, reason), at)
    assert store.runs.get_run(run.run_id).run.round_number == 10
    assert item_size(stored_item(store, run.run_id)) < 1024


def test_a_run_stored_before_the_compact_form_still_reads_and_plays_on(store):
    old = run_for("p1", "run-old-format")
    legacy = {"data": {"S": old.model_dump_json()[:-1] + ',"version":2}'}, "version": {"N": "2"}}
    store.client.put_item(
        TableName=store.table, Item={**{"pk": {"S": "RUN#run-old-format"}, "sk": {"S": "RUN"}}, **legacy}
    )
    found, version = store.runs.get_run("run-old-format")[:2]
    assert found == old and version == 2
    answer(found, 1, 1, "timer", NOW, {"timer"})
    store.runs.save_run(found, version)
    assert store.runs.get_run("run-old-format").run == found


# DynamoDB's errors, from a stubbed client ------------------------------------------------------


@pytest.fixture
def stubbed():
    client = boto3.client("dynamodb", region_name="us-east-1")
    with Stubber(client) as stubber:
        yield dynamo_ports("t", client, sleep=lambda _: None, board_shards=BOARD_SHARDS), stubber
        stubber.assert_no_pending_responses()


def cancel(stubber, *codes):
    reasons = [{"Code": code} for code in codes]
    modeled = {"CancellationReasons": reasons} if codes else {}
    stubber.add_client_error(
        "transact_write_items", service_error_code="TransactionCanceledException", modeled_fields=modeled
    )


def test_a_transaction_cancelled_for_a_validation_error_is_a_500_not_a_retry_nor_a_429(stubbed):
    store, stubber = stubbed
    stubber.add_response("get_item", {})
    cancel(stubber, "None", "ValidationError")
    with pytest.raises(DataError):
        store.names.set_display_name("p1", "Alice")  # one transaction only: nothing pending afterwards


def test_a_transaction_cancelled_without_reasons_is_a_500_not_a_name_taken(stubbed):
    store, stubber = stubbed
    stubber.add_response("get_item", {})
    cancel(stubber)
    with pytest.raises(DataError):
        store.names.set_display_name("p1", "Alice")


def test_a_transaction_conflict_is_retried_and_only_a_lasting_one_is_429(stubbed):
    store, stubber = stubbed
    cancel(stubber, "TransactionConflict", "None")
    stubber.add_response("transact_write_items", {})
    store.runs.create_run(run_for("p1"))
    for _ in range(ATTEMPTS):
        cancel(stubber, "TransactionConflict", "None")
    with pytest.raises(Throttled):
        store.runs.create_run(run_for("p1"))


def test_a_throttled_transaction_or_request_is_429(stubbed):
    store, stubber = stubbed
    cancel(stubber, "None", "ThrottlingError")
    with pytest.raises(Throttled):
        store.runs.create_run(run_for("p1"))
    stubber.add_client_error("get_item", service_error_code="ProvisionedThroughputExceededException")
    with pytest.raises(Throttled):
        store.runs.get_run("run-00000001")


def test_a_failed_condition_is_a_conflict_and_any_other_refusal_a_500(stubbed):
    store, stubber = stubbed
    stubber.add_client_error("put_item", service_error_code="ConditionalCheckFailedException")
    with pytest.raises(StaleRun):
        store.runs.save_run(run_for("p1"), 3)
    stubber.add_client_error("put_item", service_error_code="ValidationException")
    with pytest.raises(DataError):
        store.runs.save_run(run_for("p1"), 3)
    stubber.add_client_error("get_item", service_error_code="ResourceNotFoundException")
    with pytest.raises(DataError):
        store.runs.slot("p1", Scope.daily(DAY))


def test_an_official_completion_is_counted_by_the_stream_consumer(store):
    run = run_for("p1")
    version = store.runs.create_run(run)
    run.score, run.best_combo, run.longest_word_length = 100, 1, 5
    run.completed_at, run.ended_by = "2026-11-29T18:01:00.000Z", "finished"
    read = store.results.profile_for_completion("p1")
    store.results.complete_run(run, version, completion_of(OfficialResult.of_run(run), read))
    StreamPoller(store.table).drain()  # the rank counters' consumer (functions/leaderboard/counters.py)
    assert store.ranks.count_better(Scope.daily(DAY), TieKey(99, 0, 0)) == 1
    assert store.ranks.count_better(Scope.daily(DAY), TieKey(100, 1, 5)) == 0


def test_keys_a_batch_read_leaves_unprocessed_are_retried_then_429_never_silently_missing(stubbed):
    store, stubber = stubbed
    keys = {"t": {"Keys": [{"pk": {"S": "PLAYER#p1"}, "sk": {"S": "PROFILE"}}]}}
    for _ in range(ATTEMPTS):
        stubber.add_response("batch_get_item", {"Responses": {"t": []}, "UnprocessedKeys": keys})
    with pytest.raises(Throttled):
        store.names.display_names(["p1"])


def test_the_watermark_and_due_reads_use_the_due_index_not_a_scan(store):
    later = NOW + timedelta(seconds=181)
    store.runs.create_run(run_for("p1"))
    calls = []
    store.client.meta.events.register("before-call.dynamodb", lambda model, **_: calls.append(model.name))
    assert [due.run_id for due in store.runs.due_runs(later)] == ["run-00000001"]
    assert set(calls) == {"Query"}


def stream_records(client, table: str) -> list[dict]:
    """Every record on the table's stream, read from its start."""
    # moto answers DynamoDB Streams only on its classic endpoint (as in local/streams.py)
    streams = boto3.client("dynamodbstreams", config=Config(account_id_endpoint_mode="disabled"))
    arn = client.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    [shard] = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
    iterator = streams.get_shard_iterator(
        StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
    )["ShardIterator"]
    return streams.get_records(ShardIterator=iterator)["Records"]


def test_a_cancelled_transaction_leaves_no_item_and_no_stream_record_in_the_test_store(table):
    """The tests' moto rolls a cancelled transaction back item by item (tests/conftest.py, as
    `make run`'s store does): it must still leave the items and the stream exactly as they were,
    and the records written before it must read back unchanged."""
    client = boto3.client("dynamodb")
    key = {"pk": {"S": "K#1"}, "sk": {"S": "A"}}
    client.put_item(TableName=table, Item={**key, "n": {"N": "1"}})
    before = stream_records(client, table)
    assert [r["eventName"] for r in before] == ["INSERT"]

    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.transact_write_items(
            TransactItems=[
                {"Put": {"TableName": table, "Item": {"pk": {"S": "K#2"}, "sk": {"S": "A"}}}},
                {
                    "Update": {
                        "TableName": table,
                        "Key": key,
                        "UpdateExpression": "SET n = :two",
                        "ConditionExpression": "n = :zero",
                        "ExpressionAttributeValues": {":two": {"N": "2"}, ":zero": {"N": "0"}},
                    }
                },
            ]
        )

    assert client.get_item(TableName=table, Key=key)["Item"]["n"] == {"N": "1"}
    assert "Item" not in client.get_item(TableName=table, Key={"pk": {"S": "K#2"}, "sk": {"S": "A"}})
    assert stream_records(client, table) == before
    client.update_item(
        TableName=table,
        Key=key,
        UpdateExpression="SET n = :three",
        ExpressionAttributeValues={":three": {"N": "3"}},
    )
    after = stream_records(client, table)
    assert after[:1] == before and [r["eventName"] for r in after] == ["INSERT", "MODIFY"]
    assert after[1]["dynamodb"]["NewImage"]["n"] == {"N": "3"}


def test_rank_counters_are_split_over_counter_shards_and_a_rank_sums_them(store, monkeypatch):
    """Every counting transaction adds to one counter shard (so the counters' busiest item takes
    1/COUNTER_SHARDS of the consumer's transactions, docs/leaderboards.md); a rank reads them all."""
    import shared.dynamo.counters as adapter
    from tests.fakes.fake_boards import official

    assert COUNTER_SHARDS == 2
    picks = iter([0, 1, 1, 0, 1])
    monkeypatch.setattr(adapter.secrets, "randbelow", lambda n: next(picks))
    results = [
        official(f"p{i}", score, combo, 5, completed_at=f"2026-11-29T18:0{i}:00.000Z", day=DAY)
        for i, (score, combo) in enumerate([(100, 1), (100, 2), (205, 0), (95, 0), (100, 1)])
    ]
    for result in results:
        complete_official(store, result)
        assert store.ranks.count_official([result]) == 1  # one transaction each, on the next shard picked

    def bands(shard):
        pk = f"COUNT#DAILY#{DAY}" + (f"#C{shard}" if shard else "")
        key = {"pk": {"S": pk}, "sk": {"S": "BANDS"}}
        item = store.client.get_item(TableName=store.table, Key=key)["Item"]
        return {name: int(value["N"]) for name, value in item.items() if name.startswith("b")}

    # Band attributes are named by the band's digits of the rank key (99 - band)
    assert bands(0) == {"b98": 1, "b99": 1}  # p0 (100), p3 (95)
    assert bands(1) == {"b98": 2, "b97": 1}  # p1, p4 (100), p2 (205)
    scope = Scope.daily(DAY)
    assert store.ranks.count_better(scope, TieKey(100, 1, 5)) == 2  # p2 (205), p1 (combo 2): both on shard 1
    assert store.ranks.count_better(scope, TieKey(95, 0, 5)) == 4
    assert store.ranks.count_better(scope, TieKey(0, 0, 0)) == 5


def test_a_container_reuses_the_rank_counters_it_read_for_rank_cache_seconds(store, monkeypatch):
    """At the rush every finisher reads a rank, and every rank reads the `BANDS` items: each
    container reads a counter item at most once per RANK_CACHE_SECONDS (the stack's setting, in
    shared/runtime/wiring.py), so a rank trails by up to that much more."""
    from shared.dynamo.counters import RANK_CACHE_SECONDS
    from tests.fakes.fake_boards import official

    clock = [1_800_000_000.0]
    store.db.wall = lambda: clock[0]
    store.ranks.cache_seconds = RANK_CACHE_SECONDS
    store.top.interval = RANK_CACHE_SECONDS / 10  # each consumer below finds the top item's claim free
    reads, batch_get = [], store.db.batch_get

    def counted_batch_get(keys, consistent=False):
        if keys[0]["pk"]["S"].startswith("COUNT#"):
            reads.append(len(keys))
        return batch_get(keys, consistent)

    monkeypatch.setattr(store.db, "batch_get", counted_batch_get)
    scope, tie = Scope.daily(DAY), TieKey(100, 0, 5)

    def better_result(name, seconds):
        result = official(name, 200, 0, 5, completed_at=f"2026-11-29T18:00:{seconds:02d}.000Z", day=DAY)
        complete_official(store, result)
        store.ranks.count_official([result])

    better_result("p1", 1)
    assert store.ranks.count_better(scope, tie) == 1
    clock[0] += RANK_CACHE_SECONDS / 2
    better_result("p2", 2)
    assert store.ranks.count_better(scope, tie) == 1  # as this container read it half a second ago
    assert store.ranks.count_better(Scope.daily("2026-11-28"), tie) == 0  # another board's counters: read
    clock[0] += RANK_CACHE_SECONDS / 2
    assert store.ranks.count_better(scope, tie) == 2  # read again
    assert reads == [6, 6, 6]  # three counter items in each of the two counter shards


def test_an_expiry_pass_completes_every_run_it_can_when_one_completion_fails_and_holds_the_watermark(store):
    """SPEC §6: one run that fails to complete (here DynamoDB answers its completing transaction
    with InternalServerError) never stops the others, and its board waits for it."""
    recorded = []
    later = NOW + timedelta(seconds=400)
    game = Game(
        store.runs,
        store.results,
        lambda: b"seed",
        set,
        record=lambda *a, **k: recorded.append((a, k)),
        now=lambda: later,
    )
    runs = [
        new_run(f"run-expiry-{n:03d}", "daily", DAY, PUZZLE, NOW + timedelta(seconds=n), f"p{n}", True)
        for n in range(5)
    ]
    for run in runs:
        store.runs.create_run(run)
    failing = runs[2]

    def refuse(params, **_):
        if any(failing.run_id in str(entry) for entry in params["TransactItems"]):
            raise ClientError({"Error": {"Code": "InternalServerError"}}, "TransactWriteItems")

    store.client.meta.events.register("before-parameter-build.dynamodb.TransactWriteItems", refuse)
    summary = game.expire_due_runs()

    assert summary["runs_completed"] == 4 and summary["failed"] == 1
    assert summary["failed_runs"] == [
        {"run_id": failing.run_id, "deadline": failing.deadline, "error": "DataError"}
    ]
    assert [k for a, k in recorded if a == ("ExpiryFailures",)] == [{"value": 1}]
    assert [store.runs.get_run(r.run_id).run.completed for r in runs] == [True, True, False, True, True]
    held = store.runs.completed_through()
    assert runs[1].deadline < iso(held) < failing.deadline, "boards wait for the failed run"

    store.client.meta.events.unregister("before-parameter-build.dynamodb.TransactWriteItems", refuse)
    again = game.expire_due_runs()

    assert (again["runs_completed"], again["failed"]) == (1, 0)
    assert store.runs.get_run(failing.run_id).run.completed
    assert store.results.official_result("p2", Scope.daily(DAY)) is not None
    assert store.runs.completed_through() == later
