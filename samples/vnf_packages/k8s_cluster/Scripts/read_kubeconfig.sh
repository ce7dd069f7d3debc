#!/bin/sh
# On a master: print the admin kubeconfig the install left in
# ~/.kube/config (the MgmtDriver registers the cluster as a VIM with it).
set -eu
cat "$HOME/.kube/config"
