#!/usr/bin/env python3
"""Build WordSQD's word lists from Debian's pinned `scowl` package and a pinned `wordfreq`.

    python dictionary/build.py              # download, verify, rebuild the committed files
    python dictionary/build.py --deb X.deb  # same, from an already-downloaded .deb
    python dictionary/build.py --check      # rebuild in a temp dir, diff against committed files
    python dictionary/build.py --report     # same, then what each step added and removed, and
                                            # the coverage of wordfreq's most frequent clean words
    python dictionary/build.py --coverage DIR  # only that coverage, of the lists in DIR

Outputs (all in this directory): words.txt, common.txt, top_words.txt, prompt_counts.tsv,
puzzle_pool.tsv, LICENSE-SCOWL.txt, LICENSE-HUNSPELL-EN-GB.txt. The second source, Debian's
`hunspell-en-gb`, is read by hunspell.py beside this file. See README.md for the policy behind
every choice here.
Standard library plus wordfreq (`pip install '.[dictionary]'`): a build-time dependency only,
never shipped in the Lambda asset, so the game never measures frequencies at run time.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import itertools
import re
import string
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from dictionary import hunspell, policy  # noqa: E402  (the second source; the reviewed policy inputs)
from shared.game import puzzle_tiers  # noqa: E402  (the puzzle pool's rules, shared with the game)
from shared.game.constants import TOP_WORDS  # noqa: E402

# Pinning both the version and the hash makes the build reproducible: the
# version picks the package, the hash proves the mirror served the same bytes.
PACKAGE = "scowl"
VERSION = "2020.12.07-2"
SHA256 = "de692546df9b169f2cbdf4d8d88111a374733a9c382b820a6f943914ca705718"

LISTS_DIR = Path("usr/share/dict/scowl")
COPYRIGHT_FILE = Path("usr/share/doc/scowl/copyright")

# Plain vocabulary plus both American and British spellings, so that players
# from either side are accepted. "variant_1" holds common alternative
# spellings (e.g. "aeon", "acknowledgement"); variant_2/3 are rarer ones.
# Only "-words" lists are used: proper-names, abbreviations, contractions
# and upper lists are not playable words.
CATEGORIES = ("english", "american", "british", "variant_1", "british_variant_1")
# The rarer variant spellings (`donut`, `snuck`, `rainforest`, `hotspot`, `dwarves`), at any size:
# only their frequent entries are taken in (SPEC §2).
VARIANT_CATEGORIES = ("variant_2", "variant_3", "british_variant_2")
MAX_SIZE = 70  # SCOWL's recommendation for a large spell-checker list.
NEXT_SIZE = 80  # its frequent words are taken in too (SPEC §2)

# Word frequency (SPEC §2): a word is *common* when wordfreq's Zipf frequency is >= 3.0 (about
# once per million words). The version is pinned: another release could shift the numbers.
WORDFREQ_VERSION = "3.1.1"
WORDFREQ_LIST = "large"
COMMON_ZIPF = 3.0
# The second source's words are taken in where people use them (SPEC §2): its list holds rare
# and regional words too, which a player would not expect to be accepted. At 2.5 (about once in
# three million words) `livestream` (2.92), `influencer` (2.95) and `gelato` (2.78) are in; the
# fragments, abbreviations and names above it are refused in today_excluded.txt, with a reason.
TODAY_ZIPF = 2.5
# The reviewed words of today (today.txt: `wifi`, `covid`, spelled otherwise or not at all by both
# lists) must be in current use: at least once in ten million words.
REVIEWED_TODAY_ZIPF = 2.0
# Words of today the build reports on by name (dictionary/README.md: why each is in or not).
ASKED_FOR = ("cyber", "gameplay", "wifi", "covid", "livestream", "influencer", "millennials")
ASKED_FOR += ("renewables", "pharma", "mixtape", "mins", "bluetooth", "esports", "youtuber", "bestie")
ASKED_FOR += ("matcha", "gelato", "panini", "boba", "kombucha", "biryani", "hangry", "staycation")
ASKED_FOR += ("lego", "photoshop", "stan", "bae")

LIST_NAME = re.compile(r"(?P<category>[a-z_0-9]+)-(?P<kind>[a-z-]+)\.(?P<size>\d+)")
PLAYABLE = re.compile(r"[a-z]+")
# wordfreq's list is what players type: the coverage report counts its plain words of 3+ letters.
REPORT_WORD = re.compile(r"[a-z]{3,}")
REPORT_TOPS = (5_000, 20_000, 50_000)
REPORT_EXAMPLES = 12

OUTPUTS = (
    "words.txt",
    "common.txt",
    "top_words.txt",
    "prompt_counts.tsv",
    "puzzle_pool.tsv",
    "LICENSE-SCOWL.txt",
    "LICENSE-HUNSPELL-EN-GB.txt",
)


class BuildError(Exception):
    """A problem that must stop the build; reported without a traceback."""


def download_deb(dest: Path, package: str = PACKAGE, version: str = VERSION) -> Path:
    spec = f"{package}={version}"
    try:
        subprocess.run(["apt-get", "download", spec], cwd=dest, check=True)
    except FileNotFoundError:
        raise BuildError("apt-get not found; download the .deb elsewhere and pass --deb PATH") from None
    except subprocess.CalledProcessError as exc:
        raise BuildError(
            f"`apt-get download {spec}` failed (exit {exc.returncode}); "
            "try `apt-get update`, or pass --deb PATH"
        ) from None
    debs = list(dest.glob(f"{package}_*.deb"))
    if len(debs) != 1:
        raise BuildError(f"expected exactly one .deb after download, found {debs}")
    return debs[0]


def verify_sha256(deb: Path, sha256: str = SHA256, package: str = PACKAGE, version: str = VERSION) -> None:
    digest = hashlib.sha256(deb.read_bytes()).hexdigest()
    if digest != sha256:
        raise BuildError(
            f"sha256 mismatch for {deb}:\n  expected {sha256}\n  got      {digest}\n"
            f"Refusing to build from anything but {package} {version}."
        )


def extract(deb: Path, dest: Path) -> Path:
    try:
        subprocess.run(["dpkg-deb", "-x", str(deb), str(dest)], check=True)
    except FileNotFoundError:
        raise BuildError("dpkg-deb not found; it is part of dpkg (Debian/Ubuntu)") from None
    return dest


def select_lists(
    lists_dir: Path,
    kinds: tuple[str, ...],
    sizes: range,
    categories: tuple[str, ...] | None = CATEGORIES,
) -> list[Path]:
    """SCOWL's lists of these kinds and sizes, in the chosen categories (None: every category)."""
    selected = []
    seen_categories = set()
    for path in sorted(lists_dir.iterdir()):
        m = LIST_NAME.fullmatch(path.name)
        if (
            m
            and m["kind"] in kinds
            and int(m["size"]) in sizes
            and (categories is None or m["category"] in categories)
        ):
            selected.append(path)
            seen_categories.add(m["category"])
    # A renamed category would otherwise silently shrink the list.
    if categories is not None and "words" in kinds:
        missing = set(categories) - seen_categories
        if missing:
            raise BuildError(f"no word lists found for categories {sorted(missing)} in {lists_dir}")
    return selected


