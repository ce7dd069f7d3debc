#!/bin/sh
# Label a Kubernetes worker node with the compute host it runs on, so that
# pods with podAntiAffinity on topologyKey kubernetes.io/zone spread across
# physical servers (hardware-aware pod affinity).
#
# Usage: label_worker_zone.sh <node name> <compute host>
# Run on a master node by the MgmtDriver after a worker joined the cluster.
set -eu

if [ "$#" -ne 2 ]; then
    echo "usage: $0 <node name> <compute host>" >&2
    exit 2
fi
node=$1
host=$2

case "$host" in
    *[!A-Za-z0-9._-]*|'')
        echo "invalid compute host name: $host" >&2
        exit 2
        ;;
esac

kubectl label node "$node" "kubernetes.io/zone=$host" --overwrite
