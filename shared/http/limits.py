"""The limits a client checks or shows before asking (SPEC §2, §3, §3a, §5), with the constants the
handlers enforce: `GET /daily` carries them as `limits` (shared/http/models.py `DailyInfo`), so the
web client copies none of them (docs/web-client.md)."""

from pydantic import BaseModel, ConfigDict

from shared.game import constants
from shared.game.moderation import REASON_MAX

# 3-20 ASCII letters, digits, spaces, `_` or `-`, no leading or trailing space (SPEC §5); the
# pattern is the same in Python and ECMAScript.
DISPLAY_NAME_PATTERN = r"^[A-Za-z0-9_-]([A-Za-z0-9_ -]{1,18}[A-Za-z0-9_-])?$"
DISPLAY_NAME_MIN, DISPLAY_NAME_MAX = 3, 20
LEAGUE_NAME_MIN, LEAGUE_NAME_MAX = 3, 30  # and LEAGUE_NAME_PATTERN (shared/http/leaderboard_models.py)


class Limits(BaseModel):
    """A word's length, a round's attempts, a display name's rules, a challenge's shape, the longest
    league name and report or decision reason."""

    model_config = ConfigDict(defer_build=True)  # as shared/http/models.py's Model

    max_word_length: int = constants.MAX_WORD_LENGTH
    attempts_per_round: int = constants.ATTEMPTS_PER_ROUND
    display_name_min_length: int = DISPLAY_NAME_MIN
    display_name_max_length: int = DISPLAY_NAME_MAX
    display_name_pattern: str = DISPLAY_NAME_PATTERN
    challenge_rounds_min: int = constants.CHALLENGE_MIN_ROUNDS
    challenge_rounds_max: int = constants.CHALLENGE_MAX_ROUNDS
    challenge_rounds_default: int = constants.CHALLENGE_DEFAULT_ROUNDS
    challenge_forbidden_rounds_max: int = constants.CHALLENGE_MAX_FORBIDDEN_ROUNDS
    challenge_forbidden_rounds_default: int = constants.CHALLENGE_DEFAULT_FORBIDDEN_ROUNDS
    league_name_max_length: int = LEAGUE_NAME_MAX
    reason_max_length: int = REASON_MAX
