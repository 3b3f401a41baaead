"""Playing on a phone and by ear: the layout above a 330 px keyboard, a rejected word kept and
selected, touch hints, motion and reduced motion, the live region's words, the light theme, the
offline page, the end screen's share sheet, and no layout shift on load or while playing."""

import pytest

from tests.browser.client import (
    CSP_WATCH,
    answer_for,
    shown_round,
    submit,
    take_a_persons_time,
    wait_for_round,
    word_failing,
)
from tests.browser.rounds import answer, play_rounds, start_daily

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]

KEYBOARD = 330  # px a phone's soft keyboard takes from a 740 px screen


def _in_view(page, selector: str) -> bool:
    return page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }",
        selector,
    )


def _start(client) -> None:
    client.open()
    client.page.click("#start-daily")
    client.page.wait_for_selector("#view-game:visible")


@pytest.mark.parametrize("forbidden_round", [False, True])
def test_the_verdict_attempts_and_word_stay_above_a_330_px_keyboard(open_client, forbidden_round):
    client = open_client(width=360, height=740, has_touch=True, is_mobile=True)
    page = client.page
    _start(client)
    played: list[str] = []
    if forbidden_round:  # the longest game screen: the forbidden banner too
        for number in range(1, 8):
            _, prompt, forbidden = shown_round(page)
            played.append(answer_for(prompt, forbidden, avoid=played))
            submit(page, played[-1])
            wait_for_round(page, number + 1)
    page.focus("#word")
    page.set_viewport_size({"width": 360, "height": 740 - KEYBOARD})  # the keyboard comes up
    _, prompt, forbidden = shown_round(page)
    wrong = word_failing(prompt, forbidden, "letter_order")
    said = submit(page, wrong)
    assert said.startswith(f"Rejected: {wrong.upper()}.")
    for selector in ("#status", "#attempts-line", "#word", "#prompt-tiles", "#submit-word"):
        assert _in_view(page, selector), selector
    # The rejected word stays in the box, selected: typing replaces it, arrows edit it.
    assert page.input_value("#word") == wrong
    assert page.evaluate(
        "[document.activeElement.id, document.activeElement.selectionStart,"
        " document.activeElement.selectionEnd]"
    ) == ["word", 0, len(wrong)]
    client.check_screen(f"22-keyboard-up-{'forbidden' if forbidden_round else 'classic'}-360x410")
    # Touch hints on a touch screen, never "Esc".
    assert page.locator("#key-help").is_hidden()  # no room on a short screen: the hint is dropped
    assert "Tap Submit" in page.inner_text("#how-to-play") or page.locator("#how-to-play").is_hidden()
    assert "Esc" not in page.inner_text("#skip")


def test_a_rejection_shakes_and_a_perfect_round_is_marked(open_client):
    client = open_client(width=360, height=740)
    page = client.page
    _start(client)
    _, prompt, forbidden = shown_round(page)
    assert "Esc" in page.inner_text("#key-help")  # a keyboard: key hints
    submit(page, word_failing(prompt, forbidden, "not_a_word"))
    assert page.evaluate("getComputedStyle(document.querySelector('#word')).animationName") == "shake"
    page.fill("#word", "")
    _, prompt, forbidden = shown_round(page)
    submit(page, answer_for(prompt, forbidden))  # not the first try: no mark
    assert page.locator("#perfect-mark").is_hidden()
    wait_for_round(page, 2)
    _, prompt, forbidden = shown_round(page)
    submit(page, answer_for(prompt, forbidden))
    assert page.locator("#perfect-mark").is_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('#perfect-mark')).animationName") == "pop"


def test_reduced_motion_turns_the_shake_and_the_mark_off(open_client):
    client = open_client(width=360, height=740, reduced_motion="reduce")
    page = client.page
    _start(client)
    _, prompt, forbidden = shown_round(page)
    submit(page, word_failing(prompt, forbidden, "not_a_word"))
    assert page.evaluate("getComputedStyle(document.querySelector('#word')).animationName") == "none"
    page.fill("#word", "")
    _, prompt, forbidden = shown_round(page)
    submit(page, answer_for(prompt, forbidden))
    # A first-try word on the next round: the mark stays off.
    wait_for_round(page, 2)
    _, prompt, forbidden = shown_round(page)
    submit(page, answer_for(prompt, forbidden))
    assert page.locator("#perfect-mark").is_hidden()


