"""Settings are validated at cold start with clear errors (shared/runtime/settings.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.runtime.edge_settings import load_edge
from shared.runtime.settings import Settings, SettingsError, load

ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:wordsqd-seed-AbCdEf"


def test_a_table_and_a_seed_are_enough():
    settings = load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd-prod", "PUZZLE_SEED": "a-long-seed"})
    assert settings.table_name == "wordsqd-prod"
    assert settings.puzzle_seed is not None and settings.puzzle_seed.get_secret_value() == "a-long-seed"


def test_on_aws_the_seed_comes_from_a_secrets_manager_arn():
    assert (
        load(
            {"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd", "PUZZLE_SEED_SECRET_ARN": ARN}
        ).puzzle_seed_secret_arn
        == ARN
    )


def test_the_seed_never_shows_in_a_repr_or_a_log():
    settings = load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd", "PUZZLE_SEED": "do-not-print-me"})
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
        ({"TABLE_NAME": "wordsqd", "CURSOR_KEY": "short"}, "CURSOR_KEY must be at least 16 characters"),
        ({"TABLE_NAME": "wordsqd", "CURSOR_KEY_SECRET_ARN": "cursor"}, "CURSOR_KEY_SECRET_ARN String should"),
    ],
)
def test_a_wrong_or_missing_setting_is_a_clear_error_naming_the_variable(environ, message):
    with pytest.raises(SettingsError) as caught:
        load(environ)
    assert message in str(caught.value)
    assert "pydantic" not in str(caught.value)  # no library internals, just the variable and why


def test_every_problem_is_listed_at_once():
    with pytest.raises(SettingsError) as caught:
        load({"WORDSQD_ENV": "test", "TABLE_NAME": "x", "PUZZLE_SEED": "short"})
    assert "TABLE_NAME" in str(caught.value) and "PUZZLE_SEED" in str(caught.value)


def test_a_function_that_only_uses_the_table_needs_no_seed_but_asking_for_one_is_clear():
    settings = load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd"})
    with pytest.raises(SettingsError, match="set PUZZLE_SEED \\(local\\) or PUZZLE_SEED_SECRET_ARN"):
        settings.seed_source()
    assert (
        load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd", "PUZZLE_SEED_SECRET_ARN": ARN}).seed_source()
        == ARN
    )


def test_settings_are_frozen():
    settings = load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd", "PUZZLE_SEED": "a-long-seed"})
    with pytest.raises(ValueError):
        settings.table_name = "other"  # type: ignore[misc]
    assert set(Settings.model_fields) == {
        "environment",
        "table_name",
        "puzzle_seed",
        "puzzle_seed_secret_arn",
        "first_daily_date",
        "user_pool_id",
        "cursor_key",
        "cursor_key_secret_arn",
        "board_shards",
    }


def _import(module: str, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TABLE_NAME", "PUZZLE_SEED")} | environ
    env = {k: v for k, v in env.items() if v}  # an empty value: the variable unset
    return subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=Path(__file__).resolve().parents[2],
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
        load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd", variable: value})


def test_the_first_daily_date_and_the_user_pool_are_read_from_the_environment():
    environ = {
        "WORDSQD_ENV": "test",
        "TABLE_NAME": "wordsqd",
        "FIRST_DAILY_DATE": "2026-03-01",
        "USER_POOL_ID": "us-east-1_AbC123",
    }
    read = load(environ)
    assert read.first_daily_date.isoformat() == "2026-03-01" and read.user_pool_id == "us-east-1_AbC123"
    assert load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd"}).user_pool_id is None


def test_the_cursor_key_and_its_secret_are_read_from_the_environment():
    arn = ARN.replace("wordsqd-seed", "wordsqd-cursor")
    read = load(
        {
            "WORDSQD_ENV": "test",
            "TABLE_NAME": "wordsqd",
            "CURSOR_KEY": "a-cursor-key-of-16",
            "CURSOR_KEY_SECRET_ARN": arn,
        }
    )
    assert read.cursor_key is not None and read.cursor_key.get_secret_value() == "a-cursor-key-of-16"
    assert read.cursor_key_secret_arn == arn and "a-cursor-key-of-16" not in repr(read)
    unset = load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd"})
    assert (unset.cursor_key, unset.cursor_key_secret_arn) == (None, None)


def test_the_origin_secret_is_read_alone_and_a_short_one_names_its_variable():
    assert load_edge({"ORIGIN_VERIFY": "s" * 48}).origin_secret == "s" * 48
    assert load_edge({"ORIGIN_VERIFY": ""}).origin_secret is None  # empty is unset: nothing is checked
    assert load_edge({}).origin_secret is None  # and no TABLE_NAME is needed (POST /validate)
    with pytest.raises(SettingsError, match="ORIGIN_VERIFY must be at least 16 characters"):
        load_edge({"ORIGIN_VERIFY": "short"})


def test_where_the_code_runs_is_one_required_setting_aws_local_or_test():
    with pytest.raises(SettingsError, match="WORDSQD_ENV is not set"):
        load({"TABLE_NAME": "wordsqd"})
    with pytest.raises(SettingsError, match="WORDSQD_ENV"):
        load({"WORDSQD_ENV": "production", "TABLE_NAME": "wordsqd"})
    assert {
        load({"WORDSQD_ENV": e, "TABLE_NAME": "wordsqd"}).environment for e in ("aws", "local", "test")
    } == {
        "aws",
        "local",
        "test",
    }


def test_on_aws_a_missing_seed_cursor_key_or_user_pool_is_refused_and_elsewhere_a_stand_in_is_allowed():
    aws = load({"WORDSQD_ENV": "aws", "TABLE_NAME": "wordsqd"})
    with pytest.raises(SettingsError, match="PUZZLE_SEED_SECRET_ARN, CURSOR_KEY_SECRET_ARN, USER_POOL_ID"):
        aws.require("seed", "cursor_key", "user_pool")
    load({"WORDSQD_ENV": "local", "TABLE_NAME": "wordsqd"}).require("seed", "cursor_key", "user_pool")
    load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd"}).require("seed", "cursor_key", "user_pool")
    complete = load(
        {
            "WORDSQD_ENV": "aws",
            "TABLE_NAME": "wordsqd",
            "PUZZLE_SEED_SECRET_ARN": ARN,
            "CURSOR_KEY_SECRET_ARN": ARN.replace("wordsqd-seed", "wordsqd-cursor"),
            "USER_POOL_ID": "us-east-1_AbC123",
        }
    )
    complete.require("seed", "cursor_key", "user_pool")


@pytest.mark.parametrize(
    ("module", "missing"),
    [
        ("functions.leaderboard.handler", "USER_POOL_ID"),
        ("functions.leaderboard.handler", "CURSOR_KEY_SECRET_ARN"),
        ("functions.daily.handler", "PUZZLE_SEED_SECRET_ARN"),
        ("functions.daily.handler", "CURSOR_KEY_SECRET_ARN"),
        ("functions.daily.reset", "PUZZLE_SEED_SECRET_ARN"),
    ],
)
def test_on_aws_a_function_missing_what_it_uses_stops_its_init_with_one_clear_log_line(module, missing):
    """Never a silent stand-in: the leaderboard function without its pool would answer DELETE /me
    "erased" and leave the Cognito user."""
    arn = ARN.replace("wordsqd-seed", "wordsqd-cursor")
    environ = {
        "WORDSQD_ENV": "aws",
        "TABLE_NAME": "wordsqd",
        "PUZZLE_SEED_SECRET_ARN": ARN,
        "CURSOR_KEY_SECRET_ARN": arn,
        "USER_POOL_ID": "us-east-1_AbC123",
        "POWERTOOLS_LOG_LEVEL": "INFO",
    }
    imported = _import(module, **(environ | {missing: ""}))
    assert imported.returncode != 0
    logged = [line for line in imported.stdout.splitlines() if missing in line]
    assert logged and '"level":"ERROR"' in logged[0] and "WORDSQD_ENV=aws" in logged[0]
    assert "SettingsError" in imported.stderr


def test_on_aws_a_function_with_everything_it_uses_starts():
    arn = ARN.replace("wordsqd-seed", "wordsqd-cursor")
    imported = _import(
        "functions.leaderboard.handler",
        WORDSQD_ENV="aws",
        TABLE_NAME="wordsqd",
        CURSOR_KEY_SECRET_ARN=arn,
        USER_POOL_ID="us-east-1_AbC123",
    )
    assert imported.returncode == 0, imported.stderr


def test_board_shards_defaults_to_the_keys_count_and_takes_the_stages():
    base = {"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd"}
    assert load(base).board_shards == 32
    assert load({**base, "BOARD_SHARDS": "37"}).board_shards == 37


@pytest.mark.parametrize("value", ["0", "-4", "257", "many", "2.5"])
def test_a_board_shard_count_that_is_not_a_positive_integer_up_to_256_names_its_variable(value):
    with pytest.raises(SettingsError, match="BOARD_SHARDS"):
        load({"WORDSQD_ENV": "test", "TABLE_NAME": "wordsqd", "BOARD_SHARDS": value})
