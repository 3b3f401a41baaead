# The project's vocabulary. `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export PYTHONPATH := $(CURDIR)
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20
export CDK_DISABLE_CLI_TELEMETRY := true
# Python keeps compiled modules (and pytest its rewritten test modules) in __pycache__, git-ignored.
# A shell that turns this off (PYTHONDONTWRITEBYTECODE=1, as some containers do) makes every test
# worker and every server the tests start compile the project again: about 2 s of CPU each.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test web-tests browser-deps unit server infra-tests lint typecheck format bench puzzles rush openapi build lock synth preflight deploy dictionary clean

# A stage of infra/stages.json, and (optional) the account to deploy to; without ACCOUNT the
# caller's credentials name it. Both travel as CDK context: `-c stage=... -c account=...`.
STAGE ?= dev
CONTEXT := -c stage=$(STAGE) $(if $(ACCOUNT),-c account=$(ACCOUNT))
CDK ?= npx --yes aws-cdk@2.1148.1

$(VENV)/.dev: pyproject.toml
	@echo "make: installing the project's Python packages into $(VENV) from PyPI (the first time: a few minutes)"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet ".[dev]"
	touch $@

$(VENV)/.infra: $(VENV)/.dev
	@echo "make: installing the CDK and the template linters into $(VENV) (the first time: a few minutes)"
	$(PY) -m pip install --quiet ".[dev,infra]"
	touch $@

## run: serve the API on http://127.0.0.1:$${PORT:-8000} with an embedded DynamoDB store
run: $(VENV)/.dev
	$(PY) -m local.server

## test: lint, type check, then every test (unit, handler, moto server races, local server with the
## schemathesis run, CDK template) with branch coverage; fails under the threshold in pyproject.toml
test: $(VENV)/.infra browser-deps lint typecheck web-tests
	$(PY) -m pytest -n 2 --dist loadgroup --cov --cov-report=term

## web-tests: the web client's pure helpers and module rules under node --test (tests/web/, no pytest; npm ci installs acorn the first time)
web-tests:
	@scripts/web_tests.sh

## browser-deps: Chromium and its emoji font for the browser tests (installed as root on Debian, else one line says how)
browser-deps:
	@scripts/browser_deps.sh

unit: $(VENV)/.dev
	$(PY) -m pytest -m "not server and not infra"

server: $(VENV)/.dev
	$(PY) -m pytest -m server

infra-tests: $(VENV)/.infra
	$(PY) -m pytest -m infra tests/infra

lint: $(VENV)/.dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

## typecheck: mypy, strict, on shared/, functions/, local/ and the fakes (configured in pyproject.toml)
typecheck: $(VENV)/.dev
	$(PY) -m mypy

format: $(VENV)/.dev
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

## bench: run the benchmarks (validate, daily, boards, recap, closing_pass at 1,000 runs, renames, floors, cost, coldstart, scripts/rush_plan.py) and write
## their output into benchmarks/FIGURES.md with the commit and date (floors.py fails below a floor, or above 1.1 with no rule named)
bench: $(VENV)/.dev
	$(PY) benchmarks/figures.py

## puzzles: the puzzle report for 365 Dailies (SEED=... START=YYYY-MM-DD): difficulty per round, each rule's figure, best scores
puzzles: $(VENV)/.dev
	$(PY) benchmarks/puzzles.py $(or $(SEED),puzzle-report) --start $(or $(START),2026-01-01)

## rush: the midnight rush on this machine: a few hundred players against `make run`, then the closed board checked (RUSH_PLAYERS=100)
rush: $(VENV)/.dev
	$(PY) benchmarks/rush.py

## openapi: regenerate openapi.json from the handlers' routes
openapi: $(VENV)/.dev
	$(PY) -m functions.openapi > openapi.json

## build: the Lambda asset (runtime dependencies for arm64 + code + word list) in build/lambda
build: $(VENV)/.infra
	$(PY) -m infra.build_asset

## lock: re-resolve the Lambda asset's packages (infra/lambda-requirements.txt) after changing dependencies
lock: $(VENV)/.infra
	$(PY) -m infra.build_asset --lock

## synth: the stage's CloudFormation templates in cdk.out/ (STAGE=dev, ACCOUNT=<the caller's>)
synth: build
	CDK_OUTDIR=cdk.out $(PY) -m infra.app $(CONTEXT)

## preflight: the account's quotas against the stage (STAGE=...): what to raise before a deploy
preflight: $(VENV)/.infra
	$(PY) scripts/preflight.py --stage $(STAGE)

## deploy: the stage's three stacks, outside the midnight freeze and on quotas that fit, then old versions pruned (STAGE=..., ACCOUNT=...)
deploy: build
	$(PY) scripts/deploy_window.py --stage $(STAGE)
	$(PY) scripts/preflight.py --stage $(STAGE)
	$(CDK) deploy --all $(CONTEXT) --outputs-file outputs-$(STAGE).json
	$(PY) scripts/prune_versions.py --stage $(STAGE)

$(VENV)/.dictionary: $(VENV)/.dev
	$(PY) -m pip install --quiet ".[dev,dictionary]"
	touch $@

## dictionary: rebuild the word lists and the puzzle pool from Debian's scowl and hunspell-en-gb packages and wordfreq (byte for byte); prints each step's changes and the coverage
dictionary: $(VENV)/.dictionary
	$(PY) dictionary/build.py --report

clean:
	rm -rf build cdk.out .pytest_cache .ruff_cache .mypy_cache .coverage .coverage.* node_modules
