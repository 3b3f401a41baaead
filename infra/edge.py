"""The public entry of a stage: one CloudFront distribution for the web client and the HTTP API.

- Everything that is not an API path is the web client (`web/` at the repository root), from a
  private S3 bucket that only this distribution can read (Origin Access Control). Its
  `config.json` is written at deploy time with the stage's Cognito ids.
- API paths go to the HTTP API. Which paths, and whether the edge may cache them, is derived from
  shared.http.routes.ROUTES (`api_behaviours`), so a new route cannot silently land on S3 or in a cache:
  - public reads that are the same for every caller (`GET /daily`, the boards, a challenge) are
    cached for as long as their `Cache-Control` says (`PUBLIC_READS_*`);
  - everything else (player routes, every write, guest runs) passes through uncached with every
    viewer header, the `Authorization` header included.
- AWS WAF (infra.edge_waf, in us-east-1) screens every request, cache hits included.

docs/edge.md tells the whole story with the numbers.
"""

import os
import re
from dataclasses import dataclass
from pathlib import Path

from aws_cdk import DefaultStackSynthesizer, Duration, Environment, RemovalPolicy, Stack
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_cloudfront as cloudfront
from aws_cdk import aws_cloudfront_origins as origins
from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_deployment as s3deploy
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct, Node

from infra.checks import acknowledge
from infra.config import REPO_ROOT, StageConfig
from shared.http import page_headers
from shared.http.routes import ORIGIN_HEADER, ROUTES, VIEWER_ADDRESS_HEADER, Route

WEB_DIR = REPO_ROOT / "web"

# Cached public reads: the origin's Cache-Control rules (min and default TTL 0: a response without
# max-age is not cached at all), up to a day. Today the boards send max-age=5 while live and 3600
# once closed (shared.http.api.board_cache_control).
PUBLIC_READS_MAX_TTL = Duration.days(1)
# The only query parameters those routes read (a page size, a page cursor, a date); any other query
# string is dropped, so `?x=1` cannot split the cache or reach the origin.
PUBLIC_READS_QUERY = ("limit", "cursor", "date")
# `Origin` is in the key so a CORS answer (Access-Control-Allow-Origin) for one configured origin
# is never served to another; the same-origin web client sends no Origin on a GET.
PUBLIC_READS_HEADERS = ("origin",)

# The routes whose function reads the viewer's own address (a guest's report quota, SPEC §3e;
# shared/http/viewer.py): behind CloudFront, API Gateway's sourceIp is an edge server's, shared by
# every viewer of that edge. Their behaviour has an origin request policy of its own that names
# CloudFront-Viewer-Address (CloudFront sets its value; a viewer cannot), so the template shows it
# is forwarded. Such a route must be public: a custom origin request policy cannot forward
# Authorization.
VIEWER_ADDRESS_PATHS = ("/guest/reports",)
# What those routes need besides the body: a CORS preflight's and answer's headers, and the address.
VIEWER_ADDRESS_FORWARDED = (
    "origin",
    "access-control-request-method",
    "access-control-request-headers",
    VIEWER_ADDRESS_HEADER,
)

# The web client's files: browsers revalidate after a minute, the edge keeps them a day (a deploy
# invalidates the edge, so a release shows everywhere within the browsers' minute).
SITE_CACHE_CONTROL = "public, max-age=60, s-maxage=86400"

# A synth-only placeholder account (not a real one): tests and CI synthesize without credentials.
SYNTH_ONLY_ACCOUNT = "111111111111"


def synth_env(config: StageConfig, node: Node) -> Environment:
    """The account and region of a stage. A CloudFront web ACL must be in us-east-1 while the
    stage may live elsewhere, and CDK's cross-stack references between regions need both stacks'
    environments spelled out, so the stage stack cannot stay environment-agnostic.

    The region is the stage config's (infra/stages.json; default us-east-1). No stage names its
    account: it is `-c account=...`, else the account of the caller's credentials (the CDK CLI
    sets CDK_DEFAULT_ACCOUNT), else (tests, CI without credentials) a placeholder that
    synthesizes but cannot deploy."""
    account = node.try_get_context("account") or os.environ.get("CDK_DEFAULT_ACCOUNT") or SYNTH_ONLY_ACCOUNT
    return Environment(account=str(account), region=config.region)


