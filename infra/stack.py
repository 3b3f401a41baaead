"""One WordSQD deployment: a stage's table, functions, API, jobs, operations, safe deploys and edge.

The stage's region comes from infra/stages.json, its account from `-c account` or the caller's
credentials (infra.edge.synth_env; a synth-only placeholder without either); the edge's web ACL
lives in a second stack in us-east-1 (infra.edge_waf), created before this one, and CloudFront's
alarms in a third (infra.edge_alarms), after it. Nothing looks anything up, so it synthesizes
without credentials.
"""

from aws_cdk import CfnOutput, Duration, RemovalPolicy, Stack, Tags
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.alarm_parts import PERIOD
from infra.api import Api
from infra.capacity import MidnightCapacityPlan
from infra.closing import closing_pieces
from infra.config import MidnightCapacity, StageConfig
from infra.data import Data
from infra.deploys import Deploys
from infra.edge import Edge, synth_env
from infra.edge_alarms import EdgeAlarmsStack, edge_alarms_stack_name
from infra.edge_waf import EdgeSecurityStack, security_stack_name
from infra.functions import API_FUNCTIONS, Functions
from infra.guard import EMERGENCY_MEANING, MidnightGuard
from infra.moderation_alarms import queue_alarms
from infra.money import Money
from infra.operations import Operations
from infra.ops_functions import LogPolicy
from infra.outside import Outside
from infra.permissions import ACCESS
from infra.reminders import Reminders
from infra.route_alarms import function_5xx_alarms
from infra.schedule import Jobs
from infra.switches import KillSwitches
from infra.watch import Watch
from shared.runtime.edge_settings import ORIGIN_SECRET_VARIABLE
from shared.runtime.settings import ENVIRONMENT


