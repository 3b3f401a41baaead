"""The web client's files (web/) as `make run` serves them, and what they may load."""

import json
import re
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

from shared.http import page_headers

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]

WEB = Path(__file__).parents[2] / "web"


@pytest.mark.parametrize(
    ("path", "media_type", "file"),
    [
        ("/", "text/html; charset=utf-8", "index.html"),
        ("/index.html", "text/html; charset=utf-8", "index.html"),
        ("/app.js", "text/javascript; charset=utf-8", "app.js"),
        ("/players.js", "text/javascript; charset=utf-8", "players.js"),
        ("/moderation.js", "text/javascript; charset=utf-8", "moderation.js"),
        ("/style.css", "text/css; charset=utf-8", "style.css"),
        ("/config.json", "application/json", "config.json"),
        ("/manifest.webmanifest", "application/manifest+json", "manifest.webmanifest"),
        ("/sw.js", "text/javascript; charset=utf-8", "sw.js"),
        ("/offline.html", "text/html; charset=utf-8", "offline.html"),
        ("/offline.js", "text/javascript; charset=utf-8", "offline.js"),
        ("/icon.svg", "image/svg+xml", "icon.svg"),
    ],
)
def test_each_client_file_is_served_with_its_media_type(server, path, media_type, file):
    with urllib.request.urlopen(server.url + path, timeout=60) as response:  # a hang guard
        assert response.status == 200
        assert response.headers["Content-Type"] == media_type
        assert response.read() == (WEB / file).read_bytes()


def test_the_repository_config_is_the_local_login():
    assert json.loads((WEB / "config.json").read_text()) == {"auth": "local"}


def test_the_client_loads_nothing_from_elsewhere():
    """No framework or font fetched at run time: every script, style and fetch is same-origin
    (the only absolute URLs are the Cognito Hosted UI's, built from config.json)."""
    page = (WEB / "index.html").read_text()
    assert re.findall(r'<script[^>]*src="([^"]+)"', page) == ["app.js", "players.js", "moderation.js"]
    assert re.findall(r'<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"', page) == ["style.css"]
    scripts = ("app.js", "players.js", "moderation.js", "sw.js", "offline.js")
    for name in ("index.html", "style.css", "offline.html", *scripts):
        text = (WEB / name).read_text()
        hosts = set(re.findall(r"https?://[\w.-]+", text))
        assert hosts <= {"http://www.w3.org"}, (name, hosts)  # the SVG icon's XML namespace only
        assert "@import" not in text and "url(http" not in text, name


class _InlineCode(HTMLParser):
    """What a CSP of `script-src 'self'` blocks in an HTML or SVG file: event handler attributes,
    scripts without `src`, `javascript:` URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value}>")
        if tag == "script" and not dict(attrs).get("src"):
            self.found.append("<script> without src")


def test_no_file_of_the_page_has_an_inline_handler_or_script():
    """The deployed CSP runs only the page's own script files (shared/http/page_headers.py): an
    inline handler would silently do nothing for a player."""
    found = {}
    for path in sorted(WEB.iterdir()):
        text = path.read_text()
        if path.suffix in (".html", ".svg"):
            parser = _InlineCode()
            parser.feed(text)
            hits = parser.found
        else:  # scripts writing markup, or code from strings, which the CSP blocks too
            hits = re.findall(
                r"<[a-z][^>]*\son[a-z]+\s*=|setAttribute\(\s*[\"']on|\beval\(|new Function\(", text
            )
        if hits:
            found[path.name] = hits
    assert found == {}


def test_make_run_sends_the_stages_security_headers_on_the_page_and_the_api(server):
    expected = dict(page_headers.security_headers(https=False))  # HSTS only over HTTPS
    for path in ("/", "/offline.html", "/daily"):
        with urllib.request.urlopen(server.url + path, timeout=60) as response:  # a hang guard
            for name, value in expected.items():
                assert response.headers[name] == value, (path, name)
            assert response.headers["Strict-Transport-Security"] is None
