"""infra/canary's probe, the script the Synthetics canaries run, against `make run`'s server: a
healthy site passes, a site that is not there fails the run (it raises)."""

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "infra" / "canary" / "python"))
import wordsqd_probe  # noqa: E402


@pytest.mark.server
def test_the_probe_plays_a_guest_run_through_a_healthy_site(tmp_path):
    from tests.system.test_local_server import Server

    site = Server(tmp_path / "site").start()
    try:
        run_id = wordsqd_probe.probe(f"http://127.0.0.1:{site.port}/")
    finally:
        site.kill()
    assert run_id


def test_the_probe_fails_when_the_site_is_not_there():
    with pytest.raises(OSError):
        wordsqd_probe.probe("http://127.0.0.1:9/")
