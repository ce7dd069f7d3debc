#!/usr/bin/env bash
# The functional tests, in two pytest processes side by side:
#   - the tests marked "minicloud" (they share one real OpenStack and run
#     one at a time),
#   - all the others (real processes on MariaDB, PostgreSQL, RabbitMQ,
#     isolated by database name, exchange and port).
# Most of their time is spent waiting on services, so on 2 cores the two
# together take about as long as the slower one. Each writes its own log,
# printed when both are done. With arguments, runs plain pytest on them.
set -uo pipefail
cd "$(dirname "$0")/.."

common=(-p no:cacheprovider -v -rfEs --durations=15)
if (($#)); then
    exec pytest "${common[@]}" "$@"
fi

logs=$(mktemp -d "${TMPDIR:-/tmp}/tacker-ng-functional.XXXXXX")
pytest "${common[@]}" -m minicloud tacker_ng/tests/functional \
    >"$logs/minicloud.log" 2>&1 &
cloud=$!
pytest "${common[@]}" -m "not minicloud" tacker_ng/tests/functional \
    >"$logs/services.log" 2>&1 &
others=$!
wait "$others"; rc_others=$?
wait "$cloud"; rc_cloud=$?

for part in services minicloud; do
    echo "================ functional tests: $part ================"
    cat "$logs/$part.log"
done
echo "functional: services rc=$rc_others, minicloud rc=$rc_cloud (logs: $logs)"
((rc_others == 0 && rc_cloud == 0))
