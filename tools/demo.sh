#!/usr/bin/env bash
# tacker-ng end to end, with the openstack CLI, on a real single-host
# OpenStack (minicloud): onboard the sample VNF package, instantiate a VNF
# while zone AZ-1 is full (AZ reselection), scale it, heal a VNFC,
# terminate and delete it; then reserve 3 hosts with a lease
# (python-blazarclient), boot a second VNF in it, show where its VNFCs
# run and what the observer sees, and delete everything, printing every
# command and its output.
#
# usage: tools/demo.sh
#   TACKER_NG_VENV   virtualenv to use (default .venv, created if missing)
#   DEMO_PORT        port of the demo's tacker-ng API (default 9891)
#   DEMO_KEEP=1      leave tacker-ng running at the end (prints how to stop)
#   DEMO_LANE        the lane of minicloud to use (default 0: project vnf,
#                    zones AZ-1..AZ-5; tools/minicloud/lanes.py)
#   DEMO_MINICLOUD_LOCKED=1  the caller holds that lane's lock (a test
#                    session); do not wait for it
#   DEMO_OPENSTACK   the openstack command (default $VENV/bin/openstack;
#                    the test runs a warm stand-in of it: its fork server)
#
# It starts minicloud if it is not running (the first time this installs
# OpenStack from PyPI: several minutes) and leaves it running; it stops
# its own tacker-ng and deletes what it created.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
VENV=${TACKER_NG_VENV:-.venv}
PORT=${DEMO_PORT:-9891}
export MINICLOUD_LANE=${DEMO_LANE:-0}
URL=http://127.0.0.1:$PORT
DEMO=$(mktemp -d "${TMPDIR:-/tmp}/tacker-ng-demo.XXXXXX")
TACKER_PID=
FILLED=
LEASE=
RSV_HOSTS=()

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
say() { printf '    %s\n' "$*"; }
# The CLI as a user runs it, standalone (http_basic + --os-endpoint).
# python-blazarclient 4.6.0 names a command class it lacks; OSC warns
# about it on every run: filtered out here, harmless.
os() {
    "$OPENSTACK" --os-auth-type http_basic --os-endpoint "$URL" \
        --os-username admin --os-password "$PASSWORD" "$@" \
        2> >(grep --line-buffered -v "Could not load 'reservation_host_unset'" >&2)
}
# Print the command (credentials elided; arguments with spaces quoted,
# so that it can be copied) on stderr, then run it.
run() {
    local shown=() arg
    for arg in "$@"; do
        [[ $arg == *" "* ]] && arg="\"$arg\""
        shown+=("$arg")
    done
    printf '\n$ openstack %s\n' "${shown[*]}" >&2
    os "$@"
}
# python-tackerclient's vnflcm commands speak the v2 API with this option.
lcm() { run --os-tacker-api-version 2 vnflcm "$@"; }
# python-blazarclient's commands: the reservation API's own endpoint.
rsv() { os --os-endpoint "$URL/reservation/v1" reservation "$@"; }
rsv_run() {
    printf '\n$ openstack --os-endpoint %s reservation %s\n' \
        "$URL/reservation/v1" "$*" >&2
    rsv "$@"
}
# OCC := the op occ the last LCM request started on VNF $1 (the one not
# seen before; python-tackerclient's commands do not print it).
SEEN=" "
OCC=
new_occ() {
    local id
    for id in $(os --os-tacker-api-version 2 vnflcm op list \
        --filter "(eq,vnfInstanceId,$1)" -f value -c ID); do
        if [[ $SEEN != *" $id "* ]]; then
            SEEN+="$id "
            OCC=$id
            return
        fi
    done
    echo "no new op occ for $1" >&2
    return 1
}

