"""The real Lambda asset, built as `make build` builds it (build/lambda; pip runs only when the
dependencies changed, so a warm run takes a second or two).

This machine is not arm64, so the compiled half of pydantic (pydantic_core) of the arm64 asset
cannot load here. What can be proven offline is proven: every native extension is built for
Lambda's platform (read from its ELF header), every module ships as CPython 3.12 unchecked-hash
bytecode, botocore holds only the services the code calls, and the entry points are where Lambda
will look. Then the same build for this machine's platform (build/lambda-host: same lock, same
pruning, same bytecode) imports every handler in a fresh CPython 3.12 that sees nothing but the
asset, with Lambda's environment variables, and answers a request.
"""

import ast
import hashlib
import json
import platform
import subprocess
import sys
import warnings
from pathlib import Path

import botocore
import pytest

from infra.aws_roots import AWS_ROOTS, AWS_ROOTS_FILE, MissingRoot, roots_of
from infra.build_asset import (
    BOTOCORE_SERVICES,
    BYTECODE_TAG,
    DEFAULT_OUT,
    LAZY_PACKAGES,
    PYTHON_VERSION,
    build,
    folder_size,
    lambda_python,
    locked_requirements,
    without_documentation,
)
from infra.functions import FUNCTIONS

pytestmark = pytest.mark.infra  # pip-installs the dependencies on its first run

ELF_MAGIC = b"\x7fELF"
EM_AARCH64 = 183  # e_machine of an arm64 ELF file
LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024


REPO = Path(__file__).resolve().parents[2]
ENTRY_POINTS = sorted(spec.handler for spec in FUNCTIONS.values())
HOST_PLATFORM = f"manylinux2014_{platform.machine()}"
# What Lambda sets (and what the stack adds) in a function's environment.
LAMBDA_ENV = {
    "AWS_LAMBDA_FUNCTION_NAME": "wordsqd-test",
    "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024",
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "WORDSQD_ENV": "test",
    "TABLE_NAME": "wordsqd-test",
    "PUZZLE_SEED": "asset-test-seed",
    "POWERTOOLS_SERVICE_NAME": "wordsqd",
    "POWERTOOLS_METRICS_NAMESPACE": "WordSQD",
    "POWERTOOLS_TRACER_CAPTURE_RESPONSE": "false",
    "POWERTOOLS_TRACER_CAPTURE_ERROR": "false",
    "POWERTOOLS_METRICS_DISABLED": "true",
    "PATH": "/usr/bin:/bin",
}


@pytest.fixture(scope="module")
def asset() -> Path:
    return build()


@pytest.fixture(scope="module")
def host_asset() -> Path:
    return build(DEFAULT_OUT.with_name("lambda-host"), platform=HOST_PLATFORM)


def run_in_asset(asset: Path, script: str) -> subprocess.CompletedProcess:
    """SCRIPT in a fresh CPython 3.12 that sees only the standard library and the asset (-I -S;
    -B so nothing is written into the asset), with Lambda's environment variables."""
    return subprocess.run(
        [
            lambda_python(),
            "-I",
            "-S",
            "-B",
            "-c",
            f"import sys; sys.path.insert(0, {str(asset)!r})\n{script}",
        ],
        capture_output=True,
        text=True,
        # Lambda's code folder (/var/task) is the asset, and so is the stack's AWS_CA_BUNDLE
        env={**LAMBDA_ENV, "LAMBDA_TASK_ROOT": str(asset), "AWS_CA_BUNDLE": str(asset / AWS_ROOTS_FILE)},
        cwd=asset,
    )


def test_asset_holds_the_code_and_the_word_list_but_not_the_build_script(asset):
    for path in ["functions/validate/handler.py", "shared/game/rules.py", "dictionary/words.txt"]:
        assert (asset / path).is_file(), path
    assert not (asset / "dictionary" / "build.py").exists()
    assert not (asset / "local").exists()  # the local server is never deployed


def test_every_module_ships_as_unchecked_hash_bytecode_for_lambdas_python(asset):
    """Lambda's code folder is read-only: without .pyc files every cold start compiles every module."""
    sources = list(asset.rglob("*.py"))
    assert len(sources) > 500
    for source in sources:
        pyc = source.parent / "__pycache__" / f"{source.stem}.{BYTECODE_TAG}.pyc"
        assert pyc.is_file(), source
        header = pyc.read_bytes()[:16]
        # PEP 552: flags word 0b01 = hash-based, not checked against the source.
        assert int.from_bytes(header[4:8], "little") == 0b01, pyc
    assert not [p for p in asset.rglob("*.pyc") if BYTECODE_TAG not in p.name]


