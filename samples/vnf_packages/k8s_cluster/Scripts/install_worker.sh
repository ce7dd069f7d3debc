#!/bin/sh
# Join this VM to the cluster as a worker (run by the MgmtDriver over SSH).
#
#   install_worker.sh <control-plane endpoint> <CA cert hash> <node name>
#       stdin: bootstrap token
set -eu

endpoint=${1:?control-plane endpoint}
hash=${2:?CA cert hash}
node=${3:?node name}
read -r token
sudo kubeadm join "$endpoint" --token "$token" \
    --discovery-token-ca-cert-hash "$hash" --node-name "$node"
