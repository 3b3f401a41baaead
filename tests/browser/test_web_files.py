"""The web client's files (web/) as `make run` serves them, and what they may load."""

import json
import re
import urllib.request
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]

WEB = Path(__file__).parents[2] / "web"


@pytest.mark.parametrize(
    ("path", "media_type", "file"),
    [
        ("/", "text/html; charset=utf-8", "index.html"),
        ("/index.html", "text/html; charset=utf-8", "index.html"),
        ("/app.js", "text/javascript; charset=utf-8", "app.js"),
        ("/players.js", "text/javascript; charset=utf-8", "players.js"),
        ("/style.css", "text/css; charset=utf-8", "style.css"),
        ("/config.json", "application/json", "config.json"),
        ("/manifest.webmanifest", "application/manifest+json", "manifest.webmanifest"),
        ("/sw.js", "text/javascript; charset=utf-8", "sw.js"),
        ("/offline.html", "text/html; charset=utf-8", "offline.html"),
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
    assert re.findall(r'<script[^>]*src="([^"]+)"', page) == ["app.js", "players.js"]
    assert re.findall(r'<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"', page) == ["style.css"]
    for name in ("index.html", "app.js", "players.js", "style.css", "sw.js", "offline.html"):
        text = (WEB / name).read_text()
        hosts = set(re.findall(r"https?://[\w.-]+", text))
        assert hosts <= {"http://www.w3.org"}, (name, hosts)  # the SVG icon's XML namespace only
        assert "@import" not in text and "url(http" not in text, name
