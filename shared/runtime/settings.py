"""The environment a function runs in, validated once at cold start, so a wrong or missing setting
stops the container with a message that names it, instead of a 500 on the first request.

| variable | used by | meaning |
|---|---|---|
| TABLE_NAME | every function that reads or writes the table (not validate) | the DynamoDB table |
| WORDSQD_ENV | the same | where it runs: `aws`, `local` (`make run`) or `test` (required) |
| PUZZLE_SEED | the same (local and tests) | the secret puzzle seed itself |
| PUZZLE_SEED_SECRET_ARN | the same (AWS) | a Secrets Manager secret holding the seed |
| USER_POOL_ID | leaderboard (AWS) | the user pool `DELETE /me` deletes from (unset: a stand-in) |
| BOARD_SHARDS | every table function | the `board` index's partitions a board is over (default 32, 1-256) |
| FIRST_DAILY_DATE | daily | the first Daily date past Dailies start from (default 2026-01-01) |
| CURSOR_KEY | leaderboard, daily (optional) | the key that signs page cursors itself |
| CURSOR_KEY_SECRET_ARN | the same (AWS) | a Secrets Manager secret holding it (neither: from the seed) |
| ORIGIN_VERIFY | the three API functions (AWS) | read by shared/runtime/edge_settings.py (validate too) |
| FEATURE_FLAGS_* | daily, leaderboard (optional) | the kill switches: read by shared/runtime/flags.py |
| AWS_ENDPOINT_URL_DYNAMODB | all (local) | botocore's own setting: a DynamoDB-compatible endpoint |
| AWS_CA_BUNDLE | all (AWS) | botocore's own setting: the five roots AWS chains to (runtime/tls.py) |

Which function gets which variable is the stack's business (infra/functions.py: `uses_table`,
`uses_seed`); `POST /validate` reads ORIGIN_VERIFY only. A function that uses the table validates
these settings when it imports shared/runtime/wiring.py, that is, during the Lambda init phase: TABLE_NAME
must be set, and a seed variable that is set must be well formed. Whether a seed is set at all is
asked only by what needs it (shared/runtime/secrets.py), so a function that only uses the table runs
without one. An empty variable counts as unset.

On AWS (WORDSQD_ENV=aws) nothing stands in for a deployment's own: each handler names at its init
what it needs (`Settings.require`: the seed, the cursor key, the user pool), and one that is not set
stops the init; locally and in tests, the cursor key comes from the seed and accounts are a stand-in.
"""

import os
from collections.abc import Mapping
from datetime import date
from functools import cache
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from shared.dynamo.keys import BOARD_SHARDS
from shared.game.constants import DEFAULT_FIRST_DAILY_DATE
from shared.runtime.edge_settings import SettingsError

# DynamoDB's own rule for table names.
TABLE_NAME_PATTERN = r"^[A-Za-z0-9_.-]{3,255}$"
SECRET_ARN_PATTERN = r"^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:[0-9]{12}:secret:[A-Za-z0-9/_+=.@!-]+$"
SEED_MIN_LENGTH = 8
CURSOR_KEY_MIN_LENGTH = 16
SECRET_MIN_LENGTHS = {"puzzle_seed": SEED_MIN_LENGTH, "cursor_key": CURSOR_KEY_MIN_LENGTH}
USER_POOL_PATTERN = r"^[\w-]+_[0-9a-zA-Z]+$"  # Cognito's own rule
# A page of a board past its top queries every shard: past this many, a page is hundreds of Queries.
MAX_BOARD_SHARDS = 256
ENVIRONMENT = {
    "environment": "WORDSQD_ENV",
    "table_name": "TABLE_NAME",
    "puzzle_seed": "PUZZLE_SEED",
    "puzzle_seed_secret_arn": "PUZZLE_SEED_SECRET_ARN",
    "first_daily_date": "FIRST_DAILY_DATE",
    "user_pool_id": "USER_POOL_ID",
    "cursor_key": "CURSOR_KEY",
    "cursor_key_secret_arn": "CURSOR_KEY_SECRET_ARN",
    "board_shards": "BOARD_SHARDS",
}


