"""Marks everyone can read (SPEC §4a): a whole Daily played through the accessibility tree alone
(every control found by its role and name, every prompt read from what a screen reader is told),
each outcome a shape as well as a colour in the grid and the share text, and axe-core clean in
the light, dark and high-contrast themes."""

import re

import pytest

from tests.browser.client import answer_for, word_failing

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]

PRESSED = "document.querySelector('#contrast-toggle').getAttribute('aria-pressed')"
ANNOUNCED = re.compile(r"Round (\d+) of 10: ([A-Z, ]+), in this order\.(?: Forbidden round: no ([A-Z, ]+),)?")


def _round_as_told(page) -> tuple[int, str, str]:
    """(round, prompt, forbidden) from the game region's accessibility tree (its live announcement)."""
    tree = page.get_by_role("region", name=re.compile(r"Round \d+ of 10")).aria_snapshot()
    number, prompt, forbidden = ANNOUNCED.search(tree).groups()
    return int(number), prompt.replace(", ", ""), (forbidden or "").replace(", ", "")


def _wait_for_round(page, number: int) -> None:
    page.get_by_role("heading", level=1, name=re.compile(rf"Round {number} of 10$")).wait_for()


def _send(page, word: str, last: bool = False) -> str:
    page.get_by_role("textbox", name="Your word").fill(word)
    page.get_by_role("button", name="Submit").click()
    if last:  # the end screen replaces the game
        return "Accepted:"
    status = page.get_by_role("status").filter(has_text=word.upper())
    status.wait_for()
    return status.inner_text()


def test_a_whole_daily_through_the_accessibility_tree_with_shaped_marks_axe_clean_in_every_theme(open_client):
    client = open_client(width=1280, height=900, color_scheme="light")
    page = client.page
    client.open()
    page.get_by_role("button", name="Start the Daily").click()
    played: list[str] = []
    for number in range(1, 11):
        _wait_for_round(page, number)
        told, prompt, forbidden = _round_as_told(page)
        assert told == number and len(prompt) == 3 and len(forbidden) == (3 if number >= 8 else 0)
        if number == 3:
            page.get_by_role("button", name="Skip").click()
            continue
        if number == 2:  # a miss first: found after a miss
            assert _send(page, word_failing(prompt, forbidden, "letter_order")).startswith("Rejected:")
        word = answer_for(prompt, forbidden, avoid=played)
        assert _send(page, word, last=number == 10).startswith("Accepted:")
        played.append(word)
    page.get_by_role("heading", level=1, name="Great run!").wait_for()
    share = page.get_by_role("textbox", name=re.compile("Your result to share")).input_value()
    assert share.splitlines()[1] == "✅🔶➖✅✅✅✅✅✅✅"  # shapes: check, diamond, dash (not colour alone)
    assert page.get_by_role("button", name=re.compile("Copy result|Share result")).is_visible()

    client.check_screen("marks-end-light")
    page.emulate_media(color_scheme="dark")
    client.check_screen("marks-end-dark")
    contrast = page.get_by_role("button", name="High contrast")
    background = "getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()"
    assert contrast.get_attribute("aria-pressed") == "false" and page.evaluate(background) != "#000000"
    page.emulate_media(contrast="more")  # the system's "more contrast" turns it on
    assert page.evaluate(background) == "#000000"
    page.wait_for_function(f"{PRESSED} === 'true'")
    client.check_screen("marks-end-high-contrast")
    page.emulate_media(contrast="no-preference")
    page.wait_for_function(f"{PRESSED} === 'false'")
    contrast.click()  # and so does the footer's switch, remembered
    assert contrast.get_attribute("aria-pressed") == "true" and page.evaluate(background) == "#000000"
    page.get_by_role("link", name="Play", exact=True).click()
    page.get_by_role("button", name=re.compile("Start the Daily|Play again")).wait_for()
    client.check_screen("marks-home-high-contrast")
