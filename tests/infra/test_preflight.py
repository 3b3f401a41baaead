"""scripts/preflight.py: the account's quotas against what a stage asks for, read through stubbed
AWS clients (botocore's Stubber checks each request against the service's model)."""

import json
import sys
from pathlib import Path

import boto3
import pytest
from botocore.stub import Stubber

from infra.config import ConfigError
from infra.functions import FUNCTIONS
from shared.dynamo.keys import DUE_SHARDS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import preflight  # noqa: E402
import rush_plan  # noqa: E402

pytestmark = pytest.mark.infra  # reads infra.config

DEFAULTS = {"table": 40_000, "concurrency": 1_000, "rate": 10_000, "burst": 5_000}
REPO = Path(__file__).resolve().parents[2]
RESERVED = sum(spec.reserved or 0 for spec in FUNCTIONS.values())


def _clients(
    table=40_000,
    concurrency=1_000,
    rate=10_000,
    burst=5_000,
    listed=True,
    ses=None,
    verified=True,
    sandbox=False,
):
    session = boto3.session.Session(
        region_name="us-east-1", aws_access_key_id="testing", aws_secret_access_key="testing"
    )
    names = ("dynamodb", "lambda", "service-quotas", "sesv2")
    dynamodb, lambda_, quotas, sesv2 = (session.client(s) for s in names)
    stubs = [Stubber(c) for c in (dynamodb, lambda_, quotas, sesv2)]
    if ses:
        stubs[3].add_response(
            "get_email_identity", {"VerifiedForSendingStatus": verified}, {"EmailIdentity": ses}
        )
        stubs[3].add_response("get_account", {"ProductionAccessEnabled": not sandbox})
    stubs[0].add_response(
        "describe_limits",
        {
            "AccountMaxReadCapacityUnits": 80_000,
            "AccountMaxWriteCapacityUnits": 80_000,
            "TableMaxReadCapacityUnits": table,
            "TableMaxWriteCapacityUnits": table,
        },
    )
    stubs[1].add_response("get_account_settings", {"AccountLimit": {"ConcurrentExecutions": concurrency}})
    quota = [
        {"QuotaName": "Throttle rate", "Value": rate, "ServiceCode": "apigateway"},
        {"QuotaName": "Throttle burst rate", "Value": burst, "ServiceCode": "apigateway"},
    ]
    for _ in preflight.API_QUOTAS:
        if listed:
            stubs[2].add_response("list_service_quotas", {"Quotas": quota}, {"ServiceCode": "apigateway"})
        else:
            stubs[2].add_response("list_service_quotas", {"Quotas": []}, {"ServiceCode": "apigateway"})
            stubs[2].add_response(
                "list_aws_default_service_quotas", {"Quotas": []}, {"ServiceCode": "apigateway"}
            )
    for stub in stubs:
        stub.activate()
    return (dynamodb, lambda_, quotas, sesv2), stubs


def test_dev_deploys_on_a_new_accounts_default_quotas(capsys):
    clients, stubs = _clients()
    stages = {"dev": {"throttle": {"rate": 5_000, "burst": 2_000}}}
    config = preflight.StageConfig.load("dev", stages, REPO)
    found = preflight.checks(config, *clients)
    assert all(c.ok for c in found), [str(c) for c in found]
    for stub in stubs:
        stub.assert_no_pending_responses()


@pytest.fixture
def own_stages(tmp_path):
    """The repository's stages with its placeholder domain replaced by a real-looking one."""
    text = (REPO / "infra" / "stages.json").read_text().replace("wordsqd.example.com", "wordsqd.games")
    path = tmp_path / "stages.json"
    path.write_text(text)
    return path


@pytest.mark.parametrize("stage", ["dev", "staging"])
def test_the_repository_dev_and_staging_stages_fit_a_new_accounts_default_quotas(stage, own_stages, capsys):
    clients, _ = _clients()
    assert preflight.main(["--stage", stage, "--stages-file", str(own_stages)], clients) == 0, (
        capsys.readouterr()
    )
    assert "Cognito sends its own mail" in capsys.readouterr().out


