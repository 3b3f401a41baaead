#!/usr/bin/env python3
"""Build WordSQD's word lists from Debian's pinned `scowl` package and a pinned `wordfreq`.

    python dictionary/build.py              # download, verify, rebuild the committed files
    python dictionary/build.py --deb X.deb  # same, from an already-downloaded .deb
    python dictionary/build.py --check      # rebuild in a temp dir, diff against committed files
    python dictionary/build.py --report     # coverage of wordfreq's most frequent English words

Outputs (all in this directory): words.txt, common.txt, prompt_counts.tsv,
LICENSE-SCOWL.txt. See README.md for the policy behind every choice here.
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
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent

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
MAX_SIZE = 70  # SCOWL's recommendation for a large spell-checker list.
NEXT_SIZE = 80  # its frequent words are taken in too (SPEC §2)

# Word frequency (SPEC §2): a word is *common* when wordfreq's Zipf frequency is >= 3.0 (about
# once per million words). The version is pinned: another release could shift the numbers.
WORDFREQ_VERSION = "3.1.1"
WORDFREQ_LIST = "large"
COMMON_ZIPF = 3.0

LIST_NAME = re.compile(r"(?P<category>[a-z_0-9]+)-(?P<kind>[a-z-]+)\.(?P<size>\d+)")
PLAYABLE = re.compile(r"[a-z]+")
# wordfreq's list is what players type: the coverage report counts its plain words of 3+ letters.
REPORT_WORD = re.compile(r"[a-z]{3,}")
REPORT_TOPS = (5_000, 20_000, 50_000)

OUTPUTS = ("words.txt", "common.txt", "prompt_counts.tsv", "LICENSE-SCOWL.txt")


class BuildError(Exception):
    """A problem that must stop the build; reported without a traceback."""


def download_deb(dest: Path) -> Path:
    spec = f"{PACKAGE}={VERSION}"
    try:
        subprocess.run(["apt-get", "download", spec], cwd=dest, check=True)
    except FileNotFoundError:
        raise BuildError("apt-get not found; download the .deb elsewhere and pass --deb PATH") from None
    except subprocess.CalledProcessError as exc:
        raise BuildError(
            f"`apt-get download {spec}` failed (exit {exc.returncode}); "
            "try `apt-get update`, or pass --deb PATH"
        ) from None
    debs = list(dest.glob("*.deb"))
    if len(debs) != 1:
        raise BuildError(f"expected exactly one .deb after download, found {debs}")
    return debs[0]


def verify_sha256(deb: Path) -> None:
    digest = hashlib.sha256(deb.read_bytes()).hexdigest()
    if digest != SHA256:
        raise BuildError(
            f"sha256 mismatch for {deb}:\n  expected {SHA256}\n  got      {digest}\n"
            f"Refusing to build from anything but {PACKAGE} {VERSION}."
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


def read_playable(paths: list[Path]) -> set[str]:
    words = set()
    for path in paths:
        # Debian ships these lists re-encoded as UTF-8 (upstream SCOWL is
        # ISO-8859-1). Decoding strictly makes a corrupt file fail loudly; the
        # choice cannot change the result because only ASCII lines are kept.
        text = path.read_bytes().decode("utf-8")
        # split("\n") rather than splitlines(): the latter also splits on
        # Unicode separators and could turn one odd entry into plausible words.
        for line in text.split("\n"):
            # No case folding: "Xmas" or "OK" are names/abbreviations, not words.
            if PLAYABLE.fullmatch(line):
                words.add(line)
    return words


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


def read_blocklist(path: Path) -> set[str]:
    blocked = set()
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        # A typo like "Slur" would never match anything; catch it here.
        if not PLAYABLE.fullmatch(line):
            raise BuildError(f"{path}:{lineno}: blocklist entry {line!r} is not lowercase a-z")
        blocked.add(line)
    return blocked


def count_prompts(words: set[str]) -> Counter[tuple[str, ...]]:
    # Enumerating each word's distinct 3-letter subsequences once (the set
    # collapses repeats like t-i-m-e-r's two routes to "tmr") costs ~C(len,3)
    # per word, versus testing all 17,576 prompts against every word.
    counts: Counter[tuple[str, ...]] = Counter()
    for word in words:
        counts.update(set(itertools.combinations(word, 3)))
    return counts


def word_list_bytes(words: set[str]) -> bytes:
    # Sorted by code point (not locale) so output is identical everywhere.
    return "".join(w + "\n" for w in sorted(words)).encode("ascii")


def prompt_counts_bytes(all_counts: Counter, common_counts: Counter) -> bytes:
    lines = ["prompt\tanswers\tcommon_answers\n"]
    for letters in itertools.product(string.ascii_lowercase, repeat=3):
        prompt = "".join(letters).upper()
        lines.append(f"{prompt}\t{all_counts[letters]}\t{common_counts[letters]}\n")
    return "".join(lines).encode("ascii")


def choose_words(lists_dir: Path, blocked: set[str]) -> tuple[set[str], set[str]]:
    """(words, common): SCOWL's words up to MAX_SIZE, plus the frequent lowercase entries of the
    next size's words and of the abbreviations and clippings up to MAX_SIZE (SPEC §2), minus the
    blocklist; common = the words with Zipf >= COMMON_ZIPF."""
    own_size = range(MAX_SIZE + 1)
    base = read_playable(select_lists(lists_dir, ("words",), own_size))
    next_size = read_playable(select_lists(lists_dir, ("words",), range(NEXT_SIZE, NEXT_SIZE + 1))) - base
    clippings = read_playable(select_lists(lists_dir, ("abbreviations",), own_size)) - base
    # wordfreq counts "boston" and "Boston" as one word, so a lowercase entry whose capitalised
    # form SCOWL lists as a name (at any size) owes its frequency to the name: it is not taken in.
    names = read_lines(select_lists(lists_dir, ("proper-names", "upper"), range(100), None))
    next_size = {w for w in next_size if w.capitalize() not in names and w.upper() not in names}

    every_scowl_entry = read_playable(select_lists(lists_dir, ("words", "abbreviations"), range(100), None))
    unknown = sorted(blocked - every_scowl_entry)
    if unknown:
        raise BuildError(f"blocklist entries in no SCOWL list (typos?): {unknown}")

    zipf = zipf_frequencies(base | next_size | clippings)
    frequent = {word for word, value in zipf.items() if value >= COMMON_ZIPF}
    words = (base | (next_size & frequent) | (clippings & frequent)) - blocked
    return words, words & frequent


def build(deb: Path | None, out_dir: Path) -> dict[str, bytes]:
    """Build every output in memory, then write them; returns name -> contents."""
    with tempfile.TemporaryDirectory(prefix="wordsqd-dict-") as tmp:
        tmp_path = Path(tmp)
        if deb is None:
            print(f"downloading {PACKAGE} {VERSION} ...", file=sys.stderr)
            deb = download_deb(tmp_path)
        verify_sha256(deb)
        root = extract(deb, tmp_path / "root")
        words, common = choose_words(root / LISTS_DIR, read_blocklist(HERE / "blocklist.txt"))
        licence = (root / COPYRIGHT_FILE).read_bytes()

    outputs = {
        "words.txt": word_list_bytes(words),
        "common.txt": word_list_bytes(common),
        "prompt_counts.tsv": prompt_counts_bytes(count_prompts(words), count_prompts(common)),
        "LICENSE-SCOWL.txt": licence,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, data in outputs.items():
        (out_dir / name).write_bytes(data)
    print(f"words.txt: {len(words):,} words; common.txt: {len(common):,} words", file=sys.stderr)
    return outputs


def check(deb: Path | None) -> int:
    with tempfile.TemporaryDirectory(prefix="wordsqd-dict-check-") as tmp:
        fresh = build(deb, Path(tmp))
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


def report(directory: Path) -> None:
    """Print how much of wordfreq's most frequent English words the word lists in DIRECTORY accept."""
    from wordfreq import top_n_list

    words = set((directory / "words.txt").read_text(encoding="ascii").split())
    common = set((directory / "common.txt").read_text(encoding="ascii").split())
    print(f"{directory}: words.txt {len(words):,} words, common.txt {len(common):,} words")
    print("wordfreq top N (English, a-z, 3+ letters) | plain words | in words.txt | in common.txt")
    ranked = top_n_list("en", max(REPORT_TOPS), wordlist=WORDFREQ_LIST)
    for top in REPORT_TOPS:
        plain = [w for w in ranked[:top] if REPORT_WORD.fullmatch(w)]
        in_words = sum(w in words for w in plain)
        in_common = sum(w in common for w in plain)
        print(
            f"top {top:>6,} | {len(plain):>6,} | {in_words:>6,} ({in_words / len(plain):.1%})"
            f" | {in_common:>6,} ({in_common / len(plain):.1%})"
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
        nargs="?",
        const=HERE,
        type=Path,
        metavar="DIR",
        help="print the coverage of wordfreq's top 5k/20k/50k words by DIR's lists (default: these)",
    )
    args = parser.parse_args(argv)
    if args.report is not None:
        report(args.report)
        return 0
    start = time.perf_counter()
    try:
        if args.deb is not None and not args.deb.is_file():
            raise BuildError(f"--deb {args.deb}: no such file")
        if args.check:
            status = check(args.deb)
        else:
            build(args.deb, HERE)
            status = 0
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"done in {time.perf_counter() - start:.1f}s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
