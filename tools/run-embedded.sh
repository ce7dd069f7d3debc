#!/usr/bin/env bash
# Install tacker-ng into .venv and run it on the embedded default: SQLite
# under ~/.local/state/tacker-ng, the in-process bus, API and conductor in
# one process on http://127.0.0.1:9890/. Extra arguments go to
# tacker-ng-all (e.g. --config-file my.conf).
#
# --sandbox (first argument) also starts a simulated Kubernetes cluster and
# a simulated Nova as the default VIM and reservation backend, and prints
# the commands of a first VNF ([sandbox] enabled = true).
set -euo pipefail
cd "$(dirname "$0")/.."

SANDBOX=0
if [[ ${1:-} == --sandbox ]]; then
    SANDBOX=1
    shift
fi
EXTRAS=""
((SANDBOX)) && EXTRAS="[sandbox]"

VENV=.venv
if [[ -f "$VENV" ]]; then
    # A PEP 832 redirect file (older tox runs wrote one): not a venv.
    rm -f "$VENV"
fi
if [[ ! -x "$VENV/bin/python" ]]; then
    python3.11 -m venv "$VENV" 2>/dev/null || python3 -m venv "$VENV"
fi
stamp="$VENV/.tacker-ng-installed${EXTRAS:+-sandbox}"
if [[ ! -f "$stamp" || requirements.txt -nt "$stamp" || setup.cfg -nt "$stamp" ]]; then
    "$VENV/bin/pip" install -q --upgrade pip
    PBR_VERSION="${PBR_VERSION:-0.1.0}" "$VENV/bin/pip" install -q -e ".$EXTRAS"
    touch "$stamp"
fi
if ((SANDBOX)); then
    # oslo.config takes options from files: one that switches it on.
    state="${XDG_STATE_HOME:-$HOME/.local/state}/tacker-ng"
    mkdir -p "$state"
    printf '[sandbox]\nenabled = true\n' >"$state/sandbox.conf"
    set -- --config-file "$state/sandbox.conf" "$@"
fi
exec "$VENV/bin/tacker-ng-all" "$@"
