"""The checks of SPEC §2: one pure function per check, and `judge`, which applies them in order.

The first check that fails is the verdict's reason. Checks are numbered as in SPEC §2 (1 length,
2 letters, 3 order, 4 forbidden, 5 dictionary); RULES.txt's rules are named by their titles.
No AWS here: this module is the game.
"""

import string
from collections.abc import Set
from typing import Literal, NamedTuple

from shared.game.constants import MAX_WORD_LENGTH

Reason = Literal["empty", "too_long", "not_letters", "letter_order", "forbidden_letter", "not_a_word"]

_ASCII_LETTERS = frozenset(string.ascii_letters)
# str.lower() maps some non-ASCII look-alikes to ASCII (the Kelvin sign K becomes k); this does not.
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def ascii_lower(word: str) -> str:
    """Lowercase A-Z only, so no other character can turn into a letter."""
    return word.translate(_ASCII_LOWER)


class Verdict(NamedTuple):
    valid: bool
    word: str
    reason: Reason | None


def length_reason(word: str) -> Reason | None:
    """Check 1: non-empty, at most 45 characters (code points)."""
    if not word:
        return "empty"
    if len(word) > MAX_WORD_LENGTH:
        return "too_long"
    return None


def is_plain_letters(word: str) -> bool:
    """Check 2: ASCII letters only: no space, hyphen, apostrophe, digit, punctuation, accent,
    full-width or zero-width character. The server does not trim."""
    return all(ch in _ASCII_LETTERS for ch in word)


def preserves_letter_order(word: str, prompt: str) -> bool:
    """Check 3: the prompt's letters appear in the (lowercased) word in order, each repeated
    prompt letter by a separate occurrence (TMR: TIMER yes, METER no; ALL: ALLEY yes, ALONE no)."""
    position = 0
    for letter in prompt.lower():
        position = word.find(letter, position) + 1
        if position == 0:
            return False
    return True


def avoids_forbidden_letters(word: str, forbidden: str) -> bool:
    """Check 4: no forbidden letter anywhere in the word (BRD forbidding A: BRAID fails)."""
    return not any(letter in word for letter in forbidden.lower())


def is_in_dictionary(word: str, dictionary: Set[str]) -> bool:
    """Check 5: exact membership of the lowercased word in the current dictionary. There is no
    classifier for names, brands, abbreviations or plurals (DOGS for DGS works iff `dogs` is listed)."""
    return word in dictionary


def judge(word: str, prompt: str, dictionary: Set[str], forbidden: str = "") -> Verdict:
    """Apply checks 1-5 in order; the first that fails is the reason. `word` in the verdict is lowercased."""
    reason = length_reason(word)
    if reason:
        return Verdict(False, ascii_lower(word), reason)
    if not is_plain_letters(word):
        return Verdict(False, ascii_lower(word), "not_letters")
    word = ascii_lower(word)
    if not preserves_letter_order(word, prompt):
        return Verdict(False, word, "letter_order")
    if not avoids_forbidden_letters(word, forbidden):
        return Verdict(False, word, "forbidden_letter")
    if not is_in_dictionary(word, dictionary):
        return Verdict(False, word, "not_a_word")
    return Verdict(True, word, None)
