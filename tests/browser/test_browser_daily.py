"""Playing the Daily in the web client, in Chromium, as a guest and as a logged-in player.

The words come from the dictionary, judged by shared.game.rules for the prompt the page shows, so each
test is a real run against the real server (SPEC §2, §3).
"""

import json
import re

import pytest

from shared.game.dictionary import words
from shared.game.rules import judge
from tests.browser.client import (
    answer_for,
    assert_share_text,
    ordinal,
    run_id_of,
    shown_round,
    submit,
    valid_words,
    wait_for_round,
    word_failing,
)
from tests.browser.rounds import accept

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def test_a_guest_plays_a_whole_daily_with_a_rejection_and_a_skip_on_a_phone(open_client):
    client = open_client(width=360, height=780)
    page = client.page
    client.open()
    assert page.inner_text("#who") == "Guest"
    # Rules and scoring are on the page (SPEC §2/§3).
    rules = page.inner_text("#how-to-play")
    for fact in ("in order", "ALLEY", "BRAID", "3 attempts", "180 seconds", "10 ×", "20 ×", "+5", "Esc"):
        assert fact in rules, fact
    assert "Playing as a guest" in page.inner_text("#daily-who")
    assert page.inner_text("#countdown") != "--:--:--"
    client.check_screen("01-home-guest-360")

    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    assert page.inner_text("#run-label") == "Daily · guest"
    assert page.get_attribute("#status", "aria-live") == "polite"
    number, prompt, forbidden = shown_round(page)
    assert (number, forbidden) == (1, "")
    client.check_screen("02-game-round-360")

    # A rejection explained in words, with the attempts left.
    wrong = word_failing(prompt, forbidden, "letter_order")
    said = submit(page, wrong)
    assert said.startswith(f"Rejected: {wrong.upper()}.")
    assert f"The letters {', '.join(prompt)} must appear in this order" in said
    assert "2 attempts left" in said
    assert page.inner_text("#attempts-left") == "2" and page.inner_text("#combo") == "0"
    client.check_screen("03-game-rejected-360")

    played = [wrong]
    word = answer_for(prompt, forbidden)
    assert submit(page, word).startswith(f"Accepted: {word.upper()}, +")
    played.append(word)
    wait_for_round(page, 2)

    # Escape skips the round (the documented key).
    page.focus("#word")
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelector('#status').textContent.includes('Round 2 skipped')")
    wait_for_round(page, 3)

    for number in range(3, 11):
        shown, prompt, forbidden = shown_round(page)
        assert shown == number
        if number >= 8:  # the Daily's forbidden rounds, shown clearly
            assert len(forbidden) == 3 and "Forbidden round" in page.inner_text("#forbidden-banner")
            if number == 8:
                client.check_screen("04-game-forbidden-round-360")
        else:
            assert not page.locator("#forbidden-banner").is_visible()
        word = answer_for(prompt, forbidden, avoid=played)
        said = submit(page, word)
        assert said.startswith(f"Accepted: {word.upper()}, +"), said
        if number >= 4:  # rounds 3.. in a row: the combo shows
            assert f"combo ×{number - 2}" in said
        played.append(word)
        if number < 10:
            wait_for_round(page, number + 1)

    page.wait_for_selector("#view-end:visible")
    run_id = run_id_of(page)
    run = client.server.request("GET", f"/guest/runs/{run_id}")[1]
    assert run["status"] == "completed" and run["ended_by"] == "finished"
    assert page.inner_text("#final-score") == str(run["score"])
    assert page.inner_text("#end-won") == "9/10"
    assert "Guest runs are not ranked" in page.inner_text("#end-note")

    share = page.input_value("#share-text")
    # a miss then a word, a skip, the rest first try; every line pinned, so no word is in it
    title, squares = f"WordSQD Daily {run['date']}", "🔶➖✅✅✅✅✅✅✅✅"
    lines = assert_share_text(share, title, squares, client.server.url)
    assert lines[2].startswith(f"Score {run['score']} · 9/10 words · best combo 8 · ")
    assert run_id not in share
    page.click("#copy-share")
    page.wait_for_function("document.querySelector('#copy-status').textContent.startsWith('Copied')")
    assert page.evaluate("navigator.clipboard.readText()") == share
    client.check_screen("05-end-guest-360")
    page.click(".review summary")  # the player's own words, round by round (a table, reflowed)
    review = page.inner_text("#review")
    assert all(word.upper() in review for word in played)
    client.check_screen("05b-end-review-360")

    # The run id (a guest run's credential) is never on screen or in the page.
    assert run_id not in page.content()
    assert run_id not in page.inner_text("body")
    assert run_id not in page.evaluate("JSON.stringify(localStorage)")


