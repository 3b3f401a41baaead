"""Stats, streaks and history in the web client (SPEC §5 `GET /me`, `GET /me/history`), after two
days of play on the local clock (`POST /local/clock`), on a server of this module's own."""

import json

import pytest

from tests.browser.client import answer_for, shown_round, submit, wait_for_round
from tests.browser.rounds import play_rounds, start_daily

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]

DAY = 24 * 3600


def _play_a_daily(page) -> int:
    page.click("a[data-view-link=home]")
    start_daily(page)
    assert page.inner_text("#run-label") == "Daily · official"
    play_rounds(page)
    return int(page.inner_text("#final-score"))


def test_stats_and_history_after_two_days_of_play(open_client, clock_server):
    client = open_client(width=360, height=780, on=clock_server)
    page = client.start_as("stella-streaks")
    page.click("a[data-view-link=me]")
    page.wait_for_selector("#history td.empty")
    assert "No official results yet" in page.inner_text("#history")
    first_date = page.evaluate("fetch('/daily').then((r) => r.json()).then((d) => d.date)")
    first = _play_a_daily(page)

    clock_server.advance_clock(DAY)
    client.open()  # a new day: the page reads the new Daily
    second_date = page.evaluate("fetch('/daily').then((r) => r.json()).then((d) => d.date)")
    assert second_date != first_date
    assert page.inner_text("#start-daily") == "Start the Daily"
    second = _play_a_daily(page)

    # Every other screen fits the phone too, with rows in its tables.
    page.click("#end-board")
    page.wait_for_selector("#board tr.mine")
    page.wait_for_selector("#my-row:visible")
    client.check_screen("15-board-360")
    page.click("a[data-view-link=challenges]")
    page.click("#challenge-create")
    page.wait_for_selector("#challenge-card:visible")
    client.check_screen("16-challenges-360")

    page.click("a[data-view-link=me]")
    page.wait_for_function("document.querySelectorAll('#history tbody tr').length === 2")
    history = page.locator("#history tbody tr").all_inner_texts()
    assert str(second) in history[0] and str(first) in history[1]  # newest first
    assert page.locator("#stats-missing").is_hidden(), "GET /me returned no stats"
    assert page.inner_text("#stat-played") == "2"
    assert page.inner_text("#stat-current") == "2"
    assert page.inner_text("#stat-max") == "2"
    assert page.inner_text("#stat-best") == str(max(first, second))
    assert page.inner_text("#stat-last") == page.evaluate(
        "(day) => { const [y, m, d] = day.split('-').map(Number); return new Date(y, m - 1, d)"
        ".toLocaleDateString([], {weekday: 'short', month: 'short', day: 'numeric', year: 'numeric'}); }",
        second_date,
    )
    client.check_screen("12-stats-and-history-360")


def test_stats_render_from_the_profile_and_their_absence_is_explained(open_client):
    """The page shows SPEC §5's `stats` as sent (the reply rewritten in the browser), and says so
    plainly when a server sends a profile without them."""
    client = open_client()
    page = client.page
    stats = {
        "played": 12,
        "current_streak": 3,
        "max_streak": 7,
        "best_score": 1234,
        "last_played": "2026-11-29",
        "freezes": 1,
        "covered_dates": ["2026-11-20"],
    }
    sent = {"stats": stats}

    def profile(route):
        if route.request.method != "GET":
            route.continue_()
            return
        response = route.fetch()
        body = {**response.json(), **sent}
        route.fulfill(response=response, body=json.dumps({k: v for k, v in body.items() if v is not None}))

    page.route("**/me", profile)
    client.open()
    client.login("mona-mocked")
    page.click("a[data-view-link=me]")
    page.wait_for_function("document.querySelector('#stat-played').textContent === '12'")
    shown = [page.inner_text(f"#stat-{name}") for name in ("played", "current", "max", "best")]
    assert shown == ["12", "3", "7", "1234"]
    assert "29" in page.inner_text("#stat-last") and page.locator("#stats-missing").is_hidden()
    freezes = page.inner_text("#stat-freezes")
    assert freezes.startswith("1 held") and "20" in freezes

    sent["stats"] = None  # a profile without stats
    page.click("a[data-view-link=home]")
    page.click("a[data-view-link=me]")
    page.wait_for_selector("#stats-missing:visible")
    assert page.inner_text("#stat-played") == "–"


def test_a_player_sets_a_display_name_shown_on_the_page(open_client):
    client = open_client()
    page = client.start_as("nina-names")
    page.click("a[data-view-link=me]")
    page.fill("#new-name", "Nina Plays")
    page.click("#name-form button")
    page.wait_for_function("document.querySelector('#name-status').textContent.startsWith('Saved')")
    assert page.inner_text("#who") == "Nina Plays" and page.inner_text("#display-name") == "Nina Plays"
    client.check_screen("13-stats-new-player")


def test_a_run_past_its_time_limit_ends_with_times_up(open_client, clock_server):
    """SPEC §3: a run completes when its 180 s pass, with what it had scored; the page shows it
    (the local clock jumps past the deadline, so the page learns it on its next read)."""
    client = open_client(width=360, height=780, on=clock_server)
    page = client.page
    client.open()
    start_daily(page)
    _, prompt, forbidden = shown_round(page)
    word = answer_for(prompt, forbidden)
    assert submit(page, word).startswith("Accepted:")
    wait_for_round(page, 2)

    clock_server.advance_clock(181)
    page.reload()
    page.wait_for_selector("#view-end:visible")
    assert page.inner_text("#end-title") == "Time's up!"
    share = page.input_value("#share-text").splitlines()
    assert share[1] == "✅⬛⬛⬛⬛⬛⬛⬛⬛⬛" and share[2].endswith("time up")
    assert word not in page.input_value("#share-text").lower()
    client.check_screen("14-end-times-up-360")