@dataclass(frozen=True)
class ApiBehaviour:
    """One CloudFront path pattern for API routes, and whether the edge may cache it."""

    pattern: str
    cached: bool
    routes: tuple[Route, ...]
    viewer_address: bool = False  # its routes read the viewer's address (VIEWER_ADDRESS_PATHS)


def edge_cacheable(route: Route) -> bool:
    """A route whose answer is the same for every caller, and so may be served from the edge:
    a public GET that is not a run (a run changes with every answer; a guest run's id is its
    credential, not a key to share a cached copy under)."""
    return route.method == "GET" and route.access == "public" and "{run_id}" not in route.path


def _enum_name(header_value: str) -> str:
    """The CDK enum member of a header's value: `strict-origin-when-cross-origin` is
    STRICT_ORIGIN_WHEN_CROSS_ORIGIN."""
    return header_value.upper().replace("-", "_")


def _pattern(path: str) -> str:
    # CloudFront's `*` matches any characters, `/` included; `{param}` is one path segment.
    return re.sub(r"\{[^}]+\}", "*", path)


def api_behaviours(routes: tuple[Route, ...] = ROUTES) -> list[ApiBehaviour]:
    """The API's path patterns in CloudFront's order of precedence (first match wins).

    Every literal path comes before every wildcard one, and longer wildcard patterns before the
    shorter ones they overlap (`/challenges/*/runs` before `/challenges/*`), so
    `/leaderboard/daily/me` is never taken for a date. A pattern whose routes disagree on
    caching is an error: the routes must change, not the edge quietly cache a player's reply."""
    by_pattern: dict[str, list[Route]] = {}
    for route in routes:
        by_pattern.setdefault(_pattern(route.path), []).append(route)
    found = []
    for pattern, members in by_pattern.items():
        kinds = {edge_cacheable(r) for r in members}
        if len(kinds) > 1:
            raise ValueError(f"{pattern}: routes disagree on edge caching: {members}")
        viewer = pattern in VIEWER_ADDRESS_PATHS
        if viewer and any(r.access != "public" for r in members):
            raise ValueError(f"{pattern}: the viewer's address is forwarded only on public routes")
        found.append(ApiBehaviour(pattern, kinds.pop(), tuple(members), viewer))
    found.sort(key=lambda b: ("*" in b.pattern, -len(b.pattern), b.pattern))
    return found


