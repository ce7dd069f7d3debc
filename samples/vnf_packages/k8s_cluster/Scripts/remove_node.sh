#!/bin/sh
# On a master: drain a node (its pods evicted onto the others) and delete
# it from the cluster.
#
#   remove_node.sh <node name>
set -eu

node=${1:?node name}
if ! kubectl get node "$node" >/dev/null 2>&1; then
    echo "node $node is not in the cluster: nothing to remove"
    exit 0
fi
kubectl drain "$node" --ignore-daemonsets --delete-emptydir-data \
    --timeout 120s
kubectl delete node "$node"
