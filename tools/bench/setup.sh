#!/usr/bin/env bash
# Install what the benchmarks need into .venv (or $VENV): the project with
# its test requirements and the C MySQL driver (mysqlclient, extra "mysql"),
# and wrk, a C load generator: on 2 cores a Python client would eat as
# much CPU as the server it measures. Debian packages come from apt
# (root or sudo). Then e.g.: .venv/bin/python tools/bench/lcm_api.py
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=${VENV:-.venv}
packages=()
command -v wrk >/dev/null || packages+=(wrk)
command -v pkg-config >/dev/null || packages+=(pkg-config)
if ! pkg-config --exists libmariadb 2>/dev/null \
    && ! pkg-config --exists mysqlclient 2>/dev/null; then
    packages+=(libmariadb-dev)
fi
if ((${#packages[@]})); then
    sudo=()
    ((EUID == 0)) || sudo=(sudo)
    echo "bench setup: apt-get install ${packages[*]}"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${packages[@]}"
fi
if [[ -f "$VENV" ]]; then
    # A PEP 832 redirect file (older tox runs wrote one): not a venv.
    rm -f "$VENV"
fi
if [[ ! -x "$VENV/bin/python" ]]; then
    python3.11 -m venv "$VENV" 2>/dev/null || python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install -q -r requirements.txt -r test-requirements.txt
PBR_VERSION="${PBR_VERSION:-0.1.0}" "$VENV/bin/pip" install -q -e '.[mysql]'
echo "bench setup: ready ($("$VENV/bin/python" -c 'import MySQLdb; print("mysqlclient", MySQLdb.version_info[:3])'), $(wrk --version 2>&1 | head -1 | cut -c1-40))"
