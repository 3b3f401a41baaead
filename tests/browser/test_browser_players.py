"""Leagues, past Dailies and a player's data in the web client (web/players.js): its pure helpers,
a league created, joined from its invite link and shown with "you are 1st of 2", the past Dailies
listed, and an account deleted after its confirmation."""

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.client import exports_of

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


_call = exports_of("players")


def test_standing_says_the_rank_in_words_of_the_rows_shown(open_client):
    client = open_client()
    client.open()
    assert _call(client.page, "[1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(players.ordinal)") == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]  # fmt: skip
    board = {"my_rank": 2, "rows": [{}] * 7, "name": "Office", "date": "2026-01-15"}
    assert _call(client.page, "players.standing(args[0])", board) == "You are 2nd of 7 in Office"


def test_a_month_of_past_dailies_is_weeks_from_monday_playable_from_the_first_to_yesterday(open_client):
    client = open_client()
    client.open()
    weeks = _call(client.page, "players.monthWeeks('2026-02', '2026-02-26', '2026-03-01')")
    assert len(weeks) == 5 and all(len(week) == 7 for week in weeks)  # 1 February 2026 is a Sunday
    assert weeks[4] == [{"date": f"2026-02-{day}", "playable": day >= 26} for day in range(23, 29)] + [None]
    assert weeks[0][:6] == [None] * 6 and weeks[0][6] == {"date": "2026-02-01", "playable": False}
    playable = [cell["date"] for week in weeks for cell in week if cell and cell["playable"]]
    assert playable == ["2026-02-26", "2026-02-27", "2026-02-28"]
    today = _call(client.page, "players.monthWeeks('2026-03', '2026-02-26', '2026-03-01')")
    assert not any(cell and cell["playable"] for week in today for cell in week)  # today: the Daily itself
    assert _call(client.page, "[players.shiftMonth('2026-01', -1), players.shiftMonth('2026-12', 1)]") == [
        "2025-12",
        "2027-01",
    ]


def test_a_league_is_created_joined_from_its_link_and_shows_where_you_stand(open_client):
    ann = open_client()
    ann.open("/#leagues")
    ann.login("leagueann")
    ann.page.click("a[data-view-link=leagues]")
    ann.page.fill("#league-name", "Office")
    ann.page.click("#league-create button")
    ann.page.wait_for_selector("#league-card:visible")
    link = ann.page.input_value("#league-link")
    assert "?league=" in link and link.endswith("#leagues")

    bob = open_client()
    bob.open(link.removeprefix(bob.server.url))
    bob.login("leaguebob")
    bob.page.click("a[data-view-link=leagues]")
    bob.page.click("#league-join button")
    bob.page.wait_for_selector("#league-card:visible")
    assert "You are in Office" in bob.page.inner_text("#leagues-status")
    bob.page.wait_for_function("document.querySelector('#league-standing').textContent !== ''")
    assert "No official result" in bob.page.inner_text("#league-standing")
    assert bob.page.locator("#league-members li").count() == 2


def test_past_dailies_are_listed_and_a_deleted_account_is_gone(open_client):
    client = open_client()
    client.open()
    client.login("goneplayer")
    client.page.click("a[data-view-link=archive]")
    client.page.wait_for_selector("#archive tbody tr")
    client.page.click("a[data-view-link=me]")
    client.page.wait_for_selector("#delete-account:visible")
    client.page.once("dialog", lambda dialog: dialog.accept())
    with client.page.expect_navigation():
        client.page.click("#delete-account")
    client.page.wait_for_selector("html[data-ready=true]")
    assert client.page.is_visible("#login-open")


# How long players.js is held back while a page that did not wait for it would go on to the Daily.
HOLD_MS = 3_000


def test_a_slow_players_js_is_waited_for_before_any_view_is_shown(open_client):
    """players.js builds the leagues and past Dailies views, and a loaded machine can serve it
    after app.js's first replies: held back, the page asks for nothing past its config until it
    has run, then opens on #leagues with no error. (A page that went on would ask for the Daily
    and show its first view on views not built yet.)"""
    client = open_client()
    page = client.page
    held, seen = [], []
    page.route("**/players.js", lambda route: held.append(route))
    page.on("request", lambda request: seen.append(request.url.removeprefix(client.server.url)))
    page.goto(client.server.url + "/#leagues", wait_until="commit")
    with contextlib.suppress(PlaywrightTimeoutError):  # the page waits for players.js: as it should
        page.wait_for_event("response", lambda response: response.url.endswith("/daily"), timeout=HOLD_MS)
    seen.append("players.js released")
    held[0].continue_()
    page.wait_for_selector("html[data-ready=true]")
    assert seen.index("players.js released") < seen.index("/daily"), seen
    assert page.locator("#view-leagues").is_visible()