def test_the_live_region_says_the_next_prompt_its_forbidden_letters_and_the_time(open_client):
    client = open_client()
    page = client.page
    page.clock.install()
    _start(client)
    assert page.get_attribute("#announce", "aria-live") == "polite"
    _, prompt, _ = shown_round(page)
    assert page.inner_text("#announce") == f"Round 1 of 10: {', '.join(prompt)}, in this order."
    played: list[str] = []
    for number in range(1, 8):
        _, prompt, forbidden = shown_round(page)
        played.append(answer_for(prompt, forbidden, avoid=played))
        submit(page, played[-1])
        wait_for_round(page, number + 1)
        if number == 1:
            _, prompt, _ = shown_round(page)
            assert page.inner_text("#announce") == f"Round 2 of 10: {', '.join(prompt)}, in this order."
    _, prompt, forbidden = shown_round(page)
    assert page.inner_text("#announce") == (
        f"Round 8 of 10: {', '.join(prompt)}, in this order. "
        f"Forbidden round: no {', '.join(forbidden)}, double points."
    )
    said = []
    for mark in (60, 30, 10):
        seconds_left = page.evaluate(
            "() => { const [m, s] = document.querySelector('#time-left').textContent.split(':');"
            " return Number(m) * 60 + Number(s); }"
        )
        page.clock.run_for((seconds_left - mark + 1) * 1000)
        page.wait_for_function(f"document.querySelector('#announce').textContent === '{mark} seconds left.'")
        said.append(page.inner_text("#announce"))
    assert said == ["60 seconds left.", "30 seconds left.", "10 seconds left."]


def test_the_light_theme_follows_the_system_preference(open_client):
    colours = {}
    for scheme in ("dark", "light"):
        client = open_client(width=360, height=740, color_scheme=scheme)
        client.open()
        colours[scheme] = client.page.evaluate("getComputedStyle(document.body).backgroundColor")
        client.check_screen(f"23-home-{scheme}-360")
        _start(client)
        client.check_screen(f"24-game-{scheme}-360")
    assert colours["dark"] == "rgb(22, 26, 51)" and colours["light"] == "rgb(246, 243, 234)"


