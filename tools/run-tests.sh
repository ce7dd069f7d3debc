#!/usr/bin/env bash
# The whole test suite on a fresh machine: start the real services, install
# tox into a private virtualenv, then style checks, unit and functional
# tests. Extra arguments are passed to tox (e.g. -e py3).
set -euo pipefail
cd "$(dirname "$0")/.."

export CI="${CI:-true}"
tools/test-setup.sh

TOOLS_VENV=.tox/.bootstrap
if [[ ! -x "$TOOLS_VENV/bin/tox" ]]; then
    python3.11 -m venv "$TOOLS_VENV" 2>/dev/null || python3 -m venv "$TOOLS_VENV"
    "$TOOLS_VENV/bin/pip" install -q --upgrade pip "tox>=4.11"
fi

if (($#)); then
    exec "$TOOLS_VENV/bin/tox" "$@"
fi
exec "$TOOLS_VENV/bin/tox" -e pep8,mypy,py3,functional
