"""SPEC §2 and RULES.txt: one test per rule, with the rules' own examples, and the rules as laws."""

import string

from hypothesis import given
from hypothesis import strategies as st

from shared.dictionary import words
from shared.rules import (
    avoids_forbidden_letters,
    is_in_dictionary,
    is_plain_letters,
    judge,
    length_reason,
    preserves_letter_order,
)

DICTIONARY = words()


def test_rule_1_preserve_letter_order_timer_is_valid_for_tmr():
    assert judge("TIMER", "TMR", DICTIONARY) == (True, "timer", None)


def test_rule_1_preserve_letter_order_meter_is_invalid_for_tmr():
    assert judge("METER", "TMR", DICTIONARY) == (False, "meter", "letter_order")


def test_duplicate_letters_alley_is_valid_for_all():
    assert judge("ALLEY", "ALL", DICTIONARY).valid


def test_duplicate_letters_alone_is_invalid_for_all_one_l_after_a():
    assert judge("ALONE", "ALL", DICTIONARY).reason == "letter_order"


def test_forbidden_mode_braid_fails_when_a_is_forbidden():
    assert judge("BRAID", "BRD", DICTIONARY, forbidden="AEO").reason == "forbidden_letter"
    assert judge("BRAID", "BRD", DICTIONARY).valid  # the order rule alone lets it through


def test_plurals_dogs_works_for_dgs_because_the_dictionary_lists_it():
    assert "dogs" in DICTIONARY
    assert judge("DOGS", "DGS", DICTIONARY).valid


def test_plurals_a_made_up_plural_fails():
    assert judge("DOGSS", "DGS", DICTIONARY).reason == "not_a_word"


def test_rule_2_one_real_english_word_random_strings_and_fragments_fail():
    assert judge("TMRXQZ", "TMR", DICTIONARY).reason == "not_a_word"
    assert judge("TIMR", "TMR", DICTIONARY).reason == "not_a_word"


def test_punctuation_and_hyphens_hyphenated_word_rejected():
    assert judge("time-r", "TMR", DICTIONARY).reason == "not_letters"


def test_punctuation_and_hyphens_apostrophe_rejected():
    assert judge("timer's", "TMR", DICTIONARY).reason == "not_letters"


def test_punctuation_and_hyphens_spaces_are_not_trimmed():
    assert judge(" timer", "TMR", DICTIONARY).reason == "not_letters"
    assert judge("timer ", "TMR", DICTIONARY).reason == "not_letters"
    assert judge("ti mer", "TMR", DICTIONARY).reason == "not_letters"


def test_input_rules_accents_full_width_and_zero_width_rejected():
    assert judge("timér", "TMR", DICTIONARY).reason == "not_letters"
    assert judge("ｔｉｍｅｒ", "TMR", DICTIONARY).reason == "not_letters"  # full-width
    assert judge("tim\u200ber", "TMR", DICTIONARY).reason == "not_letters"  # zero-width space
    assert judge("tіmer", "TMR", DICTIONARY).reason == "not_letters"  # Cyrillic і look-alike
    assert judge("timer2", "TMR", DICTIONARY).reason == "not_letters"


def test_rule_order_1_empty_and_too_long():
    assert judge("", "TMR", DICTIONARY).reason == "empty"
    assert judge("t" * 46, "TMR", DICTIONARY).reason == "too_long"
    assert length_reason("t" * 45) is None


def test_lengths_are_counted_in_code_points():
    assert length_reason("é" * 45) is None  # 90 bytes in UTF-8, 45 characters
    assert judge("é" * 46, "TMR", DICTIONARY).reason == "too_long"


def test_proper_nouns_names_and_brands_dictionary_membership_alone_decides():
    # Lowercase letters-only spellings are accepted iff listed; nothing classifies names.
    assert judge("Timer", "TMR", DICTIONARY).valid  # capitals are simply lowercased
    for word in ("selfie", "colour", "color"):
        assert is_in_dictionary(word, DICTIONARY)


def test_abbreviations_and_acronyms_have_no_separate_classifier():
    assert judge("NASA", "NSA", frozenset({"nasa"})).valid
    assert judge("NASA", "NSA", frozenset()).reason == "not_a_word"


def test_checks_run_in_order_first_failure_is_the_reason():
    # letters-only comes before order; order before forbidden; forbidden before dictionary
    assert judge("me-ter", "TMR", DICTIONARY).reason == "not_letters"
    assert judge("meter", "TMR", DICTIONARY, forbidden="EIO").reason == "letter_order"
    assert judge("tmrxyz", "TMR", DICTIONARY, forbidden="XAB").reason == "forbidden_letter"


def test_each_rule_function_on_its_own():
    assert is_plain_letters("Timer") and not is_plain_letters("tim-er")
    assert preserves_letter_order("alley", "ALL") and not preserves_letter_order("alone", "ALL")
    assert avoids_forbidden_letters("timer", "ABC") and not avoids_forbidden_letters("braid", "A")


letters = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=12)
prompts = st.text(alphabet=string.ascii_uppercase, min_size=3, max_size=3)


@given(word=letters, prompt=prompts)
def test_law_inserting_letters_never_breaks_letter_order(word, prompt):
    embedded = "x" + "".join(c + "q" for c in prompt.lower()) + word
    assert preserves_letter_order(embedded, prompt)


@given(word=letters, prompt=prompts)
def test_law_letter_order_is_a_subsequence_test(word, prompt):
    it = iter(word)
    subsequence = all(letter in it for letter in prompt.lower())
    assert preserves_letter_order(word, prompt) == subsequence


@given(word=st.text(max_size=60), prompt=prompts)
def test_law_accepted_words_are_lowercase_ascii_dictionary_words(word, prompt):
    verdict = judge(word, prompt, DICTIONARY)
    if verdict.valid:
        assert verdict.word in DICTIONARY and verdict.word.isascii() and verdict.word.isalpha()
        assert preserves_letter_order(verdict.word, prompt)


@given(word=letters, prompt=prompts)
def test_law_case_never_changes_the_verdict(word, prompt):
    assert judge(word, prompt, DICTIONARY) == judge(word.upper(), prompt.lower(), DICTIONARY)


@given(word=st.text(min_size=1, max_size=45).filter(lambda w: any(c not in string.ascii_letters for c in w)))
def test_law_anything_but_ascii_letters_is_not_letters(word):
    assert judge(word, "TMR", DICTIONARY).reason == "not_letters"
