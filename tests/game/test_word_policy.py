"""Words judged fairly (issue 54): identity words alike, a family game's list checked against the
public profanity lists, and no innocent word refused for holding a blocked one. On the committed
files; the build (dictionary/build.py) checks the same against both profanity lists."""

import re
from functools import cache
from pathlib import Path

import pytest

from shared.game.dictionary import words
from shared.game.rules import judge

DICT_DIR = Path(__file__).resolve().parents[2] / "dictionary"


def accepted(word: str) -> bool:
    return judge(word, word[:3].upper(), words()).valid


@cache
def decisions() -> dict[str, tuple[str, str]]:
    lines = (DICT_DIR / "decisions.txt").read_text(encoding="utf-8").split("\n")
    return {w: (verdict, why) for w, verdict, why in (ln.split("\t") for ln in lines if ln and ln[0] != "#")}


@cache
def identities() -> frozenset[str]:
    lines = (DICT_DIR / "identities.txt").read_text(encoding="utf-8").split("\n")
    return frozenset(line for line in lines if line and not line.startswith("#"))


# Identity words -------------------------------------------------------------------------------

# Each pair must be judged alike: a player who types one is told what one who types the other is.
PAIRS = [
    ("christian", "muslim"),
    ("christians", "muslims"),
    ("catholic", "jewish"),
    ("catholics", "jews"),
    ("christian", "jew"),
    ("protestant", "hindu"),
    ("protestants", "hindus"),
    ("baptist", "sikh"),
    ("baptists", "sikhs"),
    ("presbyterian", "buddhist"),
    ("evangelical", "mormon"),
    ("christianity", "islam"),
    ("catholicism", "judaism"),
    ("anglican", "islamic"),
    ("orthodox", "hinduism"),
    ("lutheran", "buddhism"),
    ("latino", "hispanic"),
    ("latinos", "hispanics"),
    ("african", "asian"),
    ("american", "chinese"),
    ("english", "hebrew"),
    ("french", "yiddish"),
    ("arabic", "swahili"),
    ("aboriginal", "maori"),
]


@pytest.mark.parametrize(("one", "other"), PAIRS, ids=[f"{a}/{b}" for a, b in PAIRS])
def test_identity_words_are_judged_alike(one, other):
    assert (accepted(one), accepted(other)) == (True, True)
    # Each is an identity word (identities.txt), or a lowercase word of SCOWL's own (`orthodox`).
    assert all(w in identities() or w in words() for w in (one, other))


@pytest.mark.parametrize("word", ["jew", "jews", "jewish", "muslim", "hindu", "sikh", "mormon", "hispanic"])
def test_decisions_say_why_the_identity_words_once_refused_are_words(word):
    verdict, reason = decisions()[word]
    assert verdict == "keep" and len(reason) > 20


@pytest.mark.parametrize("word", ["jewed", "jewing", "jewfish"])
def test_only_the_forms_that_are_never_neutral_are_refused(word):
    assert decisions()[word][0] == "block" and not accepted(word)


# A family game's list -------------------------------------------------------------------------


def ldnoobw() -> set[str]:
    text = (DICT_DIR / "profanity" / "ldnoobw-en.txt").read_text(encoding="utf-8")
    return {line for line in text.split("\n") if re.fullmatch(r"[a-z]+", line)}


def test_every_word_of_the_committed_profanity_list_is_refused_or_kept_with_a_reason():
    kept = {w for w, (verdict, _) in decisions().items() if verdict == "keep"}
    listed = ldnoobw()
    assert len(listed) > 250  # of its 403 entries, the single lowercase words
    assert sorted(w for w in listed if accepted(w) and w not in kept) == []


@pytest.mark.parametrize(
    "word",
    ["dildo", "clit", "cunnilingus", "fellatio", "threesome", "orgy", "porno", "masturbate", "twink", "hussy"]
    + ["dumbass", "horny", "pornography", "erotic", "bimbo", "rape", "orgasms", "kinky"],
)
def test_sexual_terms_and_vulgar_words_are_refused(word):
    assert not accepted(word)


@pytest.mark.parametrize(
    "word", ["penis", "vagina", "sex", "cock", "breasts", "nude", "escort", "screw", "spunk"]
)
def test_anatomy_innocent_senses_and_mild_words_are_kept_with_a_reason(word):
    assert accepted(word) and decisions()[word][0] == "keep"


# Everyday words that hold a blocked word (its letters in a row), from wordfreq's 30,000 most
# frequent, all accepted: the rule refuses only a blocked root with an ending or a whole word.
INNOCENT_TEXT = """
about among japanese labour document circumstance arsenal laboratory collaboration egyptian
suspicious elaborate therapist therapeutic spice spicy scrap scrapbook spoon mickey
incumbent homosexual grape grapes grapefruit grapevine scrape skyscraper sophomore accumulate
cumulative gypsy whereabouts dickens abolish taboo despicable sturdy coarse cucumber hospice
sparse conspicuous roundabout scumbag teaspoon draper drape drapery parapet trapeze raccoon
arsenic auspices homogeneous circumcision gimmick tycoon circumvent cumbersome succumb abode
pedagogy spoof auspicious mongolian cocoon mimicking rehearsed seaboard cumin ecumenical
smartwatch parse booby boobies twinkle twinkling pimple pimples thorny rapeseed
broomrape bismuth transmutation yiddish clitoris psychotherapist physiotherapist
"""
INNOCENT = INNOCENT_TEXT.split()


@pytest.mark.parametrize("word", INNOCENT)
def test_no_innocent_everyday_word_is_refused_for_holding_a_blocked_one(word):
    blocked = {w for w in (DICT_DIR / "blocklist.txt").read_text().split("\n") if w and w[0] != "#"}
    assert any(b in word and b != word for b in blocked)  # it does hold one
    assert accepted(word)
