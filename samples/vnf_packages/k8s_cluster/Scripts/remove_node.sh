#!/bin/sh
# On a master: drain a node and delete it from the cluster, in bounded
# time (run by the MgmtDriver before a heal or a scale in replaces or
# deletes the node's VM).
#
#   remove_node.sh <node name> <eviction timeout in seconds>
#
# kubectl drain cordons the node, evicts its pods (their controllers
# recreate them on the other nodes) and waits until they are gone, for at
# most <eviction timeout>. A node whose kubelet is dead never confirms a
# deletion: its pods stay Terminating and the drain times out. Whatever
# is then left on the node, but DaemonSet and static (mirror) pods that a
# drain leaves too, is force-deleted (--grace-period=0: the API server
# removes it without waiting for the kubelet), each printed as
#   force-deleted <namespace>/<pod>
# and the node is deleted. Safe for these callers only: the node's VM is
# rebuilt or deleted right after, which stops whatever still ran there.
set -eu

node=${1:?node name}
timeout=${2:?eviction timeout in seconds}
case "$timeout" in
'' | *[!0-9]*)
    echo "eviction timeout must be a whole number of seconds: $timeout" >&2
    exit 2
    ;;
esac
if ! kubectl get node "$node" >/dev/null 2>&1; then
    echo "node $node is not in the cluster: nothing to remove"
    exit 0
fi
if kubectl drain "$node" --ignore-daemonsets --delete-emptydir-data \
    --timeout "${timeout}s"; then
    echo "drained $node"
else
    echo "drain of $node not finished after ${timeout}s: force-deleting" \
        "the pods left on it"
    # namespace|name|owner kind|mirror annotation (empty when absent)
    kubectl get pods --all-namespaces --field-selector "spec.nodeName=$node" \
        -o jsonpath='{range .items[*]}{.metadata.namespace}{"|"}{.metadata.name}{"|"}{.metadata.ownerReferences[0].kind}{"|"}{.metadata.annotations.kubernetes\.io/config\.mirror}{"\n"}{end}' |
        while IFS='|' read -r ns pod kind mirror; do
            [ "$kind" != DaemonSet ] && [ -z "$mirror" ] || continue
            kubectl delete pod --namespace "$ns" "$pod" --force \
                --grace-period=0 --ignore-not-found >/dev/null
            echo "force-deleted $ns/$pod"
        done
fi
kubectl delete node "$node"
