"""Display names (SPEC §5)."""

import hashlib
import re

from shared.errors import BadRequest

_NAME = re.compile(r"[A-Za-z0-9_\- ]{3,20}")
DEFAULT_PREFIX = "player-"


def default_display_name(player: str) -> str:
    """Until a player sets a name: `player-` and 4 characters derived from the player's id."""
    return DEFAULT_PREFIX + hashlib.sha256(player.encode()).hexdigest()[:4]


def check_display_name(name: str) -> str:
    """3-20 ASCII letters, digits, spaces, `_` or `-`, no leading or trailing space, not starting
    with `player-` (any case). Uniqueness, case-insensitive, is the store's conditional write."""
    if not _NAME.fullmatch(name):
        raise BadRequest("A display name is 3-20 letters, digits, spaces, _ or -", "invalid_display_name")
    if name != name.strip(" "):
        raise BadRequest("A display name may not start or end with a space", "invalid_display_name")
    if name.lower().startswith(DEFAULT_PREFIX):
        raise BadRequest(f"A display name may not start with {DEFAULT_PREFIX}", "invalid_display_name")
    return name
