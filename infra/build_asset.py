"""Build the one Lambda asset folder without Docker: `python -m infra.build_asset` (`make build`).

The folder (build/lambda by default) holds
- the runtime dependencies of pyproject.toml's `[project].dependencies`, installed by pip as
  prebuilt wheels for the Lambda platform (Linux arm64, CPython 3.12), whatever this machine is
  (a pure-Python package PyPI has as source only, `SOURCE_ONLY`, is made a wheel here first);
- the code every function imports from the repository root: functions/ and shared/;
- the word list: dictionary/'s data files (*.txt, *.tsv), not its build script.

The exact set of wheels is locked in infra/lambda-requirements.txt (every package, transitive ones
included, at one version), so two builds months apart ship the same code; `make lock` (this script
with --lock) rewrites it from pyproject.toml after a dependency change.

Three things make cold starts cheaper (SPEC §6; docs/operations.md "Cold starts"):
- botocore's data is cut to the services the code calls (`BOTOCORE_SERVICES`) plus the
  endpoint/partition/retry files botocore itself reads: 449 services' models are ~28 MB; its
  endpoints.json keeps only those services' entries (read whole by the first client), and the kept
  services' models lose their documentation strings (parsed whole by each service's first client);
- every module ships precompiled (`compileall --invalidation-mode unchecked-hash`, by a CPython
  of PYTHON_VERSION, found by `lambda_python()`): Lambda's code folder is read-only, so without
  .pyc files every cold start compiles every module it imports. Unchecked-hash .pyc files are
  used without comparing timestamps (the asset never changes under them) and are deterministic;
- the functions trust only the roots AWS's endpoints chain to (`AWS_ROOTS`, written to
  `AWS_ROOTS_FILE` from botocore's own CA bundle; the stack points AWS_CA_BUNDLE at it): loading
  botocore's whole bundle (~126 certificates) into the container's TLS context is ~200 M
  instructions, as much as the word list; the five roots are 5% of that. Every endpoint the
  functions call (DynamoDB, Secrets Manager, Cognito, STS) has an Amazon Trust Services
  certificate, and these five are the roots Amazon Trust Services tells a custom trust store to
  hold (https://www.amazontrust.com/repository/). A server chained to any other root is refused.

pip runs only when the locked list or the target platform changed (a stamp file beside the
folder records what was installed), and only changed code files are rewritten, so a second build
takes a second or two. Same inputs give byte-identical files (PYTHONHASHSEED=0 when compiling),
hence the same CDK asset hash and no needless redeploys.
"""

import argparse
import fcntl
import filecmp
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

from infra.aws_roots import AWS_ROOTS, write_aws_roots

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "build" / "lambda"

# The Lambda runtime the wheels are for; infra.functions.RUNTIME must name the same Python.
PYTHON_VERSION = "3.12"
PLATFORM = "manylinux2014_aarch64"  # Lambda arm64 (Graviton), glibc 2.17+

LOCK_FILE = REPO_ROOT / "infra" / "lambda-requirements.txt"
CODE_DIRS = ("functions", "shared")
DICTIONARY_FILES = ("*.txt", "*.tsv")

# The AWS services the functions call through botocore: DynamoDB (shared/dynamo/client.py), Secrets
# Manager (shared/runtime/secrets.py), Cognito (shared/runtime/accounts.py, `DELETE /me`); STS and
# X-Ray kept for credentials and tracing helpers. Every client the code makes is
# `new_aws_client("<service>")`: the asset test finds each such service here and makes a client of
# each from the asset.
BOTOCORE_SERVICES = ("cognito-idp", "dynamodb", "secretsmanager", "sqs", "sts", "xray")
BYTECODE_TAG = f"cpython-{PYTHON_VERSION.replace('.', '')}"
# Packages whose `__init__` imports every module they have when any name of theirs is imported:
# Powertools' event_handler (every resolver: AppSync, Bedrock, VPC Lattice, ... with asyncio and
# their event classes) and its data_classes (some 35 event types: the HTTP resolver asks for two).
# The functions use the HTTP API's resolver and its events alone. In the asset each `__init__`
# imports each name on first use instead (PEP 562): the same names, the same modules, loaded only
# when asked for.
LAZY_PACKAGES = ("aws_lambda_powertools/event_handler", "aws_lambda_powertools/utilities/data_classes")


