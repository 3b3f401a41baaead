"""functions/init_phase.py: Lambda's init runs without the cyclic garbage collector, and ends with
the init's objects frozen and the collector on again (issue #12). Each case is a fresh process:
the module acts once per process, when first imported. That every entry module runs its whole
import paused and ends the pause is checked from the built asset
(tests/infra/test_lambda_asset.py, test_every_handler_imports_from_a_built_asset)."""

from tests.conftest import printed_by_a_fresh_interpreter


def test_importing_it_pauses_the_collector_until_end_freezes_and_resumes_it():
    assert (
        printed_by_a_fresh_interpreter(
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
        printed_by_a_fresh_interpreter(
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
