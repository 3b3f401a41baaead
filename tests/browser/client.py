"""Browser tests' helpers: the web client (web/) in headless Chromium against `python -m local.server`.

Playwright for Python (sync API) drives Debian's Chromium (`/usr/bin/chromium`, or $CHROMIUM):
Playwright's own browser download is not used. Each server runs on a free port with its own
DATA_DIR and LOCAL_CLOCK_CONTROL=1. Every page is watched for console errors, uncaught
exceptions and failed requests (Chromium logs a failed fetch as a console error); a test that
saw any fails. The server sends the stage's security headers (shared/http/page_headers.py), so
the page runs under the deployed CSP, and every page reports each CSP violation as a console
error (`CSP_WATCH`), whatever Chromium itself logs for it. Screenshots of each screen go to
test-artifacts/screens/ (git-ignored).
"""

import json
import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from shared.game.dictionary import words
from shared.game.rules import judge
from shared.http import page_headers
from tests.server_process import free_port, interrupt, launch, server_env, start_line

REPO = Path(__file__).parents[2]
SCREENS = REPO / "test-artifacts" / "screens"
AXE = Path(__file__).with_name("vendor") / "axe.min.js"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# Without the background-networking flags Chromium's own connections are refused on a closed network.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Guards against a hang, not timings: generous, so a loaded machine is slow, never failing.
START_TIMEOUT = 120.0
STOP_TIMEOUT = 60.0
WAIT_MS = 60_000  # Playwright's waits and the harness's requests
POLL_MS = 50  # wait_for_function_under_csp's pace
SERVER_CHOOSES = ("AWS_ENDPOINT_URL_DYNAMODB", "WORDSQD_ENV")  # the server says local itself
MODERATOR = "mod-browser"  # the browser tests' moderator (SPEC §3e; docs/moderation.md)
# Added to every browser context: run before any of the page's own scripts, so none escapes it.
CSP_WATCH = """document.addEventListener("securitypolicyviolation", (e) => console.error(
  `CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || "inline code"}`
  + ` at ${e.sourceFile}:${e.lineNumber}`));"""


class Server:
    """One `python -m local.server` process, the web client's origin."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = server_env(
            self.port,
            data_dir,
            SERVER_CHOOSES,
            LOCAL_CLOCK_CONTROL="1",
            PUZZLE_SEED="browser-tests",  # the same puzzles on every run of the tests
            LOCAL_MODERATORS=MODERATOR,  # local/auth.py: this username's tokens name `moderators`
        )
        self.process: subprocess.Popen | None = None

    def start(self) -> "Server":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        stderr = (self.data_dir / "server.err").open("w")
        self.process, lines, _ = launch(self.env, stderr)
        if not start_line(lines, START_TIMEOUT, self.stderr).startswith("WordSQD local:"):
            pytest.fail(f"server exited at start:\n{self.stderr()}")
        return self

    def stderr(self) -> str:
        path = self.data_dir / "server.err"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            interrupt(self.process, STOP_TIMEOUT)

    def request(self, method: str, path: str, body: object = None, token: str | None = None):
        """(status, decoded JSON) for one API request made by the test itself."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=WAIT_MS / 1000) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def advance_clock(self, seconds: float) -> None:
        status, body = self.request("POST", "/local/clock", {"advance_seconds": seconds})
        assert status == 200, body


