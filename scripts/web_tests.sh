#!/bin/sh
# The web client's pure helpers and module rules under `node --test` (tests/web/*.test.mjs): Node 20
# or later and npm, one npm package (package.json: acorn, which parses the modules), no page, no pytest. Fails when a test fails, when there is no test
# file, or when a file holds no test (node --test passes those silently), or one is skipped.
set -u
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1; then
  echo "web tests: Node.js 20 or later is needed (Debian: apt-get install nodejs)" >&2
  exit 1
fi
# acorn, pinned in package-lock.json: installed the first time and again when the lock changes.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  if ! npm ci --no-audit --no-fund --ignore-scripts --loglevel=error; then
    echo "web tests: npm ci failed (npm comes with Node.js; Debian: apt-get install nodejs npm)" >&2
    exit 1
  fi
fi
set -- tests/web/*.test.mjs
if [ ! -e "$1" ]; then
  echo "web tests: no tests/web/*.test.mjs found" >&2
  exit 1
fi
report=$(node --test --test-reporter=tap "$@")
status=$?
printf '%s\n' "$report" | grep -E '^# (tests|pass|fail) '
if [ "$status" -ne 0 ]; then
  printf '%s\n' "$report" | grep -E '^not ok' >&2
  exit "$status"
fi
# A file with no test at all is reported as one passing test named after the file.
empty=$(printf '%s\n' "$report" | grep -E '^ok [0-9]+ - .*\.test\.mjs$')
if [ -n "$empty" ] || ! printf '%s\n' "$report" | grep -qE '^# tests [1-9]'; then
  echo "web tests: a test file holds no test: $empty" >&2
  exit 1
fi
if printf '%s\n' "$report" | grep -qE '^# (skipped|todo) [1-9]'; then
  echo "web tests: a test is skipped or left to do" >&2
  exit 1
fi
