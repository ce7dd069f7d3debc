"""The cluster's VMs, found from the stack's resources (vnfcResourceInfo).

Each VNFC's server is looked up in Nova (its VIM from the VNFC's
``vimConnectionId``) for what the hooks need: the fixed IP to SSH to, the
server name (the VM's hostname, hence its node name) and the compute host
(``OS-EXT-SRV-ATTR:host``, the worker's ``kubernetes.io/zone`` label).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from novaclient import client as nova_client
from novaclient import exceptions as nova_exc
from oslo_config import cfg

from tacker_ng.infra.openstack import errors as os_errors
from tacker_ng.infra.openstack import session as os_session
from tacker_ng.mgmt import ssh_hostkeys
from tacker_ng.mgmt.kubernetes_cluster.commands import ClusterError

#: 2.3: extended server attributes (host); 2.47+ names the flavour.
MICROVERSION = "2.79"
HOST_ATTR = "OS-EXT-SRV-ATTR:host"


@dataclasses.dataclass(frozen=True)
class ClusterVm:
    vnfc_id: str
    vdu_id: str
    index: int
    server_id: str
    name: str
    address: str
    compute_host: str | None
    host_key: str | None
    #: The VNFC's Heat resource name (``workerNode-1``): unique in the VNF.
    resource_name: str = ""

    @property
    def node_name(self) -> str:
        """The node's name (kubeadm ``--node-name``): the VNFC's resource
        name, unique in the VNF, where server names need not be (every
        server of a VDU may be called after it)."""
        return (self.resource_name or self.name).lower().replace("_", "-")


def _fixed_ip(server: Any) -> str | None:
    for addresses in (getattr(server, "addresses", None) or {}).values():
        for item in addresses:
            if item.get("OS-EXT-IPS:type", "fixed") == "fixed":
                return item.get("addr")
    return None


def _nova(vim: dict[str, Any]) -> Any:
    sess, region = os_session.make_session(vim)
    return nova_client.Client(
        MICROVERSION,
        session=sess,
        region_name=region,
        endpoint_type=cfg.CONF.openstack.endpoint_interface,
    )


def cluster_vms(instance: dict[str, Any]) -> list[ClusterVm]:
    """Every VNFC's VM of ``instance`` (decrypted VIMs), by VDU and index."""
    info = instance.get("instantiatedVnfInfo") or {}
    vims = instance.get("vimConnectionInfo") or {}
    clients: dict[str, Any] = {}
    out = []
    for vnfc in info.get("vnfcResourceInfo") or []:
        compute = vnfc["computeResource"]
        vim_id = compute.get("vimConnectionId") or sorted(vims)[0]
        if vim_id not in clients:
            clients[vim_id] = _nova(vims[vim_id])
        try:
            server = clients[vim_id].servers.get(compute["resourceId"])
        except nova_exc.ClientException as exc:
            refused = os_errors.refused(
                f"VIM {vim_id}",
                f"Nova server show of VNFC {vnfc['id']}",
                exc,
            )
            raise ClusterError(reason=refused.detail) from None
        address = _fixed_ip(server)
        if not address:
            raise ClusterError(reason=f"server {server.name} has no fixed IP")
        out.append(
            ClusterVm(
                vnfc_id=vnfc["id"],
                vdu_id=vnfc["vduId"],
                index=int((vnfc.get("metadata") or {}).get("index", 0)),
                server_id=server.id,
                name=server.name,
                address=address,
                compute_host=getattr(server, HOST_ATTR, None),
                host_key=ssh_hostkeys.pinned_key(vnfc),
                resource_name=str(
                    (vnfc.get("metadata") or {}).get("stackResource") or ""
                ),
            )
        )
    out.sort(key=lambda vm: (vm.vdu_id, vm.index))
    return out
