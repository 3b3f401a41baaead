"""May a deploy start now? Not if it could still be running when the midnight rush begins.

    python scripts/deploy_window.py --stage prod          # exit 0: go; 1: frozen (says until when)
    python scripts/deploy_window.py --stage prod --wait   # sleep until it may start, then exit 0

A deploy shifts each function's `live` alias by a CodeDeploy canary, and while an alias is
weighted Lambda refuses its provisioned concurrency: a canary running when the scheduled scaling
fires leaves the rush cold (or, at the window's end, leaves the environments up for a day). So
the freeze, in America/Chicago time, runs from FREEZE_MARGIN before the stage's capacity window
(`midnight_capacity`, else its defaults 23:45-00:30) to FREEZE_MARGIN after it, and a deploy may
start only if it ends, at most MAX_DEPLOY later (the pipeline's deploy step timeout), before the
freeze. `make deploy` and the pipeline run this first.
"""

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infra.config import REPO_ROOT, STAGES_FILE, MidnightCapacity, StageConfig  # noqa: E402

CENTRAL = ZoneInfo("America/Chicago")
MAX_DEPLOY = timedelta(minutes=60)  # .github/workflows/deploy.yml: the Deploy steps' timeout-minutes
FREEZE_MARGIN = timedelta(minutes=5)
DEFAULT_WINDOW = MidnightCapacity(functions={})


def _at(day: datetime, hhmm: str) -> datetime:
    hour, minute = (int(part) for part in hhmm.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=CENTRAL)


def freezes(window: MidnightCapacity, now: datetime) -> list[tuple[datetime, datetime]]:
    """The freezes around NOW (yesterday's night, tonight's), as Chicago wall-clock instants."""
    today = now.astimezone(CENTRAL)
    found = []
    for offset in (-1, 0, 1):
        day = today + timedelta(days=offset)
        start = _at(day, window.start)
        end = _at(day, window.end)
        if end <= start:  # the window crosses midnight: it ends the next day
            end = _at(day + timedelta(days=1), window.end)
        # Compared as instants (UTC): aware datetimes of one zone compare by their wall clock.
        found.append(((start - FREEZE_MARGIN).astimezone(UTC), (end + FREEZE_MARGIN).astimezone(UTC)))
    return found


def blocked_until(window: MidnightCapacity, now: datetime) -> datetime | None:
    """When a deploy starting at NOW would overlap a freeze: the freeze's end; else None."""
    instant = now.astimezone(UTC)
    for start, end in freezes(window, now):
        if instant < end and instant + MAX_DEPLOY > start:
            return end.astimezone(CENTRAL)
    return None


def window_of(config: StageConfig) -> MidnightCapacity:
    return config.midnight_capacity or DEFAULT_WINDOW


def main(
    argv: Sequence[str] | None = None,
    clock: Callable[[], datetime] = lambda: datetime.now(CENTRAL),
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stage", default="dev")
    parser.add_argument("--stages-file", type=Path, default=STAGES_FILE)
    parser.add_argument("--wait", action="store_true", help="sleep until a deploy may start")
    args = parser.parse_args(argv)
    config = StageConfig.load(args.stage, json.loads(args.stages_file.read_text()), REPO_ROOT)
    window = window_of(config)
    while (until := blocked_until(window, clock())) is not None:
        message = (
            f"deploy freeze for {config.stage}: a deploy now could run into the midnight window "
            f"({window.start}-{window.end} Central); it may start at {until:%Y-%m-%d %H:%M %Z}"
        )
        if not args.wait:
            print(message, file=sys.stderr)
            return 1
        print(message + "; waiting", file=sys.stderr)
        sleep(max(1.0, (until - clock()).total_seconds()))
    print(
        f"deploy window open for {config.stage} ({clock():%H:%M %Z}): at most {MAX_DEPLOY} before the freeze"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