def read_lines(paths: list[Path]) -> set[str]:
    """Every entry of these lists as written (names keep their capitals)."""
    return {line for path in paths for line in path.read_bytes().decode("utf-8").split("\n") if line}


def read_playable(paths: list[Path], fold: bool = True) -> set[str]:
    """The lowercase a-z entries of these lists and (FOLD) those that are lowercase a-z once their
    accents are folded (`café` -> `cafe`, SPEC §2)."""
    words = set()
    for path in paths:
        # Debian ships these lists re-encoded as UTF-8 (upstream SCOWL is
        # ISO-8859-1). Decoding strictly makes a corrupt file fail loudly.
        text = path.read_bytes().decode("utf-8")
        # split("\n") rather than splitlines(): the latter also splits on
        # Unicode separators and could turn one odd entry into plausible words.
        for line in text.split("\n"):
            # No case folding: "Xmas" or "OK" are names/abbreviations, not words.
            entry = fold_accents(line) if fold else line
            if PLAYABLE.fullmatch(entry):
                words.add(entry)
    return words


def fold_accents(entry: str) -> str:
    """ENTRY without its accents: each letter's canonical decomposition without its combining
    marks (`é` is `e` + U+0301). Letters that are no accented a-z (`æ`, `ø`) stay as they are."""
    if entry.isascii():
        return entry
    return "".join(c for c in unicodedata.normalize("NFD", entry) if not unicodedata.combining(c))


