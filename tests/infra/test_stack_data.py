"""The table and the secrets: built from shared.dynamo.table; production (a flag, whatever the stage is
called) retains the table, the secrets, the dead-letter queues and the logs."""

import pytest
from aws_cdk.assertions import Match

from shared.dynamo.table import INDEXES, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE, create_table_request

pytestmark = pytest.mark.infra  # synthesizes the CDK app

KEPT_IN_PRODUCTION = [
    "AWS::DynamoDB::Table",
    "AWS::SecretsManager::Secret",
    "AWS::SQS::Queue",
    "AWS::Logs::LogGroup",
    "AWS::Cognito::UserPool",
]


def test_table_is_on_demand_with_point_in_time_recovery_ttl_and_a_stream(dev):
    dev.template.resource_count_is("AWS::DynamoDB::Table", 1)
    dev.template.has_resource_properties(
        "AWS::DynamoDB::Table",
        {
            "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [
                {"AttributeName": PARTITION_KEY, "KeyType": "HASH"},
                {"AttributeName": SORT_KEY, "KeyType": "RANGE"},
            ],
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
            "TimeToLiveSpecification": {"AttributeName": TTL_ATTRIBUTE, "Enabled": True},
            "StreamSpecification": {"StreamViewType": "NEW_IMAGE"},
        },
    )


def test_the_table_and_each_index_are_warmed_as_the_stage_says(prod, dev):
    """An index absorbs its own writes: a table warmed for the rush behind a cold index still
    throttles (GSI back-pressure). Unset, each gets what every on-demand table has anyway."""
    _, table = prod.only("AWS::DynamoDB::Table")
    assert table["Properties"]["WarmThroughput"] == {
        "ReadUnitsPerSecond": 30000,
        "WriteUnitsPerSecond": 60000,
    }
    indexes = {i["IndexName"]: i["WarmThroughput"] for i in table["Properties"]["GlobalSecondaryIndexes"]}
    assert indexes == {
        "board": {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000},
        "history": {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000},
        "due": {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 10000},
        "runs": {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000},  # one entry per run started
    }
    _, dev_table = dev.only("AWS::DynamoDB::Table")
    assert dev_table["Properties"]["WarmThroughput"] == {
        "ReadUnitsPerSecond": 12000,
        "WriteUnitsPerSecond": 4000,
    }


def test_indexes_are_exactly_shared_table_indexes(dev):
    _, table = dev.only("AWS::DynamoDB::Table")
    found = {
        index["IndexName"]: (
            index["KeySchema"][0]["AttributeName"],
            index["KeySchema"][1]["AttributeName"],
            index["Projection"]["ProjectionType"],
        )
        for index in table["Properties"]["GlobalSecondaryIndexes"]
    }
    assert found == INDEXES
    attributes = {a["AttributeName"]: a["AttributeType"] for a in table["Properties"]["AttributeDefinitions"]}
    expected = {PARTITION_KEY, SORT_KEY} | {a for pk, sk, _ in INDEXES.values() for a in (pk, sk)}
    assert attributes == dict.fromkeys(expected, "S")


def test_table_indexes_and_attributes_agree_with_the_local_create_table_request(dev):
    """The stack's table and the one `make run` and the tests create (shared.dynamo.table
    create_table_request) have the same keys, indexes, projections and key attributes."""
    _, table = dev.only("AWS::DynamoDB::Table")
    props = table["Properties"]
    local = create_table_request("any")
    assert props["KeySchema"] == local["KeySchema"]

    def indexes(gsis):
        return {
            g["IndexName"]: (
                g["KeySchema"],
                g["Projection"]["ProjectionType"],
                sorted(g["Projection"].get("NonKeyAttributes", [])),
            )
            for g in gsis
        }

    assert indexes(props["GlobalSecondaryIndexes"]) == indexes(local["GlobalSecondaryIndexes"])
    attributes = sorted(props["AttributeDefinitions"], key=lambda a: a["AttributeName"])
    assert attributes == sorted(local["AttributeDefinitions"], key=lambda a: a["AttributeName"])
    if "StreamSpecification" in local:  # the local table has a stream once the counters need it
        assert (
            props["StreamSpecification"]["StreamViewType"] == local["StreamSpecification"]["StreamViewType"]
        )


def test_production_is_a_flag_not_a_stage_name(prod):
    assert prod.config.stage == "live" and prod.config.production


@pytest.mark.parametrize("type_", KEPT_IN_PRODUCTION)
def test_production_retains_its_data_queues_and_logs(prod, type_):
    resources = prod.resources(type_)
    assert resources
    for logical_id, resource in resources.items():
        assert resource["DeletionPolicy"] == "Retain", logical_id
        assert resource["UpdateReplacePolicy"] == "Retain", logical_id


