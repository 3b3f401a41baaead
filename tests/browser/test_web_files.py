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


MODULES = sorted(path.relative_to(WEB).as_posix() for path in (WEB / "js").rglob("*.js"))
STYLES = sorted(path.relative_to(WEB).as_posix() for path in (WEB / "css").rglob("*.css"))


@pytest.mark.parametrize(
    ("path", "media_type", "file"),
    [
        ("/", "text/html; charset=utf-8", "index.html"),
        ("/index.html", "text/html; charset=utf-8", "index.html"),
        *[(f"/{name}", "text/javascript; charset=utf-8", name) for name in MODULES],
        *[(f"/{name}", "text/css; charset=utf-8", name) for name in STYLES],
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


def test_the_page_loads_one_entry_module_and_preloads_every_other():
    """js/main.js is the page's only script; every other module is preloaded (one round trip, not
    one per import level), and the page links every style sheet of css/."""
    page = (WEB / "index.html").read_text()
    assert re.findall(r'<script[^>]*src="([^"]+)"', page) == ["js/main.js"]
    assert re.findall(r'<script[^>]*type="([^"]+)"', page) == ["module"]
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
    assert sorted(preloaded) == [name for name in MODULES if name != "js/main.js"]
    assert sorted(re.findall(r'<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"', page)) == STYLES


def test_the_repository_config_is_the_local_login():
    assert json.loads((WEB / "config.json").read_text()) == {"auth": "local"}


def test_the_client_loads_nothing_from_elsewhere():
    """No framework or font fetched at run time: every script, style and fetch is same-origin
    (the only absolute URLs are the Cognito Hosted UI's, built from config.json)."""
    for name in ("index.html", "offline.html", "sw.js", "offline.js", *MODULES, *STYLES):
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
    for path in sorted(p for p in WEB.rglob("*") if p.is_file()):
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
            found[path.relative_to(WEB).as_posix()] = hits
    assert found == {}


def test_make_run_sends_the_stages_security_headers_on_the_page_and_the_api(server):
    expected = dict(page_headers.security_headers(https=False))  # HSTS only over HTTPS
    for path in ("/", "/offline.html", "/daily"):
        with urllib.request.urlopen(server.url + path, timeout=60) as response:  # a hang guard
            for name, value in expected.items():
                assert response.headers[name] == value, (path, name)
            assert response.headers["Strict-Transport-Security"] is None


@pytest.mark.parametrize("folder", [None, "/nonexistent/lighthouse"])
def test_the_web_benchmark_says_lighthouse_is_not_installed_and_downloads_nothing(
    monkeypatch, capsys, folder
):
    import benchmarks.web_client as bench

    if folder is None:
        monkeypatch.delenv("LIGHTHOUSE_DIR", raising=False)
    else:
        monkeypatch.setenv("LIGHTHOUSE_DIR", folder)
    monkeypatch.setattr(bench.subprocess, "run", lambda *a, **k: pytest.fail(f"ran {a}"))
    bench.lighthouse("http://127.0.0.1:1")
    assert capsys.readouterr().out.startswith("lighthouse: not installed, skipped (run `npm install")
