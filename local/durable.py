"""The embedded store's table on disk (docs/local.md): a snapshot and a journal in DATA_DIR,
kept by the store's own process (local/moto_server.py), which applies one request at a time.

- `dynamodb.journal`: one line per request that changed the table, appended under the store's
  lock and flushed to the disk (fdatasync) before that request is answered, and before any
  request that could have read it is. The flush is taken outside the lock, so one covers every
  line appended meanwhile (a group commit), and requests apply while another's line is flushed.
  A line holds the after-image of every item the request touched (its key and its attributes,
  or null once deleted), so replaying a line twice changes nothing.
- `dynamodb.json`: the snapshot, every item as the request layer writes it (DynamoDB JSON). The
  journal is compacted into it (written whole to a temporary file, flushed, renamed over the old
  one, then the journal emptied) once the journal has grown past the snapshot's size, and when
  the store stops. Taken under the store's lock, so it is one moment of the table.
- On start: the snapshot, then every whole line of the journal on top of it, leave out the
  items whose TTL has passed, put what is left into the fresh table (each a stream INSERT, so
  the stream consumer sees every item again: counting is idempotent), compact.

A line is acknowledged only once written whole: `os.write` is called again for what a short write
left, and when the disk refuses the rest the journal is cut back to its last whole line and the
request refused (`failed` is set: the table in memory holds a write the disk does not, so the
store answers nothing more and exits; local/moto_server.py). Each line carries a checksum, so a
start keeps every whole line around a torn one and refuses a damaged one (local/journal.py).
A compaction that finds the disk full leaves the journal as it is and is tried again later.
"""

import base64
import errno
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from moto.dynamodb.models.table import Table

from local import journal, moto_patches
from local.moto_patches import Key
from shared.dynamo.table import TTL_ATTRIBUTE

SNAPSHOT_FILE = "dynamodb.json"
JOURNAL_FILE = "dynamodb.journal"
COMPACT_MIN_BYTES = 8 * 1024 * 1024  # the journal is compacted past max(this, the snapshot's size)


class StoreDataError(Exception):
    """The saved data cannot be read back whole."""


DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
Image = dict[str, Any]  # an item's attributes, or a key, in DynamoDB JSON


