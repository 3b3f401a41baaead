"""A closed day's recap on the end screen (How the day went) and in the review cards (The day:
the words most played, words that would have fitted a skipped round), at a phone's width and a
desktop's. Its own server, whose clock this module moves past the day's close."""

import time
from datetime import date, timedelta

import pytest

from shared.game.puzzles import answers
from tests.browser.client import Server, shown_round, submit, wait_for_round

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def _play(server: Server, username: str, answered: int) -> None:
    """An official Daily over HTTP: the first ANSWERED rounds with their shortest words, the rest skipped."""
    _, body = server.request("POST", "/local/login", {"username": username})
    token = body["id_token"]
    _, run = server.request("POST", "/daily/runs", token=token)
    while run["status"] == "active":
        if run["round"] <= answered:
            word = min(answers(run["prompt"], run["forbidden"]), key=lambda w: (len(w), w))
            server.advance_clock(3)  # no sooner than a person could type it (SPEC §3b)
            body = {"round": run["round"], "attempt": run["attempt"], "word": word}
            _, reply = server.request("POST", f"/runs/{run['run_id']}/answers", body, token)
        else:
            _, reply = server.request("POST", f"/runs/{run['run_id']}/skip", {"round": run["round"]}, token)
        run = reply["run"]


@pytest.fixture(scope="module")
def closed_day(clock_server: Server) -> str:
    """Three official runs of today, then the clock past the day's close until its recap is ready."""
    day = clock_server.request("GET", "/daily")[1]["date"]
    for n, answered in enumerate((2, 2, 1)):
        _play(clock_server, f"rita-recap-{n}", answered)
    clock_server.advance_clock(24 * 3600 + 600)
    deadline = time.monotonic() + 90
    while clock_server.request("GET", f"/daily/{day}/recap")[0] != 200:
        assert time.monotonic() < deadline, "the closing pass never wrote the recap"
        time.sleep(1)
        clock_server.advance_clock(20)  # the one-minute job runs as the local clock crosses a minute
    return day


@pytest.mark.parametrize(("width", "height"), [(360, 780), (1280, 900)])
def test_a_closed_days_end_screen_and_review_cards_show_its_recap(
    open_client, clock_server, closed_day, width, height
):
    client = open_client(width=width, height=height, on=clock_server)
    page = client.start_as(f"rita-replay-{width}")
    client.skip_name_prompt()
    today = date.fromisoformat(clock_server.request("GET", "/daily")[1]["date"])
    assert closed_day == (today - timedelta(days=1)).isoformat()

    page.click("a[data-view-link=archive]")
    page.wait_for_selector("#archive tbody tr")
    if closed_day[:7] != today.isoformat()[:7]:
        page.click("#archive-earlier")
    page.click(f"#archive button[data-date='{closed_day}']")
    page.wait_for_selector("#view-game:visible")
    wait_for_round(page, 1)
    _, prompt, forbidden = shown_round(page)
    word = min(answers(prompt, forbidden), key=lambda w: (len(w), w))  # what the three players played
    submit(page, word)
    for number in range(2, 11):
        wait_for_round(page, number)
        page.click("#skip")
    page.wait_for_selector("#view-end:visible")

    page.wait_for_selector("#end-recap:not([hidden])")
    assert page.inner_text("#end-recap-players") == "3 ranked players played this day."
    rounds = page.locator("#end-recap-rounds li").all_inner_texts()
    assert len(rounds) == 10
    assert rounds[0].startswith(f"Round 1 · {prompt}") and "3 of 3 found a word" in rounds[0]
    assert f"most played {word.upper()} (3)" in rounds[0]
    assert "2 of 3 found a word, 33% lost or skipped it" in rounds[1]
    assert "0 of 3 found a word, 100% lost or skipped it" in rounds[2]

    page.click(".review summary")
    cells = page.locator("#review td.day")
    cells.first.wait_for()
    assert cells.count() == 10
    assert (
        cells.nth(0).inner_text()
        == f"{word.upper()}: played by 3 of the day's players. Most played: {word.upper()}"
    )
    skipped = cells.nth(3).inner_text()  # nobody played round 4: five common answers would have fitted
    assert skipped.startswith("Would have fitted: ") and len(skipped.split(", ")) == 5
    assert client.layout_overflow() == [], width
    client.check_screen(f"end-recap-{width}")