def test_prod_on_default_quotas_names_every_raise_before_the_deploy(own_stages, capsys):
    clients, _ = _clients(ses="wordsqd.games")
    assert preflight.main(["--stage", "prod", "--stages-file", str(own_stages)], clients) == 1
    out = capsys.readouterr().out
    raises = [line for line in out.splitlines() if "RAISE" in line]
    # The table's 90,000 write units/s of warm throughput, 2,300 provisioned + reserved, and the
    # API's 60,000/s and burst 30,000; reads (35,000) fit the default 40,000. Its planned rush (a
    # million players) meets the same three: its API requests, environments and table writes.
    assert len(raises) == 7, out
    assert (
        "write units/s (the table's and each index's warm throughput): quota 40,000, stage needs 90,000"
        in out
    )
    assert f"stage needs {RESERVED + 2_300 + 100:,}" in out
    assert "Throttle rate" in out and "7 to raise or fix" in out
    assert "the table's write units/s (its warm throughput, within the per-table quota): quota 40,000" in out
    assert "by hand: CloudFront" in out


def test_prod_after_the_raises_has_nothing_to_raise(own_stages, capsys):
    clients, _ = _clients(table=100_000, concurrency=5_000, rate=60_000, burst=30_000, ses="wordsqd.games")
    assert preflight.main(["--stage", "prod", "--stages-file", str(own_stages)], clients) == 0
    assert "Nothing to raise." in capsys.readouterr().out


@pytest.mark.parametrize("verified, sandbox", [(False, False), (True, True)])
def test_an_unverified_ses_identity_or_the_sandbox_stops_the_deploy(own_stages, capsys, verified, sandbox):
    """Cognito refuses a user pool on an unverified identity; in the sandbox mail reaches no player."""
    clients, _ = _clients(
        table=100_000,
        concurrency=5_000,
        rate=60_000,
        burst=30_000,
        ses="wordsqd.games",
        verified=verified,
        sandbox=sandbox,
    )
    assert preflight.main(["--stage", "prod", "--stages-file", str(own_stages)], clients) == 1
    [fix] = [line for line in capsys.readouterr().out.splitlines() if "FIX" in line]
    assert ("sandbox" in fix) == sandbox and ("verified for sending" in fix) == (not verified)


@pytest.mark.parametrize(
    "stage, field",
    [("prod", "allowed_origins[0] = 'https://wordsqd.example.com'"), ("staging", "alarm_emails[0]")],
)
def test_the_repository_placeholders_are_refused_by_field_before_anything_is_asked(stage, field, capsys):
    """`make deploy` runs preflight first: a sample value never reaches CloudFormation."""
    assert preflight.main(["--stage", stage], clients=()) == 1
    err = capsys.readouterr().err
    assert field in err and err.count("\n") == 1, err
    if stage == "prod":
        assert "ses.identity = 'wordsqd.example.com'" in err


def test_placeholders_are_named_wherever_they_sit():
    entry = {"ses": {"from_email": "no-reply@mail.example.org"}, "allowed_origins": ["https://play.games"]}
    assert preflight.placeholders(entry) == ["ses.from_email = 'no-reply@mail.example.org'"]
    assert preflight.placeholders({"alarm_emails": ["me@examples.com", "a@b.test"]}) == [
        "alarm_emails[1] = 'a@b.test'"
    ]


