"""Every AWS SDK call a function makes anywhere in the suite, judged at the end of the run against
that function's role in the synthesized template, as IAM would (tests/infra/iam_eval.py): a call
added anywhere a test drives a handler is judged, with no test of its own to remember.

- Recording, in every test process: one botocore `provide-client-params` hook, registered before
  any client is made on the two sessions the code makes clients from (the functions' botocore
  session, shared/dynamo/client.py, and boto3's default one). A call is the function's whose
  handler module (shared/http/routes.py) is on the stack when it is made; others are not kept.
  Resource names the tests choose (the table, the user pool, a secret, a queue, the AppConfig
  profile) become the variable the function reads them from, so they are judged as the template
  names them. Calls of the same shape are kept once. Each process writes its calls to the run's
  folder (CALLS_DIR, made by the first process) when its session ends.
- Judging, in the process that ran the session (under xdist, the controller, after its workers):
  on a whole run (no paths, -k or -m; or JUDGE=1), the calls of every function against its role in
  the prod template the infra tests wrote to the folder; a function with fewer than MIN_CALLS
  recorded calls fails (a hook that sees nothing must not pass), as does any implicit deny or a
  kind of call iam_eval cannot map. The folder goes when the run ends.
"""

import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.http import routes
from shared.runtime.flags import APPCONFIG

CALLS_DIR = "WORDSQD_AWS_CALLS_DIR"
JUDGE = "WORDSQD_JUDGE_CALLS"
TEMPLATE = "template.json"  # the prod stage's, written by tests/infra/conftest.py
HANDLER_MODULES = frozenset(
    entry.split(":")[0]
    for entry in (
        *routes.HANDLERS.values(),
        routes.RESET_HANDLER,
        routes.EXPIRE_HANDLER,
        routes.REMINDER_SCAN_HANDLER,
        routes.REMINDER_SEND_HANDLER,
        routes.CLOSING_PIECE_HANDLER,
        routes.COUNTERS_HANDLER,
    )
)
# Calls (distinct shapes) a whole run must record of each function's handler: each drives its
# code through moto or a Stubber somewhere. validate makes none (and any it made is judged).
MIN_CALLS = {  # about a tenth of what tests/http and tests/services alone record (measured)
    "functions.daily.handler": 100,
    "functions.leaderboard.handler": 50,
    "functions.moderation.handler": 25,
    "functions.daily.reset": 1,
    "functions.daily.expire": 50,
    "functions.leaderboard.counters": 200,
    "functions.daily.closing_piece": 150,
    "functions.reminders.scan": 5,
    "functions.reminders.send": 3,
}
# Parameters that name a resource, and the variable the function reads the name from.
NAMED_BY = {
    "TableName": "TABLE_NAME",
    "UserPoolId": "USER_POOL_ID",
    "ApplicationIdentifier": APPCONFIG[0],
    "EnvironmentIdentifier": APPCONFIG[1],
    "ConfigurationProfileIdentifier": APPCONFIG[2],
}
SECRET_VARIABLES = ("PUZZLE_SEED_SECRET_ARN", "CURSOR_KEY_SECRET_ARN", "VAPID_KEY_SECRET_ARN")
QUEUE_VARIABLES = ("CLOSING_QUEUE_URL", "REMINDER_QUEUE_URL")
REPO = Path(__file__).resolve().parents[1]
NOBODYS = (str(REPO / "local") + os.sep, str(REPO / "benchmarks") + os.sep)
_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f-]{27}|[0-9A-Za-z_-]{16,}")  # uuids and long tokens

_recorded: dict[str, dict[str, dict[str, Any]]] = {}  # handler module -> shape -> call


# The queues' in-process stand-ins (locally and in tests): what runs under them is the work of the
# queue's worker, not of the function that sent the message.
HANDED_TO = {
    ("shared.runtime.push", "InstantQueue.send"): routes.REMINDER_SEND_HANDLER.split(":")[0],
    ("shared.runtime.piece_queue", "MemoryQueue.drain"): routes.CLOSING_PIECE_HANDLER.split(":")[0],
}


def _handler_module() -> str | None:
    """The innermost handler module on the stack (or the worker a stand-in queue hands to); none
    where `make run`'s stand-ins (local/: the stream poller, the store) or a benchmark's meter
    (benchmarks/meter.py, which some tests use) make the call."""
    frame = sys._getframe(2)
    while frame is not None:
        module = frame.f_globals.get("__name__")
        if module in HANDLER_MODULES:
            return module  # type: ignore[no-any-return]
        if frame.f_code.co_filename.startswith(NOBODYS):
            return None
        handed = HANDED_TO.get((module, frame.f_code.co_qualname))  # type: ignore[arg-type]
        if handed is not None:
            return handed
        frame = frame.f_back
    return None


def _named(value: Any, names: dict[str, str]) -> Any:
    """VALUE with each resource name the function reads from its environment (NAMES: value ->
    variable) as `${VARIABLE}`."""
    if isinstance(value, dict):
        found = {}
        for key, item in value.items():
            if key in NAMED_BY and isinstance(item, str):
                found[key] = f"${{{NAMED_BY[key]}}}"
            elif key == "RequestItems" and isinstance(item, dict):
                found[key] = {"${TABLE_NAME}": _named(next(iter(item.values())), names)}
            else:
                found[key] = _named(item, names)
        return found
    if isinstance(value, list):
        return [_named(v, names) for v in value]
    if isinstance(value, str) and value in names:
        return f"${{{names[value]}}}"
    if isinstance(value, bytes | bytearray):
        return value.hex()
    return value


