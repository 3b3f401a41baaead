"""The deploy pipeline as code (.github/workflows/deploy.yml) cannot run here, so what can be
checked here is: it is a valid GitHub workflow (check-jsonschema's vendored schema), its jobs run
test -> synth -> staging (diff, deploy, smoke) -> the production diff -> production behind an
environment approval, each deploy after the deploy window and quota checks, AWS access is OIDC
only, and the smoke script passes against `make run`'s server."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "deploy.yml"

pytestmark = pytest.mark.infra


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def _runs(job: dict) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def _uses(job: dict, action: str) -> list[dict]:
    return [step for step in job["steps"] if step.get("uses", "").startswith(action + "@")]


def schema_check(workflow: Path) -> subprocess.CompletedProcess:
    """check-jsonschema's verdict on WORKFLOW against GitHub's workflow schema."""
    command = [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows"]
    return subprocess.run([*command, str(workflow)], capture_output=True, text=True)


def test_workflow_is_valid_against_the_github_workflow_schema():
    result = schema_check(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_broken_workflow_fails_the_schema(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-24.04\n    stepz: []\n")
    result = schema_check(broken)
    assert result.returncode != 0


def test_jobs_run_test_synth_staging_the_production_diff_then_production(workflow):
    jobs = workflow["jobs"]
    assert set(jobs) == {"test", "synth", "staging", "production-diff", "production"}
    assert "needs" not in jobs["test"]
    assert jobs["synth"]["needs"] == "test"
    assert jobs["staging"]["needs"] == "synth"
    assert jobs["production-diff"]["needs"] == "staging"
    assert jobs["production"]["needs"] == "production-diff"
    assert any("make test" in run for run in _runs(jobs["test"]))
    assert [run for run in _runs(jobs["synth"]) if " synth " in run]


@pytest.mark.parametrize(
    "diff_job, job, stage, stack",
    [
        ("staging", "staging", "staging", "WordSQD-staging"),
        ("production-diff", "production", "prod", "WordSQD-prod"),
    ],
)
def test_each_deploy_is_diffed_waits_for_its_window_checks_quotas_deploys_then_smoke_tests(
    workflow, diff_job, job, stage, stack
):
    diff_runs, runs = _runs(workflow["jobs"][diff_job]), _runs(workflow["jobs"][job])
    assert any(" diff " in r and f"stage={stage}" in r for r in diff_runs)
    window = next(i for i, r in enumerate(runs) if f"scripts/deploy_window.py --stage {stage} --wait" in r)
    preflight = next(i for i, r in enumerate(runs) if f"scripts/preflight.py --stage {stage}" in r)
    deploy = next(i for i, r in enumerate(runs) if " deploy " in r and f"stage={stage}" in r)
    smoke = next(i for i, r in enumerate(runs) if "scripts/smoke.py" in r and stack in r)
    assert window < preflight < deploy < smoke
    assert "--outputs-file outputs.json" in runs[deploy]
    if diff_job == job:
        assert next(i for i, r in enumerate(runs) if " diff " in r) < deploy


def test_production_approval_comes_after_the_diff_it_shows(workflow):
    """Required reviewers live on the GitHub environment `production` (docs/operations.md); the
    diff runs in the job before, without them, and lands in the run's summary."""
    jobs = workflow["jobs"]
    assert jobs["production"]["environment"] == "production"
    assert jobs["production-diff"]["environment"] == "production-diff"
    assert jobs["staging"]["environment"] == "staging"
    assert any("GITHUB_STEP_SUMMARY" in r and " diff " in r for r in _runs(jobs["production-diff"]))
    assert not any(" diff " in r for r in _runs(jobs["production"]))


def test_aws_access_is_oidc_only_and_only_in_deploy_jobs(workflow):
    assert workflow["permissions"] == {"contents": "read"}
    for name, job in workflow["jobs"].items():
        credentials = _uses(job, "aws-actions/configure-aws-credentials")
        if name in {"staging", "production-diff", "production"}:
            assert job["permissions"]["id-token"] == "write"
            [step] = credentials
            assert set(step["with"]) == {"role-to-assume", "aws-region", "role-session-name"}
        else:
            assert credentials == [] and "permissions" not in job
    assert "aws-access-key-id" not in WORKFLOW.read_text() and "secrets." not in WORKFLOW.read_text()


@pytest.mark.parametrize("job", ["staging", "production"])
def test_the_aws_session_is_taken_after_the_window_wait(workflow, job):
    """A session lasts an hour: taken before a wait of up to ~105 minutes it would expire mid-deploy."""
    steps = workflow["jobs"][job]["steps"]
    wait = next(i for i, s in enumerate(steps) if "deploy_window.py" in s.get("run", ""))
    credentials = next(i for i, s in enumerate(steps) if "configure-aws-credentials" in s.get("uses", ""))
    assert wait < credentials


def test_synth_covers_every_stage_the_pipeline_deploys(workflow):
    synth = " ".join(_runs(workflow["jobs"]["synth"]))
    assert "stage=staging" in synth and "stage=prod" in synth


@pytest.mark.server
def test_the_smoke_script_passes_through_the_edge_and_checks_the_api_refuses_the_rest(tmp_path):
    """`make run`'s server stands for the site (SiteUrl), a second one given an origin secret for
    the HTTP API's own address (ApiUrl), which must answer 403 to a request that skipped the edge;
    an ApiUrl that answers is a failure."""
    from shared.runtime.edge_settings import ORIGIN_SECRET_VARIABLE
    from tests.system.test_local_server import Server

    site = Server(tmp_path / "site").start()
    api = Server(tmp_path / "api", **{ORIGIN_SECRET_VARIABLE: "edge-only-secret"}).start()

    def smoke(api_url: str) -> subprocess.CompletedProcess:
        outputs = tmp_path / "outputs.json"
        urls = {"SiteUrl": f"http://127.0.0.1:{site.port}/", "ApiUrl": api_url}
        outputs.write_text(json.dumps({"WordSQD-staging": urls}))
        return subprocess.run(
            [sys.executable, str(REPO / "scripts" / "smoke.py"), "--outputs", str(outputs),
             "--stack", "WordSQD-staging", "--attempts", "1"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip

    try:
        guarded, open_api = smoke(f"http://127.0.0.1:{api.port}/"), smoke(f"http://127.0.0.1:{site.port}/")
    finally:
        site.kill()
        api.kill()
    assert guarded.returncode == 0, guarded.stderr
    assert "smoke test passed" in guarded.stdout
    assert open_api.returncode == 1
    assert "without the edge: 200" in open_api.stderr


def test_the_smoke_script_fails_when_the_api_is_not_there(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "smoke.py"),
            "--url",
            "http://127.0.0.1:9/",
            "--attempts",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "GET /daily: 0" in result.stderr and "Traceback" not in result.stderr
