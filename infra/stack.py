"""One WordSQD deployment: a stage's table, functions, API, schedule, operations and edge.

The edge's web ACL lives in a second stack in us-east-1 (infra.edge_waf), created beside this
one; both have an explicit account and region (infra.edge.synth_env), and no lookups, so they
synthesize without credentials.
"""

from aws_cdk import CfnOutput, RemovalPolicy, Stack, Tags
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.api import Api
from infra.checks import acknowledge
from infra.config import StageConfig
from infra.data import Data
from infra.edge import Edge, synth_env
from infra.edge_waf import EdgeSecurityStack, security_stack_name
from infra.functions import Functions
from infra.operations import Operations
from infra.schedule import ResetSchedule


class WordSQDStack(Stack):
    def __init__(self, scope: Construct, config: StageConfig) -> None:
        env = synth_env(config, scope.node)
        self.edge_security = EdgeSecurityStack(
            scope,
            security_stack_name(config.stack_name),
            stage=config.stage,
            account=env.account,
            production=config.production,
        )
        super().__init__(
            scope,
            config.stack_name,
            description=f"WordSQD word game backend ({config.stage})",
            env=env,
            cross_region_references=True,  # the web ACL's ARN, from us-east-1
        )
        Tags.of(self).add("app", "wordsqd")
        Tags.of(self).add("stage", config.stage)

        production = config.production
        log_retention = logs.RetentionDays.ONE_MONTH if production else logs.RetentionDays.ONE_WEEK
        log_removal = RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY

        self.data = Data(self, "Data", production=production)
        self.functions = Functions(
            self,
            "Functions",
            data=self.data,
            asset_dir=config.asset_dir,
            log_retention=log_retention,
            log_removal=log_removal,
        )
        self.api = Api(
            self,
            "Api",
            stage=config.stage,
            production=production,
            functions={name: fn for name, fn in self.functions.by_name.items() if name != "reset"},
            allowed_origins=config.allowed_origins,
            throttle_rate=config.throttle_rate,
            throttle_burst=config.throttle_burst,
            log_retention=log_retention,
            log_removal=log_removal,
        )
        self.edge = Edge(
            self,
            "Edge",
            api=self.api.api,
            user_pool=self.api.user_pool,
            client=self.api.client,
            hosted_ui=self.api.domain,
            web_acl_arn=self.edge_security.web_acl_arn,
        )
        self.api.allow_sign_in_from(self.edge.url)
        self.schedule = ResetSchedule(self, "Schedule", reset=self.functions.reset)
        self.operations = Operations(
            self,
            "Operations",
            stage=config.stage,
            api=self.api.api,
            functions=self.functions.by_name,
            table=self.data.table,
            dead_letters=self.schedule.dead_letters,
            alarm_topic_arn=config.alarm_topic_arn,
        )
        self._acknowledge_iam_findings()

        outputs = {
            "ApiUrl": (self.api.url, "Base URL of the HTTP API"),
            "UserPoolId": (self.api.user_pool.user_pool_id, "Cognito user pool id"),
            "UserPoolClientId": (self.api.client.user_pool_client_id, "Cognito web client id"),
            "TableName": (self.data.table.table_name, "DynamoDB table"),
            "PuzzleSeedSecretArn": (self.data.puzzle_seed.secret_arn, "Secret puzzle seed"),
            "ResetFunctionName": (self.functions.reset.function_name, "The reset job"),
            "ResetDeadLetterQueueUrl": (self.schedule.dead_letters.queue_url, "Failed resets"),
            "DashboardName": (self.operations.dashboard.dashboard_name, "CloudWatch dashboard"),
        }
        for name, (value, description) in outputs.items():
            CfnOutput(self, name, value=value, description=description)

    def _acknowledge_iam_findings(self) -> None:
        """The wildcards left in the functions' policies, each with why it cannot be narrower."""
        table_arn = self.resolve(self.data.table.table_arn)["Fn::GetAtt"][0]
        for name, function in self.functions.by_name.items():
            role = function.role
            acknowledge(
                role,
                "AwsSolutions-IAM5[Resource::*]",
                "X-Ray PutTraceSegments/PutTelemetryRecords support no resource scoping.",
            )
            if name != "validate":
                acknowledge(
                    role,
                    f"AwsSolutions-IAM5[Resource::<{table_arn}.Arn>/index/*]",
                    "Queries the table's own GSIs (board, history, active), nothing else.",
                )