def lambda_python() -> str:
    """A CPython of PYTHON_VERSION to compile the asset's bytecode with: $LAMBDA_PYTHON, then
    python3.12 on PATH, then pyenv's. Bytecode is per minor version, so no other will do."""
    candidates = [os.environ.get("LAMBDA_PYTHON"), shutil.which(f"python{PYTHON_VERSION}")]
    candidates += sorted(
        glob.glob(os.path.expanduser(f"~/.pyenv/versions/{PYTHON_VERSION}.*/bin/python{PYTHON_VERSION}"))
    )
    candidates.append(sys.executable)
    for candidate in filter(None, candidates):
        try:
            version = subprocess.run(
                [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            continue
        if version == PYTHON_VERSION:
            return candidate
    raise RuntimeError(
        f"No Python {PYTHON_VERSION} to compile the asset's bytecode: install it or set LAMBDA_PYTHON"
    )


def compile_code(out: Path, *folders: Path) -> None:
    """Precompile every module under FOLDERS (unchecked-hash .pyc beside each source)."""
    subprocess.run(
        [lambda_python(), "-m", "compileall", "-q", "-j", "0", "--invalidation-mode", "unchecked-hash",
         *[str(f) for f in folders if f.exists()]],
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        stdout=subprocess.DEVNULL,
    )  # fmt: skip


def _prune_aws_data(out: Path) -> None:
    """Keep botocore's models of the services the code calls and the files botocore always
    reads (endpoints, partitions, retry and default configuration)."""
    for entry in (out / "botocore" / "data").iterdir():
        if entry.is_dir() and entry.name not in BOTOCORE_SERVICES:
            shutil.rmtree(entry)
    _prune_endpoints(out / "botocore" / "data" / "endpoints.json")
    for model in sorted((out / "botocore" / "data").glob("*/*/service-2.json*")):
        _strip_documentation(model)


def _prune_endpoints(path: Path) -> None:
    """botocore reads endpoints.json (1.25 MB: every service in every partition) whole when it
    makes its first client: ~28 ms of CPU in every container's cold start (55 -> 26 ms). Keep
    each partition as it is but with only BOTOCORE_SERVICES' entries. The file stays where botocore
    looks, so it still counts as its built-in data (endpoint rule sets resolve as before)."""
    endpoints = json.loads(path.read_text())
    for partition in endpoints["partitions"]:
        partition["services"] = {
            name: service for name, service in partition["services"].items() if name in BOTOCORE_SERVICES
        }
    path.write_text(json.dumps(endpoints, indent=1, sort_keys=True) + "\n")


def without_documentation(node: Any) -> Any:
    """A botocore service model without its documentation strings (a member that happens to be
    named "documentation" is a shape, not a string, and stays)."""
    if isinstance(node, dict):
        return {
            key: without_documentation(value)
            for key, value in node.items()
            if not (key == "documentation" and isinstance(value, str))
        }
    if isinstance(node, list):
        return [without_documentation(value) for value in node]
    return node


def _strip_documentation(path: Path) -> None:
    """botocore parses a service's whole model when it makes its first client of it; four fifths of
    DynamoDB's (556 KB) are documentation strings, used only for docstrings and help. Without them
    the model is 121 KB and the client is ~3 ms of CPU quicker to make. Written back gzipped or not
    as it came, deterministically (no timestamp in the gzip header)."""
    gzipped = path.suffix == ".gz"
    raw = gzip.decompress(path.read_bytes()) if gzipped else path.read_bytes()
    text = json.dumps(without_documentation(json.loads(raw)), separators=(",", ":")).encode()
    path.write_bytes(gzip.compress(text, mtime=0) if gzipped else text)


LAZY_INIT = '''"""{doc} (made lazy by infra/build_asset.py: each name is imported on first use)"""

import importlib

_MODULES = {modules!r}
__all__ = {names!r}


def __getattr__(name):
    if name not in _MODULES:
        raise AttributeError(f"module {{__name__!r}} has no attribute {{name!r}}")
    value = getattr(importlib.import_module(_MODULES[name], __name__), name)
    globals()[name] = value
    return value
'''


def make_lazy(init: Path) -> None:
    """Rewrite a package `__init__` made only of `from <module> import <names>` statements (absolute
    or relative, and an `__all__`) so that each name is imported from its module on first use."""
    import ast

    tree = ast.parse(init.read_text(encoding="utf-8"))
    modules: dict[str, str] = {}
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            module = "." * node.level + node.module  # relative to the package, as import_module takes it
            modules.update({alias.name: module for alias in node.names if alias.asname is None})
        elif isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]:
            names = list(ast.literal_eval(node.value))
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            raise ValueError(f"{init}: not only imports, cannot be made lazy")
    doc = (ast.get_docstring(tree) or "").strip().replace('"""', "'")
    init.write_text(LAZY_INIT.format(doc=doc, modules=modules, names=names or sorted(modules)))


def runtime_dependencies() -> list[str]:
    with (REPO_ROOT / "pyproject.toml").open("rb") as f:
        return list(tomllib.load(f)["project"]["dependencies"])


def _stamp_path(out: Path) -> Path:
    # Beside the folder, not in it: the stamp must not become part of the deployed asset.
    return out.with_name(out.name + ".stamp.json")


def locked_requirements() -> list[str]:
    """The `name==version` lines of the lock file."""
    lines = LOCK_FILE.read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


# Pure-Python packages PyPI has as source only: made a wheel here first, found like any wheel.
SOURCE_ONLY = ("http-ece",)


def _source_wheels(scratch: Path, locked: list[str] | None = None) -> list[str]:
    """pip's `--find-links` to wheels of SOURCE_ONLY (their LOCKED versions, else the newest)."""
    pinned = {line.split("==")[0]: line for line in locked or []}
    wanted = [pinned.get(name, name) for name in SOURCE_ONLY if locked is None or name in pinned]
    if wanted:
        pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps"]
        subprocess.run([*pip, "--wheel-dir", str(scratch), *wanted], check=True)
    return ["--find-links", str(scratch)]


def _pip_install(out: Path, *requirements: str, platform: str = PLATFORM) -> None:
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install",
            "--quiet", "--disable-pip-version-check", "--no-warn-script-location",
            "--platform", platform,
            "--implementation", "cp",
            "--python-version", PYTHON_VERSION,
            "--only-binary=:all:",  # never build from source: it would build for this machine
            "--no-compile",  # this interpreter's .pyc files would be useless on Lambda's
            "--target", str(out),
            *requirements,
        ],
        check=True,
    )  # fmt: skip


