"""The embedded store's journal lines (local/durable.py): how one is written, and how a journal is
read back whole after a crash or a full disk.

A line is `CRC PAYLOAD\\n`: PAYLOAD the request's entries as compact JSON (`[[key, image], ...]`,
an image null once its item is deleted), CRC its zlib CRC-32 in 8 lowercase hex digits. A line is
acknowledged only once it is on disk whole, checksum and newline included, so:

- a *torn* write (the store killed in the middle of one, or a disk that filled under it: its
  request was never answered) is a line's beginning without its end. At the journal's end it is
  the bytes after the last newline; in the middle (lines written after it, as a store before this
  format could) it runs into the next line, which is found whole inside it and kept. Both are
  dropped at the next start and said so in moto.log;
- a line that fails its checksum and holds no whole line is *damaged* (the disk changed it): an
  acknowledged write may be in it, so the store refuses to start and says which line, what is
  readable around it, and the one command that starts without it (`python -m local.journal`).

Journals written before lines had checksums (lines that begin with `[`) are read as well: such a
line is whole when it parses; a start compacts every line into the snapshot, so the first start
after an upgrade is their migration.
"""

import argparse
import json
import re
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Entries = list[list[Any]]  # [[key, image or None], ...]

_HEADER = re.compile(rb"[0-9a-f]{8} ")
_OLD_START = b"[["  # a line of the format without checksums
DAMAGED_SUFFIX = ".damaged"


class JournalDamaged(Exception):
    """A line of the journal fails its checksum and holds no whole line."""


def encode(entries: Entries, default: Callable[[Any], Any] | None = None) -> bytes:
    """ENTRIES as one journal line, newline included."""
    payload = json.dumps(entries, separators=(",", ":"), default=default).encode()
    return b"%08x %s\n" % (zlib.crc32(payload), payload)


def _whole(line: bytes) -> Entries | None:
    """The entries of LINE (without its newline) if it is one whole line, else None."""
    if _HEADER.match(line):
        payload = line[9:]
        if int(line[:8], 16) != zlib.crc32(payload):
            return None
        return _entries(payload)
    if line.startswith(_OLD_START):
        return _entries(line)
    return None


def _entries(payload: bytes) -> Entries | None:
    try:
        entries = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(entries, list) and all(isinstance(e, list) and len(e) == 2 for e in entries)):
        return None
    return entries


def _whole_after_a_torn_write(line: bytes) -> tuple[int, Entries] | None:
    """Where a whole line starts inside LINE after a torn write's bytes, and its entries. Only a
    line of the old format can hold an old-format one: a checksummed line's own payload must not
    pass for one."""
    starts = {m.start() for m in _HEADER.finditer(line, 1)}
    if line.startswith(_OLD_START):
        starts |= {m.start() for m in re.finditer(re.escape(_OLD_START), line) if m.start() > 0}
    for start in sorted(starts):
        entries = _whole(line[start:])
        if entries is not None:
            return start, entries
    return None


@dataclass
class Reading:
    """A journal read back: the entries of its whole lines in order, what was dropped, and where
    its whole lines end (the bytes after are a torn write at its end)."""

    entries: list[Entries] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    whole_bytes: int = 0
    damaged: list[tuple[int, int, int]] = field(default_factory=list)  # (line, offset, length)


def read(raw: bytes) -> Reading:
    """Every whole line of RAW, a journal's bytes; torn writes dropped (with a note each),
    damaged lines listed in `damaged` (their entries are not in `entries`)."""
    reading = Reading()
    offset = 0
    lines = raw.split(b"\n")
    for number, line in enumerate(lines[:-1], start=1):
        entries = _whole(line) if line else []
        if entries is None:
            found = _whole_after_a_torn_write(line)
            if found is None:
                reading.damaged.append((number, offset, len(line)))
            else:
                start, entries = found
                reading.notes.append(
                    f"line {number} (byte {offset}): {start} bytes of a torn write (a request never "
                    "answered) dropped before a whole line"
                )
        if entries:
            reading.entries.append(entries)
        offset += len(line) + 1
    reading.whole_bytes = offset
    if lines[-1]:
        reading.notes.append(
            f"byte {offset}: the last {len(lines[-1])} bytes, a torn write (a request never "
            "answered), dropped"
        )
    return reading


def damage_report(path: Path, reading: Reading) -> str:
    """What the store says when it refuses to start: which lines, and exactly what to do."""
    total = len(reading.entries) + len(reading.damaged)
    where = ", ".join(f"line {n} (byte {offset}, {length} bytes)" for n, offset, length in reading.damaged)
    return (
        f"{path}, {where}: fails its checksum and holds no whole line: the disk changed it, and a "
        f"write acknowledged to a player may be in it; the other {total - len(reading.damaged)} "
        f"lines are whole. Restore {path.parent} from a copy, or start without the damaged "
        f"line(s) (kept in {path}{DAMAGED_SUFFIX}): "
        f"`.venv/bin/python -m local.journal --drop-damaged {path.parent}`, then `make run`"
    )


def drop_damaged(path: Path) -> int:
    """Rewrite the journal at PATH without its damaged lines (appended to PATH.damaged first);
    returns how many were dropped."""
    raw = path.read_bytes()
    reading = read(raw)
    if not reading.damaged:
        return 0
    cut = {offset for _, offset, _ in reading.damaged}
    kept: list[bytes] = []
    removed: list[bytes] = []
    offset = 0
    for line in raw[: reading.whole_bytes].split(b"\n")[:-1]:
        (removed if offset in cut else kept).append(line + b"\n")
        offset += len(line) + 1
    with open(f"{path}{DAMAGED_SUFFIX}", "ab") as file:
        file.write(b"".join(removed))
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(b"".join(kept))
    temporary.replace(path)
    return len(removed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start the embedded store without damaged journal lines")
    parser.add_argument("--drop-damaged", type=Path, required=True, metavar="DATA_DIR")
    args = parser.parse_args(argv)
    path = args.drop_damaged / "dynamodb.journal"
    dropped = drop_damaged(path)
    print(f"{path}: {dropped} damaged line(s) moved to {path}{DAMAGED_SUFFIX}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