def test_botocore_ships_only_the_services_the_code_calls(asset):
    services = {p.name for p in (asset / "botocore" / "data").iterdir() if p.is_dir()}
    assert services == set(BOTOCORE_SERVICES)
    for needed in ("endpoints.json", "partitions.json", "_retry.json", "sdk-default-configuration.json"):
        assert (asset / "botocore" / "data" / needed).is_file(), needed


def test_the_build_is_reproducible(asset):
    """Same inputs, same bytes (bytecode included), so an unchanged asset is not redeployed."""
    before = {p: p.read_bytes() for p in (asset / "shared").rglob("*") if p.is_file()}
    build()
    after = {p: p.read_bytes() for p in (asset / "shared").rglob("*") if p.is_file()}
    assert before == after


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_every_handler_imports_from_a_built_asset(host_asset, entry):
    module, function = entry.split(":")
    result = run_in_asset(
        host_asset,
        f"""
import gc, importlib
collections = []
gc.callbacks.append(lambda phase, info: collections.append(info) if phase == "start" else None)
handler = getattr(importlib.import_module({module!r}), {function!r})
assert callable(handler)
import shared, aws_lambda_powertools, botocore
for m in (shared, aws_lambda_powertools, botocore):
    assert m.__file__.startswith({str(host_asset)!r}), m.__file__
assert sys.modules[{module!r}].__cached__.endswith("{BYTECODE_TAG}.pyc")
# The init ran without the garbage collector (functions/init_phase.py): without the pause it runs
# 80 to 135 collections; with it at most one, while Python finds the `functions` package, before
# the pause can begin. Then what the init made is frozen, and the collector is on for the requests.
assert len(collections) <= 1, collections
assert gc.isenabled() and gc.get_freeze_count() > 10_000, gc.get_freeze_count()
""",
    )
    assert result.returncode == 0, result.stderr[-3000:]


STATEFUL = sorted(spec.handler for name, spec in FUNCTIONS.items() if name != "validate")


@pytest.mark.parametrize("entry", STATEFUL)
def test_stateful_handlers_make_their_dynamodb_client_during_the_init(host_asset, entry):
    """Lambda's advice for SDK clients: made at init (a provisioned environment pays it before any
    player), not on the first request. Making a client sends nothing."""
    result = run_in_asset(
        host_asset,
        f"""
import importlib
importlib.import_module({entry.split(":")[0]!r})
from shared.runtime import wiring
assert "ports" in vars(wiring._services), "no DynamoDB client made during the init"
assert wiring.ports().client.meta.service_model.service_name == "dynamodb"
""",
    )
    assert result.returncode == 0, result.stderr[-3000:]


