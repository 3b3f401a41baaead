"""The deploy pipeline as code (.github/workflows/deploy.yml) cannot run here, so what can be
checked here is: it is a valid GitHub workflow (check-jsonschema's vendored schema), its jobs run
test -> synth -> staging (diff, deploy, smoke) -> production behind an environment approval, AWS
access is OIDC only, and the smoke script passes against `make run`'s server."""

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


def test_workflow_is_valid_against_the_github_workflow_schema():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.github-workflows",
            str(WORKFLOW),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_broken_workflow_fails_the_schema(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-24.04\n    stepz: []\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.github-workflows",
            str(broken),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0


def test_jobs_run_test_synth_staging_then_production(workflow):
    jobs = workflow["jobs"]
    assert set(jobs) == {"test", "synth", "staging", "production"}
    assert "needs" not in jobs["test"]
    assert jobs["synth"]["needs"] == "test"
    assert jobs["staging"]["needs"] == "synth"
    assert jobs["production"]["needs"] == "staging"
    assert any("make test" in run for run in _runs(jobs["test"]))
    assert [run for run in _runs(jobs["synth"]) if " synth " in run]


@pytest.mark.parametrize(
    "job, stage, stack", [("staging", "staging", "WordSQD-staging"), ("production", "prod", "WordSQD-prod")]
)
def test_each_deploy_diffs_deploys_then_smoke_tests(workflow, job, stage, stack):
    runs = _runs(workflow["jobs"][job])
    diff = next(i for i, r in enumerate(runs) if " diff " in r and f"stage={stage}" in r)
    deploy = next(i for i, r in enumerate(runs) if " deploy " in r and f"stage={stage}" in r)
    smoke = next(i for i, r in enumerate(runs) if "scripts/smoke.py" in r and stack in r)
    assert diff < deploy < smoke
    assert "--outputs-file outputs.json" in runs[deploy]


def test_production_waits_for_an_approval(workflow):
    """Required reviewers live on the GitHub environment `production` (docs/operations.md)."""
    assert workflow["jobs"]["production"]["environment"] == "production"
    assert workflow["jobs"]["staging"]["environment"] == "staging"


def test_aws_access_is_oidc_only_and_only_in_deploy_jobs(workflow):
    assert workflow["permissions"] == {"contents": "read"}
    for name, job in workflow["jobs"].items():
        credentials = _uses(job, "aws-actions/configure-aws-credentials")
        if name in {"staging", "production"}:
            assert job["permissions"]["id-token"] == "write"
            [step] = credentials
            assert set(step["with"]) == {"role-to-assume", "aws-region", "role-session-name"}
        else:
            assert credentials == [] and "permissions" not in job
    assert "aws-access-key-id" not in WORKFLOW.read_text() and "secrets." not in WORKFLOW.read_text()


def test_synth_covers_every_stage_the_pipeline_deploys(workflow):
    synth = " ".join(_runs(workflow["jobs"]["synth"]))
    assert "stage=staging" in synth and "stage=prod" in synth


@pytest.mark.server
def test_the_smoke_script_passes_through_the_edge_and_checks_the_api_refuses_the_rest(tmp_path):
    """`make run`'s server stands for the site (SiteUrl), a second one given an origin secret for
    the HTTP API's own address (ApiUrl), which must answer 403 to a request that skipped the edge;
    an ApiUrl that answers is a failure."""
    sys.path.insert(0, str(REPO / "tests"))
    from test_local_server import Server

    from shared.routes import ORIGIN_SECRET_VARIABLE

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
