"""The game's state: the one DynamoDB table (with its stream) and the two secrets: the puzzle seed
and the cursor-signing key."""

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

from infra.checks import acknowledge
from infra.config import RestoredTable, TableWarmThroughput, WarmThroughput
from shared.dynamo.table import INDEXES, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE, create_table_request


def _string_key(name: str) -> dynamodb.Attribute:
    # Every key attribute is a string, as in shared.dynamo.table.create_table_request (used locally).
    return dynamodb.Attribute(name=name, type=dynamodb.AttributeType.STRING)


def _warm(warm: WarmThroughput) -> dynamodb.WarmThroughput:
    return dynamodb.WarmThroughput(
        read_units_per_second=warm.read_units_per_second, write_units_per_second=warm.write_units_per_second
    )


class Data(Construct):
    """The table, built from shared.dynamo.table so that `make run` and AWS cannot drift apart."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        production: bool,
        restored: RestoredTable | None = None,
        warm: TableWarmThroughput,
    ) -> None:
        super().__init__(scope, id)
        # Production keeps its data when the stack or a resource is deleted; dev stacks clean up.
        removal = RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY

        self.table: dynamodb.ITable
        if restored:
            # After a point-in-time restore (a new table, docs/operations.md): the stack's own
            # table, retained, leaves the template; the restored one serves instead.
            self.table = dynamodb.Table.from_table_attributes(
                self,
                "Table",
                table_name=restored.name,
                table_stream_arn=restored.stream_arn,
                global_indexes=list(INDEXES),
            )
        else:
            self.table = self._table(production, removal, warm)
        self._secrets(removal)

    def _table(self, production: bool, removal: RemovalPolicy, warm: TableWarmThroughput) -> dynamodb.Table:
        table = dynamodb.Table(
            self,
            "Table",
            partition_key=_string_key(PARTITION_KEY),
            sort_key=_string_key(SORT_KEY),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            time_to_live_attribute=TTL_ATTRIBUTE,
            # The rank counters are kept by a consumer of new items (infra/functions.py `counters`).
            stream=dynamodb.StreamViewType.NEW_IMAGE,
            deletion_protection=production,
            removal_policy=removal,
            # Ready for the midnight rush from the first night (docs/operations.md, "Midnight capacity").
            warm_throughput=_warm(warm.table),
            # Which keys are throttled (a hot key names itself): CloudWatch Contributor Insights.
            contributor_insights_specification=dynamodb.ContributorInsightsSpecification(
                enabled=True, mode=dynamodb.ContributorInsightsMode.THROTTLED_KEYS
            ),
        )
        # The indexes exactly as the local table is created (keys, projection, projected attributes).
        for index in create_table_request("unused")["GlobalSecondaryIndexes"]:
            keys = {k["KeyType"]: k["AttributeName"] for k in index["KeySchema"]}
            projection = index["Projection"]
            table.add_global_secondary_index(
                index_name=index["IndexName"],
                partition_key=_string_key(keys["HASH"]),
                sort_key=_string_key(keys["RANGE"]),
                projection_type=dynamodb.ProjectionType[projection["ProjectionType"]],
                non_key_attributes=projection.get("NonKeyAttributes"),
                # An index absorbs its own writes: warmed apart from the table (infra/config.py).
                warm_throughput=_warm(warm.index(index["IndexName"])),
            )
        return table

    def _secrets(self, removal: RemovalPolicy) -> None:
        def secret(id: str, description: str, length: int, not_rotated: str) -> secretsmanager.Secret:
            """A secret generated at deploy time, never written in the template; not rotated by
            Secrets Manager (cdk-nag SMG4), for the reason NOT_ROTATED."""
            made = secretsmanager.Secret(
                self,
                id,
                description=description,
                generate_secret_string=secretsmanager.SecretStringGenerator(
                    password_length=length, exclude_punctuation=True
                ),
                removal_policy=removal,
            )
            acknowledge(made, "AwsSolutions-SMG4", not_rotated)
            return made

        # The seed makes puzzles unpredictable from the source code (SPEC §3); only the functions
        # that make puzzles read it.
        self.puzzle_seed = secret(
            "PuzzleSeed",
            "WordSQD puzzle seed: changing it changes every puzzle not yet stored",
            64,
            "Rotated by hand (docs/operations.md): a new seed changes all future puzzles.",
        )
        # Board cursors are signed with a key of their own, so the function that serves boards
        # (public, the most exposed) never holds the seed of every future Daily. Rotation keeps the
        # previous version readable for a grace period (docs/operations.md).
        self.cursor_key = secret(
            "CursorKey",
            "WordSQD board-cursor signing key (AWSPREVIOUS stays valid after a rotation)",
            64,
            "Rotated by hand with a grace period for cursors in flight (docs/operations.md).",
        )
        # The edge's proof to the API that a request came through CloudFront (and WAF): CloudFront
        # sends it as a header, the API functions compare it (shared/http/routes.py ORIGIN_HEADER).
        self.origin_secret = secret(
            "OriginSecret",
            "WordSQD: the header CloudFront sends the API, which refuses requests without it",
            48,
            "Changed by hand with a deploy (docs/edge.md); it guards against skipping WAF, not data.",
        )
