"""Synthesize the CDK app once per test session: a dev and a prod stack in one app, with the same
cdk-nag plugin and cdk.json feature flags as `python -m infra.app`, on a small stand-in asset (the
real asset has its own test, test_lambda_asset.py). The stages come from TEST_STAGES, a stages file
written for the session (the repository's infra/stages.json has its own test). The first synth of a
session takes ~20 s, so every template test shares it.
"""

import json
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

# jsii prints a Node end-of-life banner on every start under Node 20; it says nothing about us.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

import pytest  # noqa: E402
from aws_cdk import App  # noqa: E402
from aws_cdk.assertions import Template  # noqa: E402

from infra.checks import add_checks  # noqa: E402
from infra.config import StageConfig, feature_flags  # noqa: E402
from infra.functions import FUNCTIONS, lambda_handler  # noqa: E402
from infra.stack import WordSQDStack  # noqa: E402
from tests.aws_calls import keep_template  # noqa: E402

HERE = Path(__file__).resolve().parent

# The production stage is deliberately not called "prod": production is a flag, not a name.
TEST_STAGES = {
    "dev": {"region": "us-east-1", "first_daily_date": "2026-01-01", "board_shards": 40},
    "live": {
        "region": "eu-west-1",
        "production": True,
        "allowed_origins": ["https://play.example.com", "https://www.example.com"],
        "alarm_emails": ["oncall@example.com", "lead@example.com"],
        "throttle": {"rate": 25, "burst": 50},
        "route_throttles": {"POST /guest/daily/runs": {"rate": 5, "burst": 10}},
        "ses": {"from_email": "no-reply@example.com", "from_name": "WordSQD", "identity": "example.com"},
        "self_sign_up": False,
        "cognito_plan": "essentials",
        "midnight_capacity": {
            "start": "23:50",
            "end": "00:20",
            "functions": {"daily": 100, "leaderboard": 10},
        },
        "warm_throughput": {
            "table": {"read_units_per_second": 30000, "write_units_per_second": 60000},
            "indexes": {"due": {"write_units_per_second": 10000}},
        },
    },
}


@dataclass
class Synthesized:
    """One stack's synthesized template, as raw JSON and as an assertions Template."""

    config: StageConfig
    json: dict[str, Any]
    template_file: Path
    _template: Template | None = field(default=None, repr=False)

    @property
    def template(self) -> Template:
        if self._template is None:
            self._template = Template.from_json(self.json)
        return self._template

    def resources(self, type_: str) -> dict[str, dict]:
        return {k: r for k, r in self.json["Resources"].items() if r["Type"] == type_}

    def only(self, type_: str) -> tuple[str, dict]:
        [(logical_id, resource)] = self.resources(type_).items()
        return logical_id, resource

    @cached_property
    def functions(self) -> dict[str, tuple[str, dict]]:
        """Our function name (validate, daily, ...) -> (logical id, its properties). CDK's own
        functions (the web client's BucketDeployment, custom resource providers) are left out."""
        names = {lambda_handler(spec.handler): name for name, spec in FUNCTIONS.items()}
        return {
            names[r["Properties"]["Handler"]]: (logical_id, r["Properties"])
            for logical_id, r in self.resources("AWS::Lambda::Function").items()
            if r["Properties"].get("Handler") in names
        }


@dataclass
class Synth:
    stacks: dict[str, Synthesized]
    outdir: Path
    validation_error: str | None


def config_from(context: dict[str, str], stages: dict | None = None, tmp: Path | None = None) -> StageConfig:
    """A StageConfig read the way the app reads it: from a CDK App's context (strings, as `-c`),
    with STAGES written to a stages file when given."""
    if stages is not None:
        assert tmp is not None
        stages_file = tmp / "stages.json"
        stages_file.write_text(json.dumps(stages))
        context = {**context, "stages_file": str(stages_file)}
    return StageConfig.from_context(App(context=context).node)


@pytest.fixture(scope="session", name="config_from")
def config_from_fixture():
    return config_from


@pytest.fixture(scope="session")
def synth(tmp_path_factory: pytest.TempPathFactory) -> Synth:
    asset = tmp_path_factory.mktemp("asset")
    (asset / "README.txt").write_text("Stand-in for build/lambda: template tests only.\n")
    outdir = tmp_path_factory.mktemp("cdk.out")

    # A stage without an account takes the CLI's (CDK_DEFAULT_ACCOUNT) before the placeholder: the
    # tests synthesize as CI does, whatever credentials the shell has.
    with pytest.MonkeyPatch.context() as env:
        env.delenv("CDK_DEFAULT_ACCOUNT", raising=False)
        return _synth(tmp_path_factory, outdir, asset)


def _synth(tmp_path_factory: pytest.TempPathFactory, outdir: Path, asset: Path) -> Synth:
    # The midnight guard's stamp, fixed: the same templates each session (cfn-lint's cache holds).
    app = App(outdir=str(outdir), context={**feature_flags(), "deployed_at": "2026-01-01T00:00:00+00:00"})
    stages_dir = tmp_path_factory.mktemp("stages")
    configs = {
        "dev": config_from({"asset_dir": str(asset)}, TEST_STAGES, stages_dir),
        "prod": config_from({"stage": "live", "asset_dir": str(asset)}, TEST_STAGES, stages_dir),
    }
    stacks = {stage: WordSQDStack(app, config) for stage, config in configs.items()}
    add_checks(app)
    # The templates are written before the validation plugins run, so a cdk-nag failure is
    # recorded for its own test instead of hiding every other result.
    try:
        app.synth()
        error = None
    except RuntimeError as failure:
        error = str(failure)

    synthesized = {}
    for stage, stack in stacks.items():
        template_file = outdir / stack.template_file
        synthesized[stage] = Synthesized(
            config=configs[stage],
            json=json.loads(template_file.read_text()),
            template_file=template_file,
        )
    prod = synthesized["prod"]
    keep_template(prod.json, prod.config.region, prod.config.stack_name)  # tests/aws_calls.py judges by it
    return Synth(stacks=synthesized, outdir=outdir, validation_error=error)


@pytest.fixture(scope="session")
def dev(synth: Synth) -> Synthesized:
    return synth.stacks["dev"]


@pytest.fixture(scope="session")
def prod(synth: Synth) -> Synthesized:
    return synth.stacks["prod"]


def pytest_itemcollected(item: pytest.Item) -> None:
    # Under `pytest -n ... --dist loadgroup`, keep these tests on one worker: one synth, not one
    # per worker. (Marked as each test is collected: xdist reads the groups when collection ends.)
    if item.path.is_relative_to(HERE):
        item.add_marker(pytest.mark.xdist_group("infra"))
