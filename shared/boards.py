"""Boards (SPEC §4): order, shared ranks, shards, cursors and when words may be shown.

Order: score, then best combo, then longest-word length, all descending; rows equal on all
three share a rank (1, 2, 2, 4), the earlier official completion listed first. The order is
encoded in one sortable string, the *rank key*, so DynamoDB keeps each shard sorted.
"""

import base64
import hashlib
import hmac
import json
from datetime import date, datetime, timedelta
from typing import Any

from shared.constants import TIME_LIMIT_SECONDS
from shared.daily_date import reset_instant
from shared.errors import BadRequest

# Official results (and rank counters) of one board are spread over this many partitions so the
# midnight rush is not bounded by one hot partition (~1,000 writes/s each).
BOARD_SHARDS = 8

_MAX = 10**8 - 1  # rank keys store `_MAX - value`, so ascending keys mean descending values


def scope_of(day: str, challenge_id: str | None = None) -> str:
    """What a run counts for, and whose board it is: a challenge if it names one, else the Daily
    of DAY. Stored keys (official results, counters, board partitions) are built from it."""
    return f"CHALLENGE#{challenge_id}" if challenge_id else f"DAILY#{day}"


def shard_of(key: str, shards: int = BOARD_SHARDS) -> int:
    """A stable shard number for a player or run id."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") % shards


def tie_key(score: int, best_combo: int, longest: int) -> tuple[int, int, int]:
    """What decides a rank: rows with the same tie key share it."""
    return (score, best_combo, longest)


def rank_key(score: int, best_combo: int, longest: int, completed_at: str, run_id: str) -> str:
    """A string that sorts rows in board order (best first; earlier completion first on ties).
    It ends with the run id, not the player's, because cursors carry it to clients."""
    return f"{_MAX - score:08d}#{_MAX - best_combo:08d}#{_MAX - longest:08d}#{completed_at}#{run_id}"


def assign_ranks(
    tie_keys: list[tuple[int, int, int]],
    position: int,
    previous: tuple[int, int, int] | None,
    previous_rank: int,
) -> list[int]:
    """Ranks for rows in board order that follow `position` rows already shown (the last of them
    with tie key `previous` and rank `previous_rank`): equal rows share a rank, the next row
    takes its position (1, 2, 2, 4)."""
    ranks = []
    for offset, key in enumerate(tie_keys):
        rank = previous_rank if key == previous else position + offset + 1
        ranks.append(rank)
        previous, previous_rank = key, rank
    return ranks


def daily_closes_at(day: date) -> datetime:
    """A Daily date's words may be shown from its reset plus the run time limit: a run started
    just before midnight may still be played until then."""
    return reset_instant(day + timedelta(days=1)) + timedelta(seconds=TIME_LIMIT_SECONDS)


def encode_cursor(payload: dict[str, Any], key: bytes) -> str:
    """An opaque, signed cursor: clients pass it back unchanged."""
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    signature = hmac.new(key, body, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(signature + body).decode().rstrip("=")


def decode_cursor(cursor: str, key: bytes) -> dict[str, Any]:
    """The payload of a cursor made by `encode_cursor`; BadRequest for anything else."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        signature, body = raw[:16], raw[16:]
        if not hmac.compare_digest(signature, hmac.new(key, body, hashlib.sha256).digest()[:16]):
            raise ValueError("bad signature")
        payload = json.loads(body)
        if not isinstance(payload, dict):
            raise ValueError("not an object")
        return payload
    except (ValueError, TypeError) as error:
        raise BadRequest("The cursor is not one this API gave out", "invalid_cursor") from error
