"""Settings are validated at cold start with clear errors (shared/runtime/settings.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.runtime.settings import Settings, SettingsError, load

ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:wordsqd-seed-AbCdEf"


def test_a_table_and_a_seed_are_enough():
    settings = load({"TABLE_NAME": "wordsqd-prod", "PUZZLE_SEED": "a-long-seed"})
    assert settings.table_name == "wordsqd-prod"
    assert settings.puzzle_seed is not None and settings.puzzle_seed.get_secret_value() == "a-long-seed"


def test_on_aws_the_seed_comes_from_a_secrets_manager_arn():
    assert load({"TABLE_NAME": "wordsqd", "PUZZLE_SEED_SECRET_ARN": ARN}).puzzle_seed_secret_arn == ARN


def test_the_seed_never_shows_in_a_repr_or_a_log():
    settings = load({"TABLE_NAME": "wordsqd", "PUZZLE_SEED": "do-not-print-me"})
    assert "do-not-print-me" not in repr(settings) and "do-not-print-me" not in str(settings)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"PUZZLE_SEED": "a-long-seed"}, "TABLE_NAME is not set"),
        ({"TABLE_NAME": "", "PUZZLE_SEED": "a-long-seed"}, "TABLE_NAME is not set"),  # empty is unset
        ({"TABLE_NAME": "no spaces", "PUZZLE_SEED": "a-long-seed"}, "TABLE_NAME String should match"),
        ({"TABLE_NAME": "ab", "PUZZLE_SEED": "a-long-seed"}, "TABLE_NAME String should match"),
        ({"TABLE_NAME": "wordsqd", "PUZZLE_SEED": "short"}, "PUZZLE_SEED must be at least 8 characters"),
        ({"TABLE_NAME": "wordsqd", "PUZZLE_SEED_SECRET_ARN": "wordsqd-seed"}, "PUZZLE_SEED_SECRET_ARN"),
    ],
)
def test_a_wrong_or_missing_setting_is_a_clear_error_naming_the_variable(environ, message):
    with pytest.raises(SettingsError) as caught:
        load(environ)
    assert message in str(caught.value)
    assert "pydantic" not in str(caught.value)  # no library internals, just the variable and why


def test_every_problem_is_listed_at_once():
    with pytest.raises(SettingsError) as caught:
        load({"TABLE_NAME": "x", "PUZZLE_SEED": "short"})
    assert "TABLE_NAME" in str(caught.value) and "PUZZLE_SEED" in str(caught.value)


def test_a_function_that_only_uses_the_table_needs_no_seed_but_asking_for_one_is_clear():
    settings = load({"TABLE_NAME": "wordsqd"})
    with pytest.raises(SettingsError, match="set PUZZLE_SEED \\(local\\) or PUZZLE_SEED_SECRET_ARN"):
        settings.seed_source()
    assert load({"TABLE_NAME": "wordsqd", "PUZZLE_SEED_SECRET_ARN": ARN}).seed_source() == ARN


def test_settings_are_frozen():
    settings = load({"TABLE_NAME": "wordsqd", "PUZZLE_SEED": "a-long-seed"})
    with pytest.raises(ValueError):
        settings.table_name = "other"  # type: ignore[misc]
    assert set(Settings.model_fields) == {
        "table_name",
        "puzzle_seed",
        "puzzle_seed_secret_arn",
        "first_daily_date",
        "user_pool_id",
    }


def _import(module: str, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TABLE_NAME", "PUZZLE_SEED")} | environ
    return subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=Path(__file__).resolve().parents[1],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_function_without_table_name_fails_at_cold_start_not_on_a_request():
    imported = _import("functions.daily.handler", PUZZLE_SEED="a-long-seed")
    assert imported.returncode != 0
    assert "SettingsError: wordsqd: invalid environment: TABLE_NAME is not set" in imported.stderr


def test_the_validate_function_needs_no_setting():
    imported = _import("functions.validate.handler")
    assert imported.returncode == 0, imported.stderr


@pytest.mark.parametrize(
    ("variable", "value"), [("FIRST_DAILY_DATE", "yesterday"), ("USER_POOL_ID", "not a pool id")]
)
def test_a_malformed_first_daily_date_or_user_pool_id_names_its_variable(variable, value):
    with pytest.raises(SettingsError, match=variable):
        load({"TABLE_NAME": "wordsqd", variable: value})


def test_the_first_daily_date_and_the_user_pool_are_read_from_the_environment():
    environ = {"TABLE_NAME": "wordsqd", "FIRST_DAILY_DATE": "2026-03-01", "USER_POOL_ID": "us-east-1_AbC123"}
    read = load(environ)
    assert read.first_daily_date.isoformat() == "2026-03-01" and read.user_pool_id == "us-east-1_AbC123"
    assert load({"TABLE_NAME": "wordsqd"}).user_pool_id is None
