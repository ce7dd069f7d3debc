"""What the cluster's hooks read from the request: ``k8sCluster``.

``additionalParams.k8sCluster`` of the InstantiateVnfRequest (and of the
scale and heal requests: tacker-ng keeps no copy of a request's secrets
beyond its op occ)::

    {"ssh": {"username": "ubuntu", "privateKey": "...", "password": "..."},
     "masterVdu": "masterNode", "workerVdu": "workerNode",
     "podCidr": "10.244.0.0/16", "controlPlaneAddress": "10.0.0.100",
     "controlPlanePort": 8383, "drainTimeout": 120}

``privateKey``/``password`` are stored encrypted with the op occ (they are
secret keys of :mod:`tacker_ng.crypto`) and decrypted here only.
``controlPlaneAddress``/``Port``: see :mod:`.endpoint`; ``drainTimeout``:
seconds a drain evicts before force-deleting (:mod:`.drain`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tacker_ng import crypto
from tacker_ng.mgmt import ssh
from tacker_ng.mgmt.kubernetes_cluster.commands import ClusterError

DEFAULT_DRAIN_TIMEOUT = 120
MAX_DRAIN_TIMEOUT = 3600

PARAM = "k8sCluster"


@dataclasses.dataclass(frozen=True)
class ClusterParams:
    credentials: ssh.Credentials
    master_vdu: str = "masterNode"
    worker_vdu: str = "workerNode"
    pod_cidr: str = "10.244.0.0/16"
    control_plane_address: str | None = None
    control_plane_port: int = 6443
    #: Seconds a drain evicts before it force-deletes what is left.
    drain_timeout: int = DEFAULT_DRAIN_TIMEOUT


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
    for key, name, top in (
        ("control_plane_port", "controlPlanePort", 65535),
        ("drain_timeout", "drainTimeout", MAX_DRAIN_TIMEOUT),
    ):
        if name in raw:
            out[key] = _whole(raw[name], name, top)
    return ClusterParams(creds, **out)


def _whole(value: Any, name: str, top: int) -> int:
    """A whole number from 1 to ``top``, else 422."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClusterError(
            reason=f"additionalParams.{PARAM}.{name} must be a whole number"
        )
    if not 1 <= value <= top:
        raise ClusterError(
            reason=f"additionalParams.{PARAM}.{name} must be from 1 to {top}"
        )
    return value