def zipf_frequencies(words: set[str]) -> dict[str, float]:
    """Each word's Zipf frequency from the pinned wordfreq (its English "large" list)."""
    try:
        installed = importlib.metadata.version("wordfreq")
    except importlib.metadata.PackageNotFoundError:
        raise BuildError("wordfreq is not installed: pip install '.[dictionary]'") from None
    if installed != WORDFREQ_VERSION:
        raise BuildError(f"wordfreq {installed} is installed; the build is pinned to {WORDFREQ_VERSION}")
    from wordfreq import zipf_frequency

    return {word: zipf_frequency(word, "en", wordlist=WORDFREQ_LIST) for word in sorted(words)}


def read_word_file(path: Path) -> set[str]:
    """blocklist.txt, allowlist.txt, identities.txt: one lowercase word a line; additions.txt and
    block_additions.txt: the word, a tab and a review case's id. Blank and '#' lines are ignored."""
    listed = set()
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        line = raw.split("\t")[0].strip()
        if not line or line.startswith("#"):
            continue
        # A typo like "Slur" would never match anything; catch it here.
        if not PLAYABLE.fullmatch(line):
            raise BuildError(f"{path}:{lineno}: entry {line!r} is not lowercase a-z")
        listed.add(line)
    return listed


# The endings of an inflection or a derived form (`shits`, `shitty`, `shittier`, `whoring`). An
# ending that starts with a vowel or y may double the root's last consonant or drop its final e;
# the endings that replace a final y follow its stem (`pussies`).
ENDINGS = frozenset(
    ("s", "es", "ed", "d", "ing", "ings", "er", "ers", "est", "y", "ier", "iest", "ies", "ied", "ily")
    + ("iness", "ish", "ly", "less", "ness")
)
_AFTER_A_VOWEL = frozenset(e for e in ENDINGS if e[0] in "aeiouy")
_AFTER_Y = frozenset(("ies", "ied", "ier", "iest", "ily", "iness"))
# A compound joins a blocked word to a common word (Zipf >= 3.0) of 3+ letters.
COMPOUND_PART = re.compile(r"[a-z]{3,}")


def stems(root: str) -> list[tuple[str, frozenset[str]]]:
    """How ROOT is spelled before an ending, and the endings that may follow that spelling."""
    spelled = [(root, ENDINGS)]
    if root[-1] not in "aeiouy":
        spelled.append((root + root[-1], _AFTER_A_VOWEL))
    if root.endswith("e"):
        spelled.append((root[:-1], _AFTER_A_VOWEL))
    if root.endswith("y"):
        spelled.append((root[:-1], _AFTER_Y))
    return [(stem, endings) for stem, endings in spelled if len(stem) >= 3]


def is_inflection(word: str, root: str) -> bool:
    """Whether WORD is ROOT with one of the endings (`shittier` of `shit`, `spicing` of `spice`)."""
    return any(word.startswith(stem) and word[len(stem) :] in endings for stem, endings in stems(root))


def blocked_roots(blocked: set[str]) -> set[str]:
    """The blocked words that are not an inflection of another (`gyp`, not `gyps`): matching an
    inflected entry inside longer words would only find innocent ones (`gyps` in `gypsy`)."""
    return {word for word in blocked if not any(is_inflection(word, r) for r in blocked if r != word)}