def test_validate_imports_no_aws_sdk(host_asset):
    """POST /validate is stateless: its cold start pays for no AWS client, boto3 or X-Ray.
    (Powertools' user agent module imports botocore's bare package, half a millisecond.)"""
    result = run_in_asset(
        host_asset,
        """
import functions.validate.handler
aws = ("botocore.client", "botocore.session", "boto3", "aws_xray_sdk", "shared.runtime.wiring")
print(sorted(m for m in aws if m in sys.modules))
""",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_validate_answers_a_request_from_a_built_asset(host_asset):
    event = {
        "version": "2.0",
        "routeKey": "POST /validate",
        "rawPath": "/validate",
        "rawQueryString": "",
        "headers": {"content-type": "application/json"},
        "requestContext": {
            "http": {"method": "POST", "path": "/validate", "sourceIp": "127.0.0.1"},
            "requestId": "r1",
            "routeKey": "POST /validate",
            "stage": "$default",
        },
        "body": json.dumps({"prompt": "TMR", "word": "Timer"}),
        "isBase64Encoded": False,
    }
    result = run_in_asset(
        host_asset,
        f"""
import json
from functions.validate.handler import handler
class Context:
    function_name = "wordsqd-test"; memory_limit_in_mb = 512; aws_request_id = "r1"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:wordsqd-test"
reply = handler({event!r}, Context())
print(json.dumps(reply))
""",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    reply = json.loads(result.stdout.strip().splitlines()[-1])
    assert reply["statusCode"] == 200
    assert json.loads(reply["body"]) == {"valid": True, "word": "timer", "reason": None}


def _services_the_code_calls() -> set[str]:
    """The SERVICE of every `new_aws_client("<service>")` call in shared/ and functions/."""
    found = set()
    for folder in ("shared", "functions"):
        for path in (REPO / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", getattr(node.func, "attr", None)) == "new_aws_client"
                ):
                    [service] = node.args
                    assert isinstance(service, ast.Constant), f"{path}: a service named by a literal"
                    found.add(service.value)
    return found


def test_every_service_the_code_makes_a_client_of_ships_in_the_asset():
    called = _services_the_code_calls()
    assert {"dynamodb", "secretsmanager", "cognito-idp"} <= called
    assert called <= set(BOTOCORE_SERVICES)


def test_botocore_makes_a_client_of_each_kept_service(host_asset):
    result = run_in_asset(
        host_asset,
        "from shared.dynamo.client import new_aws_client\n"
        f"for s in {list(BOTOCORE_SERVICES)!r}: new_aws_client(s)\n"
        "from shared.runtime.accounts import CognitoAccounts\n"
        "CognitoAccounts('us-east-1_abcdefghi')",
    )
    assert result.returncode == 0, result.stderr[-3000:]


def test_service_models_ship_whole_but_for_their_documentation(asset):
    """The kept services' models are botocore's own (the venv's botocore is the locked version)
    with only the documentation strings gone: every operation and shape is still there."""
    import botocore
    from botocore.loaders import Loader

    assert f"botocore=={botocore.__version__}" in locked_requirements()
    full, shipped = Loader(), Loader(extra_search_paths=[str(asset / "botocore" / "data")])
    shipped.BUILTIN_DATA_PATH = str(asset / "botocore" / "data")
    for service in BOTOCORE_SERVICES:
        original = full.load_service_model(service, "service-2")
        model = shipped.load_service_model(service, "service-2")
        assert model == without_documentation(original) != original, service
        assert model["operations"].keys() == original["operations"].keys()
        assert '"documentation":"' not in json.dumps(model, separators=(",", ":")), service


def test_endpoints_json_lists_only_the_kept_services_in_every_partition(asset):
    endpoints = json.loads((asset / "botocore" / "data" / "endpoints.json").read_text())
    partitions = {p["partition"] for p in endpoints["partitions"]}
    assert {"aws", "aws-cn", "aws-us-gov"} <= partitions
    for partition in endpoints["partitions"]:
        assert set(partition["services"]) <= set(BOTOCORE_SERVICES), partition["partition"]
        assert partition["regions"], partition["partition"]  # the partition itself is whole
    assert "dynamodb" in endpoints["partitions"][0]["services"]


REGIONS = ("us-east-1", "eu-west-1", "ap-southeast-2", "us-gov-west-1", "cn-north-1")


def test_the_pruned_endpoints_resolve_as_botocores_full_data_does(host_asset):
    """Each kept service's endpoint in a few regions of several partitions, from the asset (pruned
    endpoints.json) and from the same botocore version with all its data (the test's own)."""
    script = f"""
import json, botocore.session
session, urls = botocore.session.get_session(), {{}}
for service in {list(BOTOCORE_SERVICES)!r}:
    for region in {list(REGIONS)!r}:
        urls[service + " " + region] = session.create_client(service, region_name=region).meta.endpoint_url
print(json.dumps(urls))
"""
    result = run_in_asset(host_asset, script)
    assert result.returncode == 0, result.stderr[-3000:]
    pruned = json.loads(result.stdout.strip().splitlines()[-1])
    full = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**LAMBDA_ENV, "PATH": "/usr/bin:/bin"},
        check=True,
    )
    assert pruned == json.loads(full.stdout.strip().splitlines()[-1])
    assert pruned["dynamodb us-east-1"] == "https://dynamodb.us-east-1.amazonaws.com"


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_every_entry_point_is_a_function_in_the_asset(asset, entry):
    module, function = entry.split(":")
    source = asset / (module.replace(".", "/") + ".py")
    tree = ast.parse(source.read_text())
    assert function in {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_native_extensions_are_built_for_lambda_arm64(asset):
    extensions = sorted(asset.rglob("*.so"))
    assert any(p.parent.name == "pydantic_core" for p in extensions)
    tag = f"cpython-{PYTHON_VERSION.replace('.', '')}-aarch64-linux-gnu"
    for path in extensions:
        header = path.read_bytes()[:20]
        assert header[:4] == ELF_MAGIC, path
        assert int.from_bytes(header[18:20], "little") == EM_AARCH64, path
        assert tag in path.name or ".abi3." in path.name, path


def test_pure_python_code_imports_and_runs_from_the_asset_alone(asset):
    # -I -S: no site-packages, no user paths, no PYTHONPATH: only the standard library and the
    # asset. -B: leave no bytecode behind in the asset. (This machine's Python: pure code only.)
    script = f"""
import sys
sys.path.insert(0, {str(asset)!r})
from shared.game.dictionary import words
from shared.game.rules import judge
assert judge("timer", "TMR", words()).valid
assert not judge("meter", "TMR", words()).valid
from aws_lambda_powertools import Logger, Metrics, Tracer
import aws_lambda_powertools, shared
for module in (aws_lambda_powertools, shared):
    assert module.__file__.startswith({str(asset)!r}), module.__file__
"""
    result = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_asset_fits_lambda(asset):
    assert folder_size(asset) < LAMBDA_UNZIPPED_LIMIT


def test_the_lock_pins_every_runtime_dependency_at_its_pyproject_version():
    from infra.build_asset import locked_requirements, runtime_dependencies

    locked = dict(line.split("==") for line in locked_requirements())
    for requirement in runtime_dependencies():
        spec = requirement.split(";")[0].split("#")[0].strip()
        name, version = spec.split("==")
        name = name.split("[")[0].lower().replace("_", "-")
        assert locked.get(name) == version.strip(), f"{name}: run `make lock` after changing pyproject.toml"


def test_the_asset_holds_exactly_the_locked_packages(asset):
    from infra.build_asset import locked_requirements

    installed = set()
    for path in asset.glob("*.dist-info"):
        name, version = path.name.removesuffix(".dist-info").rsplit("-", 1)
        installed.add(f"{name.lower().replace('_', '-')}=={version}")
    assert installed == set(locked_requirements())


# SHA-256 of each root's SubjectPublicKeyInfo as Amazon Trust Services publishes them
# (https://www.amazontrust.com/repository/).
AMAZON_TRUST_SERVICES_ROOTS = {
    "Amazon Root CA 1": "fbe3018031f9586bcbf41727e417b7d1c45c2f47f93be372a17b96b50757d5a2",
    "Amazon Root CA 2": "7f4296fc5b6a4e3b35d3c369623e364ab1af381d8fa7121533c9d6c633ea2461",
    "Amazon Root CA 3": "36abc32656acfc645c61b71613c4bf21c787f5cabbee48348d58597803d7abc9",
    "Amazon Root CA 4": "f7ecded5c66047d28ed6466b543c40e0743abe81d109254dcf845d4c2c7853c5",
    "Starfield Services Root Certificate Authority - G2": (
        "2b071c59a0a0ae76b0eadb2bad23bad4580b69c3601b630c2eaf0613afa83f92"
    ),
}


def test_the_asset_trusts_exactly_the_roots_of_amazon_trust_services(asset):
    """The functions' trust store is the five roots Amazon Trust Services tells a custom trust
    store to hold, identified by their public keys, not by name alone."""
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from cryptography.utils import CryptographyDeprecationWarning

    with warnings.catch_warnings():  # Starfield's G2 root has serial number 0, which RFC 5280 disallows
        warnings.simplefilter("ignore", CryptographyDeprecationWarning)
        roots = x509.load_pem_x509_certificates((asset / AWS_ROOTS_FILE).read_bytes())
    published = {}
    for root in roots:
        name = root.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)[0].value
        spki = root.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
        published[name] = hashlib.sha256(spki).hexdigest()
    assert published == AMAZON_TRUST_SERVICES_ROOTS
    assert tuple(published) == AWS_ROOTS