cleanup() {
    local rc=$?
    set +e
    if [[ -n "$FILLED" ]]; then
        "$VENV/bin/python" tools/demo_cloud.py free >/dev/null 2>&1
    fi
    # A failed run leaves no lease (its flavour, aggregate, server group)
    # nor freepool hosts behind.
    if [[ -n "$LEASE" && -n "$TACKER_PID" ]]; then
        rsv lease delete "$LEASE" >/dev/null 2>&1
    fi
    for id in "${RSV_HOSTS[@]}"; do
        rsv host delete "$id" >/dev/null 2>&1
    done
    if [[ -n "$TACKER_PID" && -z "${DEMO_KEEP:-}" ]]; then
        kill "$TACKER_PID" 2>/dev/null && wait "$TACKER_PID" 2>/dev/null
    fi
    if ((rc)); then
        echo "demo FAILED (exit $rc); tacker-ng log: $DEMO/tacker-ng.log" >&2
        echo "(python3 tools/minicloud/minicloud.py reset deletes what" \
            "it left in minicloud)" >&2
    elif [[ -z "${DEMO_KEEP:-}" ]]; then
        rm -rf "$DEMO"
    fi
    exit "$rc"
}
trap cleanup EXIT

step "Install tacker-ng, python-tackerclient and python-blazarclient in $VENV"
if [[ ! -x "$VENV/bin/python" ]]; then
    python3.11 -m venv "$VENV" 2>/dev/null || python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import tacker_ng.osc.plugin, tackerclient, blazarclient, openstack" 2>/dev/null \
    || [[ requirements.txt -nt "$VENV/bin/tacker-ng-all" ]]; then
    PBR_VERSION="${PBR_VERSION:-0.1.0}" "$VENV/bin/pip" install -q -e . \
        python-tackerclient python-blazarclient openstacksdk
fi
OPENSTACK=${DEMO_OPENSTACK:-$VENV/bin/openstack}
say "openstack CLI: $("$OPENSTACK" --version 2>&1)"