def test_a_player_plays_an_official_daily_and_sees_their_row_on_the_board(open_client):
    client = open_client()
    page = client.page
    client.open()
    client.login("pia-plays", screen="06-login-local")
    assert "first finished run today is your official score" in page.inner_text("#daily-who")

    # Before any result: the board has no row of hers, and her rank is never asked (it would be 404).
    page.click("a[data-view-link=board]")
    page.wait_for_selector("#my-row:visible")
    assert "not on today's board yet" in page.inner_text("#my-row")

    page.click("a[data-view-link=home]")
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    assert page.inner_text("#run-label") == "Daily · official"
    played = []
    for number in range(1, 11):
        shown, prompt, forbidden = shown_round(page)
        assert shown == number
        if number == 2:  # rejections: a word not in the dictionary, then not plain letters
            nonsense = word_failing(prompt, forbidden, "not_a_word")
            assert "Not in the WordSQD dictionary. 2 attempts left." in submit(page, nonsense)
            hyphenated = word_failing(prompt, forbidden, "not_letters")
            said = submit(page, hyphenated)
            assert "Letters A to Z only: no spaces, hyphens" in said and "1 attempt left." in said
        if number == 9:  # a forbidden letter, named
            banned = word_failing(prompt, forbidden, "forbidden_letter")
            said = submit(page, banned)
            used = [letter for letter in forbidden if letter.lower() in banned]
            assert f"It uses the forbidden letter {' and '.join(used)}: this round bans" in said
        if number == 5:  # the Skip button
            page.click("#skip")
            page.wait_for_function(
                "document.querySelector('#status').textContent.includes('Round 5 skipped')"
            )
            wait_for_round(page, 6)
            continue
        accept(page, number, prompt, forbidden, played)
        if number < 10:
            wait_for_round(page, number + 1)
    page.wait_for_selector("#view-end:visible")
    # the browser tests share one server, so others may be on today's board: the end screen says the
    # rank and board size the server gives (GET /leaderboard/daily/me), once the counters have them
    token = page.evaluate("localStorage.getItem('wordsqd.token')")
    page.wait_for_function("document.querySelector('#end-rank').textContent.startsWith('You are ')")
    mine = client.server.request("GET", "/leaderboard/daily/me", token=token)[1]
    said = f"You are {ordinal(mine['rank'])} of {mine['players']} "
    page.wait_for_function(f"document.querySelector('#end-rank').textContent.startsWith('{said}')")
    assert page.inner_text("#end-note") == "This is your official score for the day."
    page.wait_for_selector("#end-streak-item:visible")
    assert page.inner_text("#end-streak") == "1 day"
    assert re.fullmatch(r"\d+:\d\d:\d\d", page.inner_text("#end-countdown"))
    assert page.inner_text("#end-squares") == "✅🔶✅✅➖✅✅✅🔶✅"
    share = page.input_value("#share-text")
    title = share.splitlines()[0]
    assert re.fullmatch(r"WordSQD Daily \d{4}-\d\d-\d\d", title)
    assert_share_text(share, title, "✅🔶✅✅➖✅✅✅🔶✅", client.server.url)
    client.check_screen("07-end-official")

    page.click("#end-board")
    page.wait_for_selector("#board tr.mine")
    row = page.inner_text("#board tr.mine")
    score = page.inner_text("#final-score")
    assert score in row and "player-" in row
    said = f"You: rank {mine['rank']}"
    page.wait_for_function(f"document.querySelector('#my-row').textContent.startsWith('{said}')")
    assert page.locator("#board .words-col").is_hidden()  # a live board shows no words
    client.check_screen("08-board-with-my-row")

    # Her next Daily is practice, and the page says so.
    page.click("a[data-view-link=home]")
    page.wait_for_selector("#view-home:visible")  # the link routes by hashchange, an event later
    assert page.inner_text("#start-daily") == "Play again (practice)"
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    assert page.inner_text("#run-label") == "Daily · practice"

    # After a reload the page resumes the run in play, and still asks no rank that would 404.
    page.reload()
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_selector("#view-game:visible")
    assert page.inner_text("#run-label") == "Daily · practice"
    page.click("a[data-view-link=home]")
    page.wait_for_selector("#view-home:visible")  # the link routes by hashchange, an event later
    assert page.locator("#resume-run").is_visible() and page.locator("#start-daily").is_hidden()
    page.click("#resume-run")
    page.wait_for_selector("#view-game:visible")
    assert page.inner_text("#run-label") == "Daily · practice"


