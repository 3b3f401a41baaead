"""scripts/deploy_window.py: no deploy starts that could still be running (its canaries weighting
the aliases) when the midnight capacity window begins, Chicago time, daylight saving included."""

import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import deploy_window  # noqa: E402

pytestmark = pytest.mark.infra  # reads infra.config

REPO = Path(__file__).resolve().parents[2]
CENTRAL = deploy_window.CENTRAL


def _central(*args: int) -> datetime:
    return datetime(*args, tzinfo=CENTRAL)


PROD = deploy_window.MidnightCapacity(start="23:50", end="00:20", functions={"daily": 1})


@pytest.mark.parametrize(
    "now, until",
    [
        (_central(2026, 6, 1, 22, 0), None),  # ends by 23:00, before the 23:45 freeze
        (_central(2026, 6, 1, 22, 44), None),  # ends 23:44
        (_central(2026, 6, 1, 22, 46), _central(2026, 6, 2, 0, 25)),  # would run into 23:45
        (_central(2026, 6, 1, 23, 55), _central(2026, 6, 2, 0, 25)),
        (_central(2026, 6, 2, 0, 10), _central(2026, 6, 2, 0, 25)),  # the night that began yesterday
        (_central(2026, 6, 2, 0, 25), None),
        (_central(2026, 6, 2, 12, 0), None),
    ],
)
def test_no_deploy_starts_that_could_run_across_the_midnight_window(now, until):
    assert deploy_window.blocked_until(PROD, now) == until


def test_the_freeze_follows_chicago_across_the_25_hour_november_day():
    """2026-11-01 is the day daylight saving ends in Chicago (25 hours long): the freeze stays at
    Central midnight on both sides of it (04:45 UTC the night before, 05:45 UTC the night after)."""
    before = _central(2026, 10, 31, 22, 50)  # CDT
    after = _central(2026, 11, 1, 22, 50)  # CST
    assert deploy_window.blocked_until(PROD, before) == _central(2026, 11, 1, 0, 25)
    assert deploy_window.blocked_until(PROD, after) == _central(2026, 11, 2, 0, 25)
    assert deploy_window.blocked_until(PROD, _central(2026, 11, 1, 12, 0)) is None


def test_main_refuses_in_the_freeze_and_waits_for_its_end_with_wait(capsys):
    now = [_central(2026, 6, 1, 23, 0)]
    slept = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += timedelta(seconds=seconds)

    assert deploy_window.main(["--stage", "prod"], clock=lambda: now[0], sleep=sleep) == 1
    assert "it may start at 2026-06-02 00:25 CDT" in capsys.readouterr().err
    assert deploy_window.main(["--stage", "prod", "--wait"], clock=lambda: now[0], sleep=sleep) == 0
    assert now[0] == _central(2026, 6, 2, 0, 25) and slept == [85 * 60]


def test_a_stage_without_capacity_still_freezes_around_the_rush():
    assert deploy_window.blocked_until(deploy_window.DEFAULT_WINDOW, _central(2026, 6, 1, 23, 50)) is not None


def test_the_longest_deploy_is_the_pipeline_deploy_steps_timeout_and_the_job_has_room_to_wait():
    jobs = yaml.safe_load((REPO / ".github" / "workflows" / "deploy.yml").read_text())["jobs"]
    longest_wait = MAX_FREEZE + deploy_window.MAX_DEPLOY
    for name in ("staging", "production"):
        [deploy] = [s for s in jobs[name]["steps"] if s.get("name") == "Deploy"]
        assert deploy["timeout-minutes"] * 60 == deploy_window.MAX_DEPLOY.total_seconds(), name
        assert jobs[name]["timeout-minutes"] * 60 >= (longest_wait + deploy_window.MAX_DEPLOY).total_seconds()


# The longest freeze a stage may have: the default window (23:45-00:30) and its margins.
MAX_FREEZE = timedelta(minutes=45) + 2 * deploy_window.FREEZE_MARGIN
