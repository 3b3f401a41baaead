"""Context is checked before anything is synthesized: a bad deploy command fails fast and says why."""

import pytest

from infra.config import ConfigError

pytestmark = pytest.mark.infra  # needs aws-cdk-lib (the infra extra)


@pytest.fixture
def asset(tmp_path):
    return {"asset_dir": str(tmp_path)}


def test_dev_defaults(config_from, asset):
    config = config_from(asset)
    assert (config.stage, config.production, config.stack_name) == ("dev", False, "WordSQD-dev")
    assert config.allowed_origins == ("http://localhost:8000",)


def test_prod_requires_allowed_origins(config_from, asset):
    with pytest.raises(ConfigError, match="allowed_origins"):
        config_from({**asset, "stage": "prod"})


@pytest.mark.parametrize(
    "origins", ["*", "https://play.example.com/", "play.example.com", "https://a.example.com/path"]
)
def test_origins_must_be_exact_origins(config_from, asset, origins):
    with pytest.raises(ConfigError, match="must look like"):
        config_from({**asset, "allowed_origins": origins})


def test_prod_origins_must_be_https(config_from, asset):
    with pytest.raises(ConfigError, match="https"):
        config_from({**asset, "stage": "prod", "allowed_origins": "http://play.example.com"})


@pytest.mark.parametrize("stage", ["Prod", "my_stage", "-dev", ""])
def test_stage_names_are_checked(config_from, asset, stage):
    if stage == "":  # empty context falls back to the default stage
        assert config_from({**asset, "stage": stage}).stage == "dev"
    else:
        with pytest.raises(ConfigError, match="stage"):
            config_from({**asset, "stage": stage})


def test_missing_asset_says_to_build_it(config_from, tmp_path):
    with pytest.raises(ConfigError, match="make build"):
        config_from({"asset_dir": str(tmp_path / "nothing-here")})
