"""`python -m infra.app -c stage=... -c account=...` and `make synth|deploy STAGE=... ACCOUNT=...`
pass the context through: a first deploy to a new account picks its stage and account."""

import subprocess
from pathlib import Path

import pytest

from infra import app

pytestmark = pytest.mark.infra

REPO = Path(__file__).resolve().parents[2]


def test_context_arguments_are_read_as_the_cdk_cli_reads_them():
    argv = ["-c", "stage=prod", "--context", "account=123456789012", "-c", "note=a=b"]
    assert app.context_arguments(argv) == {"stage": "prod", "account": "123456789012", "note": "a=b"}
    with pytest.raises(SystemExit):
        app.context_arguments(["-c", "stage"])


def test_the_app_synthesizes_the_stage_and_account_given_with_c(monkeypatch, tmp_path):
    seen = []
    monkeypatch.setattr(app, "WordSQDStack", lambda scope, config: seen.append((config, scope.node)))
    monkeypatch.setattr(app, "add_checks", lambda scope: None)
    monkeypatch.setenv("CDK_OUTDIR", str(tmp_path / "out"))
    app.main(["-c", "stage=prod", "-c", "account=123456789012", "-c", f"asset_dir={tmp_path}"])
    [(config, node)] = seen
    assert config.stage == "prod" and config.production
    assert node.try_get_context("account") == "123456789012"


@pytest.mark.parametrize("target", ["synth", "deploy"])
def test_make_passes_stage_and_account_as_context(target):
    dry = subprocess.run(
        ["make", "-n", target, "STAGE=prod", "ACCOUNT=123456789012"], cwd=REPO, capture_output=True, text=True
    )
    [line] = [line for line in dry.stdout.splitlines() if "infra.app" in line or " deploy --all" in line]
    assert "-c stage=prod" in line and "-c account=123456789012" in line


def test_make_deploy_checks_the_window_and_the_quotas_before_deploying():
    lines = subprocess.run(
        ["make", "-n", "deploy", "STAGE=prod"], cwd=REPO, capture_output=True, text=True
    ).stdout
    order = [
        i
        for i, line in enumerate(lines.splitlines())
        if "deploy_window.py" in line or "preflight.py" in line or " deploy --all" in line
    ]
    assert len(order) == 3
    assert "deploy_window.py --stage prod" in lines and "preflight.py --stage prod" in lines
    assert lines.index("deploy_window.py") < lines.index("preflight.py") < lines.index(" deploy --all")
