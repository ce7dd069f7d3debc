#!/bin/sh
# Install a Kubernetes control-plane node (run by the MgmtDriver over SSH
# on a master VM): its etcd member (Debian etcd-server), then kubeadm.
#
#   install_master.sh init <control-plane endpoint> <pod network CIDR> <node name> <address>
#       etcd: a new cluster of this one member
#   install_master.sh join <control-plane endpoint> <CA cert hash> <node name> <address> <initial cluster>
#       etcd: this member, already added (etcd_member.sh add on a live
#       master printed <initial cluster>), joins the existing cluster
#       stdin: bootstrap token, then certificate key (one per line)
#
# HAProxy in front of the masters is set by haproxy_backends.sh.
# Secrets come on stdin, never as this script's arguments.
set -eu

conf=${KUBE_ADMIN_CONF:-/etc/kubernetes/admin.conf}
sysconf=${SYSCONF:-/etc}
varlib=${VARLIB:-/var/lib}
mode=${1:?usage: install_master.sh init|join ...}
endpoint=${2:?control-plane endpoint}

# etcd <node name> <address> <initial cluster> <new|existing>: a fresh
# member (the package's default single-node data is dropped), unless this
# very member already runs (a re-run: its data is kept).
etcd_member() {
    want=$(cat <<CONF
ETCD_NAME="$1"
ETCD_LISTEN_PEER_URLS="http://$2:2380"
ETCD_INITIAL_ADVERTISE_PEER_URLS="http://$2:2380"
ETCD_LISTEN_CLIENT_URLS="http://$2:2379,http://127.0.0.1:2379"
ETCD_ADVERTISE_CLIENT_URLS="http://$2:2379"
ETCD_INITIAL_CLUSTER="$3"
ETCD_INITIAL_CLUSTER_STATE="$4"
ETCD_INITIAL_CLUSTER_TOKEN="k8s-etcd"
CONF
)
    if [ "$(sudo cat "$sysconf/default/etcd" 2>/dev/null)" = "$want" ] &&
        sudo systemctl is-active etcd >/dev/null 2>&1; then
        echo "etcd member $1 runs already"
        return 0
    fi
    sudo systemctl stop etcd || true
    sudo rm -rf "$varlib/etcd/default"
    sudo mkdir -p "$sysconf/default"
    printf '%s\n' "$want" | sudo tee "$sysconf/default/etcd" >/dev/null
    sudo systemctl enable etcd >/dev/null 2>&1 || true
    sudo systemctl restart etcd
}

case "$mode" in
init)
    cidr=${3:?pod network CIDR}
    node=${4:?node name}
    address=${5:?address}
    etcd_member "$node" "$address" "$node=http://$address:2380" new
    sudo kubeadm init --control-plane-endpoint "$endpoint" \
        --pod-network-cidr "$cidr" --upload-certs --node-name "$node"
    ;;
join)
    hash=${3:?CA cert hash}
    node=${4:?node name}
    address=${5:?address}
    initial=${6:?initial etcd cluster}
    read -r token
    read -r key
    etcd_member "$node" "$address" "$initial" existing
    sudo kubeadm join "$endpoint" --token "$token" \
        --discovery-token-ca-cert-hash "$hash" \
        --control-plane --certificate-key "$key" --node-name "$node"
    ;;
*)
    echo "unknown mode: $mode" >&2
    exit 2
    ;;
esac

mkdir -p "$HOME/.kube"
sudo cat "$conf" > "$HOME/.kube/config"
chmod 600 "$HOME/.kube/config"
