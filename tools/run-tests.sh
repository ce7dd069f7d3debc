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
# minicloud takes minutes to start: start it now, beside tox's installs.
# The functional tests' fixture takes the same lock, so it waits for this
# start and finds the cloud up; as the fixture would have, this script
# stops the cloud at the end if it was not running before.
MC=tools/minicloud/minicloud.py
mc_home=$(python3 -c 'import sys; sys.path.insert(0, "tools/minicloud")
from mclib import paths; print(paths.HOME)')
mkdir -p "$mc_home"
mc_was_up=$(python3 "$MC" status 2>/dev/null | python3 -c 'import json, sys
print(bool(json.load(sys.stdin).get("running")))' 2>/dev/null || echo False)
(flock "$mc_home/fixture.lock" python3 "$MC" up --quiet \
    >"$mc_home/prestart.log" 2>&1 || true) &

# Every part in one virtualenv (tox env "ci", tools/ci-parts.sh): the
# functional tests take most of the time and mostly wait on services, so
# the checks and unit tests run beside them at a lower CPU priority.
rc=0
"$TOOLS_VENV/bin/tox" -e ci || rc=$?
wait
if [[ $mc_was_up != True ]]; then
    python3 "$MC" down >/dev/null 2>&1 || true
fi
exit "$rc"
