"""A guest's report quota is per viewer, not per CloudFront edge (SPEC §3e): behind CloudFront,
API Gateway's sourceIp is the edge's, so the client is the hash of CloudFront-Viewer-Address
(shared/http/viewer.py), sourceIp only when the header is absent."""

import pytest

from functions.daily.handler import handler as daily_handler
from local.events import LambdaContext, http_event
from shared.game import clock
from shared.http.viewer import viewer_address
from shared.services import moderation
from tests.conftest import Api
from tests.fakes.fake_store import served_store
from tests.play import PERSON_SECONDS, good_word
from tests.routed import handler as moderation_handler

daily = Api(daily_handler)
EDGE_1, EDGE_2 = "130.176.1.10", "64.252.2.20"  # two CloudFront servers


def _event(address: str | None, source: str) -> dict:
    event = http_event("GET", "/daily", headers={"CloudFront-Viewer-Address": address} if address else None)
    event["requestContext"]["http"]["sourceIp"] = source
    return event


@pytest.mark.parametrize(
    "header, address",
    [
        ("198.51.100.7:46532", "198.51.100.7"),
        ("2001:DB8:abcd:0::7:443", "2001:db8:abcd::7"),  # CloudFront's unbracketed IPv6 and port
        ("[2001:db8::7]:443", "2001:db8::7"),
        ("2001:db8::7", "2001:db8::7"),  # no port
        (None, EDGE_1),  # `make run`, a test: API Gateway's address
        ("not an address", EDGE_1),
    ],
)
def test_the_viewers_address_is_the_headers_without_its_port_else_the_source(header, address):
    assert viewer_address(_event(header, EDGE_1)) == address


def _guest_report(viewer: str | None, edge: str) -> int:
    """A word report from a new guest run (each run has a quota of its own), seen from VIEWER
    through EDGE."""
    run = daily("POST", "/guest/daily/runs")[1]
    clock.advance(PERSON_SECONDS)
    word = good_word(run)
    answer = {"round": 1, "attempt": 1, "word": word}
    assert daily("POST", f"/guest/runs/{run['run_id']}/answers", answer)[0] == 200
    body = {"kind": "word", "target": word, "reason": "a word", "run_id": run["run_id"]}
    headers = {"CloudFront-Viewer-Address": f"{viewer}:{40000 + len(edge)}"} if viewer else None
    event = http_event("POST", "/guest/reports", body, headers=headers)
    event["requestContext"]["http"]["sourceIp"] = edge
    return moderation_handler(event, LambdaContext(aws_request_id="test"))["statusCode"]


def test_two_viewers_through_one_edge_have_a_quota_each_and_one_viewer_on_two_edges_has_one(monkeypatch):
    with served_store("fake", monkeypatch):
        monkeypatch.setattr(moderation, "REPORTS_PER_DAY", 1)
        assert _guest_report("198.51.100.7", EDGE_1) == 201
        assert _guest_report("198.51.100.7", EDGE_2) == 429  # the same viewer, another edge
        assert _guest_report("203.0.113.9", EDGE_1) == 201  # another viewer, the same edge
        assert _guest_report(None, EDGE_1) == 201  # no header: the edge's address is the client
        assert _guest_report(None, EDGE_1) == 429