def _hook(params: dict[str, Any], model: Any, **_: Any) -> None:
    module = _handler_module()
    if module is None:
        return
    names = {os.environ[v]: v for v in (*SECRET_VARIABLES, *QUEUE_VARIABLES) if os.environ.get(v)}
    service, named = model.service_model.service_name, _named(params, names)
    call = {"service": service, "operation": model.name, "params": named}
    text = json.dumps(call, sort_keys=True, default=repr)
    shapes = _recorded.setdefault(module, {})
    shape = _ID.sub("0", text)
    if shape not in shapes:
        shapes[shape] = json.loads(text)


def start_recording() -> None:
    """Called once, before any client is made (tests/conftest.py)."""
    import boto3

    from shared.dynamo.client import aws_session

    for events in (aws_session().get_component("event_emitter"), boto3._get_default_session().events):
        events.register("provide-client-params", _hook)


def recorded() -> dict[str, list[dict[str, Any]]]:
    """This process's calls so far, by handler module."""
    return {module: list(calls.values()) for module, calls in _recorded.items()}


def _folder() -> Path:
    if not os.environ.get(CALLS_DIR):
        os.environ[CALLS_DIR] = tempfile.mkdtemp(prefix="wordsqd-aws-calls-")
    return Path(os.environ[CALLS_DIR])


def keep_template(template: dict[str, Any], region: str, stack_name: str) -> None:
    """The prod stage's template, for the judging (tests/infra/conftest.py)."""
    text = json.dumps({"template": template, "region": region, "stack_name": stack_name})
    (_folder() / TEMPLATE).write_text(text)


def pytest_configure(config: pytest.Config) -> None:
    _folder()  # made here, before xdist starts its workers: they inherit the variable


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = _folder()
    worker = getattr(session.config, "workerinput", {}).get("workerid", "main")
    (folder / f"calls-{worker}.json").write_text(json.dumps(recorded()))
    if hasattr(session.config, "workerinput"):
        return  # the controller judges, once its workers are done
    try:
        if _whole_run(session.config):
            _report(session, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _report(session: pytest.Session, folder: Path) -> None:
    try:
        problems = judge(folder)
    except Exception as error:  # a judge that cannot judge fails the run, legibly
        problems = [f"the calls could not be judged: {error!r}"]
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_sep("=", "AWS calls judged against the functions' roles (tests/aws_calls.py)")
        counts = {module: len(calls) for module, calls in sorted(_merged(folder).items())}
        reporter.write_line(f"calls of each shape recorded: {counts}")
        for line in problems or ["every call allowed"]:
            reporter.write_line(line)
    if problems:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _whole_run(config: pytest.Config) -> bool:
    if os.environ.get(JUDGE) == "1":
        return True
    option = config.option
    chosen = (
        option.keyword
        or option.markexpr
        or any(getattr(option, name, None) for name in ("deselect", "lf", "stepwise", "exitfirst"))
    )
    return config.args_source == pytest.Config.ArgsSource.TESTPATHS and not chosen


def _merged(folder: Path) -> dict[str, list[dict[str, Any]]]:
    merged: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(folder.glob("calls-*.json")):
        for module, calls in json.loads(path.read_text()).items():
            merged.setdefault(module, []).extend(calls)
    return merged


def _functions(template: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(handler module, logical id, properties) of each of our functions in TEMPLATE."""
    for logical, resource in template["Resources"].items():
        props = resource.get("Properties", {})
        module = str(props.get("Handler", "")).removesuffix(".handler")
        if resource["Type"] == "AWS::Lambda::Function" and module in HANDLER_MODULES:
            yield module, logical, props


def judge(folder: Path) -> list[str]:
    """What is wrong with the calls recorded in FOLDER: each implicit deny, each function with too
    few calls, or no template to judge them by."""
    from tests.infra.iam_eval import Call, Context, denials

    if not (folder / TEMPLATE).exists():
        return ["no template to judge the calls by: the infra tests did not synthesize it"]
    kept = json.loads((folder / TEMPLATE).read_text())
    template = kept["template"]
    calls = _merged(folder)
    problems = []
    for module, logical, props in sorted(_functions(template)):
        context = Context.of(template, kept["region"], kept["stack_name"])
        given = props.get("Environment", {}).get("Variables", {})
        variables = {k: str(context.resolve(v)) for k, v in given.items()}
        if all(name in variables for name in APPCONFIG):
            context.appconfig = tuple(variables[name] for name in APPCONFIG)
        mine = calls.get(module, [])
        if len(mine) < MIN_CALLS.get(module, 0):
            problems.append(f"{module}: {len(mine)} calls recorded, fewer than {MIN_CALLS[module]}")
        judged = []
        for call in mine:
            text = json.dumps(call["params"])
            for variable in (*NAMED_BY.values(), *SECRET_VARIABLES, *QUEUE_VARIABLES):
                text = text.replace(f"${{{variable}}}", variables.get(variable, f"<{variable} not given>"))
            judged.append(Call(call["service"], call["operation"], json.loads(text)))
        try:
            problems += [f"{module}: {refusal}" for refusal in denials(context, logical, judged)]
        except KeyError as unmapped:  # a kind of call iam_eval cannot judge yet: map it
            problems.append(f"{module}: {unmapped.args[0]}")
    return problems
