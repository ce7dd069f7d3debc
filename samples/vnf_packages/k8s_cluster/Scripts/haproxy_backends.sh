#!/bin/sh
# On a master (and, when the cluster's control-plane endpoint is the
# local one, 127.0.0.1:8383, on every node): HAProxy in front of every
# master's kube-apiserver (port 6443), listening on port 8383. A master
# that is down (being healed) is skipped: health checks every 2 s, and a
# connection it refuses is retried on another one. Writes haproxy.cfg
# with the given backends, checks it (haproxy -c) and reloads (or
# starts) HAProxy.
#
#   haproxy_backends.sh <node name>=<address> ...
set -eu

sysconf=${SYSCONF:-/etc}
cfg=$sysconf/haproxy/haproxy.cfg
[ "$#" -gt 0 ] || { echo "usage: $0 <node name>=<address> ..." >&2; exit 2; }

new=$(mktemp)
trap 'rm -f "$new"' EXIT
{
    cat <<'HEAD'
# Written by haproxy_backends.sh (Kubernetes cluster MgmtDriver).
defaults
    mode tcp
    timeout connect 5s
    timeout client 1h
    timeout server 1h
    option redispatch
    retries 3
    default-server inter 2s fall 2 rise 1

frontend kube-apiserver
    bind *:8383
    default_backend kube-apiserver

backend kube-apiserver
    balance roundrobin
HEAD
    for backend in "$@"; do
        printf '    server %s %s:6443 check\n' "${backend%%=*}" "${backend#*=}"
    done
} > "$new"
sudo haproxy -c -q -f "$new"
sudo mkdir -p "$sysconf/haproxy"
sudo cp "$new" "$cfg"
sudo systemctl enable haproxy >/dev/null 2>&1 || true
sudo systemctl reload-or-restart haproxy
echo "haproxy: $# backends"