class Client:
    """One browser tab on the web client, watched for errors, with the helpers tests share."""

    def __init__(self, page: Page, server: Server, label: str):
        self.page = page
        self.server = server
        self.label = label
        self.errors: list[str] = []
        page.on("console", lambda message: self._console(message))
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        page.on("requestfailed", self._request_failed)
        page.on(
            "response",
            lambda response: (
                response.status >= 400
                and self.errors.append(f"HTTP {response.status}: {response.request.method} {response.url}")
            ),
        )

    def _request_failed(self, request) -> None:
        # A request still on its way when the test reloads or leaves the page is aborted by the
        # browser, not refused by the server (and Chromium logs no error for it).
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"request failed ({request.failure}): {request.url}")

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def open(self, path: str = "/") -> None:
        self.page.goto(self.server.url + path)
        self.page.wait_for_selector("html[data-ready=true]", timeout=WAIT_MS)

    def screen(self, name: str) -> None:
        """Save a screenshot of what the player sees now (the whole page)."""
        SCREENS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=SCREENS / f"{name}.png", full_page=True)

    def login(self, username: str, screen: str | None = None) -> None:
        """Log in as USERNAME on the local sign-in form (checked as SCREEN first, if named)."""
        self.page.click("#login-open")
        if screen:
            self.check_screen(screen)
        self.page.fill("#username", username)
        self.page.click("#login-form button.primary")
        self.page.wait_for_selector("#logout:visible")
        self.page.wait_for_function("document.querySelector('#who').textContent.startsWith('player-')")

    def start_as(self, username: str) -> Page:
        """Open the client's home page and log in as USERNAME; the page."""
        self.open()
        self.login(username)
        return self.page

    def skip_name_prompt(self) -> None:
        """Close the first login's name prompt, if it is shown (a player asked before has none)."""
        if self.page.locator("#name-prompt-skip").is_visible():
            self.page.click("#name-prompt-skip")

    def layout_overflow(self) -> list[str]:
        """Elements wider than the viewport or reaching past its right edge (sideways scroll)."""
        return self.page.evaluate(
            """() => {
              const width = document.documentElement.clientWidth;
              const wide = [];
              const scroll = document.documentElement.scrollWidth;
              if (scroll > width) wide.push(`page scrollWidth ${scroll} > ${width}`);
              for (const el of document.querySelectorAll('body *')) {
                const box = el.getBoundingClientRect();
                if (!box.width || !box.height) continue;
                if (box.width > width + 0.5 || box.right > width + 0.5) {
                  const name = `${el.tagName.toLowerCase()}#${el.id}.${el.className}`;
                  wide.push(`${name} right=${Math.round(box.right)} width=${Math.round(box.width)}`);
                }
              }
              return wide;
            }"""
        )

    def accessibility_violations(self) -> list[str]:
        """axe-core's serious and critical violations on the screen as it is now."""
        if not self.page.evaluate("typeof window.axe !== 'undefined'"):
            # Evaluated by the test harness, not added as an inline <script> the page's CSP blocks.
            self.page.evaluate(_axe_source())
        results = self.page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
        return [
            f"{v['impact']}: {v['id']} ({v['help']}) at {[n['target'] for n in v['nodes']][:3]}"
            for v in results["violations"]
            if v["impact"] in ("serious", "critical")
        ]

    def check_screen(self, name: str) -> None:
        """Screenshot, no sideways scroll, no serious accessibility violation."""
        self.screen(name)
        overflow = self.layout_overflow()
        assert not overflow, f"{name}: sideways scroll: {overflow}"
        violations = self.accessibility_violations()
        assert not violations, f"{name}: accessibility: {violations}"

    def status(self) -> str:
        return self.page.inner_text("#status")


def as_a_stage(page: Page, config: dict) -> None:
    """Serve PAGE the web client as a stage with CONFIG (a Cognito config.json) would: that
    config, and on the page itself the CSP such a stage sends, with its Hosted UI and Cognito's
    API added (shared/http/page_headers.py, as infra/edge.py builds it). The page's context must
    block service workers (`service_workers="block"`): a page load the worker fetches is not routed."""
    cognito_api = f"https://cognito-idp.{config['region']}.amazonaws.com"
    csp = page_headers.content_security_policy(
        connect=(config["domain"], cognito_api), form_action=(config["domain"],)
    )

    def page_of_the_stage(route) -> None:
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": csp})

    page.route("**/config.json", lambda route: route.fulfill(json=config))
    page.route(lambda url: urlsplit(url).path in ("/", "/index.html"), page_of_the_stage)


def wait_for_function_under_csp(page: Page, expression: str, arg: object = None, **options) -> object:
    """Page.wait_for_function for a page under a CSP without 'unsafe-eval': Playwright's own builds
    its predicate with `new Function` inside the page, which that CSP refuses; this polls with
    `page.evaluate` (the DevTools protocol's evaluation, which no CSP governs). Returns the truthy
    value; times out as Playwright's would (a hang guard)."""
    timeout = options.get("timeout") or WAIT_MS
    deadline = time.monotonic() + timeout / 1000
    while not (value := page.evaluate(expression, arg)):
        if time.monotonic() > deadline:
            raise PlaywrightTimeoutError(f"wait_for_function: {expression[:80]} not true within {timeout} ms")
        page.wait_for_timeout(POLL_MS)
    return value


@cache
def _axe_source() -> str:
    return AXE.read_text() + "\n;true"


