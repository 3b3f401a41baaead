"""Builds the objects the stateful handlers share, once per container (cold start).

Every stateful handler calls `ports()` when it is imported, so the DynamoDB client (botocore
loading the service's model and endpoint rules: ~50 ms of CPU measured on the first request,
benchmarks/coldstart.py) is made during Lambda's Init phase, as AWS advises for SDK clients, and
not on the first request: a provisioned environment (the midnight window, docs/operations.md)
pays it before any player arrives, and an on-demand one pays the same either way. The services
(each built from the ports it uses) are cheap and built on first use; the secrets are read on
first use (shared/runtime/secrets.py), since a container that never needs one should not fetch it.
"""

import os
from collections.abc import Callable
from datetime import date, datetime
from functools import cached_property
from pathlib import Path
from typing import Protocol

from aws_lambda_powertools.metrics import MetricUnit, single_metric
from aws_lambda_powertools.metrics.functions import is_metrics_disabled

from shared.dynamo.codec import is_official_insert as is_official_insert  # the stream consumer's
from shared.dynamo.codec import official_result_of as official_result_of  # the stream consumer's
from shared.dynamo.codec import renamed_player as renamed_player  # reading of records (counters.py)
from shared.dynamo.counters import RANK_CACHE_SECONDS
from shared.dynamo.store import dynamo_ports
from shared.game import clock
from shared.game.dictionary import words
from shared.runtime.accounts import CognitoAccounts, LocalAccounts
from shared.runtime.edge_settings import SettingsError, edge_settings
from shared.runtime.observability import logger, metrics
from shared.runtime.push import WebPush, reminder_queue, vapid_private_key
from shared.runtime.secrets import cursor_keys, deployment_secret, secrets_client
from shared.runtime.settings import Need, settings
from shared.runtime.tls import share_one_context
from shared.services.board_ports import BoardStore, NameStore, RankStore
from shared.services.game import Game
from shared.services.idempotency import Idempotency, RequestStore
from shared.services.leaderboard import Boards
from shared.services.leagues import Leagues, LeagueStore
from shared.services.moderation import Moderation
from shared.services.moderation_store import (
    AcceptedWords,
    AuditLog,
    BoardReviewStore,
    CaseStore,
    FinalBoards,
    ModerationPorts,
    SanctionStore,
)
from shared.services.player_data import PlayerData, PlayerDataStore
from shared.services.players import Players
from shared.services.ports import Accounts, ClosingStore, RecapStore, ResultStore, RunStore
from shared.services.recap import Recaps
from shared.services.reminders import Reminders, ReminderStore, read_message

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


def require(*needs: Need) -> None:
    """Stop the init when this function runs on AWS without one of NEEDS (Settings.require),
    with one error log line that names what is missing."""
    try:
        settings().require(*needs)
    except SettingsError as error:
        logger.error(str(error))
        raise


def _first_daily_date() -> date:
    return settings().first_daily_date


class Ports(Protocol):
    """One implementation of each port: the table's adapters (shared/dynamo/store.py
    `dynamo_ports`), or in tests the in-memory fakes (tests/fakes/fake_store.py `FakePorts`)."""

    @property
    def runs(self) -> RunStore: ...
    @property
    def closing(self) -> ClosingStore: ...
    @property
    def results(self) -> ResultStore: ...
    @property
    def boards(self) -> BoardStore: ...
    @property
    def ranks(self) -> RankStore: ...
    @property
    def names(self) -> NameStore: ...
    @property
    def leagues(self) -> LeagueStore: ...
    @property
    def player_data(self) -> PlayerDataStore: ...
    @property
    def cases(self) -> CaseStore: ...
    @property
    def audit_log(self) -> AuditLog: ...
    @property
    def sanctions(self) -> SanctionStore: ...
    @property
    def accepted_words(self) -> AcceptedWords: ...
    @property
    def board_reviews(self) -> BoardReviewStore: ...
    @property
    def final_boards(self) -> FinalBoards: ...
    @property
    def recaps(self) -> RecapStore: ...
    @property
    def requests(self) -> RequestStore: ...
    @property
    def reminders(self) -> ReminderStore: ...


