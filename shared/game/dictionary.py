"""The word list, loaded once per process."""

from functools import cache
from pathlib import Path

DICTIONARY_DIR = Path(__file__).resolve().parents[2] / "dictionary"


@cache
def words() -> frozenset[str]:
    """Every playable word (dictionary/words.txt: lowercase a-z, one a line)."""
    return frozenset((DICTIONARY_DIR / "words.txt").read_text(encoding="ascii").split())
