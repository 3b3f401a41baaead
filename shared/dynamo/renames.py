"""A rename's record for the boards, on DynamoDB: the `PLAYER#<sub>` / `RENAME` item.

`PUT /me` writes it in the transaction that claims the name and sets it on the profile
(shared/dynamo/store.py `set_display_name`), with a fresh token each time, so every rename (the same
name set again included) is one stream record. The stream consumer (functions/leaderboard/
counters.py) takes each INSERT or MODIFY of such an item and shows the profile's current name on
the player's live boards (shared/services/players.py `show_current_name`); the stack's event source
filters on the same sort key (infra/schedule.py), and `make run`'s poller too (local/streams.py).
"""

import secrets
from typing import Any

RENAME_SK = "RENAME"
_PLAYER_PREFIX = "PLAYER#"


def rename_item(player: str, name: str) -> dict[str, Any]:
    """The rename's item (DynamoDB JSON): who, the name set, and a token of its own."""
    return {
        "pk": {"S": f"{_PLAYER_PREFIX}{player}"},
        "sk": {"S": RENAME_SK},
        "name": {"S": name},
        "token": {"S": secrets.token_hex(8)},
    }


def renamed_player(event_name: str, keys: dict[str, Any]) -> str | None:
    """The player whose rename a stream record (its eventName and Keys) carries, else None."""
    if event_name not in ("INSERT", "MODIFY") or keys.get("sk", {}).get("S") != RENAME_SK:
        return None
    partition = keys.get("pk", {}).get("S", "")
    return partition.removeprefix(_PLAYER_PREFIX) if partition.startswith(_PLAYER_PREFIX) else None
