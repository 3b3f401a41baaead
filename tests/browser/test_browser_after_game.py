"""After the game (SPEC §4a) in the web client: the end screen's rank (plain words on a small
board), the day's distribution as labelled columns with their counts and a text alternative a
screen reader reads, the ladder's six steps, and stats that add up, at a phone's width and a
desktop's."""

import re

import pytest

from tests.browser.rounds import play_rounds, start_daily

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def _play_a_daily(page) -> None:
    page.click("a[data-view-link=home]")
    start_daily(page)
    play_rounds(page)


@pytest.mark.parametrize(("width", "height"), [(360, 780), (1280, 900)])
def test_the_end_screen_draws_the_days_distribution_with_a_text_alternative(open_client, width, height):
    client = open_client(width=width, height=height)
    page = client.start_as(f"dora-distribution-{width}")
    _play_a_daily(page)

    page.wait_for_selector("#end-distribution:visible")
    rank = page.inner_text("#end-rank")
    place, players = re.search(r"You are (\d+)(?:st|nd|rd|th) of (\d+) on today's board", rank).groups()
    # A small board says a plain rank: the percentile and its step come from 20 players on.
    small = int(players) < 20
    assert ("% of the players: " in rank) == (not small), rank
    text = page.inner_text("#end-chart .chart-text")
    assert text.startswith("Scores today, by band of 100 points.") and "(you)" in text
    # Labelled columns with their counts, the player's marked by a shape and a word, not colour alone.
    page.wait_for_selector("#end-chart .band-col.mine")
    assert page.locator("#end-chart .band-col").count() >= 5
    assert page.locator("#end-chart .band-col.mine").count() == 1
    assert page.inner_text("#end-chart .band-col.mine .band-label") == "▲ you"
    counts = [int(c) for c in page.locator("#end-chart .band-count").all_inner_texts() if c.strip()]
    assert sum(counts) >= int(players) and int(page.inner_text("#end-chart .band-col.mine .band-count")) >= 1
    assert page.get_attribute("#end-chart .band-cols", "aria-hidden") == "true"  # the text says it instead
    # The ladder's six steps, the one reached marked, or (small board) why none is.
    steps = page.locator("#end-ladder li")
    assert steps.count() == 6
    ladder = page.inner_text("#end-ladder-text")
    if small:
        assert page.locator("#end-ladder li[aria-current=step]").count() == 0
        assert ladder == f"The ladder ranks by share of players: it starts at 20 players ({players} so far)."
    else:
        assert page.locator("#end-ladder li[aria-current=step]").count() == 1
    client.check_screen(f"after-game-distribution-{width}")
    if width == 360:  # stats add up: the streak's days and an average score
        page.click("a[data-view-link=me]")
        page.wait_for_function("document.querySelector('#stat-average').textContent.includes('over')")
        assert page.inner_text("#stats-streak") == "Your streak of 1 day: every day played."
