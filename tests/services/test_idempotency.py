"""Safe retries (SPEC §5; shared/services/idempotency.py): `POST /challenges` and `POST /leagues`
with an `Idempotency-Key`, through the real handlers, on the in-memory fakes and on the table's
adapters (in-process moto) alike; then the request store's own rules on both. Concurrent
creations with one key race on moto's server mode (tests/dynamo/test_races.py)."""

import uuid
from collections.abc import Iterator

import pytest

from functions.daily.handler import handler as daily_handler
from functions.leaderboard.handler import handler as leaderboard_handler
from shared.game import clock
from shared.game.errors import Conflict
from shared.runtime import wiring
from shared.services.idempotency import (
    IN_PROGRESS_SECONDS,
    KEPT_SECONDS,
    RESEND_WAITS,
    Idempotency,
    StoredRequest,
)
from tests.conftest import Api
from tests.fakes.fake_boards import NOON
from tests.fakes.fake_requests import FakeRequests
from tests.fakes.fake_store import FakePorts
from tests.services.wired import wired_ports

daily = Api(daily_handler)
leaderboard = Api(leaderboard_handler)
CHALLENGE = {"rounds": 5, "forbidden_rounds": 1}


@pytest.fixture(params=["fake", "dynamo"])
def store(request) -> Iterator:
    clock.travel_to(NOON)
    with wired_ports(request) as ports:
        yield ports


def keyed(key: str) -> dict:
    return {"Idempotency-Key": key}


def made(user: str) -> tuple[int, int]:
    """How many challenges and leagues USER has."""
    challenges = daily("GET", "/me/challenges", user=user)[1]["items"]
    leagues = leaderboard("GET", "/me/leagues", user=user)[1]["items"]
    return len(challenges), len(leagues)


def test_a_resent_creation_makes_one_item_and_gets_the_first_reply(store):
    key = str(uuid.uuid4())
    first = daily("POST", "/challenges", CHALLENGE, user="ann", headers=keyed(key))
    again = daily("POST", "/challenges", CHALLENGE, user="ann", headers=keyed(key))
    assert first[0] == again[0] == 201 and first[1] == again[1]
    # The league's key may be the challenge's: a key names one request to one route.
    first = leaderboard("POST", "/leagues", {"name": "Office"}, user="ann", headers=keyed(key))
    again = leaderboard("POST", "/leagues", {"name": "Office"}, user="ann", headers=keyed(key))
    assert first[0] == again[0] == 201 and first[1] == again[1]
    assert made("ann") == (1, 1)
    # Another player's request with the same key is theirs; no key, a new item each time.
    assert daily("POST", "/challenges", CHALLENGE, user="bob", headers=keyed(key))[0] == 201
    assert leaderboard("POST", "/leagues", {"name": "Office"}, user="ann")[0] == 201
    assert made("bob") == (1, 0) and made("ann") == (1, 2)


def test_a_key_sent_again_with_another_body_is_refused_and_makes_nothing(store):
    key = "retry-key-1"
    assert daily("POST", "/challenges", CHALLENGE, user="ann", headers=keyed(key))[0] == 201
    status, body, _ = daily("POST", "/challenges", {"rounds": 10}, user="ann", headers=keyed(key))
    assert status == 422 and body["error"]["code"] == "idempotency_key_reused"
    assert leaderboard("POST", "/leagues", {"name": "Office"}, user="ann", headers=keyed(key))[0] == 201
    status, body, _ = leaderboard("POST", "/leagues", {"name": "Home"}, user="ann", headers=keyed(key))
    assert status == 422 and body["error"]["code"] == "idempotency_key_reused"
    assert made("ann") == (1, 1)


def test_a_malformed_key_is_400_and_a_refused_creation_frees_its_key(store):
    for bad in ("short", "x" * 65, "has space", "a,b-c_d-e"):
        status, body, _ = daily("POST", "/challenges", CHALLENGE, user="ann", headers=keyed(bad))
        assert (status, body["error"]["code"]) == (400, "invalid_idempotency_key"), bad
    key = "league-key-1"
    status, body, _ = leaderboard("POST", "/leagues", {"name": "Sh1t Crew"}, user="ann", headers=keyed(key))
    assert status == 400 and body["error"]["code"] == "league_name_not_allowed"
    assert leaderboard("POST", "/leagues", {"name": "Crew"}, user="ann", headers=keyed(key))[0] == 201
    assert made("ann") == (0, 1)


def test_a_key_is_remembered_for_a_day(store):
    key = "daily-key-1"
    first = daily("POST", "/challenges", CHALLENGE, user="ann", headers=keyed(key))[1]
    clock.advance(KEPT_SECONDS - 60)
    assert daily("POST", "/challenges", CHALLENGE, user="ann", headers=keyed(key))[1] == first
    clock.advance(120)
    later = daily("POST", "/challenges", CHALLENGE, user="ann", headers=keyed(key))[1]
    assert later["challenge_id"] != first["challenge_id"] and made("ann") == (2, 0)


@pytest.mark.parametrize("kind", ["fake", "dynamo"])
def test_the_request_store_holds_a_key_while_started_and_done_and_frees_it_when_its_lease_or_time_ends(
    kind, request
):
    if kind == "dynamo":
        request.getfixturevalue("table")
    requests = FakePorts().requests if kind == "fake" else wiring.ports().requests
    t = 1_000_000
    lease, kept = t + IN_PROGRESS_SECONDS, t + KEPT_SECONDS
    assert requests.begin("k", "body", t, lease, kept) is None
    assert requests.begin("k", "other", t + 1, lease + 1, kept + 1) == StoredRequest("body", None)
    requests.forget("k")  # a failed creation: the key is free again
    assert requests.begin("k", "body2", t, lease, kept) is None
    # A started request whose lease ended (its invocation died) gives the key up.
    assert requests.begin("k", "body3", lease, lease + IN_PROGRESS_SECONDS, kept) is None
    requests.finish("k", "body3", "made-1", kept)
    requests.forget("k")  # never a done one
    assert requests.begin("k", "body", lease + 60, lease + 70, kept) == StoredRequest("body3", "made-1")
    assert requests.begin("k", "body", kept, kept + 10, kept + KEPT_SECONDS) is None  # expired


def test_a_resend_that_finds_the_first_still_being_made_waits_for_it_then_is_409():
    pauses: list[float] = []
    idempotency = Idempotency(FakeRequests(), now=lambda: NOON, sleep=pauses.append)
    resent: list[str] = []

    def create() -> str:  # the resend arrives while the first is being made
        with pytest.raises(Conflict) as refused:
            idempotency.once("POST /leagues", "ann", "key-0001", {}, lambda: "made-2", str, str)
        resent.append(refused.value.code)
        return "made-1"

    assert idempotency.once("POST /leagues", "ann", "key-0001", {}, create, str, str) == "made-1"
    assert resent == ["idempotency_key_in_use"] and pauses == list(RESEND_WAITS)
    assert (
        idempotency.once("POST /leagues", "ann", "key-0001", {}, lambda: "made-3", str, lambda m: m)
        == "made-1"
    )
