"""The HTTP API is exactly shared.routes: same routes, same functions, the authorizer on player
routes only; plus Cognito, CORS, throttling and access logs."""

import json

import pytest
from aws_cdk.assertions import Match

from infra.api import ACCESS_LOG_FORMAT
from infra.config import DEV_ORIGINS
from shared.routes import ROUTES

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def _routes(synth):
    """RouteKey -> (function name, authorizer logical id or None), read back from the template."""
    function_names = {logical_id: name for name, (logical_id, _) in synth.functions.items()}
    integrations = synth.resources("AWS::ApiGatewayV2::Integration")
    found = {}
    for route in synth.resources("AWS::ApiGatewayV2::Route").values():
        props = route["Properties"]
        integration_id = props["Target"]["Fn::Join"][1][1]["Ref"]
        function_id = integrations[integration_id]["Properties"]["IntegrationUri"]["Fn::GetAtt"][0]
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


def test_cors_origins_default_to_the_local_page_in_dev(dev):
    _, api = dev.only("AWS::ApiGatewayV2::Api")
    cors = api["Properties"]["CorsConfiguration"]
    assert cors["AllowOrigins"] == list(DEV_ORIGINS)
    assert set(cors["AllowHeaders"]) == {"authorization", "content-type"}
    assert set(cors["AllowMethods"]) == {"GET", "POST", "PUT"}


def test_cors_origins_come_from_context_in_prod(prod):
    _, api = prod.only("AWS::ApiGatewayV2::Api")
    assert api["Properties"]["CorsConfiguration"]["AllowOrigins"] == [
        "https://play.example.com",
        "https://www.example.com",
    ]


def test_default_stage_is_throttled(dev, prod):
    dev.template.has_resource_properties(
        "AWS::ApiGatewayV2::Stage",
        {
            "StageName": "$default",
            "AutoDeploy": True,
            "DefaultRouteSettings": {"ThrottlingRateLimit": 100, "ThrottlingBurstLimit": 200},
        },
    )
    # From context: -c throttle_rate=25 -c throttle_burst=50.
    prod.template.has_resource_properties(
        "AWS::ApiGatewayV2::Stage",
        {"DefaultRouteSettings": {"ThrottlingRateLimit": 25, "ThrottlingBurstLimit": 50}},
    )


def test_access_logs_go_to_a_log_group_as_json(dev):
    _, stage = dev.only("AWS::ApiGatewayV2::Stage")
    settings = stage["Properties"]["AccessLogSettings"]
    log_group_id = settings["DestinationArn"]["Fn::GetAtt"][0]
    assert dev.json["Resources"][log_group_id]["Type"] == "AWS::Logs::LogGroup"
    assert json.loads(settings["Format"]) == ACCESS_LOG_FORMAT
    assert ACCESS_LOG_FORMAT["requestId"] == "$context.requestId"  # API Gateway requires an id
