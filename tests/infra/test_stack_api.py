"""The HTTP API is exactly shared.http.routes: same routes, same functions, the authorizer on player
routes only; plus Cognito, CORS, throttling and access logs."""

import json

import pytest
from aws_cdk.assertions import Match

from infra.api import ACCESS_LOG_FORMAT
from infra.config import DEFAULT_ROUTE_THROTTLES, DEFAULT_THROTTLE_BURST, DEFAULT_THROTTLE_RATE, DEV_ORIGINS
from shared.http.routes import ROUTES

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def _routes(synth):
    """RouteKey -> (function name, authorizer logical id or None), read back from the template."""
    function_names = {
        alias_id: name
        for name, (logical_id, _) in synth.functions.items()
        for alias_id, alias in synth.resources("AWS::Lambda::Alias").items()
        if alias["Properties"]["FunctionName"] == {"Ref": logical_id}
    }
    integrations = synth.resources("AWS::ApiGatewayV2::Integration")
    found = {}
    for route in synth.resources("AWS::ApiGatewayV2::Route").values():
        props = route["Properties"]
        integration_id = props["Target"]["Fn::Join"][1][1]["Ref"]
        # Integrations call the function's `live` alias, so CodeDeploy's canary shifts API traffic.
        function_id = integrations[integration_id]["Properties"]["IntegrationUri"]["Ref"]
        authorizer = props.get("AuthorizerId", {}).get("Ref")
        if authorizer is None:
            assert props["AuthorizationType"] == "NONE"
        else:
            assert props["AuthorizationType"] == "JWT"
        found[props["RouteKey"]] = (function_names[function_id], authorizer)
    return found


def test_routes_are_the_route_table(dev):
    authorizer_id, _ = dev.only("AWS::ApiGatewayV2::Authorizer")
    expected = {
        f"{r.method} {r.path}": (r.function, authorizer_id if r.access == "player" else None) for r in ROUTES
    }
    expected["$default"] = ("validate", None)  # the catch-all that answers 404/405 in the envelope
    assert _routes(dev) == expected


def test_integrations_use_payload_format_2(dev):
    for integration in dev.resources("AWS::ApiGatewayV2::Integration").values():
        assert integration["Properties"]["IntegrationType"] == "AWS_PROXY"
        assert integration["Properties"]["PayloadFormatVersion"] == "2.0"


def test_jwt_authorizer_trusts_the_user_pool_and_its_web_client(dev):
    pool_id, _ = dev.only("AWS::Cognito::UserPool")
    client_id, _ = dev.only("AWS::Cognito::UserPoolClient")
    _, authorizer = dev.only("AWS::ApiGatewayV2::Authorizer")
    props = authorizer["Properties"]
    assert props["AuthorizerType"] == "JWT"
    assert props["IdentitySource"] == ["$request.header.Authorization"]
    assert props["JwtConfiguration"]["Audience"] == [{"Ref": client_id}]
    issuer = json.dumps(props["JwtConfiguration"]["Issuer"])
    assert "https://cognito-idp." in issuer and json.dumps({"Ref": pool_id}) in issuer


def test_self_sign_up_is_a_stage_choice(prod):
    prod.template.has_resource_properties(
        "AWS::Cognito::UserPool", {"AdminCreateUserConfig": {"AllowAdminCreateUserOnly": True}}
    )


def test_production_mail_goes_through_ses(prod, dev):
    _, pool = prod.only("AWS::Cognito::UserPool")
    email = pool["Properties"]["EmailConfiguration"]
    assert email["EmailSendingAccount"] == "DEVELOPER"
    assert email["From"] == "WordSQD <no-reply@example.com>"
    assert "identity/example.com" in json.dumps(email["SourceArn"])
    _, dev_pool = dev.only("AWS::Cognito::UserPool")
    assert dev_pool["Properties"].get("EmailConfiguration", {}).get(
        "EmailSendingAccount", "COGNITO_DEFAULT"
    ) == ("COGNITO_DEFAULT")


def test_user_pool_allows_self_sign_up_with_email(dev):
    dev.template.has_resource_properties(
        "AWS::Cognito::UserPool",
        {
            "AdminCreateUserConfig": {"AllowAdminCreateUserOnly": False},
            "UsernameAttributes": ["email"],
            "UsernameConfiguration": {"CaseSensitive": False},
            "AutoVerifiedAttributes": ["email"],
        },
    )


def test_web_client_has_no_secret_and_only_the_code_grant(dev):
    # A browser keeps no secret: the Hosted UI's authorization code grant with PKCE (#14), never
    # the implicit grant that hands tokens over in the URL. Callback URLs: test_stack_edge.py.
    dev.template.has_resource_properties(
        "AWS::Cognito::UserPoolClient",
        {
            "GenerateSecret": False,
            "AllowedOAuthFlowsUserPoolClient": True,
            "AllowedOAuthFlows": ["code"],
            "ExplicitAuthFlows": Match.array_with(["ALLOW_USER_SRP_AUTH"]),
        },
    )


