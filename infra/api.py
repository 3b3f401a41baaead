"""The HTTP API: every route of shared.http.routes, Cognito sign-in, and a JWT authorizer on player routes.

API Gateway verifies the token before a player route's function runs; the handlers read the
caller from `requestContext.authorizer.jwt.claims`, exactly as `make run`'s stand-in hands them.
"""

import json
import re
from collections.abc import Mapping, Sequence

import jsii
from aws_cdk import Duration, IStableListProducer, Lazy, RemovalPolicy, Stack
from aws_cdk import aws_apigateway as apigateway
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_apigatewayv2_authorizers as authorizers
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.checks import acknowledge
from infra.config import SesIdentity, Throttle
from shared.game.moderation import MODERATORS_GROUP
from shared.http.routes import ROUTES
from shared.runtime.accounts import REFRESH_GRACE_SECONDS, REFRESH_TOKEN_DAYS

# One JSON object per request, with the HTTP API's own $context variables. No claims, bodies,
# query strings or paths: `routeKey` is the route's template (`GET /guest/runs/{run_id}`), never
# the path, because a guest run's id in the path is that run's only credential, and a cursor in
# the query string is a signed token. A request is traced by its id and route, not by who sent it.
ACCESS_LOG_FORMAT = {
    "requestId": "$context.requestId",
    "requestTime": "$context.requestTime",
    "ip": "$context.identity.sourceIp",
    "userAgent": "$context.identity.userAgent",
    "routeKey": "$context.routeKey",
    "status": "$context.status",
    "protocol": "$context.protocol",
    "responseLength": "$context.responseLength",
    "responseLatency": "$context.responseLatency",
    "integrationLatency": "$context.integrationLatency",
    "integrationError": "$context.integrationErrorMessage",
    "authorizerError": "$context.authorizer.error",
}


@jsii.implements(apigwv2.IAccessLogSettings)
class _AccessLogSettings:
    """The stage's access-log settings (an interface in CDK, so Python implements it)."""

    def __init__(self, log_group: logs.ILogGroup) -> None:
        self._destination = apigwv2.LogGroupLogDestination(log_group)

    @property
    def destination(self) -> apigwv2.IAccessLogDestination:
        return self._destination

    @property
    def format(self) -> apigateway.AccessLogFormat:
        return apigateway.AccessLogFormat.custom(json.dumps(ACCESS_LOG_FORMAT))


@jsii.implements(IStableListProducer)
class _Urls:
    """A list read at synth time, so URLs known only later (the distribution's) can join it."""

    def __init__(self, urls: list[str]) -> None:
        self._urls = urls

    def produce(self) -> list[str]:
        return list(self._urls)


