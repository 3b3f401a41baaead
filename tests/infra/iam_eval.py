"""A function's AWS SDK calls judged as IAM would judge them, against its role in a synthesized
template: each call becomes the request(s) IAM authorizes (action, resource ARN, condition keys),
and a request is allowed when a statement of the role allows it and none denies it (no statement:
an implicit deny).

- `recording()`: every call the clients make while it is open (botocore's `provide-client-params`
  event: the parameters the caller gave, before a Stubber or moto answers), from the clients given
  and from every client made from boto3's default session meanwhile.
- `Context.of(template)`: the template's intrinsic functions resolved the way CloudFormation would,
  with each resource's physical name its own name property or its logical id (or a name given).
- `denials(template, context, function, calls)`: what IAM would refuse of CALLS made by the function
  whose logical id is FUNCTION.

Only the calls our functions make are mapped (`requests`): an unmapped call fails loudly, so a new
kind of call is judged, not waved through.
"""

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

import boto3

from infra.edge import SYNTH_ONLY_ACCOUNT as ACCOUNT  # the tests' templates are synthesized for it

STACK_UUID = "00000000-0000-0000-0000-000000000000"


@dataclass(frozen=True)
class Call:
    service: str  # botocore's service name: dynamodb, codedeploy, cloudwatch...
    operation: str  # the API's name: GetItem, ListDeployments...
    params: Mapping[str, Any]


@dataclass(frozen=True)
class Request:
    action: str
    resource: str
    keys: Mapping[str, Any] = field(default_factory=dict)  # condition keys (a list: multivalued)


@contextmanager
def recording(*clients: Any) -> Iterator[list[Call]]:
    calls: list[Call] = []

    def hook(params: dict[str, Any], model: Any, **_: Any) -> None:
        calls.append(Call(model.service_model.service_name, model.name, dict(params)))

    emitters = [c.meta.events for c in clients] + [boto3._get_default_session().events]
    for events in emitters:
        events.register("provide-client-params", hook)
    try:
        yield calls
    finally:
        for events in emitters:
            events.unregister("provide-client-params", hook)


# Resource type -> (the name property CloudFormation uses, what Ref returns: "name" or "arn").
NAMES = {
    "AWS::Lambda::Function": "FunctionName",
    "AWS::DynamoDB::Table": "TableName",
    "AWS::CodeDeploy::Application": "ApplicationName",
    "AWS::CodeDeploy::DeploymentGroup": "DeploymentGroupName",
    "AWS::Logs::LogGroup": "LogGroupName",
    "AWS::SNS::Topic": "TopicName",
    "AWS::SecretsManager::Secret": "Name",
    "AWS::Cognito::UserPool": "UserPoolName",
    "AWS::AppConfig::Application": "Name",
    "AWS::AppConfig::Environment": "Name",
    "AWS::AppConfig::ConfigurationProfile": "Name",
    "AWS::Synthetics::Canary": "Name",
}