def test_a_root_missing_from_the_ca_bundle_stops_the_build():
    bundle = (Path(botocore.__file__).parent / "cacert.pem").read_text()
    without = bundle.replace('# Label: "Amazon Root CA 3"', '# Label: "Someone Else"')
    with pytest.raises(MissingRoot, match="Amazon Root CA 3"):
        roots_of(without)
    assert roots_of(bundle).count("BEGIN CERTIFICATE") == len(AWS_ROOTS)


def test_a_function_s_clients_trust_the_asset_s_roots_alone(host_asset):
    """With the stack's AWS_CA_BUNDLE, the container's one TLS context holds the five roots (not
    botocore's whole bundle of ~126) and still requires a certificate."""
    result = run_in_asset(
        host_asset,
        """
import ssl
import functions.daily.handler
from shared.runtime.wiring import ports
context = ports().db.boto._endpoint.http_session._get_ssl_context()  # the DynamoDB client's
print(context.cert_store_stats()["x509_ca"], context.verify_mode == ssl.CERT_REQUIRED)
""",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == [str(len(AWS_ROOTS)), "True"]


def test_tracer_patches_only_botocore(host_asset):
    """The Tracer patches the one library whose calls it traces, not every library X-Ray knows."""
    result = run_in_asset(
        host_asset,
        """
import shared.runtime.observability
from aws_xray_sdk.core.patcher import _PATCHED_MODULES
print(sorted(_PATCHED_MODULES))
""",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "['botocore']"


@pytest.fixture(scope="module")
def coldstart():
    """benchmarks/coldstart.py, imported as a module."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        import coldstart
    finally:
        sys.path.pop(0)
    return coldstart


@pytest.fixture(scope="module")
def dynamodb_endpoint(coldstart):
    """One local moto DynamoDB server with the table (moto's state is per process)."""
    with coldstart.dynamodb_server() as endpoint:
        yield endpoint


@pytest.mark.server
@pytest.mark.xdist_group("coldstart_events")
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_answers_its_first_and_a_warm_event_from_a_built_asset(
    host_asset, coldstart, dynamodb_endpoint, name
):
    """What the cold start benchmark runs, as a check: each function, imported from the built
    asset in a fresh CPython 3.12, handles the event a cold container meets at the rush and then
    a second one, against DynamoDB (a local moto server), with a 2xx reply and no exception."""
    events = coldstart.events(name, 0)
    assert len(events) == 2
    if name in ("validate", "daily", "leaderboard", "moderation"):
        assert all(event["routeKey"] != "$default" for event in events)  # a real route
    cold = coldstart.cold_start(
        lambda_python(), host_asset, FUNCTIONS[name].handler, events, dynamodb_endpoint
    )
    assert cold.init > 0 and cold.first is not None and cold.warm is not None


def test_an_api_handler_imports_no_resolver_it_does_not_use(host_asset):
    """Powertools' event_handler package is lazy in the asset: the daily function's init loads
    the HTTP API's resolver, not AppSync's, Bedrock's or VPC Lattice's."""
    result = run_in_asset(
        host_asset,
        """
import sys
import functions.daily.handler
unused = ("appsync", "bedrock_agent", "vpc_lattice", "lambda_function_url", "events_appsync")
print(sorted(m for m in sys.modules if m.startswith("aws_lambda_powertools.event_handler.")
      and m.split(".")[2] in unused))
""",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_a_handler_imports_only_the_event_classes_its_resolver_uses(host_asset):
    """Powertools' data_classes package is lazy in the asset too: of its ~35 event types the
    daily function's init loads the API Gateway ones its resolver reads."""
    result = run_in_asset(
        host_asset,
        """
import sys
import functions.daily.handler
prefix = "aws_lambda_powertools.utilities.data_classes."
print(sorted(m.removeprefix(prefix) for m in sys.modules if m.startswith(prefix)))
""",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    loaded = ast.literal_eval(result.stdout.strip().splitlines()[-1])
    assert "api_gateway_proxy_event" in loaded
    assert not {"kafka_event", "s3_event", "sqs_event", "code_pipeline_job_event"} & set(loaded)


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_a_lazy_package_still_gives_every_name_it_lists(host_asset, package):
    result = run_in_asset(
        host_asset,
        f"""
import importlib
package = importlib.import_module({package.replace("/", ".")!r})
missing = [name for name in package.__all__ if getattr(package, name, None) is None]
print(len(package.__all__), missing)
""",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    count, missing = result.stdout.strip().splitlines()[-1].split(" ", 1)
    assert int(count) > 10 and missing == "[]"


@pytest.mark.server
@pytest.mark.xdist_group("coldstart_events")
def test_the_memory_benchmark_reports_the_function_s_own_peak_not_its_parent_s(
    host_asset, coldstart, dynamodb_endpoint
):
    """benchmarks/memory.py reads each child's own peak (VmHWM). getrusage's ru_maxrss survives
    exec: a child would report the peak of the process it was forked from, here this test
    process, far above a validate function's own."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import memory
    finally:
        sys.path.pop(0)
    events = coldstart.events("validate", 0)
    figures = memory.measure(
        lambda_python(), host_asset, FUNCTIONS["validate"].handler, events, dynamodb_endpoint
    )
    with open("/proc/self/status") as status:
        ours = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    assert 5 < figures["peak_mb"] < min(100, ours)
