"""The environment a function runs in, parsed once at cold start so a missing setting fails loudly.

| variable | used by | meaning |
|---|---|---|
| TABLE_NAME | daily, reset, leaderboard | the DynamoDB table |
| PUZZLE_SEED | daily, reset (local and tests) | the secret puzzle seed itself |
| PUZZLE_SEED_SECRET_ARN | daily, reset (AWS) | a Secrets Manager secret holding the seed |
| AWS_ENDPOINT_URL_DYNAMODB | all (local) | boto3's own setting: a DynamoDB-compatible endpoint |
"""

from functools import cache

from pydantic import BaseModel


class Settings(BaseModel):
    table_name: str
    puzzle_seed: str | None = None
    puzzle_seed_secret_arn: str | None = None


@cache
def settings() -> Settings:
    import os

    return Settings(
        table_name=os.environ["TABLE_NAME"],
        puzzle_seed=os.environ.get("PUZZLE_SEED") or None,
        puzzle_seed_secret_arn=os.environ.get("PUZZLE_SEED_SECRET_ARN") or None,
    )
