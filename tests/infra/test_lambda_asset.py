"""The real Lambda asset, built as `make build` builds it (build/lambda; pip runs only when the
dependencies changed, so a warm run takes well under a second).

This machine is neither arm64 nor CPython 3.12, so the compiled half of pydantic (pydantic_core)
cannot load here. What can be proven offline is proven: every native extension is built for
Lambda's platform (read from its ELF header), the entry points are where Lambda will look, and the
pure-Python code imports and runs from the asset alone, in an interpreter that sees nothing else.
Running the handlers themselves on arm64 is left to a deployment.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from infra.build_asset import PYTHON_VERSION, build, folder_size
from shared.routes import HANDLERS, RESET_HANDLER

pytestmark = pytest.mark.infra  # pip-installs the dependencies on its first run

ELF_MAGIC = b"\x7fELF"
EM_AARCH64 = 183  # e_machine of an arm64 ELF file
LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024


@pytest.fixture(scope="module")
def asset() -> Path:
    return build()


def test_asset_holds_the_code_and_the_word_list_but_not_the_build_script(asset):
    for path in ["functions/validate/handler.py", "shared/rules.py", "dictionary/words.txt"]:
        assert (asset / path).is_file(), path
    assert not (asset / "dictionary" / "build.py").exists()
    assert not list(asset.rglob("__pycache__"))  # no .pyc of this machine's interpreter
    assert not (asset / "local").exists()  # the local server is never deployed


@pytest.mark.parametrize("entry", sorted({*HANDLERS.values(), RESET_HANDLER}))
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
    # asset. -B: leave no bytecode behind in the asset.
    script = f"""
import sys
sys.path.insert(0, {str(asset)!r})
from shared.dictionary import words
from shared.rules import judge
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
