#!/bin/sh
# Install a Kubernetes control-plane node (run by the MgmtDriver over SSH
# on a master VM): its etcd member (Debian etcd-server, TLS for clients
# and peers), then kubeadm with that etcd as its external etcd.
#
#   install_master.sh init <control-plane endpoint> <pod network CIDR> <node name> <address>
#       etcd: a new CA and a new cluster of this one member
#   install_master.sh join <control-plane endpoint> <CA cert hash> <node name> <address> <initial cluster>
#       etcd: this member, already added (etcd_member.sh add on a live
#       master printed <initial cluster>), joins the existing cluster
#       stdin: bootstrap token, certificate key, then the etcd CA
#       (read_etcd_ca.sh on a live master: base64 of its cert and key),
#       one per line
#
# Every kube-apiserver talks to the etcd member of its own master
# (https://127.0.0.1:2379), so kubeadm's ClusterConfiguration is the same
# on every master and a master heal changes nothing in it. HAProxy in
# front of the masters is set by haproxy_backends.sh. Secrets come on
# stdin, never as this script's arguments.
set -eu

conf=${KUBE_ADMIN_CONF:-/etc/kubernetes/admin.conf}
kube=${KUBE_ETC:-/etc/kubernetes}
sysconf=${SYSCONF:-/etc}
varlib=${VARLIB:-/var/lib}
mode=${1:?usage: install_master.sh init|join ...}
endpoint=${2:?control-plane endpoint}
pki=$kube/pki
etcd_pki=$sysconf/etcd/pki

# sign <name> <CN> <extended key usage> <subjectAltName or ""> <dir>:
# <dir>/<name>.crt and .key, signed by the etcd CA.
sign() {
    tmp=$(mktemp -d)
    {
        echo "extendedKeyUsage = $3"
        echo "keyUsage = critical, digitalSignature, keyEncipherment"
        [ -z "$4" ] || echo "subjectAltName = $4"
    } >"$tmp/ext"
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
        -nodes -subj "/CN=$2" -keyout "$tmp/key" -out "$tmp/csr" 2>/dev/null
    sudo openssl x509 -req -in "$tmp/csr" -CA "$etcd_pki/ca.crt" \
        -CAkey "$etcd_pki/ca.key" -CAcreateserial -days 3650 \
        -extfile "$tmp/ext" -out "$tmp/crt" 2>/dev/null
    sudo mkdir -p "$5"
    sudo cp "$tmp/crt" "$5/$1.crt"
    sudo cp "$tmp/key" "$5/$1.key"
    sudo chmod 600 "$5/$1.key"
    rm -rf "$tmp"
}

# pki <node name> <address>: this master's etcd certificates (serving and
# peer: one certificate valid for its address and the loopback) and the
# kube-apiserver's etcd client certificate, from the etcd CA in
# $etcd_pki (made by init, handed over on stdin by join).
make_pki() {
    sign member "$1" "serverAuth, clientAuth" \
        "DNS:$1, DNS:localhost, IP:$2, IP:127.0.0.1" "$etcd_pki"
    sign apiserver-etcd-client kube-apiserver-etcd-client clientAuth "" "$pki"
    sudo mkdir -p "$pki/etcd"
    sudo cp "$etcd_pki/ca.crt" "$pki/etcd/ca.crt"
    # Debian's etcd.service runs as user etcd.
    if [ "$(sudo id -u)" = 0 ] && id etcd >/dev/null 2>&1; then
        sudo chown -R etcd: "$etcd_pki"
    fi
}

new_ca() {
    if sudo test -s "$etcd_pki/ca.key"; then
        return 0  # a re-run: keep the cluster's CA
    fi
    sudo mkdir -p "$etcd_pki"
    sudo openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
        -nodes -subj /CN=etcd-ca -days 3650 -keyout "$etcd_pki/ca.key" \
        -out "$etcd_pki/ca.crt" 2>/dev/null
    sudo chmod 600 "$etcd_pki/ca.key"
}

