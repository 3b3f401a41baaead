"""The jobs' dry run: the event `{"dry_run": true}` that CodeDeploy's pre-traffic hook sends a
job's new version before any traffic shifts to it (infra/lambdas/wordsqd_ops/canary.py). The job
starts as it would (its init: settings, secrets, clients), makes one read of the table, writes
nothing, and answers `{"dry_run": true, ...}`: a version that cannot is never shifted to."""

from collections.abc import Mapping

KEY = "dry_run"


def is_dry_run(event: Mapping[str, object]) -> bool:
    return event.get(KEY) is True