def install_dependencies(out: Path, locked: list[str], platform: str) -> None:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as wheels:  # the lock already names every package
        _pip_install(out, "--no-deps", *_source_wheels(Path(wheels), locked), *locked, platform=platform)
    # Console scripts carry this machine's interpreter path; nothing on Lambda runs them.
    shutil.rmtree(out / "bin", ignore_errors=True)
    _prune_aws_data(out)
    write_aws_roots(out)
    for package in LAZY_PACKAGES:
        make_lazy(out / package / "__init__.py")
    compile_code(
        out,
        *[p for p in out.iterdir() if p.is_dir() and p.name not in (*CODE_DIRS, "dictionary")],
        *out.glob("*.py"),  # top-level modules: six, typing_extensions
    )


def write_lock() -> list[str]:
    """Resolve pyproject.toml's runtime dependencies for the Lambda platform and lock the result."""
    with tempfile.TemporaryDirectory() as scratch, tempfile.TemporaryDirectory() as wheels:
        _pip_install(Path(scratch), *_source_wheels(Path(wheels)), *runtime_dependencies())
        locked = sorted(
            f"{name}=={version}"
            for metadata in Path(scratch).glob("*.dist-info/METADATA")
            for name, version in [_name_and_version(metadata)]
        )
    header = [
        f"# The Lambda asset's packages for {PLATFORM}, CPython {PYTHON_VERSION}: written by",
        "# `make lock` from pyproject.toml's [project].dependencies; do not edit by hand.",
    ]
    LOCK_FILE.write_text("\n".join([*header, *locked]) + "\n")
    return locked


