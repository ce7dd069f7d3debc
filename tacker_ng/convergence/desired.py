"""Desired state of a VNF instance: what its last accepted op asked for.

Read from the instance's ``instantiatedVnfInfo`` (written by the op that
completed last): one :class:`DesiredVnfc` per ``vnfcResourceInfo`` entry,
with the VDU, the VIM and resource id, the zone, flavour and image. Pure:
a row in, dataclasses out.
"""

import dataclasses
from collections.abc import Mapping
from typing import Any

#: Desired VIM status of a running VNFC, and of one an operate request
#: stopped (``vnfcInfo[].vnfcState`` STOPPED): a server the operator shut
#: down on purpose is not "healed" back.
ACTIVE = "ACTIVE"
SHUTOFF = "SHUTOFF"


@dataclasses.dataclass(frozen=True)
class DesiredVnfc:
    """One VNFC as the last accepted operation left it."""

    vnf_instance_id: str
    vnfc_id: str
    vdu_id: str
    vim_connection_id: str | None
    resource_id: str | None
    zone: str | None = None
    flavour: str | None = None
    image: str | None = None
    status: str = ACTIVE
    #: Kubernetes only: the pod's namespace and its VDU's workload
    #: (``Kind/name``), which a replacement pod of the VDU is owned by.
    namespace: str | None = None
    workload: str | None = None
    #: The VIM-level type reported in an alarm's faultyResource.
    resource_type: str | None = None

    @property
    def key(self) -> str | None:
        """How the VIM's listing names the resource: a server id, or
        ``namespace/pod`` (pod names are unique per namespace only)."""
        if self.resource_id and self.namespace:
            return f"{self.namespace}/{self.resource_id}"
        return self.resource_id

    def as_dict(self) -> dict[str, Any]:
        """The desired attributes shown in an alarm's faultDetails."""
        return {
            "vduId": self.vdu_id,
            "status": self.status,
            "zoneId": self.zone,
            "computeFlavourId": self.flavour,
            "vcImageId": self.image,
        }


def desired_vnfcs(instance: Mapping[str, Any]) -> list[DesiredVnfc]:
    """The VNFCs an INSTANTIATED instance should have (none otherwise)."""
    if instance.get("instantiation_state") != "INSTANTIATED":
        return []
    info = instance.get("instantiated_vnf_info") or {}
    stopped = {
        c["id"]
        for c in info.get("vnfcInfo") or []
        if c.get("vnfcState") == "STOPPED"
    }
    workloads = (info.get("metadata") or {}).get("vduWorkloads") or {}
    out = []
    for item in info.get("vnfcResourceInfo") or []:
        compute = item.get("computeResource") or {}
        meta = item.get("metadata") or {}
        ref = workloads.get(item.get("vduId")) or {}
        out.append(
            DesiredVnfc(
                vnf_instance_id=instance["id"],
                vnfc_id=item["id"],
                vdu_id=item.get("vduId", ""),
                vim_connection_id=compute.get("vimConnectionId"),
                resource_id=compute.get("resourceId"),
                zone=item.get("zoneId") or meta.get("zone"),
                flavour=meta.get("computeFlavourId"),
                image=meta.get("vcImageId"),
                status=SHUTOFF if item["id"] in stopped else ACTIVE,
                namespace=meta.get("namespace"),
                workload=(
                    f"{ref['kind']}/{ref['name']}"
                    if ref.get("kind") and ref.get("name")
                    else None
                ),
                resource_type=compute.get("vimLevelResourceType"),
            )
        )
    return out


def autoheal_enabled(instance: Mapping[str, Any]) -> bool:
    """``vnfConfigurableProperties.isAutohealEnabled`` (SOL003 VNFD-
    declared property), false when absent."""
    props = instance.get("vnf_configurable_properties") or {}
    return props.get("isAutohealEnabled") is True
