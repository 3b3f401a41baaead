"""Checks on the committed word list files (no network: build.py is not run here, only its
blocking rule is loaded to check the lists against it)."""

import importlib.util
import re
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

DICT_DIR = Path(__file__).resolve().parents[2] / "dictionary"


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


@pytest.mark.parametrize("name", ["words.txt", "common.txt", "top_words.txt"])
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


@cache
def blocklist() -> list[str]:
    lines = (DICT_DIR / "blocklist.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


@cache
def allowlist() -> list[str]:
    lines = (DICT_DIR / "allowlist.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


@cache
def build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dictionary_build", DICT_DIR / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def accepted(word: str) -> bool:
    from shared.game.dictionary import words
    from shared.game.rules import judge

    return judge(word, word[:3].upper(), words()).valid


def test_no_blocklisted_words():
    blocked = set(blocklist())
    assert blocked, "blocklist should not be empty"
    for name in ("words.txt", "common.txt"):
        assert blocked.isdisjoint(read_words(name)), name


def test_blocklist_entries_are_lowercase_unique_and_sorted_within_each_section():
    entries = blocklist()
    assert all(re.fullmatch(r"[a-z]+", word) for word in entries)
    assert len(entries) == len(set(entries))
    sections = (DICT_DIR / "blocklist.txt").read_text(encoding="utf-8").split("\n\n")[1:]
    # ethnic/racial, religious, sexual/gender, ableist, profanity, sexual terms and vulgar words
    assert len(sections) == 6
    for section in sections:
        words = [line for line in section.splitlines() if not line.startswith("#")]
        assert words == sorted(words)


def test_slurs_and_common_profanity_are_rejected_as_not_a_word():
    from shared.game.dictionary import words
    from shared.game.rules import judge

    for word in blocklist():
        if len(word) >= 3:
            verdict = judge(word, word[:3].upper(), words())
            assert (verdict.valid, verdict.reason) == (False, "not_a_word")


@pytest.mark.parametrize(
    "word", ["cafe", "cafes", "cliche", "fiance", "fiancee", "melee", "entree", "chateau"]
)
def test_accented_entries_are_folded_so_cafe_is_accepted(word):
    assert accepted(word)


def test_folding_drops_the_combining_marks_only():
    fold = build_script().fold_accents
    assert [fold("café"), fold("mêlée"), fold("naïveté"), fold("dog")] == ["cafe", "melee", "naivete", "dog"]
    assert fold("encyclopædia") == "encyclopædia"  # æ is a letter, not an accented a-z: never playable


@pytest.mark.parametrize(
    "word", ["donut", "donuts", "snuck", "rainforest", "hotspot", "dwarves", "audiobook"]
)
def test_frequent_variant_spellings_are_accepted(word):
    assert accepted(word) and word in set(read_words("common.txt"))


@pytest.mark.parametrize(
    "word",
    [
        "whorehouse",
        "whorehouses",
        "arsed",
        "arsing",
        "cums",
        "bastardly",
        "buggery",
        "pornographically",
        "orgasmically",
        "whoremaster",
        "whoredoms",  # a compound of `whore` with an ending
    ],
)
def test_inflections_and_compounds_of_blocked_words_are_refused(word):
    # Each is an entry of SCOWL's lists that the blocklist does not name: the rule refuses it.
    assert word not in blocklist()
    assert not accepted(word)


def test_no_listed_word_is_an_inflection_or_a_compound_of_a_blocked_word():
    build = build_script()
    rule = build.BlockRule(
        build.blocked_roots(set(blocklist())), set(read_words("common.txt")), set(allowlist())
    )
    assert [w for w in read_words("words.txt") if rule.blocks(w)] == []


@pytest.mark.parametrize(
    ("word", "form"),
    [
        ("shits", True),
        ("shittier", True),
        ("whoring", True),
        ("dogshit", True),
        ("shitheads", True),
        ("motherfuckers", True),
        ("scrapbook", False),  # s + crap + book: `s` is no word
        ("circumstance", False),  # cir + cum + stance: two parts around the root
        ("mishit", False),
        ("snigger", False),
    ],
)
def test_the_rule_finds_a_blocked_root_with_an_ending_or_one_core_word(word, form):
    build = build_script()
    parts = {"dog", "head", "heads", "mother", "book", "stance"}
    rule = build.BlockRule(build.blocked_roots(set(blocklist())), parts, set())
    assert rule.blocks(word) is form


def test_an_allowlisted_word_excuses_the_blocked_root_inside_it_and_its_own_inflections():
    build = build_script()
    roots = build.blocked_roots(set(blocklist()))
    rule = build.BlockRule(roots, {"fish"}, {"monger", "spice"})
    assert not rule.blocks("fishmonger") and not rule.blocks("spicing") and not rule.blocks("spiced")
    assert build.BlockRule(roots, {"fish"}, set()).blocks("fishmonger")
    assert rule.blocks("spics")  # the slur's own inflection is not excused by `spice`


@pytest.mark.parametrize(
    "word", ["class", "assess", "cocktail", "scrapbook", "gypsum", "homosexual", "spicy", "monger"]
)
def test_innocent_words_that_contain_a_blocked_or_rude_word_are_accepted(word):
    assert accepted(word)


def test_every_allowlisted_word_is_accepted_and_the_allowlist_is_sorted_and_unique():
    assert allowlist() == sorted(set(allowlist()))
    assert all(re.fullmatch(r"[a-z]+", word) for word in allowlist())
    assert set(allowlist()) <= set(read_words("words.txt"))


@pytest.mark.parametrize("word", ["app", "intro", "admin", "maths"])
def test_frequent_abbreviations_and_clippings_of_scowl_are_accepted(word):
    from shared.game.dictionary import words
    from shared.game.rules import judge

    assert judge(word, word[:3].upper(), words()).valid


@pytest.mark.parametrize("word", ["ebook", "roadmap", "timeframe", "lockdown"])
def test_frequent_words_of_the_next_scowl_size_are_accepted(word):
    assert word in set(read_words("words.txt")) and word in set(read_words("common.txt"))


def test_lowercase_names_of_the_next_scowl_size_are_not_taken_in_for_their_frequency():
    # "boston" is a lowercase entry of SCOWL 80, but its frequency is the city's (README.md).
    assert "boston" not in set(read_words("words.txt"))


@pytest.mark.parametrize("word", ["timer", "alley", "dogs", "braid", "colour"])
def test_common_words_are_those_people_use_zipf_3_or_more(word):
    assert word in set(read_words("common.txt"))


@pytest.mark.parametrize("word", ["profusions", "skinflints", "aeon"])
def test_rare_dictionary_words_are_not_common(word):
    assert word in set(read_words("words.txt")) and word not in set(read_words("common.txt"))


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


# Words of today, identity words, moderators' lists and the reviewed decisions (SPEC §2, §3e)


@pytest.mark.parametrize(
    ("word", "decided"),
    [
        # From the second source (hunspell-en-gb) at Zipf >= 2.5:
        ("cyber", True),
        ("gameplay", True),
        ("millennials", True),
        ("mins", True),
        ("livestream", True),  # 2.92
        ("influencer", True),  # 2.95, a size-80 entry of SCOWL below 3.0
        ("renewables", True),
        ("pharma", True),
        ("gelato", True),
        # Reviewed (today.txt): spelled otherwise (`Wi-Fi`, `COVID`), a name in SCOWL, or in neither list
        ("wifi", True),
        ("covid", True),
        ("bluetooth", True),
        ("mixtape", True),
        ("esports", True),
        ("staycation", True),
        # Brands that stay brands (decisions.txt, "Brands")
        ("lego", False),
        ("photoshop", False),
    ],
)
def test_the_words_of_today_asked_for_are_accepted_or_refused_as_the_build_reports(word, decided):
    assert accepted(word) is decided
    assert word in build_script().ASKED_FOR


def test_every_identity_word_is_accepted_whatever_its_frequency_and_the_list_is_sorted():
    listed = [w for w in (DICT_DIR / "identities.txt").read_text(encoding="utf-8").split("\n") if w]
    entries = [w for w in listed if not w.startswith("#")]
    assert entries == sorted(set(entries)) and len(entries) > 300
    assert [w for w in entries if not accepted(w)] == []


def decisions() -> dict[str, tuple[str, str]]:
    lines = (DICT_DIR / "decisions.txt").read_text(encoding="utf-8").split("\n")
    return {
        word: (decision, reason)
        for word, decision, reason in (line.split("\t") for line in lines if line and line[0] != "#")
    }


def test_each_reviewed_decision_has_a_reason_and_holds_in_the_word_list():
    decided = decisions()
    for word in ("whoredoms", "mongolism", "mongo", "feck", "niggard", "fagot", "milf", "poon"):
        assert decided[word][0] == "block"
    assert {"spunk", "boner"} <= set(decided)
    for word, (decision, reason) in decided.items():
        assert decision in ("block", "keep", "out") and len(reason) >= 5, word
        assert accepted(word) is (decision == "keep"), word


@pytest.mark.parametrize(
    "word", ["niggardly", "niggards", "fagots", "fagoting", "milfs", "poons", "boners", "mongols", "mongos"]
)
def test_the_other_forms_of_a_blocked_word_are_refused(word):
    assert not accepted(word)


@pytest.mark.parametrize(
    "word", ["feckless", "teaspoon", "tablespoons", "lampoon", "harpoon", "spunky", "mongolian", "homogeny"]
)
def test_innocent_words_around_the_new_blocked_words_are_accepted(word):
    assert accepted(word)


@pytest.mark.parametrize("name", ["additions.txt", "block_additions.txt"])
def test_moderators_lists_are_word_tab_case_id_and_read_by_the_build(name, tmp_path):
    path = tmp_path / name
    path.write_text("# a comment\nvlog\tcase-0001\n", encoding="utf-8")
    assert build_script().read_word_file(path) == {"vlog"}
    committed = build_script().read_word_file(DICT_DIR / name)
    assert all(re.fullmatch("[a-z]+", w) for w in committed)


def test_the_second_source_is_expanded_by_its_affix_rules():
    from dictionary import hunspell

    aff = "SFX S Y 2\nSFX S y ies [^aeiou]y\nSFX S 0 s [^y]\nPFX U Y 1\nPFX U 0 un .\n"
    forms = hunspell.expand("2\nmillennial/S\nhappy/U\n", aff)
    assert set(forms) == {"millennial", "millennials", "happy", "unhappy"}
    assert forms["millennials"] == "millennial/S"
    assert not build_script().is_word_of_today("xxx") and not build_script().is_word_of_today("viii")
    assert build_script().is_word_of_today("gameplay")


def test_top_words_are_the_accepted_among_wordfreqs_10000_most_frequent_clean_words():
    # Built from wordfreq's ranking (build.py, top_clean_words): 3+ letters, names and words the
    # lists lack among the 10,000 too, so fewer are accepted.
    top = read_words("top_words.txt")
    assert 9_000 < len(top) < 10_000 and top == sorted(set(top)) and set(top) <= set(read_words("common.txt"))
    assert min(len(w) for w in top) >= 3 and {"the", "time", "people", "wifi"} <= set(top)
