"""What the cluster's hooks read from the request: ``k8sCluster``.

``additionalParams.k8sCluster`` of the InstantiateVnfRequest (and of the
scale and heal requests: tacker-ng keeps no copy of a request's secrets
beyond its op occ)::

    {"ssh": {"username": "ubuntu", "privateKey": "...", "password": "..."},
     "masterVdu": "masterNode", "workerVdu": "workerNode",
     "podCidr": "10.244.0.0/16", "controlPlaneAddress": "10.0.0.100"}

``privateKey``/``password`` are stored encrypted with the op occ (they are
secret keys of :mod:`tacker_ng.crypto`) and decrypted here only.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tacker_ng import crypto
from tacker_ng.mgmt import ssh
from tacker_ng.mgmt.kubernetes_cluster.commands import ClusterError

PARAM = "k8sCluster"


@dataclasses.dataclass(frozen=True)
class ClusterParams:
    credentials: ssh.Credentials
    master_vdu: str = "masterNode"
    worker_vdu: str = "workerNode"
    pod_cidr: str = "10.244.0.0/16"
    control_plane_address: str | None = None


def from_request(request: dict[str, Any]) -> ClusterParams:
    """The decrypted ``k8sCluster`` parameters, or 422."""
    raw = (request.get("additionalParams") or {}).get(PARAM)
    if not isinstance(raw, dict):
        raise ClusterError(
            reason=f"additionalParams.{PARAM} (with ssh credentials) is "
            "required by this MgmtDriver"
        )
    raw = crypto.unseal(raw)
    login = raw.get("ssh") or {}
    username = login.get("username")
    if not isinstance(username, str) or not username:
        raise ClusterError(reason=f"additionalParams.{PARAM}.ssh.username")
    creds = ssh.Credentials(
        username,
        password=login.get("password"),
        private_key=login.get("privateKey"),
    )
    out = {
        key: raw[name]
        for key, name in (
            ("master_vdu", "masterVdu"),
            ("worker_vdu", "workerVdu"),
            ("pod_cidr", "podCidr"),
            ("control_plane_address", "controlPlaneAddress"),
        )
        if isinstance(raw.get(name), str)
    }
    return ClusterParams(creds, **out)
