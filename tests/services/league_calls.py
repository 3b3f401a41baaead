"""The league calls the league tests make through the leaderboard function."""

from functions.leaderboard.handler import handler
from tests.conftest import Api

call = Api(handler)


def create(user: str, name: str = "Office") -> dict:
    """USER's new league NAME, as the API answers it."""
    status, body, _ = call("POST", "/leagues", {"name": name}, user=user)
    assert status == 201, body
    return body