def _name_and_version(metadata: Path) -> tuple[str, str]:
    fields = dict(
        line.split(": ", 1)
        for line in metadata.read_text().splitlines()
        if line.startswith(("Name: ", "Version: "))
    )
    return fields["Name"].lower().replace("_", "-"), fields["Version"]


def _code_files() -> dict[str, Path]:
    """Asset-relative path -> source file, for everything copied from the repository."""
    files = {}
    for name in CODE_DIRS:
        for path in (REPO_ROOT / name).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files[path.relative_to(REPO_ROOT).as_posix()] = path
    for pattern in DICTIONARY_FILES:
        for path in (REPO_ROOT / "dictionary").glob(pattern):
            files[f"dictionary/{path.name}"] = path
    return files


def _sync_code(out: Path) -> None:
    """Make out/functions, out/shared and out/dictionary mirror the repository. Only changed files
    are rewritten, each by an atomic rename, so a synth reading the folder never sees a hole."""
    wanted = _code_files()
    for name in (*CODE_DIRS, "dictionary"):
        for path in sorted((out / name).rglob("*"), reverse=True):  # files before their folders
            relative = path.relative_to(out).as_posix()
            if "__pycache__" in path.parts:
                continue  # bytecode: _stale_bytecode decides
            if path.is_file() and relative not in wanted:
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    for relative, source in wanted.items():
        target = out / relative
        if target.is_file() and filecmp.cmp(source, target, shallow=False):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        shutil.copy2(source, partial)
        os.replace(partial, target)


def build(out: Path = DEFAULT_OUT, *, force: bool = False, platform: str = PLATFORM) -> Path:
    """Write the asset folder `out` and return it; reinstall dependencies only when needed."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    # One build at a time per folder: `make build` and a test run may overlap.
    with out.with_name(out.name + ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(out, force, platform)


def _build(out: Path, force: bool, platform: str) -> Path:
    stamp = {
        "python": PYTHON_VERSION,
        "platform": platform,
        "dependencies": locked_requirements(),
        "botocore_services": list(BOTOCORE_SERVICES),
        "bytecode": "unchecked-hash",
        "endpoints": "services kept only",
        "service models": "without documentation",
        "lazy packages": list(LAZY_PACKAGES),
        "trusted roots": list(AWS_ROOTS),
    }
    stamp_path = _stamp_path(out)
    current = json.loads(stamp_path.read_text()) if stamp_path.exists() else None
    if force or current != stamp or not out.is_dir():
        stamp_path.unlink(missing_ok=True)  # a failed install must not look finished
        install_dependencies(out, stamp["dependencies"], platform)
        stamp_path.write_text(json.dumps(stamp, indent=2) + "\n")
    _sync_code(out)
    # Bytecode of another interpreter (left by anything that imported from the folder) is dead
    # weight on Lambda's; so is bytecode whose source is gone.
    for pyc in list(out.rglob("*.pyc")):
        source = pyc.parent.parent / (pyc.name.split(".")[0] + ".py")
        if BYTECODE_TAG not in pyc.name or not source.exists():
            pyc.unlink()
    # The code changes between builds: recompile it (a second or two; dependencies were compiled
    # once, at install). Unchanged sources give identical .pyc files.
    compile_code(out, *[out / name for name in CODE_DIRS])
    return out


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="asset folder to write")
    parser.add_argument("--force", action="store_true", help="reinstall the dependencies")
    parser.add_argument("--lock", action="store_true", help=f"rewrite {LOCK_FILE.name} first")
    args = parser.parse_args()
    started = time.monotonic()
    if args.lock:
        print(f"{LOCK_FILE.relative_to(REPO_ROOT)}: {len(write_lock())} packages")
    out = build(args.out, force=args.force)
    size_mb = folder_size(out) / 1e6
    print(f"{out}: {size_mb:.0f} MB, built in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
