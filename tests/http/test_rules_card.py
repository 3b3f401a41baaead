"""The rules card names every term of a word's score (SPEC §3: length, forbidden rounds, combo,
speed) with the numbers scoring itself uses: GET /daily carries them from shared/game/constants.py,
and the card's own text (shown until that reply arrives) says the same numbers."""

import re
from pathlib import Path

import pytest

from functions.daily.handler import handler
from shared.game import constants
from shared.game.moderation import REASON_MAX
from shared.game.scoring import combo_bonus, speed_bonus
from shared.http.leaderboard_models import LeagueRequest, ProfileRequest
from shared.http.limits import DISPLAY_NAME_MAX, DISPLAY_NAME_MIN, DISPLAY_NAME_PATTERN, LEAGUE_NAME_MAX
from shared.runtime import wiring
from tests.conftest import Api
from tests.fakes.fake_store import FakePorts

call = Api(handler)
INDEX = Path(__file__).parents[2] / "web" / "index.html"


@pytest.fixture(autouse=True)
def store():
    wiring.reset(FakePorts())
    yield
    wiring.reset()


def scoring_from_the_api() -> dict:
    status, body, _ = call("GET", "/daily")
    assert status == 200
    return body["scoring"]


def test_get_daily_carries_every_scoring_number_scoring_uses():
    scoring = scoring_from_the_api()
    assert scoring == {
        "points_per_letter": constants.POINTS_PER_LETTER,
        "points_per_letter_forbidden": constants.POINTS_PER_LETTER_FORBIDDEN,
        "scored_length_cap": constants.SCORED_LENGTH_CAP,
        "combo_bonus_per_step": constants.COMBO_BONUS_PER_STEP,
        "combo_bonus_max_steps": constants.COMBO_BONUS_MAX_STEPS,
        "speed_bonus_per_second": constants.SPEED_BONUS_PER_SECOND,
        "speed_bonus_seconds": constants.SPEED_BONUS_SECONDS,
        "max_score": constants.MAX_SCORE,
    }
    # The largest bonuses the card derives are the ones scoring gives.
    assert combo_bonus(99) == scoring["combo_bonus_per_step"] * scoring["combo_bonus_max_steps"]
    assert speed_bonus(0) == scoring["speed_bonus_per_second"] * scoring["speed_bonus_seconds"]


def test_the_rules_card_names_length_forbidden_combo_and_speed_with_the_servers_numbers():
    page = INDEX.read_text()
    card = page[page.index('id="how-to-play"') : page.index("</table>", page.index('id="how-to-play"'))]
    for term in ("letters", "forbidden round", "Combo", "Speed"):
        assert term in card, term
    scoring = scoring_from_the_api()
    derived = {
        **scoring,
        "combo_bonus_max": scoring["combo_bonus_per_step"] * scoring["combo_bonus_max_steps"],
        "speed_bonus_max": scoring["speed_bonus_per_second"] * scoring["speed_bonus_seconds"],
    }
    shown = re.findall(r'<span data-scoring="(\w+)">(\d+)</span>', card)
    named = {name for name, _ in shown}
    assert named >= {"points_per_letter", "points_per_letter_forbidden", "combo_bonus_max", "speed_bonus_max"}
    for name, number in shown:
        assert int(number) == derived[name], name


def test_get_daily_carries_the_limits_a_client_checks_first():
    """A word's length, a round's attempts, a display name's rules and a challenge's shape: the
    web client takes them from here (docs/web-client.md), and they are the handlers' own."""
    status, body, _ = call("GET", "/daily")
    assert status == 200
    assert body["time_limit_seconds"] == constants.TIME_LIMIT_SECONDS
    assert body["limits"] == {
        "max_word_length": constants.MAX_WORD_LENGTH,
        "attempts_per_round": constants.ATTEMPTS_PER_ROUND,
        "display_name_min_length": DISPLAY_NAME_MIN,
        "display_name_max_length": DISPLAY_NAME_MAX,
        "display_name_pattern": DISPLAY_NAME_PATTERN,
        "challenge_rounds_min": constants.CHALLENGE_MIN_ROUNDS,
        "challenge_rounds_max": constants.CHALLENGE_MAX_ROUNDS,
        "challenge_rounds_default": constants.CHALLENGE_DEFAULT_ROUNDS,
        "challenge_forbidden_rounds_max": constants.CHALLENGE_MAX_FORBIDDEN_ROUNDS,
        "challenge_forbidden_rounds_default": constants.CHALLENGE_DEFAULT_FORBIDDEN_ROUNDS,
        "league_name_max_length": LEAGUE_NAME_MAX,
        "reason_max_length": REASON_MAX,
    }
    # What PUT /me and POST /leagues check is what the limits carry.
    assert LeagueRequest.model_json_schema()["properties"]["name"]["maxLength"] == LEAGUE_NAME_MAX
    schema = ProfileRequest.model_json_schema()["properties"]["display_name"]
    assert (schema["pattern"], schema["minLength"], schema["maxLength"]) == (
        DISPLAY_NAME_PATTERN,
        DISPLAY_NAME_MIN,
        DISPLAY_NAME_MAX,
    )


def test_the_pages_limits_are_the_servers_until_its_reply_comes():
    """Every number the page marks `data-limit` (shown until GET /daily answers, then filled
    from it) is the reply's own."""
    status, body, _ = call("GET", "/daily")
    assert status == 200
    numbers = {**body["limits"], "time_limit_seconds": body["time_limit_seconds"]}
    shown = re.findall(r'<span data-limit="(\w+)">(\d+)</span>', INDEX.read_text())
    assert {name for name, _ in shown} >= {
        "max_word_length",
        "attempts_per_round",
        "time_limit_seconds",
        "display_name_min_length",
        "display_name_max_length",
    }
    for name, number in shown:
        assert int(number) == numbers[name], name
