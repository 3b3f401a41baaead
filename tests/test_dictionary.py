"""Checks on the committed word list files (no network: build.py is not run here)."""

import re
from functools import cache
from pathlib import Path

import pytest

DICT_DIR = Path(__file__).resolve().parents[1] / "dictionary"


@cache
def read_words(name: str) -> list[str]:
    # Read raw lines (not .split()) so blank lines or stray spaces would fail the checks.
    text = (DICT_DIR / name).read_text(encoding="ascii")
    assert text.endswith("\n"), f"{name} must end with a newline"
    return text[:-1].split("\n")


@cache
def read_prompt_counts() -> list[list[str]]:
    text = (DICT_DIR / "prompt_counts.tsv").read_text(encoding="ascii")
    assert text.endswith("\n")
    return [line.split("\t") for line in text[:-1].split("\n")]


def is_subsequence(prompt: str, word: str) -> bool:
    # `in` on an iterator consumes it, so each prompt letter needs its own,
    # later occurrence: the simple, obviously-correct definition to test against.
    letters = iter(word)
    return all(ch in letters for ch in prompt)


@pytest.mark.parametrize("name", ["words.txt", "common.txt"])
def test_word_list_is_sorted_unique_lowercase(name):
    words = read_words(name)
    assert words == sorted(set(words))
    bad = [w for w in words if not re.fullmatch(r"[a-z]+", w)]
    assert bad == []


def test_common_words_are_a_subset():
    assert set(read_words("common.txt")) <= set(read_words("words.txt"))


@pytest.mark.parametrize("word", ["timer", "alley", "dogs", "braid", "selfie", "colour", "color"])
def test_expected_words_present(word):
    assert word in set(read_words("words.txt"))


def test_no_blocklisted_words():
    lines = (DICT_DIR / "blocklist.txt").read_text(encoding="utf-8").splitlines()
    blocked = {line.strip() for line in lines if line.strip() and not line.startswith("#")}
    assert blocked, "blocklist should not be empty"
    for name in ("words.txt", "common.txt"):
        assert blocked.isdisjoint(read_words(name)), name


def test_prompt_counts_cover_every_prompt_in_order():
    rows = read_prompt_counts()
    assert rows[0] == ["prompt", "answers", "common_answers"]
    prompts = [row[0] for row in rows[1:]]
    assert len(prompts) == 26**3 == 17_576
    assert prompts[0] == "AAA" and prompts[-1] == "ZZZ"
    assert prompts == sorted(prompts)
    assert all(len(row) == 3 and row[1].isdigit() and row[2].isdigit() for row in rows[1:])


def test_subsequence_semantics():
    assert is_subsequence("tmr", "timer") and not is_subsequence("tmr", "meter")
    assert is_subsequence("all", "alley") and not is_subsequence("all", "alone")


@pytest.mark.parametrize("prompt", ["TMR", "ALL", "DGS"])
def test_prompt_counts_match_recount(prompt):
    counts = {row[0]: (int(row[1]), int(row[2])) for row in read_prompt_counts()[1:]}
    p = prompt.lower()
    expected = (
        sum(is_subsequence(p, w) for w in read_words("words.txt")),
        sum(is_subsequence(p, w) for w in read_words("common.txt")),
    )
    assert counts[prompt] == expected
