#!/usr/bin/env bash
# Every part of the test suite in ONE virtualenv (tox env "ci"): the
# functional tests (the critical path, tools/run-functional.sh) start
# first; style checks, type checks, the docs build and the unit tests run
# beside them, one after the other, at a lower CPU priority: on 2 cores
# they fill the time the functional tests wait on services. One venv
# instead of five saves four installs of the same requirements (about
# 200 s of CPU each). Prints each part's log, its time and its result.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d "${TMPDIR:-/tmp}/tacker-ng-ci.XXXXXX")
start=$SECONDS

part() {  # name command...: run, log, record seconds and exit code
    local name=$1 t0=$SECONDS rc=0
    shift
    "$@" >"$logs/$name.log" 2>&1 || rc=$?
    echo "$name rc=$rc $((SECONDS - t0))s (ended at +$((SECONDS - start))s)" \
        >>"$logs/summary"
    return "$rc"
}

(
    export TACKER_NG_FUNCTIONAL=1
    part functional tools/run-functional.sh
) &
functional=$!

(
    renice -n 10 -p "$BASHPID" >/dev/null
    rc=0
    part pep8 bash -c 'ruff check tacker_ng tools &&
        ruff format --check tacker_ng tools &&
        PYTHONPATH=. lint-imports --no-logo --no-cache' || rc=1
    part mypy mypy || rc=1
    part docs sphinx-build -q -W -b html doc/source doc/build/html || rc=1
    part unit pytest -p no:cacheprovider -q --durations=15 \
        tacker_ng/tests/unit || rc=1
    exit "$rc"
) &
checks=$!

wait "$checks"; rc_checks=$?
wait "$functional"; rc_functional=$?

for name in pep8 mypy docs unit functional; do
    echo "================ $name ================"
    cat "$logs/$name.log" 2>/dev/null
done
echo "================ summary (logs: $logs) ================"
cat "$logs/summary"
echo "all parts: $((SECONDS - start))s"
((rc_checks == 0 && rc_functional == 0))
