"""The game's state: the one DynamoDB table and the secret puzzle seed."""

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

from infra.checks import acknowledge
from shared.table import INDEXES, PARTITION_KEY, PROJECTED, SORT_KEY, TTL_ATTRIBUTE


def _string_key(name: str) -> dynamodb.Attribute:
    # Every key attribute is a string, as in shared.table.create_table_request (used locally).
    return dynamodb.Attribute(name=name, type=dynamodb.AttributeType.STRING)


class Data(Construct):
    """The table, built from shared.table so that `make run` and AWS cannot drift apart."""

    def __init__(self, scope: Construct, id: str, *, production: bool) -> None:
        super().__init__(scope, id)
        # Production keeps its data when the stack or a resource is deleted; dev stacks clean up.
        removal = RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY

        self.table = dynamodb.Table(
            self,
            "Table",
            partition_key=_string_key(PARTITION_KEY),
            sort_key=_string_key(SORT_KEY),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            time_to_live_attribute=TTL_ATTRIBUTE,
            deletion_protection=production,
            removal_policy=removal,
        )
        for name, (pk, sk, projection) in INDEXES.items():
            self.table.add_global_secondary_index(
                index_name=name,
                partition_key=_string_key(pk),
                sort_key=_string_key(sk),
                projection_type=dynamodb.ProjectionType[projection],
                non_key_attributes=list(PROJECTED[name]) if projection == "INCLUDE" else None,
            )

        # The seed makes puzzles unpredictable from the source code (SPEC §3); a key derived from
        # it also signs board cursors. Generated at deploy time, never written in the template.
        self.puzzle_seed = secretsmanager.Secret(
            self,
            "PuzzleSeed",
            description="WordSQD puzzle seed: changing it changes every puzzle not yet stored",
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=64, exclude_punctuation=True
            ),
            removal_policy=removal,
        )
        acknowledge(
            self.puzzle_seed,
            "AwsSolutions-SMG4",
            "Rotated by hand (docs/operations.md): a new seed changes all future puzzles.",
        )
