"""What a sanctioned player and a moderator see (SPEC §3e; docs/moderation.md), at 360 px: the
player is told what, why, until when and how to appeal on the home page, beside their board row and
above their history, and appeals from there; the moderator's case says whose run (name and id) and
why in words, times in their own locale, names not ids in the log, and nothing scrolls sideways."""

import re

import pytest

from tests.browser.client import MODERATOR, Server
from tests.browser.test_browser_moderation import (
    case_about,
    play_named,
    reload_at,
    report_run,
    today,
    token_of,
)

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]

ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def decide(server: Server, case_id: str, action: str, reason: str, **extra) -> None:
    body = {"action": action, "reason": reason, **extra}
    status, reply = server.request(
        "POST", f"/moderation/cases/{case_id}/decision", body, token_of(server, MODERATOR)
    )
    assert status == 200, reply


def rank_banned(client, server: Server, username: str, name: str) -> None:
    """USERNAME logs in on CLIENT and names themself NAME, which a moderator rank-bans on a report
    (until the next reset); the page is then loaded afresh at home."""
    page = client.start_as(username)
    page.fill("#name-prompt", name)
    page.click("#name-prompt-form button.primary")
    page.wait_for_selector("#name-panel", state="hidden")
    body = {"kind": "name", "target": name, "reason": "rude"}
    status, filed = server.request("POST", "/reports", body, token_of(server, f"{username}-reporter"))
    assert status == 201, filed
    until = server.request("GET", "/daily")[1]["resets_at"]  # the rank ban ends at the next reset
    decide(server, filed["case_id"], "rank_ban", "a rude name on the boards", until=until)
    reload_at(client, "/#home")


def test_a_sanctioned_player_is_told_what_why_until_when_and_how_to_appeal_and_appeals(open_client, server):
    client = open_client(width=360)
    page = client.page
    rank_banned(client, server, "sx-player", "Sx Player")
    notice = page.locator("#sanction-home")
    notice.wait_for(state="visible")
    text = notice.inner_text()
    assert "not placed on any board" in text and "Why: a rude name on the boards" in text
    assert "Until " in text and not ISO.search(text)  # in the player's own locale
    assert "appeal it once" in text
    client.check_screen("sanction-home-360")
    page.click("a[data-view-link=board]")
    assert "a rude name on the boards" in page.locator("#sanction-board").inner_text()
    # Showing #me reads the profile and history again, and the notices are drawn again from them:
    # the appeal is typed into the notice as drawn after those reads, not into one they replace.
    history = page.expect_response(lambda r: r.request.method == "GET" and "/me/history" in r.url)
    profile = page.expect_response(
        lambda r: r.request.method == "GET" and r.url.split("?")[0].endswith("/me")
    )
    with history, profile:
        page.click("a[data-view-link=me]")
    page.locator("#sanction-me").wait_for(state="visible")
    page.fill("#sanction-me textarea", "It is my real name")
    page.click("#sanction-me button")
    page.wait_for_function("document.querySelector('#sanction-me').textContent.includes('with a moderator')")
    (appeal,) = server.request("GET", "/me/appeals", token=token_of(server, "sx-player"))[1]["items"]
    assert appeal["reason"] == "It is my real name" and appeal["state"] == "open"


def test_a_moderator_reads_whose_run_and_why_in_their_locale_and_names_in_the_log_at_360px(
    open_client, server
):
    play_named(server, "mw-suspect", "Mw Suspect")
    report_run(server, "mw-reporter", "Mw Suspect")
    shown = f"{today(server)}:Mw Suspect"
    client = open_client(width=360)
    page = client.start_as(MODERATOR)
    page.click("#name-prompt-skip")
    page.click("#moderation-tab")
    page.click(f"#cases button[aria-label='Open the case about {shown}']")
    page.wait_for_selector("#case-card:visible")
    subject = case_about(server, shown)["evidence"]["subject"]
    assert page.inner_text("#case-whose") == f"Whose: Mw Suspect (player {subject})"
    assert page.inner_text("#case-why") == 'Why: "too fast to be true"'
    assert not ISO.search(page.inner_text("#case-line")) and not ISO.search(page.inner_text("#cases"))
    client.check_screen("moderation-case-360")  # no sideways scroll, the player's id included
    page.fill("#decision-reason", "a fair run")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#decision-buttons button[data-action=dismiss]")
    page.wait_for_function("document.querySelector('#mod-log tbody').textContent.includes('a fair run')")
    first = page.inner_text("#mod-log tbody tr:first-child")
    assert "Mw Suspect" in first and "player-" in first and subject not in first and not ISO.search(first)
    client.check_screen("moderation-log-360")


# The page's own profile read (views/account.js loadProfile: GET /me and its history), as showing
# #me runs it, run again while the player types: the module the page loaded, imported again.
READ_THE_PROFILE_AGAIN = """import(new URL("js/player.js", location.href).href)
  .then((player) => player.loadProfile()).then(() => true)"""


def test_an_appeal_being_typed_keeps_its_text_and_focus_while_the_profile_is_read_again(open_client, server):
    """GET /me read again with the sanctions as they were draws no notice again: the player typing
    an appeal keeps the box, its text and the caret."""
    client = open_client(width=360)
    page = client.page
    rank_banned(client, server, "sk-player", "Sk Player")
    read = page.expect_response(lambda r: r.request.method == "GET" and r.url.split("?")[0].endswith("/me"))
    with read:
        page.click("a[data-view-link=me]")
    box = page.locator("#sanction-me textarea")
    box.click()
    page.keyboard.type("It is my ")
    reads: list[str] = []
    page.on("request", lambda r: r.url.split("?")[0].endswith("/me") and reads.append(r.method))
    assert page.evaluate(READ_THE_PROFILE_AGAIN)
    assert reads == ["GET"]
    page.keyboard.type("real name")
    assert box.input_value() == "It is my real name"
    assert page.evaluate("document.activeElement === document.querySelector('#sanction-me textarea')")


def test_history_says_a_rank_a_decision_moved_was_corrected(open_client, server):
    """A result whose rank a moderator's decision moved after its board closed reads "rank 3 → 2,
    corrected" in history, in its row and in the note under the table. The player's real history
    is rewritten in the browser to that correction (the shared server's clock stays where the other
    tests need it; tests/services/test_rank_corrections.py makes it on the server)."""

    def corrected(route) -> None:
        reply = route.fetch()
        body = reply.json()
        for item in body["items"][:1]:  # none before the player has played
            item.update({"rank": 2, "rank_before_correction": 3})
        route.fulfill(response=reply, json=body)

    client = open_client(width=360)
    page = client.page
    page.route("**/me/history*", corrected)
    client.open()
    client.login("rc-player")
    page.click("#name-prompt-skip")
    play_named(server, "rc-player", "Rc Player")
    page.click("a[data-view-link=me]")
    page.wait_for_selector("#history-review li")
    date = today(server)
    assert page.inner_text("#history tbody tr:first-child td:nth-child(5)") == "3 → 2"
    note = page.inner_text("#history-review li")
    assert note.startswith(f"{date}: rank 3 → 2, corrected: a moderator's decision")
