"""May a deploy start now? Not if it could still be running when the midnight rush begins.

    python scripts/deploy_window.py --stage prod          # exit 0: go; 1: frozen (says until when)
    python scripts/deploy_window.py --stage prod --wait   # sleep until it may start, then exit 0

A deploy shifts each function's `live` alias by a CodeDeploy canary, and while an alias is
weighted Lambda refuses its provisioned concurrency: a canary running when the scheduled scaling
fires leaves the rush cold (or, at the window's end, leaves the environments up for a day). So
the freeze, in America/Chicago time, runs from FREEZE_MARGIN before the stage's capacity window
(`midnight_capacity`, else its defaults 23:45-00:30) to FREEZE_MARGIN after it, and a deploy may
start only if it ends, at most MAX_DEPLOY later (the pipeline's deploy step timeout), before the
freeze. `make deploy` and the pipeline run this first; the stack's own guard (infra/guard.py)
refuses any update that starts inside the freeze, whoever starts it.
"""

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infra.config import REPO_ROOT, STAGES_FILE, MidnightCapacity, StageConfig  # noqa: E402
from infra.lambdas.wordsqd_ops import window as window_freeze  # noqa: E402
from infra.lambdas.wordsqd_ops.window import CENTRAL, FREEZE_MARGIN  # noqa: E402,F401

MAX_DEPLOY = timedelta(minutes=60)  # .github/workflows/deploy.yml: the Deploy steps' timeout-minutes
DEFAULT_WINDOW = MidnightCapacity(functions={})


def blocked_until(window: MidnightCapacity, now: datetime) -> datetime | None:
    """When a deploy starting at NOW, at most MAX_DEPLOY long, would overlap a freeze: its end."""
    return window_freeze.blocked_until(window.start, window.end, now, MAX_DEPLOY)


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
