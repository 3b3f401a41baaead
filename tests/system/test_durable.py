"""The embedded store's table on disk (local/durable.py): the journal written before a reply, the
start that replays it over the snapshot, the compaction; on moto's backend in this process (a
"restart" is a fresh table in another region, loaded from the same folder)."""

import errno
import itertools
import json
import os
import zlib
from pathlib import Path

import pytest
from moto import mock_aws
from moto.dynamodb.models.dynamo_type import DynamoType

from local import journal, moto_patches
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
    crc, _, payload = lines[0].partition(" ")
    assert len(lines) == 1 and json.loads(payload)[0][1]["n"] == {"N": "1"}
    assert int(crc, 16) == zlib.crc32(payload.encode())  # each line carries its checksum

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


# --- A full disk and torn lines (#39): a line is kept whole or not at all ----------------------


def _short_writes(limit: int, then_refuse: bool = True):
    """os.write as a disk with LIMIT bytes of room: short writes up to it, then ENOSPC (or, when
    THEN_REFUSE is false, room again after one short write)."""
    room = [limit]
    calls = []

    def write(fd: int, data: bytes) -> int:
        calls.append(len(data))
        if room[0] <= 0:
            if then_refuse:
                raise OSError(errno.ENOSPC, "No space left on device")
            room[0] = 10**9
        count = min(len(data), room[0], 7)  # never more than 7 bytes a call: short every time
        room[0] -= count
        return os.write(fd, data[:count])

    return write, calls


def test_a_short_write_is_continued_until_the_line_is_whole(tmp_path):
    durable = start(tmp_path)
    durable.write, calls = _short_writes(10**6)
    durable.table.put_item(item("a", n={"N": "1"}))
    durable.commit()
    assert len(calls) > 1, "the line went out in short writes"
    assert stored(start(tmp_path)) == {"K#a": item("a", n={"N": "1"})}


def test_a_short_write_then_room_again_still_makes_one_whole_line(tmp_path):
    durable = start(tmp_path)
    durable.write, _ = _short_writes(20, then_refuse=False)
    durable.table.put_item(item("a"))
    durable.commit()
    assert (tmp_path / JOURNAL_FILE).read_bytes().count(b"\n") == 1
    assert set(stored(start(tmp_path))) == {"K#a"}


def test_a_write_the_disk_refuses_is_cut_back_to_the_last_whole_line_and_refused(tmp_path):
    durable = start(tmp_path)
    durable.table.put_item(item("kept"))
    durable.commit()
    whole = (tmp_path / JOURNAL_FILE).read_bytes()
    durable.write, _ = _short_writes(30)
    durable.table.put_item(item("refused"))
    with pytest.raises(OSError) as refused:
        durable.commit()
    assert refused.value.errno == errno.ENOSPC
    assert (tmp_path / JOURNAL_FILE).read_bytes() == whole, "cut back to the last whole line"
    # Nothing more is applied or acknowledged by this table: it holds a write the disk does not.
    assert durable.failed is not None
    with pytest.raises(OSError):
        durable.append()
    restarted = start(tmp_path)
    assert set(stored(restarted)) == {"K#kept"} and restarted.notes == []


def test_a_flush_that_fails_refuses_every_request_waiting_on_it(tmp_path, monkeypatch):
    durable = start(tmp_path)
    durable.table.put_item(item("a"))
    position = durable.append()

    def failing(fd):
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(os, "fdatasync", failing)
    with pytest.raises(OSError):
        durable.sync(position)
    with pytest.raises(OSError):
        durable.sync(position)  # a second request covered by the same flush: refused too


def _journal_lines(folder) -> list[bytes]:
    return (folder / JOURNAL_FILE).read_bytes().split(b"\n")[:-1]


def _journal_of(folder, names: tuple[str, ...]) -> list[bytes]:
    """The journal's lines once a store in FOLDER has put and committed an item for each of NAMES."""
    first = start(folder)
    for name in names:
        first.table.put_item(item(name))
        first.commit()
    return _journal_lines(folder)


