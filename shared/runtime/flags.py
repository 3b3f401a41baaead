"""Kill switches: features an operator turns off without a deploy (docs/operations.md, "Kill
switches"), as Powertools feature flags. On AWS they live in AppConfig (the stack creates the
application, environment and profile, all on); a function reads them at most every
CACHE_SECONDS. Locally (`make run`, tests) they come from a JSON file in the same schema, or
are all on. Whatever cannot be read counts as ON: a broken switch must not turn the game off.

| variable | meaning |
|---|---|
| FEATURE_FLAGS_APPLICATION, FEATURE_FLAGS_ENVIRONMENT, FEATURE_FLAGS_PROFILE | the AppConfig profile (AWS) |
| FEATURE_FLAGS_FILE | a local JSON file, e.g. `{"leagues": {"default": false}}` (make run) |
"""

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from aws_lambda_powertools import Logger

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.feature_flags import FeatureFlags

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
logger = Logger(service="wordsqd", child=True)


@cache
def _flags() -> "FeatureFlags | None":
    """The flags' store, made on first use: Powertools' feature flags (and boto3 under them) are
    imported only by a function that serves a switchable route, never by validate."""
    from aws_lambda_powertools.utilities.feature_flags import AppConfigStore, FeatureFlags

    from shared.runtime.flag_file import FileStore

    names = [os.environ.get(name, "") for name in APPCONFIG]
    if all(names):
        application, environment, profile = names
        store = AppConfigStore(
            environment=environment, application=application, name=profile, max_age=CACHE_SECONDS
        )
        return FeatureFlags(store=store)
    if os.environ.get(LOCAL_FILE):
        return FeatureFlags(store=FileStore(Path(os.environ[LOCAL_FILE])))
    return None


def switch_for(path_template: str) -> str | None:
    """The switch that turns off the route PATH_TEMPLATE, if any."""
    return next((switch for switch, prefixes in SWITCHES.items() if path_template.startswith(prefixes)), None)


def enabled(switch: str) -> bool:
    """Whether SWITCH is on; on when no flags are configured or they cannot be read."""
    flags = _flags()
    if flags is None:
        return True
    try:
        return bool(flags.evaluate(name=switch, default=True))
    except Exception:  # a broken store or schema: the game stays on
        logger.warning("Feature flags unreadable: treated as on", extra={"switch": switch})
        return True