def test_web_client_refresh_tokens_rotate_and_last_a_week(dev):
    """Each refresh returns a new refresh token; the old one works only for a short grace."""
    dev.template.has_resource_properties(
        "AWS::Cognito::UserPoolClient",
        {
            "RefreshTokenValidity": 7 * 24 * 60,
            "TokenValidityUnits": Match.object_like({"RefreshToken": "minutes"}),
            "RefreshTokenRotation": {"Feature": "ENABLED", "RetryGracePeriodSeconds": 60},
        },
    )


def test_cors_origins_default_to_the_local_page_in_dev(dev):
    _, api = dev.only("AWS::ApiGatewayV2::Api")
    cors = api["Properties"]["CorsConfiguration"]
    assert cors["AllowOrigins"] == list(DEV_ORIGINS)
    assert set(cors["AllowHeaders"]) == {"authorization", "content-type", "idempotency-key"}
    assert set(cors["AllowMethods"]) == {"GET", "POST", "PUT", "DELETE"}


def test_cors_origins_come_from_stage_config_in_prod(prod):
    _, api = prod.only("AWS::ApiGatewayV2::Api")
    assert api["Properties"]["CorsConfiguration"]["AllowOrigins"] == [
        "https://play.example.com",
        "https://www.example.com",
    ]


def test_stage_throttle_comes_from_stage_config_sized_for_the_rush(dev, prod):
    dev.template.has_resource_properties(
        "AWS::ApiGatewayV2::Stage",
        {
            "StageName": "$default",
            "AutoDeploy": True,
            "DefaultRouteSettings": {
                "ThrottlingRateLimit": DEFAULT_THROTTLE_RATE,
                "ThrottlingBurstLimit": DEFAULT_THROTTLE_BURST,
            },
        },
    )
    prod.template.has_resource_properties(
        "AWS::ApiGatewayV2::Stage",
        {"DefaultRouteSettings": {"ThrottlingRateLimit": 25, "ThrottlingBurstLimit": 50}},
    )


def test_per_route_limits_come_from_stage_config(dev, prod):
    _, stage = dev.only("AWS::ApiGatewayV2::Stage")
    assert stage["Properties"]["RouteSettings"] == {
        key: {"ThrottlingRateLimit": limit["rate"], "ThrottlingBurstLimit": limit["burst"]}
        for key, limit in DEFAULT_ROUTE_THROTTLES.items()
    }
    # API Gateway refuses settings for a route that does not exist yet: the stage waits for them.
    route_ids = {r["Properties"]["RouteKey"]: k for k, r in dev.resources("AWS::ApiGatewayV2::Route").items()}
    assert {route_ids[key] for key in DEFAULT_ROUTE_THROTTLES} <= set(stage["DependsOn"])
    _, prod_stage = prod.only("AWS::ApiGatewayV2::Stage")
    assert prod_stage["Properties"]["RouteSettings"] == {
        "POST /guest/daily/runs": {"ThrottlingRateLimit": 5, "ThrottlingBurstLimit": 10}
    }


def test_access_logs_hold_no_path_query_or_claims(dev):
    """Guest run ids (in guest paths) are credentials, cursors are signed tokens: the access log
    names the route template, never the path or query string, and no JWT claim."""
    for field, variable in ACCESS_LOG_FORMAT.items():
        assert not variable.startswith(
            ("$context.path", "$context.authorizer.claims", "$context.authorizer.jwt")
        ), field
        assert "querystring" not in variable.lower() and "$request" not in variable, field
    assert ACCESS_LOG_FORMAT["routeKey"] == "$context.routeKey"


def test_access_logs_go_to_a_log_group_as_json(dev):
    _, stage = dev.only("AWS::ApiGatewayV2::Stage")
    settings = stage["Properties"]["AccessLogSettings"]
    log_group_id = settings["DestinationArn"]["Fn::GetAtt"][0]
    assert dev.json["Resources"][log_group_id]["Type"] == "AWS::Logs::LogGroup"
    assert json.loads(settings["Format"]) == ACCESS_LOG_FORMAT
    assert ACCESS_LOG_FORMAT["requestId"] == "$context.requestId"  # API Gateway requires an id


def test_the_user_pool_is_on_the_stage_feature_plan_lite_unless_it_says_essentials(dev, prod):
    """Lite covers this game's sign-in (sign-up, the classic Hosted UI, TOTP MFA) at about a third
    of Essentials' price per monthly player (docs/operations.md, "What it costs")."""
    _, dev_pool = dev.only("AWS::Cognito::UserPool")
    _, prod_pool = prod.only("AWS::Cognito::UserPool")
    assert dev_pool["Properties"]["UserPoolTier"] == "LITE"
    assert prod_pool["Properties"]["UserPoolTier"] == "ESSENTIALS"
