#!/usr/bin/env bash
# The browser tests' system packages (tests/browser/ drive Debian's Chromium through Playwright;
# Playwright's own browser download is not used). Run by `make test` (and so by .ci/run): as root
# on Debian it installs what is missing, with an emoji font so that the screenshots show the share
# text's squares; anywhere else it stops at once with the one command to run.
set -euo pipefail
packages=(chromium fonts-noto-color-emoji)
missing=()
if [[ -z "${CHROMIUM:-}" ]] && ! command -v chromium >/dev/null 2>&1; then
    missing+=(chromium)
fi
if command -v dpkg >/dev/null 2>&1 && ! dpkg -s fonts-noto-color-emoji >/dev/null 2>&1; then
    missing+=(fonts-noto-color-emoji)
fi
((${#missing[@]})) || exit 0
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "make test: installing ${missing[*]} for the browser tests (apt-get, once)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "make test needs ${missing[*]} for the browser tests: run sudo apt-get install ${packages[*]} (or set CHROMIUM=/path/to/chromium)" >&2
    exit 1
fi