def test_already_used_is_explained_in_words(open_client):
    """The client's text for `already_used` (SPEC §3), with the server's reply rewritten in the
    browser: the real server check is test_already_used_end_to_end below."""
    client = open_client()
    page = client.page

    def rewrite(route):
        response = route.fetch()
        reply = response.json()
        if not reply["accepted"]:
            reply["reason"] = "already_used"
            for attempt in reply["run"]["history"][-1]["attempts"]:
                attempt["reason"] = "already_used"
        route.fulfill(response=response, body=json.dumps(reply))

    client.open()
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    _, prompt, forbidden = shown_round(page)
    page.route("**/guest/runs/*/answers", rewrite)
    said = submit(page, word_failing(prompt, forbidden, "not_a_word"))
    assert "Already used: each word counts once per run." in said and "2 attempts left" in said


def test_already_used_end_to_end(open_client, server):
    """A word accepted once in a run is refused with `already_used` the second time (SPEC §3)."""
    # Today's prompts are the same for every run: a throwaway guest run, skipped through, shows them.
    run = server.request("POST", "/guest/daily/runs")[1]
    rounds = []
    while run["status"] == "active":
        rounds.append((run["prompt"], run["forbidden"]))
        run = server.request("POST", f"/guest/runs/{run['run_id']}/skip", {"round": run["round"]})[1]["run"]
    # The first two rounds one word fits.
    first, second, both = next(
        (i, j, word)
        for i in range(1, 11)
        for j in range(i + 1, 11)
        for word in valid_words(*rounds[i - 1])
        if judge(word, rounds[j - 1][0], words(), rounds[j - 1][1]).valid
    )

    client = open_client()
    page = client.page
    client.open()
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    for number in range(1, second + 1):
        wait_for_round(page, number)
        if number == first:
            assert submit(page, both).startswith("Accepted:")
        elif number == second:
            said = submit(page, both)
            assert said.startswith(f"Rejected: {both.upper()}. Already used: each word counts once per run.")
        else:
            page.keyboard.press("Escape")


def test_keyboard_only_play_enter_submits_escape_skips(open_client):
    client = open_client()
    page = client.page
    client.open()
    page.focus("#start-daily")
    page.keyboard.press("Enter")
    page.wait_for_selector("#view-game:visible")
    assert page.evaluate("document.activeElement.id") == "word"  # focus is where the typing goes
    _, prompt, forbidden = shown_round(page)
    page.keyboard.type(answer_for(prompt, forbidden))
    page.keyboard.press("Enter")
    wait_for_round(page, 2)
    assert page.evaluate("document.activeElement.id") == "word"
    page.keyboard.press("Escape")
    wait_for_round(page, 3)
    assert page.get_attribute("#skip", "aria-keyshortcuts") == "Escape"
    assert "".join(page.locator("#trail li").all_inner_texts()) == "✅➖"