class BlockRule:
    """Which words are an inflection or a compound of a blocked word (SPEC §2): a blocked root
    with an ending (`arsed`, `shittier`), or joined to one common word before or after it
    (`dogshit`, `whorehouse`, `shitheads`, `motherfuckers`). The root must be a whole part:
    `scrapbook` holds `crap` after an `s` that is no word, and `circumstance` holds `cum` between
    two parts, so neither is a form of them. A form is innocent when its blocked root lies inside
    an allowlisted word (`monger` excuses `fishmonger`) or the whole word is an allowlisted word
    with an ending (`spice` excuses `spicing`)."""

    def __init__(self, roots: set[str], parts: set[str], allowed: set[str]) -> None:
        self.parts = {p for p in parts if COMPOUND_PART.fullmatch(p)}
        self.allowed = allowed
        # Each spelling of a root, with the endings that may follow it and whether it is the
        # whole root (only a whole root makes compounds).
        self.spellings: dict[str, list[tuple[frozenset[str], bool]]] = {}
        for root in sorted(roots):
            for stem, endings in stems(root):
                self.spellings.setdefault(stem, []).append((endings, stem == root))
        self.lengths = sorted({len(stem) for stem in self.spellings})
        self.beginnings = {stem[:3] for stem in self.spellings}

    def blocks(self, word: str) -> bool:
        # The root starts the word, or follows a common word (a compound's head).
        for start in range(len(word) - 2):
            if word[start : start + 3] not in self.beginnings or (start and word[:start] not in self.parts):
                continue
            for length in self.lengths:
                end = start + length
                if end > len(word):
                    break
                tail = word[end:]
                for endings, whole in self.spellings.get(word[start:end], ()):
                    if start:  # a common word, then the root, then nothing or an ending
                        form = tail in endings or (whole and not tail)
                    else:  # the root, then nothing, an ending or a common word
                        form = tail in endings or (whole and (not tail or self._is_part(tail)))
                    if form and not self._excused(word, start, end):
                        return True
        return False

    def _is_part(self, tail: str) -> bool:
        """A common word, or one with an ending (`whoredoms`: `whore` + `dom` + `s`)."""
        return tail in self.parts or any(
            tail.startswith(stem) and tail[len(stem) :] in endings
            for length in range(3, len(tail))
            if tail[:length] in self.parts
            for stem, endings in stems(tail[:length])
            if stem == tail[:length]
        )

    def _excused(self, word: str, start: int, end: int) -> bool:
        return any(is_inflection(word, a) for a in self.allowed) or any(
            start >= at and end <= at + len(a) for a in self.allowed for at in occurrences(word, a)
        )


def occurrences(word: str, part: str) -> list[int]:
    """Every index at which PART starts in WORD."""
    found, start = [], word.find(part)
    while start != -1:
        found.append(start)
        start = word.find(part, start + 1)
    return found


def count_prompts(words: set[str]) -> Counter[tuple[str, ...]]:
    # Enumerating each word's distinct 3-letter subsequences once (the set
    # collapses repeats like t-i-m-e-r's two routes to "tmr") costs ~C(len,3)
    # per word, versus testing all 17,576 prompts against every word.
    counts: Counter[tuple[str, ...]] = Counter()
    for word in words:
        counts.update(set(itertools.combinations(word, 3)))
    return counts


def prompt_answers(words: set[str]) -> dict[tuple[str, ...], list[str]]:
    """Each prompt's answers among WORDS, in alphabetical order (by their letters, as count_prompts)."""
    found: dict[tuple[str, ...], list[str]] = {}
    for word in sorted(words):
        for letters in set(itertools.combinations(word, 3)):
            found.setdefault(letters, []).append(word)
    return found


def puzzle_pool_bytes(
    words: set[str], common: set[str], top: set[str], all_counts: Counter[tuple[str, ...]]
) -> bytes:
    """puzzle_pool.tsv: every prompt a puzzle may play, with its tier and common answers
    (shared/game/puzzle_tiers.py has the rules)."""
    eligible = {}
    for letters, common_answers in prompt_answers(common).items():
        prompt = "".join(letters).upper()
        eligible[prompt] = puzzle_tiers.eligible_tiers(
            prompt, all_counts[letters], common_answers, words, top
        )
    tiers = puzzle_tiers.assign_tiers(eligible)
    counts = count_prompts(common)
    lines = ["prompt\ttier\tcommon_answers\n"]
    for prompt in sorted(tiers):
        lines.append(f"{prompt}\t{tiers[prompt]}\t{counts[tuple(prompt.lower())]}\n")
    return "".join(lines).encode("ascii")


def word_list_bytes(words: set[str]) -> bytes:
    # Sorted by code point (not locale) so output is identical everywhere.
    return "".join(w + "\n" for w in sorted(words)).encode("ascii")


def prompt_counts_bytes(all_counts: Counter, common_counts: Counter) -> bytes:
    lines = ["prompt\tanswers\tcommon_answers\n"]
    for letters in itertools.product(string.ascii_lowercase, repeat=3):
        prompt = "".join(letters).upper()
        lines.append(f"{prompt}\t{all_counts[letters]}\t{common_counts[letters]}\n")
    return "".join(lines).encode("ascii")