class Api(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        stage: str,
        production: bool,
        functions: Mapping[str, lambda_.IFunction],
        allowed_origins: Sequence[str],
        throttle: Throttle,
        route_throttles: Mapping[str, Throttle],
        log_retention: logs.RetentionDays,
        log_removal: RemovalPolicy,
        ses: SesIdentity | None = None,
        self_sign_up: bool = True,
        cognito_plan: str = "lite",
    ) -> None:
        super().__init__(scope, id)
        self._cognito(production, stage, allowed_origins, ses, self_sign_up, cognito_plan)

        self.api = apigwv2.HttpApi(
            self,
            "HttpApi",
            api_name=f"WordSQD-{stage}",
            description="WordSQD game API",
            # Our own $default stage below carries the throttling and access logs.
            create_default_stage=False,
            # API Gateway answers CORS preflights itself, before any authorizer runs.
            cors_preflight=apigwv2.CorsPreflightOptions(
                allow_origins=list(allowed_origins),
                allow_methods=[
                    apigwv2.CorsHttpMethod.GET,
                    apigwv2.CorsHttpMethod.POST,
                    apigwv2.CorsHttpMethod.PUT,
                    apigwv2.CorsHttpMethod.DELETE,
                ],
                allow_headers=["authorization", "content-type", "idempotency-key"],
                max_age=Duration.hours(1),
            ),
        )
        self.access_logs = logs.LogGroup(
            self, "AccessLogs", retention=log_retention, removal_policy=log_removal
        )
        self.stage = apigwv2.HttpStage(
            self,
            "DefaultStage",
            http_api=self.api,
            stage_name="$default",
            auto_deploy=True,
            throttle=apigwv2.ThrottleSettings(rate_limit=throttle.rate, burst_limit=throttle.burst),
            access_log_settings=_AccessLogSettings(self.access_logs),
            detailed_metrics_enabled=True,  # per-route Count, 4xx, 5xx, Latency (dimension Route)
        )

        # The route table is the single source of truth: `make run` serves the same one.
        targets = {
            name: integrations.HttpLambdaIntegration(f"{name.capitalize()}Integration", function)
            for name, function in functions.items()
        }
        created_routes = {}
        for route in ROUTES:
            [created] = self.api.add_routes(
                path=route.path,
                methods=[apigwv2.HttpMethod[route.method]],
                integration=targets[route.function],
                authorizer=(self.authorizer if route.access == "player" else apigwv2.HttpNoneAuthorizer()),
            )
            created_routes[f"{route.method} {route.path}"] = created
            if route.access == "public":
                acknowledge(
                    created,
                    "AwsSolutions-APIG4",
                    "Public by design (SPEC §5): no account needed for this route.",
                )

        # Per-route limits below the stage's (stage config `route_throttles`): the routes a script
        # could hammer to use up the API for everyone. API Gateway rejects settings for a route it
        # does not know yet, so the stage waits for those routes.
        if route_throttles:
            stage_resource = self.stage.node.default_child
            stage_resource.add_property_override(
                "RouteSettings",
                {
                    key: {"ThrottlingRateLimit": limit.rate, "ThrottlingBurstLimit": limit.burst}
                    for key, limit in sorted(route_throttles.items())
                },
            )
            for key in route_throttles:
                self.stage.node.add_dependency(created_routes[key])

        # Without a catch-all, API Gateway itself answers an unknown route or a wrong method with
        # {"message": "Not Found"}; this route lets a function answer 404/405 in the SPEC envelope.
        catch_all = apigwv2.HttpRoute(
            self,
            "CatchAll",
            http_api=self.api,
            route_key=apigwv2.HttpRouteKey.DEFAULT,
            integration=targets["validate"],
        )
        acknowledge(
            catch_all,
            "AwsSolutions-APIG4",
            "Answers only 404/405 errors for routes that do not exist; no data behind it.",
        )

    def _cognito(
        self,
        production: bool,
        stage: str,
        allowed_origins: Sequence[str],
        ses: SesIdentity | None,
        self_sign_up: bool,
        cognito_plan: str,
    ) -> None:
        # Cognito's own sender allows 50 emails a day per account: production sends through SES.
        email = (
            cognito.UserPoolEmail.with_ses(
                from_email=ses.from_email,
                from_name=ses.from_name,
                ses_verified_domain=ses.identity if "@" not in ses.identity else None,
                ses_region=ses.region,
            )
            if ses
            else None
        )
        self.user_pool = cognito.UserPool(
            self,
            "Players",
            self_sign_up_enabled=self_sign_up,
            email=email,
            sign_in_aliases=cognito.SignInAliases(email=True),
            sign_in_case_sensitive=False,  # Ann@Example.com is ann@example.com; fixed at creation
            auto_verify=cognito.AutoVerifiedAttrs(email=True),
            standard_attributes=cognito.StandardAttributes(
                email=cognito.StandardAttribute(required=True, mutable=True)
            ),
            account_recovery=cognito.AccountRecovery.EMAIL_ONLY,
            password_policy=cognito.PasswordPolicy(
                min_length=10,
                require_lowercase=True,
                require_uppercase=True,
                require_digits=True,
                require_symbols=True,
            ),
            # Players may add an authenticator app; nobody is forced to (see the acknowledgement).
            mfa=cognito.Mfa.OPTIONAL,
            mfa_second_factor=cognito.MfaSecondFactor(otp=True, sms=False),
            # Lite has all this game uses (sign-up, the classic Hosted UI, TOTP MFA, refresh tokens);
            # Essentials adds managed login and passwordless sign-in at ~3x the price per player.
            feature_plan=cognito.FeaturePlan[cognito_plan.upper()],
            deletion_protection=production,
            removal_policy=RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY,
        )
        acknowledge(
            self.user_pool,
            "AwsSolutions-COG2",
            "A casual game: MFA is offered (authenticator app) but not forced on players.",
        )
        acknowledge(
            self.user_pool,
            "AwsSolutions-COG8",
            "Plus tier threat protection is billed per player; accounts hold only game scores.",
        )
        # Moderators (SPEC §3e) are the players in this group: Cognito puts it in their ID tokens'
        # `cognito:groups` claim. A deployment adds one with AdminAddUserToGroup (docs/moderation.md).
        cognito.CfnUserPoolGroup(
            self,
            "Moderators",
            user_pool_id=self.user_pool.user_pool_id,
            group_name=MODERATORS_GROUP,
            description="WordSQD moderators: the review queue, decisions and the audit log",
        )
        self._hosted_ui(stage, allowed_origins)
        # A browser app cannot keep a secret: it signs in on the Hosted UI with the authorization
        # code grant and PKCE (no implicit grant), or with SRP, and gets tokens directly.
        self.client = self.user_pool.add_client(
            "WebClient",
            generate_secret=False,
            auth_flows=cognito.AuthFlow(user_srp=True),
            o_auth=cognito.OAuthSettings(
                flows=cognito.OAuthFlows(authorization_code_grant=True),
                scopes=[cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
                callback_urls=Lazy.list(_Urls(self.sign_in_urls)),
                logout_urls=Lazy.list(_Urls(self.sign_in_urls)),
            ),
            supported_identity_providers=[cognito.UserPoolClientIdentityProvider.COGNITO],
            prevent_user_existence_errors=True,
            id_token_validity=Duration.hours(1),
            access_token_validity=Duration.hours(1),
            # Each refresh hands out a new refresh token and the old one stops working after the
            # grace (a retry of a lost reply still works): a stolen token is useful until the
            # player's next refresh, and never beyond a week (docs/web-client.md).
            refresh_token_validity=Duration.days(REFRESH_TOKEN_DAYS),
            refresh_token_rotation_grace_period=Duration.seconds(REFRESH_GRACE_SECONDS),
        )
        self.authorizer = authorizers.HttpUserPoolAuthorizer(
            "PlayerAuthorizer", self.user_pool, user_pool_clients=[self.client]
        )

    def _hosted_ui(self, stage: str, allowed_origins: Sequence[str]) -> None:
        """Cognito's Hosted UI on a prefix domain (`<prefix>.auth.<region>.amazoncognito.com`),
        where the web client sends players to sign in. A prefix is unique per region across every
        AWS account, hence the account id in it. The pages that may receive the sign-in code (and
        where sign-out returns) are the configured origins' roots, plus the CloudFront site
        (`allow_sign_in_from`, called once the distribution exists). Cognito takes http only for
        localhost, so another http origin (a dev stage's) can call the API but not sign in."""
        account = Stack.of(self).account
        self.domain = self.user_pool.add_domain(
            "HostedUi",
            cognito_domain=cognito.CognitoDomainOptions(domain_prefix=f"wordsqd-{stage}-{account}"),
        )
        self.sign_in_urls: list[str] = [
            f"{origin}/"
            for origin in allowed_origins
            if origin.startswith("https://") or re.fullmatch(r"http://localhost(:[0-9]+)?", origin)
        ]

    def allow_sign_in_from(self, site_url: str) -> None:
        """Register SITE_URL (`https://host`) as a Hosted UI callback and sign-out URL."""
        self.sign_in_urls.append(f"{site_url}/")

    @property
    def url(self) -> str:
        return self.stage.url
