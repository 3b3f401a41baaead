"""The word list's reviewed policy inputs, read by build.py (README.md, "A family game's list",
"Words of today", "The round floor"): the two public profanity lists every accepted word is
checked against, the reviewed decisions, the reviewed words of today, and wordfreq's ranking of
clean words that the round floor counts in. Build time only: nothing here runs in the game.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import re
from collections.abc import Callable, Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent

# LDNOOBW's English list, committed as data (profanity/README.md: source, commit and licence).
LDNOOBW = HERE / "profanity" / "ldnoobw-en.txt"
# better_profanity's list, read from the installed package (pinned: another release may add words).
BETTER_PROFANITY = "better_profanity"
BETTER_PROFANITY_VERSION = "0.7.0"
BETTER_PROFANITY_FILE = "profanity_wordlist.txt"

WORD = re.compile(r"[a-z]+")


class PolicyError(Exception):
    """A reviewed input that is malformed or a package of the wrong version."""


def single_words(text: str) -> frozenset[str]:
    """A list's entries that are one lowercase a-z word (`dildo`, not `2 girls 1 cup`)."""
    return frozenset(line.strip() for line in text.split("\n") if WORD.fullmatch(line.strip()))


def profanity_lists() -> dict[str, frozenset[str]]:
    """The two public profanity lists, by name: each one's single lowercase words."""
    try:
        installed = importlib.metadata.version(BETTER_PROFANITY)
    except importlib.metadata.PackageNotFoundError:
        raise PolicyError(f"{BETTER_PROFANITY} is not installed: pip install '.[dictionary]'") from None
    if installed != BETTER_PROFANITY_VERSION:
        raise PolicyError(
            f"{BETTER_PROFANITY} {installed} is installed; the build is pinned to {BETTER_PROFANITY_VERSION}"
        )
    packaged = importlib.resources.files(BETTER_PROFANITY).joinpath(BETTER_PROFANITY_FILE)
    return {
        "LDNOOBW en": single_words(LDNOOBW.read_text(encoding="utf-8")),
        f"better_profanity {BETTER_PROFANITY_VERSION}": single_words(packaged.read_text(encoding="utf-8")),
    }


def read_reasons(path: Path, fields: int) -> dict[str, tuple[str, ...]]:
    """A reviewed file of `word<TAB>...` lines with FIELDS tab-separated fields after the word
    (decisions.txt: `block|keep`, the reason; today.txt: the reason). '#' and blank lines are
    comments; a word is lowercase a-z and listed once."""
    found: dict[str, tuple[str, ...]] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        word, *rest = line.split("\t")
        if not WORD.fullmatch(word) or len(rest) != fields or not all(r.strip() for r in rest):
            raise PolicyError(
                f"{path.name}:{lineno}: expected a lowercase word and {fields} tab-separated field(s)"
            )
        if word in found:
            raise PolicyError(f"{path.name}:{lineno}: {word!r} is listed twice")
        found[word] = tuple(rest)
    return found


def kept(decisions: dict[str, tuple[str, ...]]) -> frozenset[str]:
    """The words decisions.txt keeps, each with its written reason."""
    return frozenset(word for word, (verdict, _) in decisions.items() if verdict == "keep")


def broken_decisions(decisions: dict[str, tuple[str, ...]], words: set[str]) -> list[str]:
    """The decisions the word list does not hold: a `keep` word refused, a `block` or `out` word
    accepted, or a verdict that is none of the three."""
    return sorted(
        word
        for word, (verdict, _) in decisions.items()
        if verdict not in ("keep", "block", "out") or (word in words) != (verdict == "keep")
    )


def unreviewed_profanity(
    words: Iterable[str], profane: dict[str, frozenset[str]], keep: frozenset[str]
) -> dict[str, list[str]]:
    """The accepted WORDS a profanity list names that no `keep` decision gives a reason for, by
    list: the build stops on any (each such word is refused, or kept with a reason)."""
    accepted = set(words)
    return {
        name: sorted((listed & accepted) - keep)
        for name, listed in profane.items()
        if (listed & accepted) - keep
    }


def clean_ranking(count: int, refused: Callable[[str], bool], ranked: list[str]) -> list[str]:
    """The first COUNT clean words of wordfreq's RANKED list: a-z, 3+ letters (a prompt has 3),
    and not REFUSED on purpose (the blocklist, its rule, the profanity lists)."""
    clean = [w for w in ranked if len(w) >= 3 and WORD.fullmatch(w) and not refused(w)]
    if len(clean) < count:
        raise PolicyError(f"wordfreq's ranking holds {len(clean)} clean words, fewer than {count}")
    return clean[:count]