def test_production_protects_table_and_user_pool(prod):
    prod.template.has_resource_properties("AWS::DynamoDB::Table", {"DeletionProtectionEnabled": True})
    prod.template.has_resource_properties("AWS::Cognito::UserPool", {"DeletionProtection": "ACTIVE"})


@pytest.mark.parametrize("type_", KEPT_IN_PRODUCTION)
def test_dev_can_be_torn_down(dev, type_):
    for logical_id, resource in dev.resources(type_).items():
        assert resource["DeletionPolicy"] == "Delete", logical_id
    dev.template.has_resource_properties(
        "AWS::DynamoDB::Table", Match.object_like({"DeletionProtectionEnabled": False})
    )


def test_secrets_are_generated_at_deploy_time_not_written_in_the_template(dev):
    secrets = dev.resources("AWS::SecretsManager::Secret")
    names = ("PuzzleSeed", "CursorKey", "OriginSecret", "VapidKey")  # one each
    assert sorted(tuple(name in k for name in names) for k in secrets) == sorted(
        tuple(name == other for name in names) for other in names
    )
    for secret in secrets.values():
        assert "SecretString" not in secret["Properties"]
        assert secret["Properties"]["GenerateSecretString"]["PasswordLength"] >= 32


def test_stacks_are_pinned_to_their_region_and_without_credentials_a_placeholder_account(synth):
    """A stack's environment lands in the manifest, not the template: the stage's region, and an
    account from `-c account` or the caller's credentials; the tests pass neither, so they get the
    synth-only placeholder, which no credentials can deploy to. No stack is environment-agnostic,
    because the us-east-1 stacks are referenced across regions."""
    import json

    from infra.edge import SYNTH_ONLY_ACCOUNT

    manifest = json.loads((synth.outdir / "manifest.json").read_text())
    assert manifest["artifacts"]["WordSQD-live"]["environment"] == f"aws://{SYNTH_ONLY_ACCOUNT}/eu-west-1"
    assert manifest["artifacts"]["WordSQD-dev"]["environment"] == f"aws://{SYNTH_ONLY_ACCOUNT}/us-east-1"
    for stage in ("live", "dev"):
        for edge in ("EdgeSecurity", "EdgeAlarms"):
            environment = manifest["artifacts"][f"WordSQD-{stage}-{edge}"]["environment"]
            assert environment == f"aws://{SYNTH_ONLY_ACCOUNT}/us-east-1"


def test_a_restored_table_replaces_the_stacks_own(config_from, tmp_path):
    """Point-in-time recovery restores into a new table: with `restored_table` in the stage config
    the stack serves from it (functions, grants, stream, alarms) and creates no table of its own."""
    from aws_cdk import App
    from aws_cdk.assertions import Template

    from infra.config import feature_flags
    from infra.functions import FUNCTIONS, lambda_handler
    from infra.stack import WordSQDStack

    stream = "arn:aws:dynamodb:us-east-1:123456789012:table/wordsqd-restored/stream/2026-11-30T00:00:00.000"
    stages = {"dev": {"restored_table": {"name": "wordsqd-restored", "stream_arn": stream}}}
    (tmp_path / "asset").mkdir()
    config = config_from({"asset_dir": str(tmp_path / "asset")}, stages, tmp_path)
    template = Template.from_stack(WordSQDStack(App(context=feature_flags()), config)).to_json()
    resources = template["Resources"].values()
    assert not [r for r in resources if r["Type"] == "AWS::DynamoDB::Table"]
    # Our ten functions (CDK's own, e.g. the web client's BucketDeployment, have no environment).
    handlers = {lambda_handler(spec.handler) for spec in FUNCTIONS.values()}
    functions = [
        r["Properties"]
        for r in resources
        if r["Type"] == "AWS::Lambda::Function" and r["Properties"].get("Handler") in handlers
    ]
    assert len(functions) == len(FUNCTIONS)
    assert {f["Environment"]["Variables"].get("TABLE_NAME") for f in functions} == {"wordsqd-restored", None}
    [mapping] = [  # the stream's (the closing pass's queue has its own: infra/closing.py)
        r["Properties"]
        for r in resources
        if r["Type"] == "AWS::Lambda::EventSourceMapping" and "StartingPosition" in r["Properties"]
    ]
    assert mapping["EventSourceArn"] == stream
    assert "wordsqd-restored" in str([r for r in resources if r["Type"] == "AWS::IAM::Policy"])
    assert "wordsqd-restored" in str([r for r in resources if r["Type"] == "AWS::CloudWatch::Alarm"])
