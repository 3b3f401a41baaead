"""Display names (SPEC §5): the format, the look-alike skeleton, the reserved prefix, the blocklist."""

import hashlib
import re
from functools import cache

from shared.dictionary import DICTIONARY_DIR
from shared.errors import BadRequest
from shared.rules import ascii_lower

_NAME = re.compile(r"[A-Za-z0-9_\- ]{3,20}")
_LEAGUE_NAME = re.compile(r"[A-Za-z0-9_\- ]{3,30}")
DEFAULT_PREFIX = "player-"
# What the board rows of an erased player show (`DELETE /me`); no player may take it.
DELETED_PLAYER_NAME = "deleted player"
_LOOK_ALIKES = str.maketrans("01i5", "olls")
_SEPARATORS = re.compile(r"[ _-]+")
_WHOLE_WORDS = re.compile(r"[a-z]+")
# Three-letter blocklisted words hide inside innocent names ("about", "jewel"), so they count only
# as a whole word of the name; longer ones count anywhere.
_SHORTEST_INSIDE = 4


def default_display_name(player: str) -> str:
    """Until a player sets a name: `player-` and 4 characters derived from the player's id."""
    return DEFAULT_PREFIX + hashlib.sha256(player.encode()).hexdigest()[:4]


def name_skeleton(name: str) -> str:
    """Names that look alike are the same name: lowercased; `0`→`o`; `1`, `i`, `l` → `l`;
    `5`→`s`; each run of spaces, `_` and `-` → one `-` (`BiII`, `Bi11` and `Bill` are `blll`)."""
    return _SEPARATORS.sub("-", ascii_lower(name).translate(_LOOK_ALIKES))


@cache
def _blocked_skeletons() -> tuple[frozenset[str], frozenset[str]]:
    """The blocklist (dictionary/blocklist.txt) as skeletons: (3-letter words, longer words)."""
    lines = (DICTIONARY_DIR / "blocklist.txt").read_text(encoding="utf-8").splitlines()
    words = {name_skeleton(line) for line in lines if line and not line.startswith("#")}
    short = frozenset(w for w in words if len(w) < _SHORTEST_INSIDE)
    return short, frozenset(words - short)


def contains_blocked_word(name: str) -> bool:
    """Whether the name's skeleton (also with separators removed) contains a blocklisted word."""
    skeleton = name_skeleton(name)
    short, long = _blocked_skeletons()
    joined = skeleton.replace("-", "")
    if any(word in skeleton or word in joined for word in long):
        return True
    return any(part in short for part in _WHOLE_WORDS.findall(skeleton))


def check_display_name(name: str) -> str:
    """3-20 ASCII letters, digits, spaces, `_` or `-`, no leading or trailing space, not looking
    like `player-…`, and no blocklisted word. Uniqueness of the skeleton is the store's
    conditional write."""
    if not _NAME.fullmatch(name):
        raise BadRequest("A display name is 3-20 letters, digits, spaces, _ or -", "invalid_display_name")
    if name != name.strip(" "):
        raise BadRequest("A display name may not start or end with a space", "invalid_display_name")
    if name_skeleton(name).startswith(name_skeleton(DEFAULT_PREFIX)):
        raise BadRequest(f"A display name may not look like {DEFAULT_PREFIX}…", "invalid_display_name")
    if name_skeleton(name) == name_skeleton(DELETED_PLAYER_NAME):
        raise BadRequest(f"A display name may not look like {DELETED_PLAYER_NAME}", "invalid_display_name")
    if contains_blocked_word(name):
        raise BadRequest("That display name is not allowed", "display_name_not_allowed")
    return name


def check_league_name(name: str) -> str:
    """A league's name is checked like a display name, 3-30 characters long: the same letters,
    digits, spaces, `_` and `-`, no leading or trailing space, and no blocklisted word (looked for
    in the look-alike skeleton). League names need not be unique."""
    if not _LEAGUE_NAME.fullmatch(name) or name != name.strip(" "):
        raise BadRequest(
            "A league name is 3-30 letters, digits, spaces, _ or -, not starting or ending with a space",
            "invalid_league_name",
        )
    if contains_blocked_word(name):
        raise BadRequest("That league name is not allowed", "league_name_not_allowed")
    return name