def test_offline_a_page_load_shows_the_offline_page(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.add_init_script(CSP_WATCH)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.goto(server.url + "/")
        page.wait_for_selector("html[data-ready=true]")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        manifest = page.evaluate("fetch('/manifest.webmanifest').then((r) => r.json())")
        assert manifest["start_url"] == "/" and manifest["icons"][0]["src"] == "icon.svg"
        page.reload()  # the worker now controls the page
        page.wait_for_selector("html[data-ready=true]")
        context.set_offline(True)
        page.reload()
        assert "WordSQD needs a connection to check words" in page.inner_text("body")
        page.screenshot(path="test-artifacts/screens/25-offline-360.png")
        # Back online, "Try again" (its script file, under the page's CSP) loads the game.
        context.set_offline(False)
        page.click("text=Try again")
        page.wait_for_selector("html[data-ready=true]")
    finally:
        context.close()
    assert [e for e in errors if "CSP" in e or "Content Security Policy" in e] == []


def test_a_csp_violation_fails_a_browser_test(open_client):
    """The page runs under the stage's CSP (make run sends it), and every tab reports a violation
    as an error that fails its test: here an inline script, which the CSP blocks."""
    client = open_client()
    client.open()
    with client.page.expect_console_message(lambda message: "CSP violation" in message.text):
        client.page.evaluate(
            "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
            " document.body.append(s); }"
        )
    assert client.page.evaluate("window.ran") is None, "the inline script was blocked"
    assert any("CSP violation: script-src" in error for error in client.errors), client.errors
    client.errors.clear()  # seen: this test's own violation is not the page's


def test_the_end_screen_shares_through_the_system_sheet(open_client, server):
    client = open_client(width=360, height=740)
    page = client.page
    page.add_init_script(
        "window.__shared = [];"
        " navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };"
    )
    _start(client)
    for number in range(1, 11):
        page.click("#skip")
        if number < 10:
            wait_for_round(page, number + 1)
    page.wait_for_selector("#view-end:visible")
    assert page.inner_text("#copy-share") == "Share result"
    page.click("#copy-share")
    shared = page.evaluate("window.__shared")
    assert shared == [{"text": page.input_value("#share-text")}]
    # Ten squares on one line at 360 px.
    height, line = page.evaluate(
        "(() => { const e = document.querySelector('#end-squares'); const s = getComputedStyle(e);"
        " return [e.getBoundingClientRect().height, parseFloat(s.fontSize)]; })()"
    )
    assert height < 2 * line, (height, line)


def test_nothing_moves_while_the_home_page_loads(open_client):
    client = open_client(width=360, height=740)
    page = client.page
    page.add_init_script(
        "window.__cls = 0; new PerformanceObserver((list) => { for (const e of list.getEntries())"
        " if (!e.hadRecentInput) window.__cls += e.value; }).observe({type: 'layout-shift', buffered: true});"
    )
    client.open()
    page.wait_for_load_state("networkidle")  # what arrives late (no request for 500 ms) has come
    assert page.evaluate("window.__cls") < 0.01


# Every layout-shift entry from the moment the test says so (window.__from), with its time and
# whether an input came within 500 ms before it (such shifts are not counted, as CLS does).
SHIFT_LOG = (
    "window.__shifts = []; window.__from = Infinity; new PerformanceObserver((list) => {"
    " for (const e of list.getEntries()) if (e.startTime >= window.__from)"
    " window.__shifts.push({t: e.startTime, value: e.value, input: e.hadRecentInput,"
    " moved: e.sources.map((s) =>"
    " `${s.node && (s.node.id || s.node.className || s.node.nodeName)}"
    " y${s.previousRect.y}->${s.currentRect.y}`)}); })"
    ".observe({type: 'layout-shift', buffered: true});"
)
LATENCY_MS = 600  # a phone's slow network: every reply comes more than 500 ms after the tap or key


def session_window_cls(shifts: list[dict]) -> float:
    """CLS as Lighthouse and web-vitals compute it: shifts without recent input grouped in session
    windows (a gap under 1 s, a window at most 5 s long); the largest window's sum."""
    largest = current = 0.0
    first = last = None
    for shift in sorted((s for s in shifts if not s["input"]), key=lambda s: s["t"]):
        if first is not None and shift["t"] - last < 1000 and shift["t"] - first < 5000:
            current += shift["value"]
        else:
            current, first = shift["value"], shift["t"]
        last = shift["t"]
        largest = max(largest, current)
    return largest


def _a_round_of_every_verdict(page, number: int, prompt: str, forbidden: str, played: list[str]) -> None:
    """Rounds 2 and 9 first rejected (the longest verdicts), round 4 skipped, every other answered."""
    if number in (2, 9):
        reason = "forbidden_letter" if forbidden else "letter_order"
        assert submit(page, word_failing(prompt, forbidden, reason)).startswith("Rejected")
        page.fill("#word", "")
    if number == 4:
        take_a_persons_time(page)
        page.click("#skip")
    else:
        answer(page, prompt, forbidden, played)


def test_nothing_moves_while_a_daily_is_played_on_a_phone(open_client):
    """A whole official Daily at 360×780 on a slow network, rejections, a skip and the forbidden
    rounds included, then its end screen (rank and chart arriving): CLS under 0.1, and so is the
    plain sum of every shift without recent input."""
    client = open_client(width=360, height=780, has_touch=True, is_mobile=True)
    page = client.page
    page.add_init_script(SHIFT_LOG)
    client.start_as("cleo-layout-shift")
    client.skip_name_prompt()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": LATENCY_MS, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    page.evaluate("window.__from = performance.now()")
    start_daily(page)
    play_rounds(page, each_round=_a_round_of_every_verdict)
    page.wait_for_selector("#end-distribution:visible")
    page.wait_for_timeout(2500)  # the rank's second read, the streak
    shifts = page.evaluate("window.__shifts")
    counted = [s for s in shifts if not s["input"]]
    cls, plain = session_window_cls(shifts), sum(s["value"] for s in counted)
    print(
        f"layout shift while playing at 360x780: CLS {cls:.4f}, plain sum {plain:.4f}, {len(counted)} shifts"
    )
    assert cls < 0.1 and plain < 0.1, (cls, plain, counted)