class Change(NamedTuple):
    """One step of the build and what it did to the word list (`--report` prints them)."""

    what: str
    added: frozenset[str]
    removed: frozenset[str]
    common: frozenset[str]  # the frequent words among them
    why: dict[str, str] | None = None  # a line for each word, printed in full (no counts)


class Sources(NamedTuple):
    """What the build reads besides SCOWL's lists."""

    blocked: set[str]  # blocklist.txt and block_additions.txt
    allowed: set[str]  # allowlist.txt
    today: dict[str, str]  # the second source's lowercase forms, each with its entry
    identities: set[str]  # identities.txt: religions, peoples, nationalities, languages
    accepted: set[str]  # additions.txt: words a moderator accepted
    today_excluded: set[str]  # today_excluded.txt: the second source's entries refused after review
    today_listed: dict[str, tuple[str, ...]]  # today.txt: reviewed words of today, with their reason
    profane: dict[str, frozenset[str]]  # the two public profanity lists, by name
    decisions: dict[str, tuple[str, ...]]  # decisions.txt: each word's verdict and its reason


ROMAN_NUMERAL = re.compile(r"[ivxlcdm]+")


def is_word_of_today(entry: str) -> bool:
    """A second-source entry that may be a word: 3+ letters (a prompt has 3), a vowel or a y (not
    an abbreviation: `http`, `pdf`, `xxx`) and not a Roman numeral (`iii`, `xl`)."""
    return len(entry) >= 3 and any(c in "aeiouy" for c in entry) and not ROMAN_NUMERAL.fullmatch(entry)


