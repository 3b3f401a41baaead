"""SPEC §2 and RULES.txt: one test per check and per rule, with the rules' own examples, and laws.

Tests are named after SPEC §2's checks, numbered as there (1 length, 2 letters, 3 order,
4 forbidden, 5 dictionary), and after RULES.txt's rules by their titles.
"""

import string

from hypothesis import given
from hypothesis import strategies as st

from shared.game.dictionary import words
from shared.game.rules import (
    avoids_forbidden_letters,
    is_in_dictionary,
    is_plain_letters,
    judge,
    length_reason,
    preserves_letter_order,
)

DICTIONARY = words()


# SPEC §2 check 1: non-empty, at most 45 characters -------------------------------------------


def test_check_1_empty_and_too_long():
    assert judge("", "TMR", DICTIONARY).reason == "empty"
    assert judge("t" * 46, "TMR", DICTIONARY).reason == "too_long"
    assert length_reason("t" * 45) is None


def test_check_1_lengths_are_counted_in_code_points():
    assert length_reason("é" * 45) is None  # 90 bytes in UTF-8, 45 characters
    assert judge("é" * 46, "TMR", DICTIONARY).reason == "too_long"


# SPEC §2 check 2: ASCII letters only (RULES.txt "Punctuation and hyphens") -------------------


def test_check_2_punctuation_and_hyphens_hyphenated_word_rejected():
    assert judge("time-r", "TMR", DICTIONARY).reason == "not_letters"


def test_check_2_punctuation_and_hyphens_apostrophe_rejected():
    assert judge("timer's", "TMR", DICTIONARY).reason == "not_letters"


def test_check_2_punctuation_and_hyphens_spaces_are_not_trimmed():
    assert judge(" timer", "TMR", DICTIONARY).reason == "not_letters"
    assert judge("timer ", "TMR", DICTIONARY).reason == "not_letters"
    assert judge("ti mer", "TMR", DICTIONARY).reason == "not_letters"


def test_check_2_accents_full_width_zero_width_look_alikes_and_digits_rejected():
    assert judge("timér", "TMR", DICTIONARY).reason == "not_letters"
    assert judge("ｔｉｍｅｒ", "TMR", DICTIONARY).reason == "not_letters"  # full-width
    assert judge("tim\u200ber", "TMR", DICTIONARY).reason == "not_letters"  # zero-width space
    assert judge("tіmer", "TMR", DICTIONARY).reason == "not_letters"  # Cyrillic і look-alike
    assert judge("timer2", "TMR", DICTIONARY).reason == "not_letters"


# SPEC §2 check 3: letter order (RULES.txt "Preserve letter order", "Duplicate letters") ------


def test_check_3_preserve_letter_order_timer_is_valid_for_tmr():
    assert judge("TIMER", "TMR", DICTIONARY) == (True, "timer", None)


def test_check_3_preserve_letter_order_meter_is_invalid_for_tmr():
    assert judge("METER", "TMR", DICTIONARY) == (False, "meter", "letter_order")


def test_check_3_duplicate_letters_alley_is_valid_for_all():
    assert judge("ALLEY", "ALL", DICTIONARY).valid


def test_check_3_duplicate_letters_alone_is_invalid_for_all_one_l_after_a():
    assert judge("ALONE", "ALL", DICTIONARY).reason == "letter_order"


# SPEC §2 check 4: forbidden letters (RULES.txt "Forbidden mode") ------------------------------


def test_check_4_forbidden_mode_braid_fails_when_a_is_forbidden():
    assert judge("BRAID", "BRD", DICTIONARY, forbidden="AEO").reason == "forbidden_letter"
    assert judge("BRAID", "BRD", DICTIONARY).valid  # the order check alone lets it through


# SPEC §2 check 5: dictionary membership (RULES.txt "Use one real English word", "Plurals and
# inflected forms", "Proper nouns, names, and brands", "Abbreviations and acronyms") ----------


def test_check_5_use_one_real_english_word_random_strings_and_fragments_fail():
    assert judge("TMRXQZ", "TMR", DICTIONARY).reason == "not_a_word"
    assert judge("TIMR", "TMR", DICTIONARY).reason == "not_a_word"


def test_check_5_plurals_dogs_works_for_dgs_because_the_dictionary_lists_it():
    assert "dogs" in DICTIONARY
    assert judge("DOGS", "DGS", DICTIONARY).valid


def test_check_5_plurals_a_made_up_plural_fails():
    assert judge("DOGSS", "DGS", DICTIONARY).reason == "not_a_word"


def test_check_5_proper_nouns_names_and_brands_membership_alone_decides():
    # A capitalised name whose lowercase spelling is listed passes: Turkey the country is turkey
    # the bird, China is china; nothing asks whether the player meant a name.
    assert judge("Turkey", "TRK", DICTIONARY) == (True, "turkey", None)
    assert judge("China", "CHN", DICTIONARY) == (True, "china", None)
    # A name whose lowercase spelling is not listed fails as any unknown word does.
    assert "paris" not in DICTIONARY and judge("Paris", "PRS", DICTIONARY).reason == "not_a_word"
    # The same name is accepted by a dictionary that lists it: membership is the only test.
    assert judge("Paris", "PRS", frozenset({"paris"})).valid
    assert judge("Nike", "NKE", frozenset({"nike"})).valid