def moderation_ports(ports: Ports) -> ModerationPorts:
    """The moderation service's six ports, from PORTS."""
    p = ports
    return ModerationPorts(
        p.cases, p.audit_log, p.sanctions, p.accepted_words, p.board_reviews, p.final_boards
    )


def moderation_on(ports: Ports, now: Callable[[], datetime] = clock.now) -> Moderation:
    """The moderation service on PORTS, by the clock NOW."""
    p = ports
    stores = (p.boards, p.ranks, p.results, p.runs, p.closing)
    return Moderation(moderation_ports(p), *stores, words, now, names=p.names, player_data=p.player_data)


class Services:
    """The container's services, each built on first use and then kept; PORTS, when given, are
    the ones they use (tests: the fakes) instead of the table's adapters."""

    def __init__(self, ports: Ports | None = None):
        if ports is not None:
            self.ports = ports

    @cached_property
    def ports(self) -> Ports:
        # a rank trails by up to a second more
        return dynamo_ports(
            settings().table_name,
            rank_cache_seconds=RANK_CACHE_SECONDS,
            board_shards=settings().board_shards,
        )

    @cached_property
    def game(self) -> Game:
        return Game(
            self.ports.runs,
            self.ports.results,
            deployment_secret,
            words,
            record=record,
            first_date=lambda: settings().first_daily_date,
        )

    @cached_property
    def boards(self) -> Boards:
        ports = self.ports
        return Boards(ports.boards, ports.ranks, ports.names, ports.runs)

    @cached_property
    def players(self) -> Players:
        ports = self.ports
        return Players(ports.boards, ports.names, ports.results, ports.runs, self.boards)

    @cached_property
    def leagues(self) -> Leagues:
        return Leagues(self.ports.leagues, self.boards)

    @cached_property
    def accounts(self) -> Accounts:
        """The user pool's accounts (USER_POOL_ID), or, locally and in tests only, the stand-in
        where none is set (on AWS a missing pool stops the init: `require`)."""
        settings().require("user_pool")
        pool = settings().user_pool_id
        if pool:
            return CognitoAccounts(pool)
        sessions = os.environ.get("LOCAL_SESSIONS")  # set by `make run` (local/auth.py reads it)
        return LocalAccounts(Path(sessions) if sessions else None)

    @cached_property
    def player_data(self) -> PlayerData:
        return PlayerData(
            self.ports.player_data, lambda: self.accounts, also_erase=[self.ports.reminders.delete_reminder]
        )

    @cached_property
    def moderation(self) -> Moderation:
        return moderation_on(self.ports)

    @cached_property
    def recaps(self) -> Recaps:
        return Recaps(self.ports.recaps, self.ports.results, self.ports.runs)

    @cached_property
    def idempotency(self) -> Idempotency:
        return Idempotency(self.ports.requests)

    @cached_property
    def reminders(self) -> Reminders:
        def consume(body: str) -> None:  # locally and in tests: the sender's work, at once
            self.reminders.deliver(*read_message(body))

        return Reminders(
            self.ports.reminders,
            self.ports.results,
            self.ports.runs,
            queue=lambda: reminder_queue(consume),
            push=WebPush,
            record=record,
        )


_services = Services()


def reset(ports: Ports | None = None) -> None:
    """Forget everything built and read, as a new container would: the services, and the settings
    and secrets they were built with (tests call it for each test's table, or with fake PORTS)."""
    global _services
    _services = Services(ports)
    settings.cache_clear()
    edge_settings.cache_clear()
    deployment_secret.cache_clear()
    cursor_keys.cache_clear()
    secrets_client.cache_clear()
    vapid_private_key.cache_clear()


# What the handlers call: this container's services.


def ports() -> Ports:
    return _services.ports


def game() -> Game:
    return _services.game


def boards() -> Boards:
    return _services.boards


def players() -> Players:
    return _services.players


def leagues() -> Leagues:
    return _services.leagues


def accounts() -> Accounts:
    return _services.accounts


def player_data() -> PlayerData:
    return _services.player_data


def moderation() -> Moderation:
    return _services.moderation


def recaps() -> Recaps:
    return _services.recaps


def idempotency() -> Idempotency:
    return _services.idempotency


def reminders() -> Reminders:
    return _services.reminders