def choose_words(lists_dir: Path, sources: Sources) -> tuple[set[str], set[str], set[str], list[Change]]:
    """(words, common, top, changes): SCOWL's words up to MAX_SIZE (accents folded), plus the
    frequent lowercase entries of the next size's words, of the abbreviations and clippings up to
    MAX_SIZE and of the variant spellings, the second source's words (Zipf >= TODAY_ZIPF), the
    reviewed words of today, the identity words and the words moderators accepted (SPEC §2),
    minus the blocked words with their inflections and compounds; common = the words with Zipf >=
    COMMON_ZIPF; top = the accepted among wordfreq's TOP_WORDS most frequent clean words."""
    blocked, allowed = sources.blocked, sources.allowed
    own_size = range(MAX_SIZE + 1)
    base_lists = select_lists(lists_dir, ("words",), own_size)
    as_written = read_playable(base_lists, fold=False)
    base = read_playable(base_lists)
    next_size = read_playable(select_lists(lists_dir, ("words",), range(NEXT_SIZE, NEXT_SIZE + 1))) - base
    clippings = read_playable(select_lists(lists_dir, ("abbreviations",), own_size)) - base - next_size
    variants = read_playable(select_lists(lists_dir, ("words",), range(100), VARIANT_CATEGORIES))
    variants -= base | next_size | clippings
    # wordfreq counts "boston" and "Boston" as one word, so a lowercase entry whose capitalised
    # form SCOWL lists as a name (at any size) owes its frequency to the name: it is not taken in.
    names = read_lines(select_lists(lists_dir, ("proper-names", "upper"), range(100), None))
    next_size = {w for w in next_size if w.capitalize() not in names and w.upper() not in names}
    variants = {w for w in variants if w.capitalize() not in names and w.upper() not in names}
    excluded = sorted(sources.today_excluded - set(sources.today))
    if excluded:
        raise BuildError(f"today_excluded.txt entries the second source does not have: {excluded}")
    # Only what another step takes in is taken from the second source: a size-80 entry below
    # COMMON_ZIPF (`influencer`, 2.95) may still be a word of today.
    today = set(sources.today) - base - sources.today_excluded
    today = {w for w in today if is_word_of_today(w) and w.capitalize() not in names}
    today = {w for w in today if w.upper() not in names}
    every_scowl_entry = read_playable(select_lists(lists_dir, ("words", "abbreviations"), range(100), None))
    not_names = sorted(w for w in sources.identities if w.capitalize() not in names)
    if not_names:
        raise BuildError(f"identities.txt entries SCOWL lists as no name (typos?): {not_names}")
    identities = sources.identities - base
    profane = frozenset().union(*sources.profane.values())
    today_profane = today & profane  # never taken in from the second source, whatever a decision says
    today -= profane
    listed = set(sources.today_listed)

    unknown = sorted(blocked - every_scowl_entry - set(sources.today))
    if unknown:
        raise BuildError(f"blocklist entries in no source list (typos?): {unknown}")

    zipf = zipf_frequencies(
        base | next_size | clippings | variants | today | today_profane | identities | listed
    )
    frequent = {word for word, value in zipf.items() if value >= COMMON_ZIPF}
    others = (next_size | clippings | variants) & frequent
    today = {w for w in today if zipf[w] >= TODAY_ZIPF} - others
    identities -= others | today
    taken = base | others | today | identities
    redundant = sorted(listed & taken)
    if redundant:
        raise BuildError(f"today.txt entries another source already takes in: {redundant}")
    rare = sorted(w for w in listed if zipf[w] < REVIEWED_TODAY_ZIPF)
    if rare:
        raise BuildError(f"today.txt entries with Zipf < {REVIEWED_TODAY_ZIPF} (no longer in use?): {rare}")
    accepted = sources.accepted - taken - listed
    candidates = taken | listed | accepted
    parts = (candidates & frequent) - blocked
    roots = blocked_roots(blocked)
    without_allowlist = BlockRule(roots, parts, set())
    caught_without_allowlist = {w for w in candidates - blocked if without_allowlist.blocks(w)}
    rule = BlockRule(roots, parts, allowed)
    caught = {w for w in caught_without_allowlist if rule.blocks(w)}
    refused = sorted(sources.accepted & (blocked | caught))
    if refused:
        raise BuildError(f"additions.txt accepts words the blocklist refuses: {refused}")
    refused = sorted(sources.identities & (blocked | caught))
    if refused:
        raise BuildError(f"identities.txt lists words the blocklist or its rule refuses: {refused}")
    refused = sorted(listed & (blocked | caught | profane))
    if refused:
        raise BuildError(f"today.txt lists words the blocklist or a profanity list refuses: {refused}")
    # An entry that is no word, or that keeps no word the rule would block, is a typo or dead.
    useless = []
    for entry in sorted(allowed):
        alone = BlockRule(roots, parts, {entry})
        if entry not in candidates or all(alone.blocks(w) for w in caught_without_allowlist):
            useless.append(entry)
    if useless:
        raise BuildError(f"allowlist entries that are no word or keep no blocked form: {useless}")
    words = candidates - blocked - caught
    keep = policy.kept(sources.decisions)
    unreviewed = policy.unreviewed_profanity(words, sources.profane, keep)
    if unreviewed:
        raise BuildError(
            f"accepted words a profanity list names, neither blocked nor kept in decisions.txt: {unreviewed}"
        )
    broken = policy.broken_decisions(sources.decisions, words)
    if broken:
        raise BuildError(f"decisions.txt verdicts the word list does not hold: {broken}")
    today_words = today - blocked - caught
    steps = [
        (f"SCOWL words of sizes <= {MAX_SIZE}, a-z as written", as_written, set()),
        ("their accented entries, folded (cafe)", base - as_written, set()),
        (f"frequent words of size {NEXT_SIZE}", next_size & frequent, set()),
        ("frequent abbreviations and clippings", clippings & frequent, set()),
        ("frequent variant spellings", variants & frequent, set()),
        (f"words of today: {hunspell.PACKAGE}, Zipf >= {TODAY_ZIPF}", today, set()),
        ("reviewed words of today (today.txt)", listed, set()),
        ("religions, peoples, nationalities, languages (identities.txt)", identities, set()),
        ("accepted by moderators (additions.txt)", accepted, set()),
        (
            f"words of today in a profanity list (never taken in), Zipf >= {TODAY_ZIPF}",
            set(),
            {w for w in today_profane if zipf[w] >= TODAY_ZIPF},
        ),
        ("the blocklist", set(), candidates & blocked),
        ("inflections and compounds of blocked words", set(), caught),
        ("kept by the allowlist", caught_without_allowlist - caught, set()),
    ]
    changes = [
        Change(what, frozenset(added), frozenset(removed), frozenset((added | removed) & frequent))
        for what, added, removed in steps
    ]
    why = {
        w: f"{w}\tZipf {zipf[w]:.2f} >= {TODAY_ZIPF}\tfrom {hunspell.PACKAGE}'s entry {sources.today[w]}"
        for w in sorted(today_words, key=lambda w: (-zipf[w], w))
    }
    nothing: frozenset[str] = frozenset()
    changes.append(Change("words of today, each and why", nothing, nothing, nothing, why))
    changes.append(Change("words asked for", nothing, nothing, nothing, asked_for(words, sources, zipf)))
    top = set(top_clean_words(refused_on_purpose(blocked, rule, profane, keep))) & words
    return words, words & frequent, top, changes


