"""After the game (SPEC §4a) in the web client: the end screen's rank, percentile, ladder step and
the day's distribution as an inline SVG bar chart whose text alternative a screen reader reads,
at a phone's width and a desktop's."""

import re

import pytest

from tests.browser.client import answer_for, shown_round, submit, wait_for_round

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def _play_a_daily(page) -> None:
    page.click("a[data-view-link=home]")
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    played: list[str] = []
    for number in range(1, 11):
        _, prompt, forbidden = shown_round(page)
        word = answer_for(prompt, forbidden, avoid=played)
        assert submit(page, word).startswith("Accepted:")
        played.append(word)
        if number < 10:
            wait_for_round(page, number + 1)
    page.wait_for_selector("#view-end:visible")


@pytest.mark.parametrize(("width", "height"), [(360, 780), (1280, 900)])
def test_the_end_screen_draws_the_days_distribution_with_a_text_alternative(open_client, width, height):
    client = open_client(width=width, height=height)
    page = client.page
    client.open()
    client.login(f"dora-distribution-{width}")
    _play_a_daily(page)

    page.wait_for_selector("#end-distribution:visible")
    rank = page.inner_text("#end-rank")
    players = int(re.search(r"rank \d+ of (\d+)", rank).group(1))
    # Alone on the board, beating 0% says nothing: the percentile and its step come from two players on.
    assert ("% of today's players: " in rank) == (players > 1)
    text = page.inner_text("#end-chart .chart-text")
    assert text.startswith("Scores today, by band of 100 points.") and "(you)" in text
    bars = page.locator("#end-chart svg rect")
    assert bars.count() == 21  # bands 0-99 to 2000-2099
    assert page.locator("#end-chart svg rect.mine").count() == 1
    assert page.get_attribute("#end-chart svg", "aria-hidden") == "true"  # the text says it instead
    client.check_screen(f"after-game-distribution-{width}")