@dataclass
class Context:
    template: Mapping[str, Any]
    region: str
    stack_name: str
    names: dict[str, str] = field(default_factory=dict)  # logical id -> physical name, given
    deployments: dict[str, str] = field(default_factory=dict)  # CodeDeploy id -> "<application>/<group>"
    stack_id: str = ""  # the stack's ARN, when one is given (moto's)
    # The AppConfig profile (application, environment, profile) the function reads: a read's
    # token names a session of it.
    appconfig: tuple[str, str, str] | None = None

    @classmethod
    def of(cls, template: Mapping[str, Any], region: str, stack_name: str, **names: str) -> "Context":
        return cls(template, region, stack_name, dict(names))

    def arn(self, service: str, rest: str) -> str:
        return f"arn:aws:{service}:{self.region}:{ACCOUNT}:{rest}"

    def physical(self, logical: str) -> str:
        if logical in self.names:
            return self.names[logical]
        resource = self.template["Resources"][logical]
        name = resource.get("Properties", {}).get(NAMES.get(resource["Type"], ""))
        return self.resolve(name) if name is not None else logical

    def ref(self, logical: str) -> str:
        pseudo = {
            "AWS::Region": self.region,
            "AWS::AccountId": ACCOUNT,
            "AWS::Partition": "aws",
            "AWS::URLSuffix": "amazonaws.com",
            "AWS::StackName": self.stack_name,
            "AWS::StackId": self.stack_id
            or self.arn("cloudformation", f"stack/{self.stack_name}/{STACK_UUID}"),
        }
        if logical in pseudo:
            return pseudo[logical]
        kind = self.template["Resources"][logical]["Type"]
        if kind in ("AWS::SNS::Topic", "AWS::SecretsManager::Secret"):
            return self.get_att(logical, "Arn")
        return self.physical(logical)

    def get_att(self, logical: str, attribute: str) -> str:
        kind = self.template["Resources"][logical]["Type"]
        name = self.physical(logical)
        arns = {
            "AWS::Lambda::Function": ("lambda", f"function:{name}"),
            "AWS::DynamoDB::Table": ("dynamodb", f"table/{name}"),
            "AWS::Logs::LogGroup": ("logs", f"log-group:{name}:*"),
            "AWS::SNS::Topic": ("sns", name),
            "AWS::SQS::Queue": ("sqs", name),
            "AWS::SecretsManager::Secret": ("secretsmanager", f"secret:{name}-AbCdEf"),
            "AWS::Cognito::UserPool": ("cognito-idp", f"userpool/{name}"),
            "AWS::IAM::Role": ("iam", f"role/{name}"),
        }
        if attribute == "Arn" and kind in arns:
            service, rest = arns[kind]
            return f"arn:aws:{service}::{ACCOUNT}:{rest}" if service == "iam" else self.arn(service, rest)
        if kind == "AWS::Lambda::Version" and attribute == "Version":
            return self.names.get(logical, "1")  # the number CloudFormation gives: "1", or one given
        if kind == "AWS::DynamoDB::Table" and attribute == "StreamArn":
            return self.arn("dynamodb", f"table/{name}/stream/2026-01-01T00:00:00.000")
        raise KeyError(f"no GetAtt {kind}.{attribute}")

    def resolve(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if not isinstance(value, dict):
            return value
        if len(value) != 1:
            return {k: self.resolve(v) for k, v in value.items()}
        [(key, arg)] = value.items()
        if key == "Ref":
            return self.ref(arg)
        if key == "Fn::GetAtt":
            logical, attribute = arg if isinstance(arg, list) else arg.split(".", 1)
            return self.get_att(logical, attribute)
        if key == "Fn::Join":
            separator, parts = arg
            return separator.join(str(self.resolve(p)) for p in parts)
        if key == "Fn::Select":
            index, items = arg
            return self.resolve(items)[int(index)]
        if key == "Fn::Split":
            separator, text = arg
            return str(self.resolve(text)).split(separator)
        if key == "Fn::Sub":
            text, extra = (arg, {}) if isinstance(arg, str) else arg
            names = {k: str(self.resolve(v)) for k, v in extra.items()}

            def sub(match: re.Match[str]) -> str:
                name = match.group(1)
                if name in names:
                    return names[name]
                return self.get_att(*name.split(".", 1)) if "." in name else self.ref(name)

            return re.sub(r"\$\{([^}!]+)\}", sub, text)
        return {key: self.resolve(arg)}

    def statements(self, function: str) -> list[dict[str, Any]]:
        """The statements of the role of the function FUNCTION (a logical id), resolved."""
        role = self.template["Resources"][function]["Properties"]["Role"]["Fn::GetAtt"][0]
        found = []
        for resource in self.template["Resources"].values():
            props = resource.get("Properties", {})
            if resource["Type"] == "AWS::IAM::Policy" and {"Ref": role} in props.get("Roles", []):
                found += props["PolicyDocument"]["Statement"]
        for policy in self.template["Resources"][role]["Properties"].get("Policies", []):
            found += policy["PolicyDocument"]["Statement"]
        return [self.resolve(s) for s in found]


def broken_role(context: Context, function: str, mutate: Any) -> Context:
    """CONTEXT with each statement of FUNCTION's role passed through MUTATE (a deliberate break)."""
    statements = context.statements(function)
    broken = Context.of(context.template, context.region, context.stack_name)
    broken.statements = lambda _: [mutate(dict(s)) for s in statements]  # type: ignore[method-assign]
    return broken


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _condition(operator: str, key: str, expected: Any, keys: Mapping[str, Any]) -> bool:
    if_exists = operator.endswith("IfExists")
    operator = operator.removesuffix("IfExists")
    qualifier, _, operator = operator.rpartition(":")
    expected = [str(e) for e in _listed(expected)]
    if key not in keys:  # IAM: a set operator over no values holds for ForAllValues only
        return if_exists or qualifier == "ForAllValues" or operator == "Null"
    values = [str(v) for v in _listed(keys[key])]
    match = {
        "StringEquals": lambda v: v in expected,
        "StringLike": lambda v: any(fnmatchcase(v, e) for e in expected),
        "ArnLike": lambda v: any(fnmatchcase(v, e) for e in expected),
        "ArnEquals": lambda v: v in expected,
        "Bool": lambda v: v.lower() in [e.lower() for e in expected],
        "StringNotEquals": lambda v: v not in expected,
        "StringNotLike": lambda v: not any(fnmatchcase(v, e) for e in expected),
    }[operator]
    if qualifier == "ForAnyValue":
        return any(match(v) for v in values)
    return all(match(v) for v in values)


def _matches(statement: Mapping[str, Any], request: Request) -> bool:
    def action(patterns: Any) -> bool:
        return any(fnmatchcase(request.action.lower(), p.lower()) for p in _listed(patterns))

    def resource(patterns: Any) -> bool:
        return any(fnmatchcase(request.resource, p) for p in _listed(patterns))

    if "Action" in statement and not action(statement["Action"]):
        return False
    if "NotAction" in statement and action(statement["NotAction"]):
        return False
    if "Resource" in statement and not resource(statement["Resource"]):
        return False
    if "NotResource" in statement and resource(statement["NotResource"]):
        return False
    return all(
        _condition(operator, key, expected, request.keys)
        for operator, pairs in statement.get("Condition", {}).items()
        for key, expected in pairs.items()
    )


def allowed(statements: Sequence[Mapping[str, Any]], request: Request) -> bool:
    matching = [s for s in statements if _matches(s, request)]
    return bool(matching) and all(s.get("Effect") == "Allow" for s in matching)


def _pk(item: Mapping[str, Any]) -> str:
    return str(next(iter(item["pk"].values())))


def _query_pk(params: Mapping[str, Any]) -> list[str]:
    found = re.findall(r"\bpk\s*=\s*(:\w+)", params.get("KeyConditionExpression", ""))
    return [str(next(iter(params["ExpressionAttributeValues"][n].values()))) for n in found]


def _dynamodb(context: Context, operation: str, params: Mapping[str, Any]) -> list[Request]:
    def table(name: str) -> str:
        return name if name.startswith("arn:") else context.arn("dynamodb", f"table/{name}")

    def item(action: str, name: str, pks: list[str]) -> Request:
        return Request(f"dynamodb:{action}", table(name), {"dynamodb:LeadingKeys": pks})

    if operation in ("GetItem", "UpdateItem", "DeleteItem"):
        return [item(operation, params["TableName"], [_pk(params["Key"])])]
    if operation == "PutItem":
        return [item(operation, params["TableName"], [_pk(params["Item"])])]
    if operation == "Query":
        if "IndexName" in params:
            return [Request("dynamodb:Query", f"{table(params['TableName'])}/index/{params['IndexName']}")]
        return [item("Query", params["TableName"], _query_pk(params))]
    if operation == "BatchGetItem":
        return [item(operation, n, [_pk(k) for k in r["Keys"]]) for n, r in params["RequestItems"].items()]
    if operation == "BatchWriteItem":

        def written(w: Mapping[str, Any]) -> str:
            return _pk(w["DeleteRequest"]["Key"] if "DeleteRequest" in w else w["PutRequest"]["Item"])

        return [item(operation, n, [written(w) for w in ws]) for n, ws in params["RequestItems"].items()]
    if operation in ("TransactWriteItems", "TransactGetItems"):
        actions = {"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem"}
        actions |= {"ConditionCheck": "ConditionCheckItem", "Get": "GetItem"}
        found = []
        for entry in params["TransactItems"]:
            [(kind, body)] = entry.items()
            found.append(item(actions[kind], body["TableName"], [_pk(body.get("Key") or body["Item"])]))
        return found
    raise KeyError(f"no IAM mapping for dynamodb {operation}")


def requests(context: Context, call: Call) -> list[Request]:
    """The requests IAM authorizes for CALL."""
    p, op = call.params, call.operation
    if call.service == "dynamodb":
        return _dynamodb(context, op, p)
    simple: dict[tuple[str, str], tuple[str, str, dict[str, Any]]] = {
        ("cloudwatch", "PutMetricData"): ("*", "", {"cloudwatch:namespace": p.get("Namespace")}),
        ("cloudwatch", "GetMetricData"): ("*", "", {}),
        ("lambda", "GetAccountSettings"): ("*", "", {}),
    }
    if (call.service, op) in simple:
        resource, _, keys = simple[(call.service, op)]
        return [Request(f"{call.service}:{op}", resource, keys)]
    if (call.service, op) == ("lambda", "GetProvisionedConcurrencyConfig"):
        rest = f"function:{p['FunctionName']}:{p['Qualifier']}"
        return [Request("lambda:GetProvisionedConcurrencyConfig", context.arn("lambda", rest))]
    if (call.service, op) == ("codedeploy", "ListDeployments"):
        rest = f"deploymentgroup:{p.get('applicationName', '')}/{p.get('deploymentGroupName', '')}"
        return [Request("codedeploy:ListDeployments", context.arn("codedeploy", rest))]
    if (call.service, op) == ("synthetics", "GetCanary"):
        return [Request("synthetics:GetCanary", context.arn("synthetics", f"canary:{p['Name']}"))]
    if (call.service, op) == ("logs", "PutRetentionPolicy"):
        group = context.arn("logs", f"log-group:{p['logGroupName']}")
        return [Request("logs:PutRetentionPolicy", group)]
    if (call.service, op) == ("lambda", "Invoke"):
        name = p["FunctionName"]
        arn = name if name.startswith("arn:") else context.arn("lambda", f"function:{name}")
        return [Request("lambda:InvokeFunction", arn)]
    if (call.service, op) == ("codedeploy", "PutLifecycleEventHookExecutionStatus"):
        group = context.deployments[p["deploymentId"]]
        return [Request(f"codedeploy:{op}", context.arn("codedeploy", f"deploymentgroup:{group}"))]
    if (call.service, op) == ("cloudformation", "DescribeStacks"):
        name = p["StackName"]
        arn = name if name.startswith("arn:") else context.arn("cloudformation", f"stack/{name}/{STACK_UUID}")
        return [Request("cloudformation:DescribeStacks", arn)]
    if call.service == "secretsmanager" and op == "GetSecretValue":
        secret = p["SecretId"]
        named = context.arn("secretsmanager", f"secret:{secret}-AbCdEf")
        arn = secret if secret.startswith("arn:") else named
        return [Request("secretsmanager:GetSecretValue", arn)]
    if call.service == "cognito-idp" and op.startswith("Admin"):
        return [Request(f"cognito-idp:{op}", context.arn("cognito-idp", f"userpool/{p['UserPoolId']}"))]
    if call.service == "appconfigdata" and op == "StartConfigurationSession":
        rest = (
            f"application/{p['ApplicationIdentifier']}/environment/{p['EnvironmentIdentifier']}"
            f"/configuration/{p['ConfigurationProfileIdentifier']}"
        )
        return [Request("appconfig:StartConfigurationSession", context.arn("appconfig", rest))]
    if call.service == "appconfigdata" and op == "GetLatestConfiguration":
        if context.appconfig is None:
            raise KeyError("an AppConfig read without a profile to read")
        application, environment, profile = context.appconfig
        rest = f"application/{application}/environment/{environment}/configuration/{profile}"
        return [Request("appconfig:GetLatestConfiguration", context.arn("appconfig", rest))]
    raise KeyError(f"no IAM mapping for {call.service} {op}")


def denials(context: Context, function: str, calls: Sequence[Call]) -> list[str]:
    """What IAM would refuse of CALLS made by the function FUNCTION (logical id), in words."""
    statements = context.statements(function)
    refused = []
    for call in calls:
        for request in requests(context, call):
            if not allowed(statements, request):
                refused.append(f"{request.action} on {request.resource} {dict(request.keys) or ''}".strip())
    return refused
