"""Kill switches: features an operator turns off without a deploy (docs/operations.md, "Kill
switches"), as Powertools feature flags. On AWS they live in AppConfig (the stack creates the
application, environment and profile, all on); a function reads them at most every
CACHE_SECONDS. Locally (`make run`, tests) they come from a JSON file in the same schema, or
are all on.

A switch is decided in about a second whatever AppConfig does: one attempt, connect and read
timeouts of a second each (`client_config`). A read that fails is not tried again for
FAILURE_SECONDS (a slow AppConfig makes one request per environment wait that long, not every
request); meanwhile each switch keeps the last value it was read with, or, never read, its
side in UNREADABLE: on for the game's features (a broken switch must not turn the game off), off
for `new_reports` (the switch that stops report abuse: a report can be sent again later).

| variable | meaning |
|---|---|
| FEATURE_FLAGS_APPLICATION, FEATURE_FLAGS_ENVIRONMENT, FEATURE_FLAGS_PROFILE | the AppConfig profile (AWS) |
| FEATURE_FLAGS_FILE | a local JSON file, e.g. `{"leagues": {"default": false}}` (make run) |
"""

import os
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from aws_lambda_powertools import Logger

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.feature_flags import FeatureFlags
    from botocore.config import Config

CACHE_SECONDS = 60
APPCONFIG = ("FEATURE_FLAGS_APPLICATION", "FEATURE_FLAGS_ENVIRONMENT", "FEATURE_FLAGS_PROFILE")
LOCAL_FILE = "FEATURE_FLAGS_FILE"
# Each switch and the route templates (shared/http/routes.py) it turns off, by prefix.
SWITCHES: dict[str, tuple[str, ...]] = {
    "challenges": ("/challenges", "/me/challenges"),
    "leagues": ("/leagues", "/me/leagues"),
    "past_dailies": ("/daily/{date}", "/guest/daily/{date}", "/leaderboard/daily/{date}"),
    "new_reports": ("/reports", "/guest/reports", "/me/reports"),
}
# Each switch's value when it cannot be read and never was.
UNREADABLE = {"challenges": True, "leagues": True, "past_dailies": True, "new_reports": False}
FAILURE_SECONDS = 30
TIMEOUT_SECONDS = 1
logger = Logger(service="wordsqd", child=True)
clock: Callable[[], float] = time.monotonic  # tests move it
_last_good: dict[str, bool] = {}
_failed_at: list[float] = []  # when the last read failed, if it did


def client_config() -> "Config":
    """botocore's Config for the AppConfig client: one attempt, a second to connect, a second to read."""
    from botocore.config import Config

    return Config(
        connect_timeout=TIMEOUT_SECONDS,
        read_timeout=TIMEOUT_SECONDS,
        retries={"total_max_attempts": 1, "mode": "standard"},
    )


@cache
def _flags() -> "FeatureFlags | None":
    """The flags' store, made on first use: Powertools' feature flags (and boto3 under them) are
    imported only by a function that serves a switchable route, never by validate."""
    from aws_lambda_powertools.utilities.feature_flags import AppConfigStore, FeatureFlags

    from shared.runtime.flag_file import FileStore

    names = [os.environ.get(name, "") for name in APPCONFIG]
    if all(names):
        import boto3

        application, environment, profile = names
        store = AppConfigStore(
            environment=environment,
            application=application,
            name=profile,
            max_age=CACHE_SECONDS,
            boto3_client=boto3.client("appconfigdata", config=client_config()),
        )
        return FeatureFlags(store=store)
    if os.environ.get(LOCAL_FILE):
        return FeatureFlags(store=FileStore(Path(os.environ[LOCAL_FILE])))
    return None


def switch_for(path_template: str) -> str | None:
    """The switch that turns off the route PATH_TEMPLATE, if any."""
    return next((switch for switch, prefixes in SWITCHES.items() if path_template.startswith(prefixes)), None)


def forget() -> None:
    """Drop the store, the last good values and a failure (tests)."""
    _flags.cache_clear()
    _last_good.clear()
    _failed_at.clear()


def enabled(switch: str) -> bool:
    """Whether SWITCH is on: on when no flags are configured; when they cannot be read, the value
    last read, else its UNREADABLE side."""
    flags = _flags()
    if flags is None:
        return True
    fallback = _last_good.get(switch, UNREADABLE[switch])
    if _failed_at and clock() - _failed_at[0] < FAILURE_SECONDS:
        return fallback
    try:
        flags.get_configuration()  # raises what `evaluate` would hide behind its default
        value = bool(flags.evaluate(name=switch, default=True))  # read (cached), without it: on
    except Exception:  # a broken store or schema, a timeout
        _failed_at[:] = [clock()]
        logger.warning("Feature flags unreadable", extra={"switch": switch, "treated_as": fallback})
        return fallback
    _failed_at.clear()
    _last_good[switch] = value
    return value
