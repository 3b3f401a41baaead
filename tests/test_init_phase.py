"""functions/init_phase.py: Lambda's init runs without the cyclic garbage collector, and ends with
the init's objects frozen and the collector on again (issue #12). Each case is a fresh process:
the module acts once per process, when first imported."""

import subprocess
import sys
from pathlib import Path

import pytest

from infra.functions import FUNCTIONS

REPO = Path(__file__).resolve().parents[1]


def run(script: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO), "TABLE_NAME": "wordsqd-test", "AWS_DEFAULT_REGION": "us-east-1",
             "PUZZLE_SEED": "init-phase-seed", "POWERTOOLS_METRICS_DISABLED": "true"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.strip()


def test_importing_it_pauses_the_collector_until_end_freezes_and_resumes_it():
    assert (
        run(
            """
import gc
from functions import init_phase
paused = not gc.isenabled()
init_phase.end()
frozen = gc.get_freeze_count()
init_phase.end()  # only the first end acts
print(paused, gc.isenabled(), frozen > 0, gc.get_freeze_count() == frozen)
"""
        )
        == "True True True True"
    )


def test_a_collector_already_off_stays_off_and_nothing_is_frozen():
    assert (
        run(
            """
import gc
gc.disable()
from functions import init_phase
init_phase.end()
print(gc.isenabled(), gc.get_freeze_count())
"""
        )
        == "False 0"
    )


@pytest.mark.parametrize("entry", sorted(spec.handler for spec in FUNCTIONS.values()))
def test_every_entry_module_runs_its_whole_init_paused_and_ends_it(entry):
    """The pause begins before the entry module's first library import and ends on its last
    line. Without it an init runs 80 to 135 collections; with it at most one, while Python finds
    the `functions` package (before the pause can begin). Afterwards the collector is on, with
    the init's objects frozen."""
    module = entry.split(":")[0]
    script = f"""
import gc
collections = []
gc.callbacks.append(lambda phase, info: collections.append(info) if phase == "start" else None)
import {module}
print(len(collections) <= 1, gc.isenabled(), gc.get_freeze_count() > 10_000)
"""
    assert run(script) == "True True True"
