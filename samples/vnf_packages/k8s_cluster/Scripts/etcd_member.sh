#!/bin/sh
# On a live master: change the etcd cluster's membership.
#
#   etcd_member.sh add <name> <peer URL>
#       add the member (unless a member has that peer URL already) and
#       print ETCD_INITIAL_CLUSTER="..." for the new member's start
#   etcd_member.sh remove <name>
#       remove the member called <name> (nothing when there is none)
set -eu

mode=${1:?usage: etcd_member.sh add|remove ...}
name=${2:?member name}
# As a client of the local member, with this master's certificate (TLS
# client authentication: install_master.sh made it).
pki=${SYSCONF:-/etc}/etcd/pki
ctl() {
    sudo env ETCDCTL_API=3 etcdctl --endpoints https://127.0.0.1:2379 \
        --cacert "$pki/ca.crt" --cert "$pki/member.crt" \
        --key "$pki/member.key" "$@"
}

# etcd refuses a membership change until the last new member has been up
# a few seconds ("unhealthy cluster": its strict reconfiguration check):
# wait for that, fail on anything else.
reconfigure() {
    i=0
    until out=$(ctl member "$@" 2>&1); do
        case "$out" in
        *"unhealthy cluster"*|*"not enough started members"*) ;;
        *) echo "$out" >&2; exit 1 ;;
        esac
        i=$((i + 1))
        [ "$i" -lt 60 ] || { echo "$out" >&2; exit 1; }
        sleep 1
    done
    echo "$out"
}

case "$mode" in
add)
    url=${3:?peer URL}
    members=$(ctl member list)
    if printf '%s\n' "$members" | awk -F', ' -v u="$url" '$4 == u {f=1} END {exit !f}'; then
        echo "member with $url exists already"
        printf '%s\n' "$members" | awk -F', ' -v u="$url" -v n="$name" '
            { m = ($4 == u) ? n : $3; out = out (out ? "," : "") m "=" $4 }
            END { print "ETCD_INITIAL_CLUSTER=\"" out "\"" }'
    else
        reconfigure add "$name" --peer-urls "$url"
    fi
    ;;
remove)
    id=$(ctl member list | awk -F', ' -v n="$name" '$3 == n {print $1}')
    if [ -z "$id" ]; then
        echo "no etcd member $name: nothing to remove"
        exit 0
    fi
    reconfigure remove "$id"
    ;;
*)
    echo "unknown mode: $mode" >&2
    exit 2
    ;;
esac
