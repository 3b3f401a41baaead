"""Stages as data: infra/stages.json is checked with pydantic before anything is synthesized, so a
bad stage fails fast and says why."""

import json

import pytest

from infra.config import STAGES_FILE, ConfigError, StageConfig

pytestmark = pytest.mark.infra  # needs aws-cdk-lib (the infra extra)

PRODUCTION = {
    "production": True,
    "allowed_origins": ["https://play.example.com"],
    "alarm_emails": ["oncall@example.com"],
    "ses": {"from_email": "no-reply@example.com", "identity": "example.com"},
}


@pytest.fixture
def load(config_from, tmp_path):
    def load(stages, stage="dev"):
        return config_from({"asset_dir": str(tmp_path), "stage": stage}, stages, tmp_path)

    return load


def test_every_stage_of_the_repository_loads(config_from, tmp_path):
    stages = json.loads(STAGES_FILE.read_text())
    assert {"dev", "staging", "prod"} <= set(stages)
    for stage in stages:
        config = config_from({"asset_dir": str(tmp_path), "stage": stage})
        assert config.stage == stage
    prod = config_from({"asset_dir": str(tmp_path), "stage": "prod"})
    assert prod.production and prod.region and prod.ses and prod.alarm_emails


def test_no_stage_of_the_repository_names_an_account():
    """A first deploy to a new account works as committed: the account is the caller's."""
    assert not [name for name, stage in json.loads(STAGES_FILE.read_text()).items() if "account" in stage]


def test_a_stage_naming_an_account_is_refused_with_the_way_to_pass_one(load):
    with pytest.raises(ConfigError, match="names no account; pass -c account="):
        load({"dev": {"account": "123456789012"}})


def test_dev_defaults_are_sized_for_the_rush(load):
    config = load({"dev": {}})
    assert (config.stage, config.production, config.stack_name) == ("dev", False, "WordSQD-dev")
    assert config.allowed_origins == ("http://localhost:8000",)
    # A million players in ten minutes at 11 requests a run (measured), three times that at the top.
    assert config.throttle.rate >= 3 * 1_000_000 * 11 / 600
    assert config.route_throttles["POST /guest/daily/runs"].rate >= 1_000_000 / 600
    assert config.region == "us-east-1"


def test_warm_throughput_defaults_to_what_every_on_demand_table_has_within_the_default_quota(load):
    warm = load({"dev": {}}).warm_throughput
    for each in (warm.table, warm.index("board"), warm.index("history"), warm.index("due")):
        assert (each.read_units_per_second, each.write_units_per_second) == (12_000, 4_000)
        assert max(each.read_units_per_second, each.write_units_per_second) <= 40_000


def test_warm_throughput_of_an_unknown_index_is_refused(load):
    with pytest.raises(ConfigError, match="no such index"):
        load({"dev": {"warm_throughput": {"indexes": {"nope": {}}}}})


def test_unknown_stage_names_the_known_ones(load):
    with pytest.raises(ConfigError, match=r"'nope' is not in the stages file; known: \['dev'\]"):
        load({"dev": {}}, "nope")


@pytest.mark.parametrize("missing", ["alarm_emails", "ses"])
def test_production_requires_alarm_emails_and_ses(load, missing):
    stage = {k: v for k, v in PRODUCTION.items() if k != missing}
    with pytest.raises(ConfigError, match=f"production stage needs {missing}"):
        load({"live": stage}, "live")


def test_production_is_a_flag_whatever_the_name(load):
    assert load({"production": PRODUCTION}, "production").production


def test_production_origins_must_be_https(load):
    with pytest.raises(ConfigError, match="https"):
        load({"live": {**PRODUCTION, "allowed_origins": ["http://play.example.com"]}}, "live")


@pytest.mark.parametrize(
    "origins",
    [["*"], ["https://play.example.com/"], ["play.example.com"], ["https://a.example.com/path"], []],
)
def test_origins_must_be_exact_origins(load, origins):
    with pytest.raises(ConfigError, match="allowed_origins"):
        load({"dev": {"allowed_origins": origins}})


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("region", "Virginia", "region"),
        ("alarm_emails", ["not-an-email"], "alarm_emails"),
        ("throttle", {"rate": 0, "burst": 10}, "throttle.rate"),
        ("route_throttles", {"GET /nowhere": {"rate": 1, "burst": 1}}, "no such route"),
        ("route_throttles", {"POST /validate": {"rate": 10**9, "burst": 1}}, "above the stage rate"),
        ("midnight_capacity", {"functions": {"reset": 5}}, "only the API functions"),
        ("midnight_capacity", {"start": "24:00", "functions": {"daily": 5}}, "midnight_capacity.start"),
        ("colour", "blue", "colour: Extra inputs are not permitted"),
    ],
)
def test_bad_values_are_named_in_the_error(load, field, value, message):
    with pytest.raises(ConfigError, match=message):
        load({"dev": {field: value}})


@pytest.mark.parametrize("stage", ["Prod", "my_stage", "-dev"])
def test_stage_names_are_checked(load, stage):
    with pytest.raises(ConfigError, match="stage"):
        load({stage: {}}, stage)


def test_missing_asset_says_to_build_it(config_from, tmp_path):
    with pytest.raises(ConfigError, match="make build"):
        config_from({"asset_dir": str(tmp_path / "nothing-here")})


def test_stage_config_names_a_region_but_no_account():
    assert "region" in StageConfig.model_fields and "account" not in StageConfig.model_fields