def test_yesterdays_recap_is_one_tap_from_home_with_the_official_words_never_a_replays(
    open_client, clock_server, closed_day
):
    """rita-recap-0 played round 1's and 2's shortest words officially, then a replay with another
    word: home's link, the calendar and the closed board all open the recap with the official words."""
    _, body = clock_server.request("POST", "/local/login", {"username": "rita-recap-0"})
    token = body["id_token"]
    status, replay = clock_server.request("POST", f"/daily/{closed_day}/runs", token=token)
    assert status == 201 and not replay["official"]
    first = sorted(answers(replay["prompt"], replay["forbidden"]), key=lambda w: (len(w), w))
    clock_server.advance_clock(3)
    body = {"round": 1, "attempt": 1, "word": first[1]}
    assert clock_server.request("POST", f"/runs/{replay['run_id']}/answers", body, token)[1]["accepted"]

    client = open_client(width=360, height=780, on=clock_server)
    page = client.start_as("rita-recap-0")
    client.skip_name_prompt()
    # The countdown runs on the server's clock (a day and more ahead of this browser's), as the
    # recap's "yesterday" does: never "Next Daily in 34:10:00".
    hours = page.inner_text("#countdown").split(":")
    assert len(hours) < 3 or int(hours[0]) < 24, hours
    page.get_by_role("link", name="Yesterday's answers: how the day went").click()
    page.wait_for_selector("#recap-list li")
    rounds = page.locator("#recap-list li")
    assert rounds.count() == 10
    one = rounds.nth(0).inner_text()
    assert f"Your word: {first[0].upper()}, 2 players also played it." in one, one
    assert first[1].upper() not in one.split("Most played")[0]  # the replay's word is not "yours"
    assert (
        "Your word:" in rounds.nth(1).inner_text() and "1 player also played it" in rounds.nth(1).inner_text()
    )
    three = rounds.nth(2).inner_text()
    assert "You found no word in this round." in three and "✕ missed" in three
    assert "Nobody played: " in three and "Most played:" not in three  # nobody played it: no empty list
    assert page.inner_text("#recap-whose").startswith("Your words are your official run's")
    client.check_screen("recap-360")

    page.click("#recap-board")  # the day's board offers the recap back
    page.wait_for_selector("#board-recap:visible")
    page.click("#board-recap")
    page.wait_for_selector("#view-recap:visible")
    page.wait_for_selector("#recap-list li")

    page.click("a[data-view-link=archive]")  # and the calendar, in its "see how it went" mode
    page.wait_for_selector("#archive tbody tr")
    page.get_by_label("see how it went").check()
    today = clock_server.request("GET", "/daily")[1]["date"]
    if closed_day[:7] != today[:7]:
        page.click("#archive-earlier")
    page.click(f"#archive button[data-date='{closed_day}']")
    page.wait_for_selector("#view-recap:visible")
    page.wait_for_function("document.querySelectorAll('#recap-list li').length === 10")

    # Practise what you missed: one round (its prompt and forbidden letters), then all the missed ones.
    three = page.locator("#recap-list li").nth(2)
    prompt = three.locator("h2").inner_text().split(" · ")[1].split(" ")[0]
    three.get_by_role("button", name="Try this round (round 3, as practice)").click()
    page.wait_for_selector("#view-game:visible")
    number, shown, forbidden = shown_round(page)
    assert (number, shown, page.inner_text("#rounds")) == (1, prompt, "1")
    submit(page, min(answers(shown, forbidden), key=lambda w: (len(w), w)))
    page.wait_for_selector("#view-end:visible")
    assert page.inner_text("#end-note").startswith("Practice of a past Daily's rounds: never ranked")
    shared = page.input_value("#share-text").splitlines()[0]
    assert shared == f"WordSQD Daily {closed_day} (practice of 1 round)"  # no replay of the whole Daily
    page.get_by_role("link", name="Play", exact=True).click()
    page.get_by_role("link", name="Yesterday's answers: how the day went").click()
    page.get_by_role("button", name="Practise the 8 rounds you missed").click()
    page.wait_for_selector("#view-game:visible")
    assert shown_round(page)[:2] == (1, prompt) and page.inner_text("#rounds") == "8"
    history = clock_server.request("GET", "/me/history", token=token)[1]["items"]
    assert [item["date"] for item in history] == [closed_day]  # practice is in no history or stats
