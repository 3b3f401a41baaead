"""The one setting every API function reads, validate's included: ORIGIN_VERIFY, the secret
CloudFront sends the API in ORIGIN_HEADER (shared/http/routes.py; docs/edge.md). Unset or empty
(`make run`, the tests), nothing is checked.

Read with the standard library alone, so that POST /validate's plain path loads no pydantic
(functions/validate/handler.py); the functions that use the table read the rest of their
environment through shared/runtime/settings.py, whose SettingsError this is.
"""

import os
from collections.abc import Mapping
from functools import cache
from typing import NamedTuple

ORIGIN_SECRET_VARIABLE = "ORIGIN_VERIFY"
ORIGIN_SECRET_MIN_LENGTH = 16  # the stack generates 48 characters


class SettingsError(RuntimeError):
    """The environment is not one the function can run with; the message names each variable."""


class EdgeSettings(NamedTuple):
    origin_secret: str | None  # None: requests are not checked


def load_edge(environ: Mapping[str, str]) -> EdgeSettings:
    """EdgeSettings from ENVIRON; SettingsError for an origin secret too short to be one."""
    secret = environ.get(ORIGIN_SECRET_VARIABLE) or None
    if secret is not None and len(secret) < ORIGIN_SECRET_MIN_LENGTH:
        raise SettingsError(
            f"wordsqd: invalid environment: {ORIGIN_SECRET_VARIABLE} "
            f"must be at least {ORIGIN_SECRET_MIN_LENGTH} characters"
        )
    return EdgeSettings(secret)


@cache
def edge_settings() -> EdgeSettings:
    """This API function's edge settings, read from the process environment once."""
    return load_edge(os.environ)
