#!/bin/sh
# On a master: create the bootstrap token given on stdin and print the
# join command (with --control-plane, also upload the control-plane
# certificates encrypted with the certificate key on stdin's 2nd line).
#
#   join_command.sh [--control-plane]
set -eu

read -r token
if [ "${1:-}" = --control-plane ]; then
    read -r key
    sudo kubeadm init phase upload-certs --upload-certs \
        --certificate-key "$key" >/dev/null
fi
sudo kubeadm token create "$token" --ttl 1h --print-join-command