def test_check_5_abbreviations_and_acronyms_have_no_separate_classifier():
    assert judge("NASA", "NSA", frozenset({"nasa"})).valid
    assert judge("NASA", "NSA", frozenset()).reason == "not_a_word"


# The order of the checks ----------------------------------------------------------------------


def test_checks_run_in_spec_order_first_failure_is_the_reason():
    # 2 (letters) before 3 (order); 3 before 4 (forbidden); 4 before 5 (dictionary)
    assert judge("me-ter", "TMR", DICTIONARY).reason == "not_letters"
    assert judge("meter", "TMR", DICTIONARY, forbidden="EIO").reason == "letter_order"
    assert judge("tmrxyz", "TMR", DICTIONARY, forbidden="XAB").reason == "forbidden_letter"
    assert judge("", "TMR", DICTIONARY, forbidden="ABC").reason == "empty"  # 1 first of all


def test_each_check_function_on_its_own():
    assert is_plain_letters("Timer") and not is_plain_letters("tim-er")
    assert preserves_letter_order("alley", "ALL") and not preserves_letter_order("alone", "ALL")
    assert avoids_forbidden_letters("timer", "ABC") and not avoids_forbidden_letters("braid", "A")
    assert is_in_dictionary("timer", DICTIONARY) and not is_in_dictionary("timr", DICTIONARY)


# Laws ----------------------------------------------------------------------------------------

letters = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=12)
prompts = st.text(alphabet=string.ascii_uppercase, min_size=3, max_size=3)
LISTED = sorted(w for w in DICTIONARY if 3 <= len(w) <= 45)


@st.composite
def listed_word_and_its_prompt(draw):
    """A dictionary word, cased at random, and a prompt made of 3 of its letters in order: every
    example is a word the rules accept, so the law's assertion is reached every time."""
    word = LISTED[draw(st.integers(0, len(LISTED) - 1))]
    positions = sorted(draw(st.lists(st.integers(0, len(word) - 1), min_size=3, max_size=3, unique=True)))
    prompt = "".join(word[i] for i in positions).upper()
    upper = draw(st.integers(0, 2 ** len(word) - 1))  # which letters are capitals
    cased = "".join(c.upper() if upper >> i & 1 else c for i, c in enumerate(word))
    return cased, prompt


@given(word=letters, prompt=prompts)
def test_law_check_3_inserting_letters_never_breaks_letter_order(word, prompt):
    embedded = "x" + "".join(c + "q" for c in prompt.lower()) + word
    assert preserves_letter_order(embedded, prompt)


@given(word=letters, prompt=prompts)
def test_law_check_3_letter_order_is_a_subsequence_test(word, prompt):
    it = iter(word)
    subsequence = all(letter in it for letter in prompt.lower())
    assert preserves_letter_order(word, prompt) == subsequence


@given(case=listed_word_and_its_prompt())
def test_law_a_listed_word_in_any_case_is_accepted_for_any_prompt_it_contains_in_order(case):
    word, prompt = case
    verdict = judge(word, prompt, DICTIONARY)
    assert verdict == (True, word.lower(), None)
    assert verdict.word in DICTIONARY and verdict.word.isascii() and verdict.word.isalpha()


@given(case=listed_word_and_its_prompt(), forbidden=st.sampled_from(string.ascii_uppercase))
def test_law_check_4_a_forbidden_letter_in_a_listed_word_always_rejects_it(case, forbidden):
    word, prompt = case
    verdict = judge(word, prompt, DICTIONARY, forbidden=forbidden)
    expected = "forbidden_letter" if forbidden.lower() in word.lower() else None
    assert verdict.reason == expected


@given(word=st.text(max_size=60), prompt=prompts)
def test_law_whatever_is_accepted_is_a_lowercase_ascii_dictionary_word_in_order(word, prompt):
    verdict = judge(word, prompt, DICTIONARY)
    # Random text is almost never accepted; then the law is that it gets a reason.
    assert verdict.valid == (verdict.reason is None)
    if verdict.valid:
        assert verdict.word in DICTIONARY and preserves_letter_order(verdict.word, prompt)


@given(word=letters, prompt=prompts)
def test_law_case_never_changes_the_verdict(word, prompt):
    assert judge(word, prompt, DICTIONARY) == judge(word.upper(), prompt.lower(), DICTIONARY)


@given(word=st.text(min_size=1, max_size=45).filter(lambda w: any(c not in string.ascii_letters for c in w)))
def test_law_check_2_anything_but_ascii_letters_is_not_letters(word):
    assert judge(word, "TMR", DICTIONARY).reason == "not_letters"