def test_without_credentials_preflight_says_so_in_one_line(monkeypatch, capsys):
    for variable in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/config")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.delenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", raising=False)
    monkeypatch.delenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", raising=False)
    assert preflight.main(["--stage", "dev"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("preflight: no AWS credentials") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err and captured.out == ""


def test_a_quota_service_quotas_does_not_list_is_flagged_to_check_by_hand(capsys):
    clients, _ = _clients(listed=False)
    config = preflight.StageConfig.load("dev", {"dev": {}}, REPO)
    unlisted = [c for c in preflight.checks(config, *clients) if "not listed" in c.what]
    assert len(unlisted) == 2 and not any(c.ok for c in unlisted)


def test_an_index_warmed_above_the_table_quota_needs_the_raise_too():
    clients, _ = _clients()
    stages = {"dev": {"warm_throughput": {"indexes": {"due": {"write_units_per_second": 45_000}}}}}
    config = preflight.StageConfig.load("dev", stages, REPO)
    [write] = [
        c for c in preflight.dynamodb_checks(config, clients[0].describe_limits()) if "write" in c.what
    ]
    assert (write.need, write.ok) == (45_000, False)


def test_the_planned_rush_is_checked_quota_by_quota_at_its_top(own_stages, tmp_path, capsys):
    """Prod planned for ten million players on prod's raised quotas: what its settings and the
    board's shards cannot take is named, each with the figure of the rush's top."""
    stages = json.loads(own_stages.read_text())
    stages["prod"]["rush_players"] = 10_000_000
    path = tmp_path / "ten-million.json"
    path.write_text(json.dumps(stages))
    clients, _ = _clients(table=100_000, concurrency=5_000, rate=60_000, burst=30_000, ses="wordsqd.games")
    assert preflight.main(["--stage", "prod", "--stages-file", str(path)], clients) == 1
    rush = [line for line in capsys.readouterr().out.splitlines() if "rush of 10,000,000" in line]
    raised = {line.split(": ", 1)[1].split(":")[0] for line in rush if line.strip().startswith("RAISE")}
    assert raised == {
        "API requests/s, under the stage's throttle and the account's",
        "Lambda environments busy, besides the reserved and the 100 unreserved",
        "daily's midnight provisioned concurrency (else Lambda ramps at 1,000 a 10 s)",
        "leaderboard's midnight provisioned concurrency (else Lambda ramps at 1,000 a 10 s)",
        "the table's write units/s (its warm throughput, within the per-table quota)",
        "the table's read units/s (its warm throughput, within the per-table quota)",
        "the `board` index's write units/s (its warm throughput)",
        "the `history` index's write units/s (its warm throughput)",
        "the `due` index's write units/s (its warm throughput)",
        "the `runs` index's write units/s (its warm throughput)",
        "board completions/s (32 board shards)",
        "completions/s the `due` index's partitions take (64, two entries a run)",
    }
    assert any("quota 60,000, stage needs 433,333" in line for line in rush)  # 13 requests a run
    assert any("quota 29,000, stage needs 33,333" in line for line in rush)
    assert any("quota 32,000, stage needs 33,333" in line for line in rush)


def test_the_rush_figures_follow_the_measured_figures_of_a_run():
    peak = rush_plan.Peak(1_000_000)
    assert round(peak.runs) == 3_333  # 1,667 runs/s on average, twice that at the top
    assert round(peak.api_requests) == 43_333  # 11 requests on daily, 2 on leaderboard
    assert peak.concurrency == {"daily": 1_834, "leaderboard": 334}  # 50 ms each
    assert round(peak.table_writes) == 85_000 and round(peak.table_reads) == 25_000
    assert peak.ramp_seconds({"daily": 1_900, "leaderboard": 400}) == 0
    assert rush_plan.Peak(10_000_000).ramp_seconds({"daily": 1_900, "leaderboard": 400}) == 170


def test_the_board_completions_bound_follows_the_stages_board_shards():
    """Ten million players' top (33,333 completions/s) is above 32 shards' bound and within 37's."""
    limits = {"TableMaxReadCapacityUnits": 40_000, "TableMaxWriteCapacityUnits": 40_000}
    bounds = {}
    for shards in (32, 37):
        stages = {"dev": {"rush_players": 10_000_000, "board_shards": shards}}
        config = preflight.StageConfig.load("dev", stages, REPO)
        found = preflight.rush_checks(config, limits, 5_000, {"rate": 10_000, "burst": 5_000})
        [board] = [c for c in found if "board completions/s" in c.what]
        bounds[shards] = (board.have, board.ok)
        assert f"({shards} board shards)" in board.what
    assert bounds == {32: (29_000, False), 37: (33_531, True)}


def test_rush_plan_prints_the_bounds_of_the_stages_board_shards_and_of_the_due_shards(tmp_path, capsys):
    """rush_plan reads the stage as preflight does (one reader): its board bound follows the
    stage's `board_shards`, the `due` index's keys.DUE_SHARDS (67 would take ten million's top)."""
    assert preflight.load_stage is rush_plan.load_stage
    stages = tmp_path / "stages.json"
    for shards, bound in ((32, "29,000"), (37, "33,531")):
        stages.write_text(json.dumps({"dev": {"board_shards": shards}}))
        assert rush_plan.main(["--players", "10000000", "--stages-file", str(stages)]) == 0
        lines = capsys.readouterr().out.splitlines()
        [board] = [line for line in lines if line.startswith("board completions/s")]
        assert f"(bound {bound}: {shards} shards, dev)" in board and board.endswith("33,333")
    [due] = [line for line in lines if line.startswith("`due` completions/s")]
    assert f"(bound {rush_plan.due_completions_bound(DUE_SHARDS):,}: {DUE_SHARDS} partitions)" in due
    assert rush_plan.due_completions_bound(64) == 32_000 and rush_plan.due_completions_bound(67) == 33_500


def test_a_stage_refuses_a_board_shard_count_outside_its_bounds():
    for shards in (0, 257):
        with pytest.raises(ConfigError, match="board_shards"):
            preflight.StageConfig.load("dev", {"dev": {"board_shards": shards}}, REPO)