class WordSQDStack(Stack):
    def __init__(self, scope: Construct, config: StageConfig) -> None:
        env = synth_env(config, scope.node)
        # The capacity window, or the default one around the rush for a stage without capacity.
        window = config.midnight_capacity or MidnightCapacity(functions={})
        self.edge_security = EdgeSecurityStack(
            scope,
            security_stack_name(config.stack_name),
            stage=config.stage,
            account=env.account,
            production=config.production,
            window=window,
            alarm_emails=config.alarm_emails,
        )
        scope_for_edge_alarms = scope
        super().__init__(
            scope,
            config.stack_name,
            description=f"WordSQD word game backend ({config.stage})",
            env=env,
            cross_region_references=True,  # the web ACL's ARN, from us-east-1
            termination_protection=config.production,
        )
        Tags.of(self).add("app", "wordsqd")
        Tags.of(self).add("stage", config.stage)

        # Production (by its flag, whatever the stage is called) keeps its data and its records.
        production = config.production
        log_retention = logs.RetentionDays.ONE_YEAR if production else logs.RetentionDays.ONE_WEEK
        log_removal = RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY

        ops_logs = LogPolicy(log_retention, log_removal)
        self.guard = MidnightGuard(self, "MidnightGuard", window=window, logs_=ops_logs)
        self.data = Data(
            self,
            "Data",
            production=production,
            restored=config.restored_table,
            warm=config.warm_throughput,
        )
        self.functions = Functions(
            self,
            "Functions",
            data=self.data,
            asset_dir=config.asset_dir,
            log_retention=log_retention,
            log_removal=log_removal,
        )
        aliases = self.functions.aliases
        # The API functions refuse requests that did not come through the edge (docs/edge.md).
        # The value is a dynamic reference, resolved at deploy: the template never holds it.
        for name in API_FUNCTIONS:
            self.functions.by_name[name].add_environment(
                ORIGIN_SECRET_VARIABLE, self.data.origin_secret.secret_value.unsafe_unwrap()
            )
        self.api = Api(
            self,
            "Api",
            stage=config.stage,
            production=production,
            functions={name: aliases[name] for name in API_FUNCTIONS},
            allowed_origins=config.allowed_origins,
            throttle=config.throttle,
            route_throttles=config.route_throttles,
            log_retention=log_retention,
            log_removal=log_removal,
            ses=config.ses,
            self_sign_up=config.self_sign_up,
            cognito_plan=config.cognito_plan,
        )
        # Every function on the table writes board rows to, or reads boards from, the stage's shards.
        for name, access in ACCESS.items():
            if access.table:
                self.functions.by_name[name].add_environment(
                    ENVIRONMENT["board_shards"], str(config.board_shards)
                )
        # The functions that act on the pool's users (DELETE /me deletes the caller's) may do so on
        # this pool alone, with the actions infra/permissions.py names.
        for name, access in ACCESS.items():
            if access.user_pool:
                function = self.functions.by_name[name]
                function.add_environment(ENVIRONMENT["user_pool_id"], self.api.user_pool.user_pool_id)
                self.api.user_pool.grant(function, *access.user_pool)
        if config.first_daily_date:  # past Dailies are played from it on (docs/players.md)
            self.functions.by_name["daily"].add_environment(
                ENVIRONMENT["first_daily_date"], config.first_daily_date.isoformat()
            )
        self.jobs = Jobs(
            self,
            "Jobs",
            reset=aliases["reset"],
            expire=aliases["expire"],
            counters=aliases["counters"],
            table=self.data.table,
            production=production,
        )
        self.edge = Edge(
            self,
            "Edge",
            api=self.api.api,
            user_pool=self.api.user_pool,
            client=self.api.client,
            hosted_ui=self.api.domain,
            web_acl_arn=self.edge_security.web_acl_arn,
            origin_secret=self.data.origin_secret,
            log_retention=log_retention,
            log_removal=log_removal,
        )
        self.api.allow_sign_in_from(self.edge.url)
        self.operations = Operations(
            self,
            "Operations",
            stage=config.stage,
            api=self.api.api,
            access_logs=self.api.access_logs,
            functions=self.functions.by_name,
            aliases=aliases,
            table=self.data.table,
            stream_mapping_id=self.jobs.stream_source.event_source_mapping_id,
            dead_letters=self.jobs.dead_letters,
            counter_failures=self.jobs.counter_failures,
            alarm_emails=config.alarm_emails,
        )
        function_5xx_alarms(
            self.operations,
            stage=config.stage,
            access_logs=self.api.access_logs,
            functions=API_FUNCTIONS,
            alarm=self.operations.alarm,
        )
        # Reminders (SPEC §4a): the schedule, the queue and the VAPID key (infra/reminders.py).
        self.reminders = Reminders(self, "Reminders", functions=self.functions, production=production)
        self.operations.alarm(
            "ReminderDeadLetters",
            self.reminders.dead_letters.metric_approximate_number_of_messages_visible(
                period=Duration.minutes(5)
            ),
            1,
            "Reminder scans or batches failed after their retries: reminders were not sent.",
        )
        self.deploys = Deploys(
            self,
            "Deploys",
            stage=config.stage,
            aliases=aliases,
            alarms=self.operations.function_alarms,
            topic=self.operations.topic,
            logs_=ops_logs,
        )
        queue_alarms(self.operations.alarm)  # the review queue's (infra/moderation_alarms.py)
        # The canary alarms watch each new version; an alias shifts only once they do.
        for name, alarms in self.operations.function_alarms.items():
            for alarm in alarms:
                aliases[name].node.add_dependency(alarm)
        if config.midnight_capacity:
            self.capacity = MidnightCapacityPlan(
                self,
                "MidnightCapacity",
                aliases=aliases,
                plan=config.midnight_capacity,
                alarm=self.operations.alarm,
            )
        self.watch = Watch(
            self,
            "Watch",
            stage=config.stage,
            application=self.deploys.application.application_name,
            groups=self.deploys.groups,
            functions={name: self.functions.by_name[name] for name in API_FUNCTIONS},
            reset=self.functions.reset,
            window=window,
            plan=config.midnight_capacity.functions if config.midnight_capacity else {},
            alarm=self.operations.alarm,
            logs_=ops_logs,
        )
        # The closing pass's queue and workers (infra/closing.py); its dead letters page.
        self.closing = closing_pieces(self, "ClosingPass", functions=self.functions, removal=log_removal)
        self.operations.alarm(
            "ClosingPieceDeadLetters",
            self.closing.dead_letters.metric_approximate_number_of_messages_visible(
                period=PERIOD, statistic="Maximum"
            ),
            1,
            "A piece of a closing pass was given up on: its board's recap or review waits (redrive it).",
        )
        self.switches = KillSwitches(
            self,
            "KillSwitches",
            stage=config.stage,
            readers=[self.functions.by_name[name] for name in ("daily", "leaderboard", "moderation")],
        )
        self.money = Money(
            self,
            "Money",
            stage=config.stage,
            monthly_budget=config.monthly_budget,
            topic=self.operations.topic,
        )
        self.outside = Outside(
            self,
            "Outside",
            stage=config.stage,
            site_url=self.edge.url,
            api=self.api.api,
            access_logs=self.api.access_logs,
            alarm=self.operations.alarm,
            topic_action=self.operations.notify_composite,
        )
        self.watch.keep_canary_logs(
            {"probe": self.outside.probe, "midnight": self.outside.midnight_probe}, log_retention
        )
        self.operations.fill_dashboard(
            self.outside.answer_latency, self.outside.probe.metric_success_percent(period=PERIOD)
        )
        self.guard.watch_emergencies(
            self.operations,
            config.stage,
            lambda count: self.operations.alarm("EmergencyDeploy", count, 1, EMERGENCY_MEANING),
        )
        self.guard.guard_everything_else(self)
        self.edge_alarms = EdgeAlarmsStack(
            scope_for_edge_alarms,
            edge_alarms_stack_name(config.stack_name),
            stage=config.stage,
            account=env.account,
            distribution_id=self.edge.distribution.distribution_id,
            topic=self.edge_security.topic,
            production=production,
            window=window,
        )

        outputs = {
            "SiteUrl": (self.edge.url, "The game: web client and API, through CloudFront and WAF"),
            "DistributionId": (self.edge.distribution.distribution_id, "CloudFront (invalidations)"),
            "SiteBucketName": (self.edge.bucket.bucket_name, "The web client's files"),
            "ApiUrl": (self.api.url, "The HTTP API itself, without the edge (docs/edge.md)"),
            "UserPoolId": (self.api.user_pool.user_pool_id, "Cognito user pool id"),
            "UserPoolClientId": (self.api.client.user_pool_client_id, "Cognito web client id"),
            "TableName": (self.data.table.table_name, "DynamoDB table"),
            "PuzzleSeedSecretArn": (self.data.puzzle_seed.secret_arn, "Secret puzzle seed"),
            "CursorKeySecretArn": (self.data.cursor_key.secret_arn, "Board-cursor signing key"),
            "ResetFunctionName": (self.functions.reset.function_name, "The reset job"),
            "ExpireFunctionName": (self.functions.by_name["expire"].function_name, "The expiry job"),
            "JobDeadLetterQueueUrl": (self.jobs.dead_letters.queue_url, "Failed reset/expiry runs"),
            "CounterFailureQueueUrl": (self.jobs.counter_failures.queue_url, "Failed counter batches"),
            "AlarmTopicArn": (self.operations.topic.topic_arn, "Every alarm notifies this topic"),
            "DashboardName": (self.operations.dashboard.dashboard_name, "CloudWatch dashboard"),
        }
        for name, (value, description) in outputs.items():
            CfnOutput(self, name, value=value, description=description)
