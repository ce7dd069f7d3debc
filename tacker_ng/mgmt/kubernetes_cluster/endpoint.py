"""Where the cluster's control plane is reached: a stable endpoint.

kubeadm's ``controlPlaneEndpoint`` ends up in every kubeconfig of the
cluster (kubelets, kube-proxy, admin), in ``kube-public/cluster-info``
(what ``kubeadm join`` discovers and bootstraps TLS through) and in what
``kubeadm token create --print-join-command`` prints. Naming one master
there makes that master special: while it is down (its heal), no node
can join - its own replacement included - and every kubelet loses the
API. So the endpoint never names a master:

* ``additionalParams.k8sCluster.controlPlaneAddress`` (and
  ``controlPlanePort``, default 6443) when given: an address the operator
  keeps in front of the masters (a VIP moved by keepalived between the
  masters' HAProxy on port 8383, a load balancer, a DNS name). A heal
  changes nothing in it.
* otherwise ``127.0.0.1:8383``: every node, masters and workers, runs
  HAProxy on port 8383 with every master's API server as backend (the
  "localhost load balancer" of kubespray), so each node reaches whichever
  masters are up, and a healed master (or worker) joins through its own
  HAProxy to the others. kubeadm puts the endpoint's host (127.0.0.1)
  into each API server's certificate.

The VNFM itself cannot use a node's loopback: the cluster's VIM names
the API server of the master its kubeconfig was read from (its address
is in its certificate), and a heal of that master moves it to another.
"""

from __future__ import annotations

import ipaddress
import urllib.parse

from tacker_ng.mgmt.kubernetes_cluster import commands, haproxy
from tacker_ng.mgmt.kubernetes_cluster.params import ClusterParams

#: The port of each master's kube-apiserver.
API_SERVER_PORT = 6443
LOCAL = f"127.0.0.1:{haproxy.PORT}"


def control_plane(params: ClusterParams) -> str:
    """The ``controlPlaneEndpoint`` of a new cluster (``host:port``)."""
    if params.control_plane_address:
        return commands.endpoint(
            params.control_plane_address, params.control_plane_port
        )
    return LOCAL


def local_balancer(params: ClusterParams) -> bool:
    """True when every node (not only the masters) runs HAProxy."""
    return not params.control_plane_address


def vim_endpoint(server: str, master_address: str) -> str:
    """The VIM endpoint for a kubeconfig ``server`` read on the master at
    ``master_address``: a loopback server is that master's API server."""
    host = urllib.parse.urlsplit(server).hostname or ""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback:
        return server
    return f"https://{commands.endpoint(master_address, API_SERVER_PORT)}"