def test_a_torn_line_in_the_middle_is_dropped_and_every_whole_line_before_and_after_is_kept(tmp_path):
    a, b, c = _journal_of(tmp_path, ("a", "b", "c"))
    # A store that answered after a short write, then wrote on: b's beginning runs into c.
    (tmp_path / JOURNAL_FILE).write_bytes(a + b"\n" + b[: len(b) // 2] + c + b"\n")
    restarted = start(tmp_path)
    assert set(stored(restarted)) == {"K#a", "K#c"}
    assert len(restarted.notes) == 1 and "line 2" in restarted.notes[0] and "torn write" in restarted.notes[0]


def test_a_torn_line_at_the_end_is_dropped_and_cut_off_the_journal(tmp_path):
    a, b = _journal_of(tmp_path, ("a", "b"))
    (tmp_path / JOURNAL_FILE).write_bytes(a + b"\n" + b[:-3])
    restarted = start(tmp_path)
    assert set(stored(restarted)) == {"K#a"}
    assert "torn write" in restarted.notes[0]


def test_a_line_that_fails_its_checksum_stops_the_start_with_what_to_do_and_the_command_works(tmp_path):
    a, b, c = _journal_of(tmp_path, ("a", "b", "c"))
    damaged = b.replace(b"K#b", b"K#x")  # the disk changed a byte: no whole line is left in it
    (tmp_path / JOURNAL_FILE).write_bytes(b"\n".join([a, damaged, c]) + b"\n")
    with pytest.raises(StoreDataError) as refused:
        start(tmp_path)
    message = str(refused.value)
    assert "line 2" in message and "fails its checksum" in message
    assert f"python -m local.journal --drop-damaged {tmp_path}" in message
    assert journal.main(["--drop-damaged", str(tmp_path)]) == 0
    assert set(stored(start(tmp_path))) == {"K#a", "K#c"}
    assert (tmp_path / (JOURNAL_FILE + journal.DAMAGED_SUFFIX)).read_bytes() == damaged + b"\n"


def test_a_journal_of_the_format_without_checksums_is_read_torn_lines_included(tmp_path):
    """Lines written before lines had checksums (`[[key, image], ...]`), with a torn one in the
    middle as the old store left it on a full disk."""
    old = [
        json.dumps([[{"pk": {"S": f"K#{n}"}, "sk": {"S": "A"}}, item(n)]], separators=(",", ":")).encode()
        for n in "abc"
    ]
    (tmp_path / JOURNAL_FILE).write_bytes(old[0] + b"\n" + old[1][:20] + old[2] + b"\n")
    restarted = start(tmp_path)
    assert set(stored(restarted)) == {"K#a", "K#c"}
    assert (tmp_path / JOURNAL_FILE).read_bytes() == b"", (
        "compacted: the journal is in the new format from now on"
    )


def test_kill_9_after_a_torn_line_loses_nothing_acknowledged(tmp_path):
    """The store killed while a line was half written (its request never answered): the next
    start keeps every acknowledged line, and lines written after it stay readable."""
    import subprocess
    import sys

    script = f"""
import os, sys
from moto import mock_aws
from local import journal, moto_patches
from local.durable import DurableTable, report_writes_to
from local.moto_server import create_table
from pathlib import Path
with mock_aws():
    moto_patches.install()
    durable = DurableTable(Path({str(tmp_path)!r}), create_table("us-east-1", "wordsqd"))
    report_writes_to(durable)
    durable.load()
    for n in ("a", "b"):
        durable.table.put_item({{"pk": {{"S": "K#" + n}}, "sk": {{"S": "A"}}}})
        durable.commit()
    durable.write = lambda fd, data: os.write(fd, data[:11]) if os.kill(os.getpid(), 9) is None else 0
    durable.table.put_item({{"pk": {{"S": "K#c"}}, "sk": {{"S": "A"}}}})
    durable.commit()
"""
    killed = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).parents[2], timeout=120)
    assert killed.returncode == -9
    assert set(stored(start(tmp_path))) == {"K#a", "K#b"}


@pytest.fixture
def full_disk(tmp_path):
    """(folder, write): a 64 KiB tmpfs and os.write, where this process may mount one (root, as
    CI runs); elsewhere a folder whose journal writes meet an injected 40 KiB limit, short writes
    included, so the test runs everywhere."""
    import subprocess

    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True, check=False
    )
    if mounted.returncode != 0:
        yield folder, _short_writes(40 * 1024)[0]
        return
    try:
        yield folder, os.write
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_on_a_disk_that_fills_every_acknowledged_write_survives_and_the_refused_one_is_not_kept(full_disk):
    folder, write = full_disk
    durable = start(folder)
    durable.write = write
    acknowledged = []
    for number in range(1000):
        durable.table.put_item(item(f"{number}", blob={"S": "x" * 1500}))
        try:
            durable.commit()
        except OSError as error:
            assert error.errno == errno.ENOSPC
            refused = f"K#{number}"
            break
        acknowledged.append(f"K#{number}")
    else:
        pytest.fail("the disk never filled")
    raw = (folder / JOURNAL_FILE).read_bytes()
    assert raw.endswith(b"\n") and journal.read(raw).notes == [], "only whole lines on disk"
    restarted = start(folder)  # the disk still full: started from the journal, not compacted
    assert set(stored(restarted)) == set(acknowledged) and refused not in stored(restarted)
    assert len(acknowledged) > 5
