"""MgmtDriver hooks of the Kubernetes cluster sample package.

The VNFD's Vnflcm interface points instantiate/heal/scale/terminate
_start/_end at this artifact. tacker-ng's Kubernetes-cluster MgmtDriver
(tacker_ng/mgmt/kubernetes_cluster) reads ``HOOKS`` to learn which of the
package's scripts to run over SSH, on which VDU's nodes, for each hook.
The VNF manager treats this file as data: it is parsed, never imported
from an untrusted package into the conductor process.
"""

#: hook -> list of (VDU node name, package script) run in order.
HOOKS: dict[str, list[tuple[str, str]]] = {
    "instantiate_start": [],
    "instantiate_end": [
        ("workerNode", "Scripts/label_worker_zone.sh"),
    ],
    "scale_start": [],
    "scale_end": [
        ("workerNode", "Scripts/label_worker_zone.sh"),
    ],
    "heal_start": [],
    "heal_end": [
        ("workerNode", "Scripts/label_worker_zone.sh"),
    ],
    "terminate_start": [],
    "terminate_end": [],
}
