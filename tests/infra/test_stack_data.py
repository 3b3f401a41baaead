"""The table and the puzzle seed: built from shared.table, protected in prod only."""

import pytest
from aws_cdk.assertions import Match

from shared.table import INDEXES, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def test_table_is_on_demand_with_point_in_time_recovery_and_ttl(dev):
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
        },
    )


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
    for index in table["Properties"]["GlobalSecondaryIndexes"]:
        assert [k["KeyType"] for k in index["KeySchema"]] == ["HASH", "RANGE"]
    # Every key attribute is a string, as create_table_request declares them for `make run`.
    attributes = {a["AttributeName"]: a["AttributeType"] for a in table["Properties"]["AttributeDefinitions"]}
    expected = {PARTITION_KEY, SORT_KEY} | {a for pk, sk, _ in INDEXES.values() for a in (pk, sk)}
    assert attributes == dict.fromkeys(expected, "S")


def test_prod_retains_and_protects_its_data(prod):
    prod.template.has_resource(
        "AWS::DynamoDB::Table",
        {
            "DeletionPolicy": "Retain",
            "UpdateReplacePolicy": "Retain",
            "Properties": Match.object_like({"DeletionProtectionEnabled": True}),
        },
    )
    prod.template.has_resource(
        "AWS::Cognito::UserPool",
        {"DeletionPolicy": "Retain", "Properties": Match.object_like({"DeletionProtection": "ACTIVE"})},
    )
    prod.template.has_resource("AWS::SecretsManager::Secret", {"DeletionPolicy": "Retain"})


def test_dev_can_be_torn_down(dev):
    dev.template.has_resource(
        "AWS::DynamoDB::Table",
        {
            "DeletionPolicy": "Delete",
            "Properties": Match.object_like({"DeletionProtectionEnabled": False}),
        },
    )
    dev.template.has_resource("AWS::Cognito::UserPool", {"DeletionPolicy": "Delete"})
    dev.template.has_resource("AWS::SecretsManager::Secret", {"DeletionPolicy": "Delete"})


def test_puzzle_seed_is_generated_at_deploy_time_not_written_in_the_template(dev):
    _, secret = dev.only("AWS::SecretsManager::Secret")
    assert "SecretString" not in secret["Properties"]
    assert secret["Properties"]["GenerateSecretString"]["PasswordLength"] >= 32