def refused_on_purpose(
    blocked: set[str], rule: BlockRule, profane: frozenset[str], keep: frozenset[str]
) -> Callable[[str], bool]:
    """Whether a word is refused on purpose (not *clean*): blocked, a form of a blocked word, or
    named by a profanity list and kept by no decision. Names and missing words are clean."""
    return lambda w: w in blocked or rule.blocks(w) or (w in profane and w not in keep)


def top_clean_words(refused: Callable[[str], bool]) -> list[str]:
    """wordfreq's TOP_WORDS most frequent clean words (SPEC §3, the round floor): a-z, 3+ letters,
    not REFUSED on purpose. Names and words the lists lack are among them, as wordfreq ranks them."""
    from wordfreq import top_n_list

    return policy.clean_ranking(TOP_WORDS, refused, top_n_list("en", 3 * TOP_WORDS, wordlist=WORDFREQ_LIST))


def asked_for(words: set[str], sources: Sources, zipf: dict[str, float]) -> dict[str, str]:
    """Why each word of ASKED_FOR is in the list or not."""
    reasons = {}
    for word in ASKED_FOR:
        if word in words:
            source = (
                "today.txt: " + sources.today_listed[word][0] if word in sources.today_listed else "accepted"
            )
            reasons[word] = f"{word}\t{source}"
        elif word in sources.today_excluded:
            reasons[word] = f"{word}\trefused: today_excluded.txt"
        elif word not in sources.today:
            reasons[word] = f"{word}\trefused: not a lowercase a-z form of {hunspell.PACKAGE} nor of SCOWL"
        elif word in sources.blocked:
            reasons[word] = f"{word}\trefused: blocked"
        else:
            reasons[word] = f"{word}\trefused: Zipf {zipf.get(word, 0.0):.2f} < {TODAY_ZIPF}"
    return reasons


