#!/bin/sh
# On a live master: print the etcd cluster's CA (certificate, then key,
# PEM) as one base64 line, for install_master.sh join on a new master.
# The MgmtDriver reads it without logging it and passes it on stdin.
set -eu

pki=${SYSCONF:-/etc}/etcd/pki
sudo cat "$pki/ca.crt" "$pki/ca.key" | base64 | tr -d '\n'
echo
