"""MgmtDriver artifact of the Kubernetes cluster sample package.

The VNFD's Vnflcm interface points instantiate/heal/scale/terminate
_start/_end at this artifact; its file name names tacker-ng's installed
MgmtDriver ``kubernetes_cluster_mgmt`` (tacker_ng/mgmt/kubernetes_cluster,
entry point group ``tacker_ng.mgmt_drivers``). The VNF manager treats this
file as data: it is never imported from a package into the conductor.

``HOOKS`` documents which of the package's scripts the driver runs over
SSH, on which VDU's VMs, for each hook (doc/source/user/
kubernetes-cluster-mgmt.rst). Scripts/label_worker_zone.sh is the manual
equivalent of the zone label the driver sets through the Kubernetes API.
"""

#: hook -> list of (VDU node name, package script) the driver runs.
HOOKS: dict[str, list[tuple[str, str]]] = {
    "instantiate_end": [
        # every VM (the masters only with a controlPlaneAddress)
        ("masterNode", "Scripts/haproxy_backends.sh"),
        ("workerNode", "Scripts/haproxy_backends.sh"),
        ("masterNode", "Scripts/install_master.sh"),
        ("masterNode", "Scripts/join_command.sh"),
        ("masterNode", "Scripts/read_etcd_ca.sh"),
        ("masterNode", "Scripts/etcd_member.sh"),
        ("workerNode", "Scripts/install_worker.sh"),
        ("masterNode", "Scripts/read_kubeconfig.sh"),
    ],
    "scale_start": [("masterNode", "Scripts/remove_node.sh")],
    "scale_end": [
        ("masterNode", "Scripts/read_kubeconfig.sh"),
        ("workerNode", "Scripts/haproxy_backends.sh"),
        ("masterNode", "Scripts/join_command.sh"),
        ("workerNode", "Scripts/install_worker.sh"),
    ],
    "heal_start": [
        ("masterNode", "Scripts/etcd_member.sh"),
        ("masterNode", "Scripts/haproxy_backends.sh"),
        ("workerNode", "Scripts/haproxy_backends.sh"),
        ("masterNode", "Scripts/remove_node.sh"),
        ("masterNode", "Scripts/read_kubeconfig.sh"),
    ],
    "heal_end": [
        ("masterNode", "Scripts/read_kubeconfig.sh"),
        ("masterNode", "Scripts/haproxy_backends.sh"),
        ("workerNode", "Scripts/haproxy_backends.sh"),
        ("masterNode", "Scripts/join_command.sh"),
        ("masterNode", "Scripts/read_etcd_ca.sh"),
        ("masterNode", "Scripts/etcd_member.sh"),
        ("masterNode", "Scripts/install_master.sh"),
        ("workerNode", "Scripts/install_worker.sh"),
    ],
}