def build(deb: Path | None, out_dir: Path) -> tuple[dict[str, bytes], list[Change]]:
    """Build every output in memory, then write them; returns name -> contents, and the changes."""
    with tempfile.TemporaryDirectory(prefix="wordsqd-dict-") as tmp:
        tmp_path = Path(tmp)
        if deb is None:
            print(f"downloading {PACKAGE} {VERSION} ...", file=sys.stderr)
            deb = download_deb(tmp_path)
        verify_sha256(deb)
        root = extract(deb, tmp_path / "root")
        print(f"downloading {hunspell.PACKAGE} {hunspell.VERSION} ...", file=sys.stderr)
        today_deb = download_deb(tmp_path, hunspell.PACKAGE, hunspell.VERSION)
        verify_sha256(today_deb, hunspell.SHA256, hunspell.PACKAGE, hunspell.VERSION)
        today_root = extract(today_deb, tmp_path / "today")
        sources = Sources(
            blocked=read_word_file(HERE / "blocklist.txt") | read_word_file(HERE / "block_additions.txt"),
            allowed=read_word_file(HERE / "allowlist.txt"),
            today=hunspell.lowercase_forms(today_root),
            identities=read_word_file(HERE / "identities.txt"),
            accepted=read_word_file(HERE / "additions.txt"),
            today_excluded=read_word_file(HERE / "today_excluded.txt"),
            today_listed=policy.read_reasons(HERE / "today.txt", 1),
            profane=policy.profanity_lists(),
            decisions=policy.read_reasons(HERE / "decisions.txt", 2),
        )
        words, common, top, changes = choose_words(root / LISTS_DIR, sources)
        licence = (root / COPYRIGHT_FILE).read_bytes()
        today_licence = (today_root / hunspell.COPYRIGHT_FILE).read_bytes()

    all_counts = count_prompts(words)
    outputs = {
        "words.txt": word_list_bytes(words),
        "common.txt": word_list_bytes(common),
        "top_words.txt": word_list_bytes(top),
        "prompt_counts.tsv": prompt_counts_bytes(all_counts, count_prompts(common)),
        "puzzle_pool.tsv": puzzle_pool_bytes(words, common, top, all_counts),
        "LICENSE-SCOWL.txt": licence,
        "LICENSE-HUNSPELL-EN-GB.txt": today_licence,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, data in outputs.items():
        (out_dir / name).write_bytes(data)
    print(f"words.txt: {len(words):,} words; common.txt: {len(common):,} words", file=sys.stderr)
    return outputs, changes


def check(fresh: dict[str, bytes]) -> int:
    """0 when the committed files are the FRESH build's, byte for byte; 1 otherwise."""
    differing = []
    for name in OUTPUTS:
        committed = HERE / name
        if not committed.is_file() or committed.read_bytes() != fresh[name]:
            differing.append(name)
    if differing:
        print(
            f"DIFFERS from a fresh build: {', '.join(differing)} "
            "(run `python dictionary/build.py` and commit the result)",
            file=sys.stderr,
        )
        return 1
    print("committed dictionary files match a fresh build", file=sys.stderr)
    return 0


def print_changes(changes: list[Change]) -> None:
    """What each step of the build added and removed (with the common words among them)."""
    print("step | added (common) | removed (common) | examples")
    for change in changes:
        if change.why is not None:
            continue
        words = sorted(change.added | change.removed)
        shown = ", ".join(words[:REPORT_EXAMPLES]) + (", ..." if len(words) > REPORT_EXAMPLES else "")
        print(
            f"{change.what} | +{len(change.added):,} ({len(change.added & change.common):,})"
            f" | -{len(change.removed):,} ({len(change.removed & change.common):,}) | {shown}"
        )
    for change in changes:
        if change.why is not None:  # every word, the most frequent first
            print(f"\n{change.what} ({len(change.why):,}):")
            for line in change.why.values():
                print(f"  {line}")


def print_coverage(directory: Path) -> None:
    """How much of wordfreq's most frequent clean English words the word lists in DIRECTORY accept:
    a-z, 3+ letters, and not refused on purpose (refused_on_purpose)."""
    from wordfreq import top_n_list

    words = set((directory / "words.txt").read_text(encoding="ascii").split())
    common = set((directory / "common.txt").read_text(encoding="ascii").split())
    blocked = read_word_file(HERE / "blocklist.txt") | read_word_file(HERE / "block_additions.txt")
    rule = BlockRule(blocked_roots(blocked), common, read_word_file(HERE / "allowlist.txt"))
    profane = frozenset().union(*policy.profanity_lists().values())
    refused = refused_on_purpose(
        blocked, rule, profane, policy.kept(policy.read_reasons(HERE / "decisions.txt", 2))
    )
    print(f"{directory}: words.txt {len(words):,} words, common.txt {len(common):,} words")
    print("wordfreq top N (English) | clean words | in words.txt | in common.txt")
    ranked = top_n_list("en", max(REPORT_TOPS), wordlist=WORDFREQ_LIST)
    for top in REPORT_TOPS:
        clean = [w for w in ranked[:top] if REPORT_WORD.fullmatch(w) and not refused(w)]
        in_words = sum(w in words for w in clean)
        in_common = sum(w in common for w in clean)
        print(
            f"top {top:>6,} | {len(clean):>6,} | {in_words:>6,} ({in_words / len(clean):.1%})"
            f" | {in_common:>6,} ({in_common / len(clean):.1%})"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deb", type=Path, help="use this already-downloaded scowl .deb")
    parser.add_argument(
        "--check",
        action="store_true",
        help="rebuild in a temp dir and exit 1 if committed files differ",
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="also print what each step added and removed, and the coverage of wordfreq's top words",
    )
    parser.add_argument(
        "--coverage",
        type=Path,
        metavar="DIR",
        help="only print the coverage of wordfreq's top 5k/20k/50k clean words by DIR's lists",
    )
    args = parser.parse_args(argv)
    if args.coverage is not None:
        print_coverage(args.coverage)
        return 0
    start = time.perf_counter()
    try:
        if args.deb is not None and not args.deb.is_file():
            raise BuildError(f"--deb {args.deb}: no such file")
        with tempfile.TemporaryDirectory(prefix="wordsqd-dict-check-") as tmp:
            out_dir = Path(tmp) if args.check else HERE
            outputs, changes = build(args.deb, out_dir)
            status = check(outputs) if args.check else 0
            if args.report:
                print_changes(changes)
                print()
                print_coverage(out_dir)
    except (BuildError, policy.PolicyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"done in {time.perf_counter() - start:.1f}s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
