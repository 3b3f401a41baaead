"""Display names (SPEC §5): the format, the look-alike skeleton, the reserved prefix, the blocklist."""

import hashlib
import re
from functools import cache

from shared.game.dictionary import DICTIONARY_DIR
from shared.game.errors import BadRequest
from shared.game.rules import ascii_lower

_NAME = re.compile(r"[A-Za-z0-9_\- ]{3,20}")
_LEAGUE_NAME = re.compile(r"[A-Za-z0-9_\- ]{3,30}")
DEFAULT_PREFIX = "player-"
# What the board rows of an erased player show (`DELETE /me`); no player may take it.
DELETED_PLAYER_NAME = "deleted player"
_LOOK_ALIKES = str.maketrans("01i5", "olls")
_SEPARATORS = re.compile(r"[ _-]+")
# For the blocklist check only, digits and `@` read as the letters they stand in for (SPEC §5),
# on top of the skeleton's own look-alikes. `@` is no display-name character; league names and
# any other name checked here get the same reading.
_LEET = str.maketrans("347@", "eata")


def default_display_name(player: str) -> str:
    """Until a player sets a name: `player-` and 4 characters derived from the player's id."""
    return DEFAULT_PREFIX + hashlib.sha256(player.encode()).hexdigest()[:4]


def name_skeleton(name: str) -> str:
    """Names that look alike are the same name: lowercased; `0`→`o`; `1`, `i`, `l` → `l`;
    `5`→`s`; each run of spaces, `_` and `-` → one `-` (`BiII`, `Bi11` and `Bill` are `blll`)."""
    return _SEPARATORS.sub("-", ascii_lower(name).translate(_LOOK_ALIKES))


def _skeletons(file: str) -> frozenset[str]:
    lines = (DICTIONARY_DIR / file).read_text(encoding="utf-8").splitlines()
    return frozenset(name_skeleton(line) for line in lines if line and not line.startswith("#"))


@cache
def _blocked() -> frozenset[str]:
    """The blocklist (dictionary/blocklist.txt) as skeletons, three-letter words included."""
    return _skeletons("blocklist.txt")


@cache
def _innocent() -> frozenset[str]:
    """Innocent words that contain a blocked one (dictionary/name-allowlist.txt), as skeletons."""
    return _skeletons("name-allowlist.txt")


def _spans(text: str, words: frozenset[str]) -> list[tuple[int, int]]:
    """Where each of WORDS occurs in TEXT (overlapping occurrences included), as (start, end)."""
    spans = []
    for word in words:
        start = text.find(word)
        while start >= 0:
            spans.append((start, start + len(word)))
            start = text.find(word, start + 1)
    return spans


def contains_blocked_word(name: str) -> bool:
    """Whether the name, read as its skeleton with separators removed and `3`→e, `4`→a, `7`→t,
    `@`→a, contains a blocklisted word, three-letter ones included (`f a g`, `F-A-G`, `c_u_m`).

    An occurrence is excused only when an innocent word of dictionary/name-allowlist.txt covers
    it within one word of the name, that is, between separators (`About me`, `Cucumber`,
    `JewelThief`): joining words to make an innocent one (`Cum in`, `a bout`) excuses nothing."""
    parts = name_skeleton(name.translate(_LEET)).split("-")
    joined = "".join(parts)
    excused: list[tuple[int, int]] = []
    offset = 0
    for part in parts:
        excused += [(offset + start, offset + end) for start, end in _spans(part, _innocent())]
        offset += len(part)
    return any(
        not any(a <= start and end <= b for a, b in excused) for start, end in _spans(joined, _blocked())
    )


def has_letter_or_digit(name: str) -> bool:
    """A name made only of spaces, `_` and `-` (`_-_`) names nobody: it needs a letter or a digit."""
    return any(c.isascii() and c.isalnum() for c in name)


def check_display_name(name: str) -> str:
    """3-20 ASCII letters, digits, spaces, `_` or `-`, at least one letter or digit, no leading or
    trailing space, not looking like `player-…`, and no blocklisted word. Uniqueness of the
    skeleton is the store's conditional write."""
    if not _NAME.fullmatch(name):
        raise BadRequest("A display name is 3-20 letters, digits, spaces, _ or -", "invalid_display_name")
    if name != name.strip(" "):
        raise BadRequest("A display name may not start or end with a space", "invalid_display_name")
    if not has_letter_or_digit(name):
        raise BadRequest("A display name needs at least one letter or digit", "invalid_display_name")
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
    if not _LEAGUE_NAME.fullmatch(name) or name != name.strip(" ") or not has_letter_or_digit(name):
        raise BadRequest(
            "A league name is 3-30 letters, digits, spaces, _ or -, at least one letter or digit,"
            " not starting or ending with a space",
            "invalid_league_name",
        )
    if contains_blocked_word(name):
        raise BadRequest("That league name is not allowed", "league_name_not_allowed")
    return name