step "Bring up minicloud (Keystone, Nova, Neutron, Glance, Heat; 5 zones)"
# One user of a lane of minicloud at a time: the functional tests take
# this lock too (they fill the lane's zones and reset it).
MC_HOME=$(python3 -c 'import sys; sys.path.insert(0, "tools/minicloud")
from mclib import paths; print(paths.HOME)')
mkdir -p "$MC_HOME"
# (DEMO_MINICLOUD_LOCKED=1: the caller, a test session, holds it.)
exec 9>>"$MC_HOME/lane-$MINICLOUD_LANE.lock"
if [[ -z "${DEMO_MINICLOUD_LOCKED:-}" ]] && ! flock -n 9; then
    say "another session (tests?) uses minicloud's lane $MINICLOUD_LANE; waiting for it"
    flock 9
fi
python3 tools/minicloud/minicloud.py up --quiet
zone() { "$VENV/bin/python" tools/demo_cloud.py zone "$1"; }
say "zones $(zone AZ-1) (2 hosts), $(zone AZ-2) ... $(zone AZ-5) (1 host each)"

step "Start tacker-ng (API + conductor, SQLite) with minicloud as default VIM"
cat >"$DEMO/tacker.conf" <<CONF
[DEFAULT]
state_path = $DEMO
log_file = $DEMO/tacker-ng.log

[api]
port = $PORT
# HTTP basic callers act in minicloud's project "vnf", the VIM's project:
# a lease's private flavour and aggregate are then that project's.
http_basic_project_id = $("$VENV/bin/python" tools/demo_cloud.py project-id)

[convergence]
observe_interval = 10

[placement]
# A zone without capacity: try another one (AZ reselection).
fallback_best_effort = true
CONF
"$VENV/bin/python" tools/demo_cloud.py vim-conf >>"$DEMO/tacker.conf"
# The reservation user makes a lease's server group in the lease's project
# (doc/source/user/reservation.rst, "Administrator setup").
say "$("$VENV/bin/python" tools/demo_cloud.py grant-reservation-user)"
"$VENV/bin/tacker-ng-all" --config-file "$DEMO/tacker.conf" 9>&- \
    >"$DEMO/tacker-ng.out" 2>&1 &
TACKER_PID=$!
for _ in $(seq 60); do
    curl -s -o /dev/null "$URL/" && break
    kill -0 "$TACKER_PID" 2>/dev/null || { cat "$DEMO/tacker-ng.out"; exit 1; }
    sleep 1
done
PASSWORD=$(cat "$DEMO/admin-password")
say "serving $URL/ ; user admin, password in $DEMO/admin-password"
say "every command below is: openstack --os-auth-type http_basic \\"
say "    --os-endpoint $URL --os-username admin --os-password ... <command>"
run tacker-ng conductor list

step "Onboard the sample VNF package (samples/vnf_packages/heat_vdu_affinity)"
cp -r samples/vnf_packages/heat_vdu_affinity "$DEMO/pkg"
# minicloud's Glance has one image, "minicloud-image".
sed -i 's/cirros-0.6.2-x86_64-disk/minicloud-image/' "$DEMO"/pkg/Definitions/*.yaml
"$VENV/bin/python" tools/build_csar.py "$DEMO/pkg" "$DEMO/pkg.zip" >/dev/null
PKG=$(run vnf package create -f value -c ID)
say "-> package $PKG"
run vnf package upload --path "$DEMO/pkg.zip" "$PKG"
for _ in $(seq 60); do
    state=$(os vnf package show "$PKG" -f value -c "Onboarding State")
    [[ $state == ONBOARDED || $state == ERROR ]] && break
    sleep 1
done
run vnf package show "$PKG" -c ID -c "VNFD ID" -c "Onboarding State" \
    -c "Operational State"
VNFD=$(os vnf package show "$PKG" -f value -c "VNFD ID")

step "Create a VNF instance of that VNFD"
VNF=$(lcm create "$VNFD" --name demo-vnf -f value -c ID)
say "-> VNF instance $VNF"

step "Make zone $(zone AZ-1) full, then instantiate: Nova refuses it, tacker-ng reselects"
FILLED=1
"$VENV/bin/python" tools/demo_cloud.py fill AZ-1 | sed 's/^/    /'
cat >"$DEMO/instantiate.json" <<JSON
{
  "flavourId": "simple",
  "extVirtualLinks": [{
    "id": "ext-vl-1",
    "resourceId": "$("$VENV/bin/python" tools/demo_cloud.py network)",
    "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {}},
               {"cpdId": "VDU2_CP1", "cpConfig": {}}]
  }]
}
JSON
say "request (no vimConnectionInfo: the default VIM is used):"
sed 's/^/      /' "$DEMO/instantiate.json"
lcm instantiate "$VNF" "$DEMO/instantiate.json"
new_occ "$VNF"
run vnflcm op wait "$OCC" -c Operation -c "Operation State"
run vnflcm placement show "$VNF"
say "what the conductor did (its log):"
grep -o "Stack vnf-.*zone reselection.*" "$DEMO/tacker-ng.log" | sed 's/^/      /' || say "(no reselection: the grant did not use $(zone AZ-1))"
"$VENV/bin/python" tools/demo_cloud.py free | sed 's/^/    /'
FILLED=

step "Scale out VDU2 by one step (python-tackerclient), wait (tacker-ng plugin)"
lcm scale "$VNF" --type SCALE_OUT --aspect-id VDU2_scale
new_occ "$VNF"
run vnflcm op wait "$OCC" -c Operation -c "Operation State"
run vnflcm placement show "$VNF"

step "Scale back to instantiation level 1 (tacker-ng plugin: scale-to-level)"
run vnflcm scale-to-level "$VNF" --instantiation-level-id instantiation_level_1 \
    --wait -c Operation -c "Operation State"
new_occ "$VNF" >/dev/null  # the scale-to-level op occ, already waited for

step "Heal one VNFC (its server is rebuilt)"
# (sed, not head: head exits early and the CLI dies of SIGPIPE, which
# pipefail turns into a failed demo)
VNFC=$(os vnflcm placement show "$VNF" -f value -c VNFC 2>/dev/null | sed -n 1p)
lcm heal "$VNF" --vnfc-instance "$VNFC"
new_occ "$VNF"
run vnflcm op wait "$OCC" -c Operation -c "Operation State"

step "Terminate and delete the VNF"
lcm terminate "$VNF"
new_occ "$VNF"
run vnflcm op wait "$OCC" -c Operation -c "Operation State"
lcm delete "$VNF"

step "Reserve capacity (python-blazarclient): 3 hosts, one per zone $(zone AZ-2)..$(zone AZ-4)"
for zone in AZ-2 AZ-3 AZ-4; do
    host=$("$VENV/bin/python" tools/demo_cloud.py host "$zone")
    # (blazarclient prints "Created a new host:" before the value)
    RSV_HOSTS+=("$(rsv_run host create "$host" -f value -c id | tail -1)")
done
rsv_run host list -c id -c hypervisor_hostname -c vcpus -c memory_mb
END=$(date -u -d '+1 hour' '+%Y-%m-%d %H:%M')
rsv_run lease create --end-date "$END" --reservation \
    resource_type=virtual:instance,vcpus=1,memory_mb=1024,disk_gb=10,amount=3,affinity=False \
    demo-lease -f value -c id >/dev/null
LEASE=$(rsv lease show demo-lease -f value -c id)
for _ in $(seq 60); do
    status=$(rsv lease show "$LEASE" -f value -c status)
    [[ $status == ACTIVE || $status == ERROR ]] && break
    sleep 1
done
rsv_run lease show "$LEASE" -c name -c status -c start_date -c end_date
read -r RSV_ID GROUP < <(rsv lease show "$LEASE" -f value -c reservations |
    "$VENV/bin/python" -c 'import json, sys
r = json.loads(sys.stdin.read())
print(r["id"], r["server_group_id"])')
say "-> lease $LEASE ($status): reservation $RSV_ID, 3 instance slots"
if [[ $status != ACTIVE ]]; then
    echo "the lease did not start ($status); see $DEMO/tacker-ng.log" >&2
    exit 1
fi
say "   (one per reserved host), anti-affinity server group $GROUP"

step "Boot a VNF in the lease: instantiate with additionalParams.reservationId"
VNF2=$(lcm create "$VNFD" --name demo-vnf-leased -f value -c ID)
say "-> VNF instance $VNF2"
"$VENV/bin/python" - "$DEMO/instantiate.json" "$RSV_ID" \
    >"$DEMO/instantiate-leased.json" <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
body["additionalParams"] = {"reservationId": sys.argv[2]}
print(json.dumps(body, indent=2))
PY
say "request:"
sed 's/^/      /' "$DEMO/instantiate-leased.json"
lcm instantiate "$VNF2" "$DEMO/instantiate-leased.json"
new_occ "$VNF2"
run vnflcm op wait "$OCC" -c Operation -c "Operation State"
run vnflcm placement show "$VNF2"
say "the reservation's server group, as Nova reports it (one VNFC per host):"
"$VENV/bin/python" tools/demo_cloud.py group "$GROUP" | sed 's/^/      /'

step "What the observer sees (admin: desired vs observed, host, drift)"
curl -sf -o /dev/null -u "admin:$PASSWORD" -X POST \
    "$URL/v1/vnf_instances/$VNF2/observe"
for _ in $(seq 60); do
    os vnflcm observed show "$VNF2" -f value -c "Last seen" 2>/dev/null |
        grep -v '^-$' >/dev/null && break
    sleep 1
done
run vnflcm observed show "$VNF2" -c VNFC -c VDU -c Observed -c Host \
    -c Zone -c Drift

step "Terminate and delete the leased VNF, the lease and the hosts"
lcm terminate "$VNF2"
new_occ "$VNF2"
run vnflcm op wait "$OCC" -c Operation -c "Operation State"
lcm delete "$VNF2"
rsv_run lease delete "$LEASE"
# A conductor removes the lease's flavour, aggregate and server group
# after the delete answered; the hosts leave the freepool once it is gone.
for _ in $(seq 60); do
    rsv lease show "$LEASE" >/dev/null 2>&1 || break
    sleep 1
done
LEASE=
for id in "${RSV_HOSTS[@]}"; do
    rsv_run host delete "$id"
done
RSV_HOSTS=()
run vnf package update --operational-state DISABLED "$PKG" >/dev/null
run vnf package delete "$PKG"
run --os-tacker-api-version 2 vnflcm op list -c ID -c Operation \
    -c "Operation State"

step "Done: every operation above ran on minicloud's real Heat and Nova"
if [[ -n "${DEMO_KEEP:-}" ]]; then
    say "tacker-ng still runs (pid $TACKER_PID) on $URL; stop: kill $TACKER_PID"
fi
