"""Past Dailies as a month calendar (today's month first, played days marked with the score) and
a replay's share text that says it was a replay, at a phone's width and a desktop's."""

from datetime import date, timedelta

import pytest

from tests.browser.client import wait_for_round

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


@pytest.mark.parametrize(("width", "height"), [(360, 780), (1280, 900)])
def test_past_dailies_are_a_month_calendar_and_a_replay_shares_as_one(open_client, server, width, height):
    client = open_client(width=width, height=height)
    page = client.start_as(f"carl-calendar-{width}")
    client.skip_name_prompt()
    today = date.fromisoformat(server.request("GET", "/daily")[1]["date"])
    yesterday = (today - timedelta(days=1)).isoformat()

    page.click("a[data-view-link=archive]")
    page.wait_for_selector("#archive tbody tr")
    month = page.inner_text("#archive-month")
    assert str(today.year) in month and page.is_disabled("#archive-later")
    assert page.locator("#archive td.today").count() == 1  # today's month comes first
    if yesterday[:7] != today.isoformat()[:7]:
        page.click("#archive-earlier")
    page.click(f"#archive button[data-date='{yesterday}']")

    page.wait_for_selector("#view-game:visible")
    for number in range(1, 11):
        wait_for_round(page, number)
        page.click("#skip")
    page.wait_for_selector("#view-end:visible")
    assert page.input_value("#share-text").splitlines()[0] == f"WordSQD Daily {yesterday} (replay)"

    page.click("a[data-view-link=archive]")
    if yesterday[:7] != today.isoformat()[:7]:
        page.click("#archive-earlier")
    played = page.locator(f"#archive button.played[data-date='{yesterday}']")
    played.wait_for()
    assert "you scored 0 (practice)" in played.text_content()
    assert page.locator("#archive tbody tr").count() in (4, 5, 6)
    client.check_screen(f"past-dailies-calendar-{width}")