class Edge(Construct):
    """The stage's CloudFront distribution, its site bucket and the web client's deployment."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        api: apigwv2.HttpApi,
        user_pool: cognito.UserPool,
        client: cognito.UserPoolClient,
        hosted_ui: cognito.UserPoolDomain,
        web_acl_arn: str,
        origin_secret: secretsmanager.ISecret,
        log_retention: logs.RetentionDays,
        log_removal: RemovalPolicy,
        web_dir: Path = WEB_DIR,
    ) -> None:
        super().__init__(scope, id)
        stack = Stack.of(self)

        self.bucket = s3.Bucket(
            self,
            "Site",
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            # The files are rebuilt from the repository on every deploy; nothing here is data.
            removal_policy=RemovalPolicy.DESTROY,
            auto_delete_objects=True,
        )
        acknowledge(
            self.bucket,
            "AwsSolutions-S1",
            "Holds only the deployed web client; reads are logged by WAF, not per S3 object.",
        )

        api_origin = origins.HttpOrigin(
            f"{api.api_id}.execute-api.{stack.region}.{stack.url_suffix}",
            protocol_policy=cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            origin_ssl_protocols=[cloudfront.OriginSslPolicy.TLS_V1_2],
            # Resolved by CloudFormation at deploy (a dynamic reference): not in the template.
            custom_headers={ORIGIN_HEADER: origin_secret.secret_value.unsafe_unwrap()},
        )
        headers = self._headers_policy(hosted_ui, stack.region)
        public_reads = cloudfront.CachePolicy(
            self,
            "PublicReads",
            comment="WordSQD public reads: the origin's Cache-Control rules; keyed on path, page, date",
            min_ttl=Duration.seconds(0),
            default_ttl=Duration.seconds(0),
            max_ttl=PUBLIC_READS_MAX_TTL,
            query_string_behavior=cloudfront.CacheQueryStringBehavior.allow_list(*PUBLIC_READS_QUERY),
            header_behavior=cloudfront.CacheHeaderBehavior.allow_list(*PUBLIC_READS_HEADERS),
            cookie_behavior=cloudfront.CacheCookieBehavior.none(),
            enable_accept_encoding_gzip=True,
            enable_accept_encoding_brotli=True,
        )
        cached = cloudfront.BehaviorOptions(
            origin=api_origin,
            # Every method reaches the API, so a wrong one gets its JSON 405; only reads are cached.
            allowed_methods=cloudfront.AllowedMethods.ALLOW_ALL,
            cached_methods=cloudfront.CachedMethods.CACHE_GET_HEAD,
            cache_policy=public_reads,
            # A CORS preflight needs these two; Origin is already in the key.
            origin_request_policy=cloudfront.OriginRequestPolicy.CORS_CUSTOM_ORIGIN,
            response_headers_policy=headers,
            viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
            compress=True,
        )
        passthrough = cloudfront.BehaviorOptions(
            origin=api_origin,
            allowed_methods=cloudfront.AllowedMethods.ALLOW_ALL,
            cache_policy=cloudfront.CachePolicy.CACHING_DISABLED,
            # With caching disabled this managed policy may forward Authorization (an origin request
            # policy of a caching behaviour cannot); Host must stay API Gateway's own.
            origin_request_policy=cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
            response_headers_policy=headers,
            # HTTPS only, no redirect: a redirected POST would lose its body.
            viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        )
        viewer_addressed = cloudfront.BehaviorOptions(
            origin=api_origin,
            allowed_methods=cloudfront.AllowedMethods.ALLOW_ALL,
            cache_policy=cloudfront.CachePolicy.CACHING_DISABLED,
            origin_request_policy=cloudfront.OriginRequestPolicy(
                self,
                "ViewerAddress",
                comment="WordSQD public writes that read the viewer's address (a guest's report quota)",
                header_behavior=cloudfront.OriginRequestHeaderBehavior.allow_list(*VIEWER_ADDRESS_FORWARDED),
                query_string_behavior=cloudfront.OriginRequestQueryStringBehavior.none(),
                cookie_behavior=cloudfront.OriginRequestCookieBehavior.none(),
            ),
            response_headers_policy=headers,
            viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        )
        self.behaviours = api_behaviours()

        self.distribution = cloudfront.Distribution(
            self,
            "Distribution",
            comment=f"WordSQD {stack.stack_name}: web client and API",
            default_behavior=cloudfront.BehaviorOptions(
                origin=origins.S3BucketOrigin.with_origin_access_control(self.bucket),
                allowed_methods=cloudfront.AllowedMethods.ALLOW_GET_HEAD,
                cache_policy=cloudfront.CachePolicy.CACHING_OPTIMIZED,
                response_headers_policy=headers,
                viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
                compress=True,
            ),
            additional_behaviors={
                b.pattern: cached if b.cached else viewer_addressed if b.viewer_address else passthrough
                for b in self.behaviours
            },
            default_root_object="index.html",
            http_version=cloudfront.HttpVersion.HTTP2_AND_3,
            web_acl_id=web_acl_arn,
        )
        acknowledge(
            self.distribution,
            "AwsSolutions-CFR1",
            "A worldwide game: no country is restricted.",
        )
        acknowledge(
            self.distribution,
            "AwsSolutions-CFR3",
            "WAF logs blocked requests and API Gateway logs every API call; page loads need none.",
        )
        acknowledge(
            self.distribution,
            "AwsSolutions-CFR4",
            "The default *.cloudfront.net certificate; a custom domain brings TLSv1.2_2021.",
        )

        self.url = f"https://{self.distribution.distribution_domain_name}"
        self.config = {
            "auth": "cognito",
            "region": stack.region,
            "user_pool_id": user_pool.user_pool_id,
            "client_id": client.user_pool_client_id,
            "domain": hosted_ui.base_url(),
        }
        self.deployment = s3deploy.BucketDeployment(
            self,
            "WebClient",
            destination_bucket=self.bucket,
            sources=[
                s3deploy.Source.asset(str(web_dir), exclude=["config.json"]),
                s3deploy.Source.json_data("config.json", self.config),
            ],
            cache_control=[s3deploy.CacheControl.from_string(SITE_CACHE_CONTROL)],
            distribution=self.distribution,
            distribution_paths=["/*"],
            prune=True,
            memory_limit=256,
            # The copy function's logs follow the stage like every other log group (without it,
            # CDK makes one that is retained for two years even in dev).
            log_group=logs.LogGroup(
                self, "WebClientDeployLogs", retention=log_retention, removal_policy=log_removal
            ),
        )
        self._acknowledge_deployment_function(stack)

    def _acknowledge_deployment_function(self, stack: Stack) -> None:
        """BucketDeployment's function is CDK's own, one per stack beside this construct: its
        managed policy, its runtime and the wildcards of its copy from the asset bucket."""
        [handler] = [c for c in stack.node.children if c.node.id.startswith("Custom::CDKBucketDeployment")]
        why = "CDK's BucketDeployment function"
        acknowledge(
            handler,
            "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
            f"{why}: its CloudWatch Logs permissions.",
        )
        acknowledge(handler, "AwsSolutions-L1", f"{why}: its runtime is CDK's to choose.")
        assets = f"cdk-{DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-{stack.account}-{stack.region}"
        site = stack.get_logical_id(self.bucket.node.default_child)
        for finding in (
            "Action::s3:GetObject*",
            "Action::s3:GetBucket*",
            "Action::s3:List*",
            "Action::s3:DeleteObject*",
            "Action::s3:Abort*",
            f"Resource::arn:<AWS::Partition>:s3:::{assets}/*",
            # With an account, cdk.json's literal-partition flag writes the partition out.
            f"Resource::arn:aws:s3:::{assets}/*",
            f"Resource::<{site}.Arn>/*",
            "Resource::*",
        ):
            acknowledge(
                handler, f"AwsSolutions-IAM5[{finding}]", f"{why}: copies the web client into the bucket."
            )

    def _headers_policy(
        self, hosted_ui: cognito.UserPoolDomain, region: str
    ) -> cloudfront.ResponseHeadersPolicy:
        """Security headers on every reply, from the page's one definition (shared/http/page_headers.py),
        with Cognito's origins added: the Hosted UI's token endpoint, and Cognito's API for a refresh."""
        cognito_api = f"https://cognito-idp.{region}.amazonaws.com"
        csp = page_headers.content_security_policy(
            connect=(hosted_ui.base_url(), cognito_api), form_action=(hosted_ui.base_url(),)
        )
        return cloudfront.ResponseHeadersPolicy(
            self,
            "SecurityHeaders",
            comment="WordSQD security headers",
            security_headers_behavior=cloudfront.ResponseSecurityHeadersBehavior(
                content_security_policy=cloudfront.ResponseHeadersContentSecurityPolicy(
                    content_security_policy=csp, override=True
                ),
                strict_transport_security=cloudfront.ResponseHeadersStrictTransportSecurity(
                    access_control_max_age=Duration.seconds(page_headers.HSTS_MAX_AGE_SECONDS),
                    include_subdomains=page_headers.HSTS_INCLUDE_SUBDOMAINS,
                    override=True,
                ),
                content_type_options=cloudfront.ResponseHeadersContentTypeOptions(override=True),
                frame_options=cloudfront.ResponseHeadersFrameOptions(
                    frame_option=cloudfront.HeadersFrameOption[page_headers.FRAME_OPTIONS], override=True
                ),
                referrer_policy=cloudfront.ResponseHeadersReferrerPolicy(
                    referrer_policy=cloudfront.HeadersReferrerPolicy[
                        _enum_name(page_headers.REFERRER_POLICY)
                    ],
                    override=True,
                ),
            ),
        )