Need = Literal["seed", "cursor_key", "user_pool"]


class Settings(BaseModel):
    """What a function that uses the table needs: the table, and where the deployment's secrets are."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    environment: Literal["aws", "local", "test"]
    table_name: str = Field(pattern=TABLE_NAME_PATTERN, description="3-255 of A-Z a-z 0-9 _ . -")
    puzzle_seed: SecretStr | None = None
    puzzle_seed_secret_arn: str | None = Field(default=None, pattern=SECRET_ARN_PATTERN)
    user_pool_id: str | None = Field(default=None, pattern=USER_POOL_PATTERN)
    first_daily_date: date = Field(
        default=DEFAULT_FIRST_DAILY_DATE, description="the first Daily date past Dailies start from"
    )
    cursor_key: SecretStr | None = None
    cursor_key_secret_arn: str | None = Field(default=None, pattern=SECRET_ARN_PATTERN)
    board_shards: int = Field(
        default=BOARD_SHARDS,
        ge=1,
        le=MAX_BOARD_SHARDS,
        strict=False,
        description="the `board` index's partitions a board is spread over",
    )

    @field_validator(*SECRET_MIN_LENGTHS)
    @classmethod
    def _long_enough(cls, secret: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        shortest = SECRET_MIN_LENGTHS[str(info.field_name)]
        if secret is not None and len(secret.get_secret_value()) < shortest:
            raise ValueError(f"must be at least {shortest} characters")
        return secret

    def require(self, *needs: Need) -> None:
        """On AWS, SettingsError naming each of NEEDS that is not set (a function's init asks for
        what it uses); elsewhere nothing: locally and in tests the cursor key is derived from the
        seed and accounts have a stand-in."""
        if self.environment != "aws":
            return
        missing = [
            variable
            for need, variable, present in (
                ("seed", "PUZZLE_SEED_SECRET_ARN", self.puzzle_seed or self.puzzle_seed_secret_arn),
                ("cursor_key", "CURSOR_KEY_SECRET_ARN", self.cursor_key or self.cursor_key_secret_arn),
                ("user_pool", "USER_POOL_ID", self.user_pool_id),
            )
            if need in needs and not present
        ]
        if missing:
            raise SettingsError(
                f"wordsqd: invalid environment: WORDSQD_ENV=aws and {', '.join(missing)} not set;"
                " nothing stands in for it on AWS"
            )

    def seed_source(self) -> SecretStr | str:
        """The seed itself, or else the ARN of the secret holding it; SettingsError when neither is
        set (asked for only by what needs the seed, so a function that only uses the table runs
        without one)."""
        if self.puzzle_seed is not None:
            return self.puzzle_seed
        if self.puzzle_seed_secret_arn is not None:
            return self.puzzle_seed_secret_arn
        raise SettingsError(
            "wordsqd: invalid environment: set PUZZLE_SEED (local) or PUZZLE_SEED_SECRET_ARN (AWS)"
        )


def load(environ: Mapping[str, str]) -> Settings:
    """Settings from ENVIRON; SettingsError lists every variable that is missing or wrong."""
    values = {field: environ[name] for field, name in ENVIRONMENT.items() if environ.get(name)}
    try:
        return Settings.model_validate(values)
    except ValidationError as error:
        problems = []
        for item in error.errors():
            message = "is not set" if item["type"] == "missing" else str(item["msg"])
            message = message.removeprefix("Value error, ")
            if item["loc"]:
                message = f"{ENVIRONMENT[str(item['loc'][0])]} {message}"
            problems.append(message)
        raise SettingsError("wordsqd: invalid environment: " + "; ".join(problems)) from None


@cache
def settings() -> Settings:
    """This container's settings, read from the process environment once."""
    return load(os.environ)
