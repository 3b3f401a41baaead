"""The local stand-in for Cognito's sessions (local/auth.py): ID tokens only on player routes,
refresh tokens that rotate (the old one works for a grace, then never), and a sign-out
(`DELETE /me`) that stops every refresh token issued before it. The game clock is moved, never
slept on."""

import jwt
import pytest

from local import auth
from shared.game import clock
from shared.runtime.accounts import REFRESH_GRACE_SECONDS, LocalAccounts

SECRET = "a-test-signing-secret-of-32-bytes"
ISSUER = "http://127.0.0.1:8000/local"


@pytest.fixture
def moved_clock(still_clock):
    """The game clock stands still but where the test moves it, and is put back after."""
    yield
    clock.reset()


@pytest.mark.usefixtures("moved_clock")
def test_the_local_authorizer_accepts_only_id_tokens():
    token = auth.issue_id_token("ida", SECRET, ISSUER)
    assert auth.verified_claims(f"Bearer {token}", SECRET) is not None
    claims = jwt.decode(token, SECRET, algorithms=["HS256"], audience=auth.AUDIENCE)
    for token_use in ("access", None):
        forged = jwt.encode({**claims, "token_use": token_use}, SECRET, algorithm="HS256")
        assert auth.verified_claims(f"Bearer {forged}", SECRET) is None, token_use
    no_use = jwt.encode({k: v for k, v in claims.items() if k != "token_use"}, SECRET, algorithm="HS256")
    assert auth.verified_claims(f"Bearer {no_use}", SECRET) is None


@pytest.mark.usefixtures("moved_clock")
def test_a_redeemed_refresh_token_works_within_the_grace_and_never_after(tmp_path):
    sessions = auth.Sessions(tmp_path / auth.SESSIONS_FILE)
    old = auth.issue_refresh_token("rob", SECRET)
    assert sessions.redeem(old, SECRET) == "rob"
    clock.advance(REFRESH_GRACE_SECONDS)
    assert sessions.redeem(old, SECRET) == "rob"  # a retry whose reply was lost
    clock.advance(1)
    assert sessions.redeem(old, SECRET) is None
    assert auth.Sessions(tmp_path / auth.SESSIONS_FILE).redeem(old, SECRET) is None  # after a restart
    new = auth.issue_refresh_token("rob", SECRET)
    assert sessions.redeem(new, SECRET) == "rob"


@pytest.mark.usefixtures("moved_clock")
def test_a_sign_out_stops_every_refresh_token_issued_before_it(tmp_path):
    path = tmp_path / auth.SESSIONS_FILE
    sessions = auth.Sessions(path)
    tokens = [auth.issue_refresh_token("eve", SECRET) for _ in range(2)]
    other = auth.issue_refresh_token("ann", SECRET)
    clock.advance(5)
    LocalAccounts(path).sign_out("eve")  # DELETE /me, in a handler's process
    assert [sessions.redeem(t, SECRET) for t in tokens] == [None, None]
    assert sessions.redeem(other, SECRET) == "ann"


@pytest.mark.usefixtures("moved_clock")
def test_a_torn_sessions_line_is_skipped_and_the_rest_still_counts(tmp_path):
    path = tmp_path / auth.SESSIONS_FILE
    token = auth.issue_refresh_token("tom", SECRET)
    clock.advance(1)
    LocalAccounts(path).sign_out("tom")
    with path.open("a") as file:
        file.write('{"rotated": "cut')
    assert auth.Sessions(path).redeem(token, SECRET) is None


@pytest.mark.parametrize("bad", ["nonsense", 7, None, "id"])
@pytest.mark.usefixtures("moved_clock")
def test_anything_but_a_valid_refresh_token_buys_nothing(bad):
    if bad == "id":
        bad = auth.issue_id_token("ida", SECRET, ISSUER)
    assert auth.Sessions(None).redeem(bad, SECRET) is None


@pytest.mark.server
def test_make_run_rotates_refresh_tokens_and_an_erased_players_stop_working(local_server):
    """Through `make run`'s server: each /local/refresh hands out a new refresh token; after
    DELETE /me the player's refresh tokens buy nothing and their old ID token is refused."""
    import json

    def post(path: str, body: dict, token: str | None = None) -> tuple[int, dict]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        status, _, raw = local_server.request("POST", path, json.dumps(body), headers)
        return status, json.loads(raw) if raw else {}

    status, login = post("/local/login", {"username": "gone-local"})
    assert status == 200
    status, renewed = post("/local/refresh", {"refresh_token": login["refresh_token"]})
    assert status == 200 and renewed["refresh_token"] != login["refresh_token"]
    assert post("/daily/runs", {}, renewed["id_token"])[0] in (200, 201)

    status, _, _ = local_server.request(
        "DELETE", "/me", b"", {"Authorization": f"Bearer {renewed['id_token']}"}
    )
    assert status == 200
    for refresh in (login["refresh_token"], renewed["refresh_token"]):
        status, body = post("/local/refresh", {"refresh_token": refresh})
        assert status == 400 and body["error"]["code"] == "invalid_grant"
    status, body = post("/daily/runs", {}, renewed["id_token"])
    assert status == 401 and body["error"]["code"] == "account_erased"