# ---------------------------------------------------------------------------------------------
# Answers: read from the dictionary, judged by the rules, for the prompt the page shows.


@cache
def _dictionary() -> tuple[str, ...]:
    # Short words first: quicker to type, and a long word is kept for already_used.
    return tuple(sorted(words(), key=lambda word: (len(word), word)))


def valid_words(prompt: str, forbidden: str = "", avoid: frozenset[str] = frozenset()) -> Iterator[str]:
    dictionary = words()
    for word in _dictionary():
        if word not in avoid and judge(word, prompt, dictionary, forbidden).valid:
            yield word


def answer_for(prompt: str, forbidden: str = "", avoid=frozenset()) -> str:
    return next(valid_words(prompt, forbidden, frozenset(avoid)))


def word_failing(prompt: str, forbidden: str, reason: str) -> str:
    """A submission the rules refuse for REASON (checked with shared.game.rules.judge)."""
    dictionary = words()
    if reason in ("letter_order", "forbidden_letter"):
        candidates = (w for w in _dictionary() if len(w) >= 3)
    elif reason == "not_a_word":
        spare = "".join(letter for letter in "qzxjq" if letter not in forbidden.lower())  # none forbidden
        candidates = iter([prompt.lower() + "qzxq", "q" + prompt.lower() + "zzq", prompt.lower() + spare])
    elif reason == "not_letters":
        candidates = iter([f"{prompt[:2]}-{prompt[2:]}".lower(), f"{prompt.lower()}'s"])
    else:
        raise ValueError(reason)
    for word in candidates:
        if judge(word, prompt, dictionary, forbidden).reason == reason:
            return word
    raise AssertionError(f"no word fails {prompt}/{forbidden} for {reason}")


def shown_round(page: Page) -> tuple[int, str, str]:
    """(round, prompt, forbidden letters) as the game screen shows them."""
    number = int(page.inner_text("#round"))
    prompt = "".join(page.locator("#prompt-tiles span").all_inner_texts())
    forbidden = ""
    if page.locator("#forbidden-banner").is_visible():
        forbidden = "".join(page.locator("#forbidden-tiles span").all_inner_texts())
    return number, prompt, forbidden


# Seconds of the server's game clock a test's player takes over each answer: a test types in
# milliseconds, which fair play (SPEC §3b) would rightly take for a script.
THINK_SECONDS = 2


def take_a_persons_time(page: Page) -> None:
    """Move the local server's game clock on by THINK_SECONDS (same-origin POST /local/clock)."""
    status = page.evaluate(
        "async (seconds) => (await fetch('/local/clock', {method: 'POST',"
        " headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({advance_seconds: seconds})})).status",
        THINK_SECONDS,
    )
    assert status == 200, status


def submit(page: Page, word: str) -> str:
    """Take a person's time, type WORD and press Enter; returns the status line once the reply is
    shown."""
    take_a_persons_time(page)
    before = page.evaluate("document.querySelector('#status').textContent")
    page.fill("#word", word)
    page.press("#word", "Enter")
    page.wait_for_function(
        "([before, word]) => { const s = document.querySelector('#status').textContent;"
        " return s !== before && s.includes(word.toUpperCase()); }",
        arg=[before, word],
    )
    return page.inner_text("#status")


def wait_for_round(page: Page, number: int) -> None:
    page.wait_for_function(f"document.querySelector('#round').textContent === '{number}'")


def run_id_of(page: Page) -> str:
    return json.loads(page.evaluate("sessionStorage.getItem('wordsqd.run')"))["run_id"]


# The share text's third line: numbers only, between fixed words. A test pins every line of a share
# text (this one by pattern), which proves it spoils no word: looking for the played words in it
# instead fails whenever a short answer ("all", "hall", "word", "best", "comb") happens to be part
# of the fixed wording, as it is in about 2 of 100 random challenges.
SHARE_SCORE_LINE = r"Score \d+ · \d+/\d+ words · best combo \d+ · (in \d+:\d\d|time up)"


def assert_share_text(share: str, title: str, squares: str, link: str) -> list[str]:
    """SHARE is exactly TITLE, SQUARES, a score line and LINK: nothing else, so no word. Returns its lines."""
    lines = share.splitlines()
    assert lines == [title, squares, lines[2], link], lines
    assert re.fullmatch(SHARE_SCORE_LINE, lines[2]), lines[2]
    return lines


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th... as the page says a place (web/js/lib/standing.js)."""
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
