"""Builds the objects the stateful handlers share, once per container (cold start).

Every stateful handler calls `store()` when it is imported, so the DynamoDB client (botocore
loading the service's model and endpoint rules: ~50 ms of CPU measured on the first request,
benchmarks/coldstart.py) is made during Lambda's Init phase, as AWS advises for SDK clients, and
not on the first request: a provisioned environment (the midnight window, docs/operations.md)
pays it before any player arrives, and an on-demand one pays the same either way. The rest
(Game, Boards, Players) is cheap and built on first use; the secrets are read on first use
(shared/runtime/secrets.py), since a container that never needs one should not fetch it.
"""

from functools import cache

from aws_lambda_powertools.metrics import MetricUnit, single_metric
from aws_lambda_powertools.metrics.functions import is_metrics_disabled

from shared.dynamo.boards import RANK_CACHE_SECONDS
from shared.dynamo.store import DynamoStore
from shared.game.dictionary import words
from shared.runtime.accounts import CognitoAccounts, LocalAccounts
from shared.runtime.observability import logger, metrics
from shared.runtime.secrets import cursor_key, deployment_secret, older_cursor_keys
from shared.runtime.settings import settings
from shared.runtime.tls import share_one_context
from shared.services.game import Game
from shared.services.leaderboard import Boards
from shared.services.leagues import Leagues
from shared.services.player_data import PlayerData
from shared.services.players import Players
from shared.services.ports import Accounts

settings()  # validated during the cold start: a missing TABLE_NAME stops the init, not a request
share_one_context()  # every AWS client of the container: one TLS context, the CA bundle loaded once


def record(metric: str, reason: str | None = None, value: int = 1, **details: object) -> None:
    """Game events become Powertools metrics (EMF); the answer's reason is a dimension of its own
    metric only, so it does not leak onto the other metrics of the invocation. An event with
    DETAILS (an implausible run) is also a structured log line, at warning level, named after it."""
    if details:
        logger.warning(metric, extra={"event": metric, **details})
    if is_metrics_disabled():  # single_metric would print even when metrics are disabled
        return
    if reason is None:
        metrics.add_metric(name=metric, unit=MetricUnit.Count, value=value)
        return
    with single_metric(
        name=metric,
        unit=MetricUnit.Count,
        value=value,
        namespace=metrics.namespace,
        default_dimensions=metrics.default_dimensions,
    ) as metric_with_reason:
        metric_with_reason.add_dimension(name="reason", value=reason)


@cache
def store() -> DynamoStore:
    dynamo = DynamoStore(settings().table_name)
    dynamo.rank_cache_seconds = RANK_CACHE_SECONDS  # a rank trails by up to a second more
    return dynamo


@cache
def game() -> Game:
    return Game(
        store(), deployment_secret, words, record=record, first_date=lambda: settings().first_daily_date
    )


@cache
def boards() -> Boards:
    return Boards(store(), cursor_key, older_cursor_keys=older_cursor_keys)


@cache
def players() -> Players:
    return Players(store(), boards(), cursor_key, older_cursor_keys=older_cursor_keys)


@cache
def leagues() -> Leagues:
    return Leagues(store(), boards())


@cache
def accounts() -> Accounts:
    """The user pool's accounts (USER_POOL_ID), or the local stand-in where none is set."""
    pool = settings().user_pool_id
    return CognitoAccounts(pool) if pool else LocalAccounts()


@cache
def player_data() -> PlayerData:
    return PlayerData(store(), leagues(), accounts)
