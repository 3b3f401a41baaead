"""What the case rules (shared/services/cases.py) and appeals (shared/services/appeals.py) need of
the moderation service (shared/services/moderation.py `Moderation`): its stores, its clock, the
evidence its find-time pass kept, and its corrections on a final board. A protocol, so that those
modules and the service import one another in one direction only."""

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from shared.game.moderation import Case, Decision, Report, ReportKind
from shared.game.scope import Scope
from shared.services.board_ports import BoardStore, NameStore
from shared.services.moderation_store import ModerationPorts
from shared.services.player_data import PlayerDataStore
from shared.services.ports import ResultStore, RunStore


class Casework(Protocol):
    store: ModerationPorts
    boards: BoardStore
    results: ResultStore
    runs: RunStore
    names: NameStore
    player_data: PlayerDataStore
    words: Callable[[], frozenset[str]]
    now: Callable[[], datetime]

    def report(
        self, reporter: str, kind: ReportKind, target: str, reason: str, client: str | None = None
    ) -> tuple[Report, Case]: ...

    def _pass_quantiles(self, case: Case) -> dict[int, int] | None: ...

    def _correct(self, scope: Scope, case: Case, decision: Decision) -> None: ...
