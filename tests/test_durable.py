"""The embedded store's table on disk (local/durable.py): the journal written before a reply, the
start that replays it over the snapshot, the compaction; on moto's backend in this process (a
"restart" is a fresh table in another region, loaded from the same folder)."""

import itertools
import json
import os

import pytest
from moto import mock_aws
from moto.dynamodb.models.dynamo_type import DynamoType

from local import moto_patches
from local.durable import JOURNAL_FILE, SNAPSHOT_FILE, DurableTable, StoreDataError, report_writes_to
from local.moto_server import create_table, hold_data_dir

# One per start within a test (moto's backends are reset between tests).
REGIONS = itertools.cycle(["us-east-1", "us-east-2", "us-west-1", "us-west-2", "eu-west-1", "eu-west-2"])


@pytest.fixture(autouse=True)
def _backend(monkeypatch):
    monkeypatch.setattr(moto_patches, "observers", [])
    with mock_aws():
        yield


def start(folder, now: float | None = None) -> DurableTable:
    """The store's start: a fresh table, what FOLDER holds loaded into it."""
    durable = DurableTable(folder, create_table(next(REGIONS), "wordsqd"))
    report_writes_to(durable)
    durable.load(now)
    return durable


def item(name: str, **attributes: dict) -> dict:
    return {"pk": {"S": f"K#{name}"}, "sk": {"S": "A"}, **attributes}


def _key(name: str) -> tuple[DynamoType, DynamoType]:
    return DynamoType({"S": f"K#{name}"}), DynamoType({"S": "A"})


def stored(durable: DurableTable) -> dict[str, dict]:
    return {i.hash_key.value: i.to_json()["Attributes"] for i in durable.table.all_items()}


def test_a_write_is_in_the_journal_when_commit_returns_and_the_next_start_replays_it(tmp_path):
    first = start(tmp_path)
    first.table.put_item(item("a", n={"N": "1"}))
    first.commit()
    lines = (tmp_path / JOURNAL_FILE).read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])[0][1]["n"] == {"N": "1"}

    second = start(tmp_path)  # no compaction since: a kill -9
    assert stored(second) == {"K#a": item("a", n={"N": "1"})}
    assert (tmp_path / JOURNAL_FILE).read_bytes() == b"", "compacted at start"
    assert json.loads((tmp_path / SNAPSHOT_FILE).read_text())["items"] == [item("a", n={"N": "1"})]


def test_a_line_cut_short_is_dropped_and_every_whole_line_is_replayed(tmp_path):
    first = start(tmp_path)
    for name in ("a", "b"):
        first.table.put_item(item(name))
        first.commit()
    with open(tmp_path / JOURNAL_FILE, "ab") as journal:
        journal.write(b'[[{"pk":{"S":"K#c"')  # killed while writing (that request got no reply)
    assert set(stored(start(tmp_path))) == {"K#a", "K#b"}


def test_an_unreadable_line_before_the_last_stops_the_start(tmp_path):
    first = start(tmp_path)
    first.table.put_item(item("a"))
    first.commit()
    with open(tmp_path / JOURNAL_FILE, "ab") as journal:
        journal.write(b"not json\n")
    first.table.put_item(item("b"))
    first.commit()
    with pytest.raises(StoreDataError, match="line 2"):
        start(tmp_path)


def test_a_journal_replayed_over_the_snapshot_it_was_compacted_into_changes_nothing(tmp_path):
    """A crash between the snapshot's rename and the journal's truncation."""
    first = start(tmp_path)
    first.table.put_item(item("a", n={"N": "1"}))
    first.commit()
    first.table.put_item(item("b"))
    first.commit()
    first.table.delete_item(*_key("b"))
    first.commit()
    first.table.put_item(item("a", n={"N": "2"}))
    first.commit()
    journal = (tmp_path / JOURNAL_FILE).read_bytes()
    first.compact()
    (tmp_path / JOURNAL_FILE).write_bytes(journal)
    assert stored(start(tmp_path)) == {"K#a": item("a", n={"N": "2"})}


def test_items_whose_ttl_has_passed_are_left_out_at_start(tmp_path):
    first = start(tmp_path)
    first.table.put_item(item("kept", expires_at={"N": "2000"}))
    first.table.put_item(item("expired", expires_at={"N": "1000"}))
    first.commit()
    assert set(stored(start(tmp_path, now=1500))) == {"K#kept"}


def test_a_start_puts_one_stream_insert_for_every_item_so_the_consumer_sees_each_again(tmp_path):
    first = start(tmp_path)
    for name in ("a", "b"):
        first.table.put_item(item(name))
        first.table.put_item(item(name, n={"N": "2"}))
    first.commit()
    second = start(tmp_path)
    assert [r.record["eventName"] for r in second.table.stream_shard.items] == ["INSERT", "INSERT"]


def test_a_second_store_on_the_same_folder_waits_then_gives_up(tmp_path):
    held = hold_data_dir(tmp_path)
    try:
        with pytest.raises(StoreDataError, match="in use by another store"):
            hold_data_dir(tmp_path, wait=0.3)
    finally:
        os.close(held)
    os.close(hold_data_dir(tmp_path, wait=0.3))


def test_one_flush_covers_every_line_appended_before_it_and_a_line_on_disk_is_not_flushed_again(
    tmp_path, monkeypatch
):
    durable = start(tmp_path)
    flushes = []
    monkeypatch.setattr(os, "fdatasync", lambda fd: flushes.append(fd))
    durable.table.put_item(item("first"))
    first = durable.append()
    durable.table.put_item(item("second"))
    second = durable.append()
    assert second > first and flushes == []  # appended under the lock, not yet flushed
    durable.sync(first)  # the flush for the first request's reply takes the second's line too
    durable.sync(second)
    assert len(flushes) == 1
    assert start(tmp_path).table.get_item(*_key("second")) is not None


def test_a_request_that_wrote_nothing_waits_for_the_lines_it_could_have_read(tmp_path, monkeypatch):
    durable = start(tmp_path)
    flushes = []
    monkeypatch.setattr(os, "fdatasync", lambda fd: flushes.append(fd))
    durable.table.put_item(item("written"))
    durable.append()
    durable.sync(durable.append())  # a read after it: nothing of its own, yet the write is flushed
    assert len(flushes) == 1


def test_a_compaction_leaves_nothing_to_flush(tmp_path, monkeypatch):
    durable = start(tmp_path)
    durable.table.put_item(item("compacted"))
    position = durable.append()
    durable.compact()
    flushes = []
    monkeypatch.setattr(os, "fdatasync", lambda fd: flushes.append(fd))
    durable.sync(position)
    assert flushes == []
