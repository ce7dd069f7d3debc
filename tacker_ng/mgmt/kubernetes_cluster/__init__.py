"""The Kubernetes-cluster MgmtDriver: kubeadm clusters on a VNF's VMs.

``driver`` holds the hooks; ``params`` reads the request, ``vms`` finds
the cluster's VMs from the stack's resources, ``commands`` builds the
scripts' arguments (pure), ``kube`` talks to the cluster's API.
"""