# The CA line of stdin: base64 of the CA certificate then its key (PEM).
take_ca() {
    in=$(mktemp)  # mode 600: it holds the CA key
    printf %s "$1" | base64 -d >"$in" 2>/dev/null || {
        rm -f "$in"; echo "the etcd CA on stdin is not base64" >&2; exit 1; }
    sudo mkdir -p "$etcd_pki"
    awk '/BEGIN CERTIFICATE/,/END CERTIFICATE/' "$in" |
        sudo tee "$etcd_pki/ca.crt" >/dev/null
    sudo touch "$etcd_pki/ca.key"
    sudo chmod 600 "$etcd_pki/ca.key"
    awk '/BEGIN .*PRIVATE KEY/,/END .*PRIVATE KEY/' "$in" |
        sudo tee "$etcd_pki/ca.key" >/dev/null
    rm -f "$in"
    openssl x509 -noout -in "$etcd_pki/ca.crt" 2>/dev/null &&
        sudo test -s "$etcd_pki/ca.key" || {
        echo "the etcd CA on stdin holds no certificate and key" >&2; exit 1; }
}

# etcd <node name> <address> <initial cluster> <new|existing>: a fresh
# member (the package's default single-node data is dropped), unless this
# very member already runs (a re-run: its data is kept).
etcd_member() {
    want=$(cat <<CONF
ETCD_NAME="$1"
ETCD_LISTEN_PEER_URLS="https://$2:2380"
ETCD_INITIAL_ADVERTISE_PEER_URLS="https://$2:2380"
ETCD_LISTEN_CLIENT_URLS="https://$2:2379,https://127.0.0.1:2379"
ETCD_ADVERTISE_CLIENT_URLS="https://$2:2379"
ETCD_INITIAL_CLUSTER="$3"
ETCD_INITIAL_CLUSTER_STATE="$4"
ETCD_INITIAL_CLUSTER_TOKEN="k8s-etcd"
ETCD_CERT_FILE="$etcd_pki/member.crt"
ETCD_KEY_FILE="$etcd_pki/member.key"
ETCD_TRUSTED_CA_FILE="$etcd_pki/ca.crt"
ETCD_CLIENT_CERT_AUTH="true"
ETCD_PEER_CERT_FILE="$etcd_pki/member.crt"
ETCD_PEER_KEY_FILE="$etcd_pki/member.key"
ETCD_PEER_TRUSTED_CA_FILE="$etcd_pki/ca.crt"
ETCD_PEER_CLIENT_CERT_AUTH="true"
CONF
)
    if [ "$(sudo cat "$sysconf/default/etcd" 2>/dev/null)" = "$want" ] &&
        sudo systemctl is-active etcd >/dev/null 2>&1; then
        echo "etcd member $1 runs already"
        return 0
    fi
    make_pki "$1" "$2"
    sudo systemctl stop etcd || true
    sudo rm -rf "$varlib/etcd/default"
    sudo mkdir -p "$sysconf/default"
    printf '%s\n' "$want" | sudo tee "$sysconf/default/etcd" >/dev/null
    sudo systemctl enable etcd >/dev/null 2>&1 || true
    sudo systemctl restart etcd
}

# kubeadm's configuration for init: the external etcd and this node.
kubeadm_config() {
    cat <<CONF
apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
nodeRegistration:
  name: "$1"
localAPIEndpoint:
  advertiseAddress: "$2"
---
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
controlPlaneEndpoint: "$endpoint"
networking:
  podSubnet: "$3"
etcd:
  external:
    endpoints:
    - "https://127.0.0.1:2379"
    caFile: "$pki/etcd/ca.crt"
    certFile: "$pki/apiserver-etcd-client.crt"
    keyFile: "$pki/apiserver-etcd-client.key"
CONF
}

case "$mode" in
init)
    cidr=${3:?pod network CIDR}
    node=${4:?node name}
    address=${5:?address}
    new_ca
    etcd_member "$node" "$address" "$node=https://$address:2380" new
    sudo mkdir -p "$kube"
    kubeadm_config "$node" "$address" "$cidr" |
        sudo tee "$kube/kubeadm-config.yaml" >/dev/null
    sudo kubeadm init --config "$kube/kubeadm-config.yaml" --upload-certs
    ;;
join)
    hash=${3:?CA cert hash}
    node=${4:?node name}
    address=${5:?address}
    initial=${6:?initial etcd cluster}
    read -r token
    read -r key
    read -r ca
    take_ca "$ca"
    etcd_member "$node" "$address" "$initial" existing
    sudo kubeadm join "$endpoint" --token "$token" \
        --discovery-token-ca-cert-hash "$hash" \
        --control-plane --certificate-key "$key" --node-name "$node" \
        --apiserver-advertise-address "$address"
    ;;
*)
    echo "unknown mode: $mode" >&2
    exit 2
    ;;
esac

mkdir -p "$HOME/.kube"
sudo cat "$conf" > "$HOME/.kube/config"
chmod 600 "$HOME/.kube/config"
