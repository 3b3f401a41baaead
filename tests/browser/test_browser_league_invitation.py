"""A league's invite link in the web client (SPEC §4a): a guest sees the league's name, its
creator, its member count and today's leader; after logging in one tap joins; "Copy link" says it
copied; the league board is one line a row from 320 px. At a phone's width and a desktop's."""

import pytest

from tests.browser.test_browser_boards_invites import _broken_lines, _play

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


@pytest.mark.parametrize(("width", "height"), [(360, 780), (1280, 900)])
def test_a_league_link_shows_the_league_to_a_guest_and_joins_in_one_tap_after_login(
    open_client, server, width, height
):
    creator = f"inviter{width}"
    _play(server, creator, 6)  # "Bo <..> the Longest Name": a long name, today's leader
    _, body = server.request("POST", "/local/login", {"username": creator})
    status, league = server.request("POST", "/leagues", {"name": f"Office {width}"}, token=body["id_token"])
    assert status == 201

    guest = open_client(width=width, height=height)
    page = guest.page
    guest.open(f"/?league={league['code']}#leagues")
    page.wait_for_selector("#league-invite:visible")
    assert page.inner_text("#league-invite-name") == f"Office {width}"
    line = page.inner_text("#league-invite-line")
    assert line.startswith("Made by Bo ") and "· 1 member ·" in line and "Today's leader: Bo " in line
    assert page.inner_text("#league-invite-join") == "Log in to join"
    guest.check_screen(f"league-invitation-guest-{width}")

    page.click("#league-invite-join")  # opens the login
    page.fill("#username", f"invitee{width}")
    page.click("#login-form button.primary")
    page.wait_for_selector("#logout:visible")
    if page.locator("#name-prompt-skip").is_visible():
        page.click("#name-prompt-skip")
    page.click("a[data-view-link=leagues]")
    page.wait_for_function(
        f"document.querySelector('#league-invite-join').textContent === 'Join Office {width}'"
    )
    page.click("#league-invite-join")  # the one tap
    page.wait_for_selector("#league-card:visible")
    assert f"You are in Office {width}" in page.inner_text("#leagues-status")
    # the members' list is drawn from the league's own reply, which may come after the card shows
    page.wait_for_function("document.querySelectorAll('#league-members li').length === 2")

    page.click("#league-copy")
    page.wait_for_function("document.querySelector('#leagues-status').textContent.startsWith('Link copied')")
    assert page.evaluate("navigator.clipboard.readText()") == page.input_value("#league-link")

    page.wait_for_selector("#league-board tbody tr td.player")
    for narrow in (320, width):
        page.set_viewport_size({"width": narrow, "height": height})
        assert _broken_lines(page) == [], narrow
        assert guest.layout_overflow() == [], narrow
    guest.check_screen(f"league-board-{width}")
