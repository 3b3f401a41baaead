"""The review queue measured (SPEC §3e): open cases by kind and the oldest open case's age, which
the expiry job publishes every minute (functions/daily/expire.py) for the queue's alarms
(infra/moderation_alarms.py); cases opened per hour is the `CasesOpened` metric each opening adds.
"""

from datetime import datetime
from typing import NamedTuple

from shared.game.clock import parse_iso
from shared.game.moderation import CaseKind
from shared.services.moderation_store import CaseStore


class QueueFigures(NamedTuple):
    open_by_kind: dict[CaseKind, int]
    oldest_hours: float  # 0 when the queue is empty


def measure(store: CaseStore, now: datetime) -> QueueFigures:
    figures = store.queue_figures()
    opened = [parse_iso(oldest) for _, oldest in figures.values() if oldest]
    oldest = (now - min(opened)).total_seconds() / 3600 if opened else 0.0
    return QueueFigures({kind: count for kind, (count, _) in figures.items()}, round(max(oldest, 0.0), 2))


def metric_name(kind: CaseKind) -> str:
    """`OpenCasesName`, `OpenCasesRun`, `OpenCasesWord`, `OpenCasesAppeal`."""
    return f"OpenCases{kind.capitalize()}"