class DurableTable:
    """One moto table with its writes journaled. Every call but `sync` is made under the store's
    lock. WRITE is `os.write` (tests hand in one that writes short)."""

    def __init__(self, data_dir: Path, table: Table, write: Callable[[int, bytes], int] = os.write):
        self.table = table
        self.write = write
        self.failed: OSError | None = None  # once a line could not be kept: nothing more is applied
        self.notes: list[str] = []  # what the last load dropped (torn writes), for moto.log
        self.snapshot_path = data_dir / SNAPSHOT_FILE
        self.journal_path = data_dir / JOURNAL_FILE
        self.touched: dict[Key, None] = {}  # in the order first touched
        self._journal_fd = -1
        self._journal_bytes = 0
        self._snapshot_bytes = 0
        # Positions in everything ever appended (across compactions): appended, and on disk.
        self._appended = 0
        self._synced = 0
        self._sync_lock = threading.Lock()

    # What changed: the backend's writes report the keys they touch (install_hooks) ------------

    def touch(self, table: Table, key: Key) -> None:
        if table is self.table:
            self.touched[key] = None

    def commit(self) -> None:
        """Append the after-images of the items touched since the last commit, on disk before
        this returns."""
        self.sync(self.append())

    def append(self) -> int:
        """Append the after-images of the items touched since the last append (not yet flushed);
        returns the position `sync` must reach before the request is answered: the end of the
        journal, since the request may have read a write not yet on disk."""
        if self.failed:
            raise self.failed
        if self.touched:
            entries = [[self._key_json(key), self._image(key)] for key in self.touched]
            self.touched.clear()
            self._write_whole(journal.encode(entries, default=_base64))
        return self._appended

    def _write_whole(self, line: bytes) -> None:
        """LINE appended whole, or not at all: a short write is continued, a refused one cut back."""
        written = 0
        try:
            while written < len(line):
                count = self.write(self._journal_fd, line[written:])
                if count <= 0:
                    raise OSError(errno.ENOSPC, "the journal took no more bytes")
                written += count
        except OSError as error:
            self.failed = error
            if written:
                os.ftruncate(self._journal_fd, self._journal_bytes)  # back to the last whole line
            raise
        self._journal_bytes += len(line)
        self._appended += len(line)

    def sync(self, position: int) -> None:
        """Return once the journal is on disk up to POSITION (`append`), flushing it if need be:
        one flush covers every line appended before it. Called outside the store's lock."""
        with self._sync_lock:
            if self._synced >= position:
                return
            if self.failed:
                raise self.failed
            reached = self._appended  # written (os.write returned) before it was counted
            try:
                os.fdatasync(self._journal_fd)
            except OSError as error:
                self.failed = error
                raise
            self._synced = max(self._synced, reached)

    def wants_compaction(self) -> bool:
        return self._journal_bytes > max(COMPACT_MIN_BYTES, self._snapshot_bytes)

    # Start and compaction -------------------------------------------------------------------

    def load(self, now: float | None = None) -> int:
        """Put the saved items (snapshot, then journal) into the empty table, leaving out those
        whose TTL has passed (moto never expires items, DynamoDB would have deleted them);
        compact; returns how many items were put."""
        items: dict[str, Image] = {}
        if self.snapshot_path.exists():
            try:
                for image in json.loads(self.snapshot_path.read_text())["items"]:
                    items[self._key_text(image)] = image
            except (ValueError, KeyError, TypeError) as error:
                raise StoreDataError(f"cannot read {self.snapshot_path}: {error}") from error
        self._replay(items)
        moment = time.time() if now is None else now
        kept = [image for image in items.values() if not _expired(image, moment)]
        for image in kept:
            self.table.put_item(image)
        self.touched.clear()
        self._journal_fd = os.open(self.journal_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._journal_bytes = os.fstat(self._journal_fd).st_size
        try:
            self.compact()
        except OSError as error:
            if error.errno not in DISK_FULL:
                raise
            # Every line is still in the journal: serve from it, compact once there is room.
            self.notes.append(f"not compacted at start, the disk is full: {error}")
            self._snapshot_bytes = self.snapshot_path.stat().st_size if self.snapshot_path.exists() else 0
        return len(kept)

    def compact(self) -> int:
        """Write the whole table as the snapshot, then empty the journal; returns the item count.
        A crash at any point leaves a snapshot and a journal that together hold every write."""
        images = [item.to_json()["Attributes"] for item in self.table.all_items()]
        data = json.dumps({"table": self.table.name, "items": images}, default=_base64).encode()
        temporary = self.snapshot_path.with_name(SNAPSHOT_FILE + ".tmp")
        try:
            with open(temporary, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
        except OSError:
            temporary.unlink(missing_ok=True)  # a partial snapshot would only hold the disk's room
            raise
        os.replace(temporary, self.snapshot_path)
        _fsync_directory(self.snapshot_path.parent)
        # Only now: the journal's lines are all in the snapshot (replaying them again is harmless).
        os.ftruncate(self._journal_fd, 0)
        os.fsync(self._journal_fd)
        self._journal_bytes = 0
        with self._sync_lock:  # everything appended so far is in the snapshot, on disk
            self._synced = max(self._synced, self._appended)
        self._snapshot_bytes = len(data)
        return len(images)

    def close(self) -> None:
        if self._journal_fd >= 0:
            os.close(self._journal_fd)
            self._journal_fd = -1

    def _replay(self, items: dict[str, Image]) -> None:
        if not self.journal_path.exists():
            return
        raw = self.journal_path.read_bytes()
        reading = journal.read(raw)
        if reading.damaged:
            raise StoreDataError(journal.damage_report(self.journal_path, reading))
        self.notes += [f"{self.journal_path}, {note}" for note in reading.notes]
        for entries in reading.entries:
            try:
                for key, image in entries:
                    if image is None:
                        items.pop(self._key_text(key), None)
                    else:
                        items[self._key_text(image)] = image
            except (KeyError, TypeError) as error:
                raise StoreDataError(f"{self.journal_path}: an entry without its key: {error}") from error
        if reading.whole_bytes < len(raw):  # a torn write at the end: never answered
            with open(self.journal_path, "r+b") as file:
                file.truncate(reading.whole_bytes)
                file.flush()
                os.fsync(file.fileno())

    # Keys and images ---------------------------------------------------------------------

    def _key_json(self, key: Key) -> Image:
        hash_key, range_key = key
        image = {self.table.hash_key_attr: hash_key.to_json()}
        if self.table.range_key_attr is not None and range_key is not None:
            image[self.table.range_key_attr] = range_key.to_json()
        return image

    def _key_text(self, image: Image) -> str:
        names = [self.table.hash_key_attr, self.table.range_key_attr]
        return json.dumps([image[name] for name in names if name], sort_keys=True)

    def _image(self, key: Key) -> Image | None:
        item = self.table.get_item(*key)
        return None if item is None else item.to_json()["Attributes"]


def report_writes_to(durable: DurableTable) -> None:
    """Have the backend report every item it writes to DURABLE (a put, a delete, an update,
    whether on its own, in a batch or in a transaction; local/moto_patches.py)."""
    moto_patches.observers.append(durable.touch)


def _expired(image: Image, now: float) -> bool:
    ttl = image.get(TTL_ATTRIBUTE, {}).get("N")
    return ttl is not None and float(ttl) <= now


def _base64(value: object) -> str:
    """JSON has no bytes: a binary value moto holds as bytes is written as base64, as on the wire."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    raise TypeError(f"cannot save {type(value).__name__}")


def _fsync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
