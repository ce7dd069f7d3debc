"""SOL003 views of what the stack holds: vnfcResourceInfo, changes.

``vnfcResourceInfo[*].metadata`` keeps what the driver needs to rebuild
the stack's parameters later (index, zone, flavour, image, the Heat
resource name); ``zoneId`` is the VIM zone the server really runs in.
"""

from typing import Any

from tacker_ng.infra import base
from tacker_ng.infra.openstack import tacker_params
from tacker_ng.infra.openstack.heat import VOLUME_TYPE
from tacker_ng.infra.openstack.vnfcs import SERVER_TYPE, Plan, Vnfc
from tacker_ng.objects import lcm
from tacker_ng.objects.vnfd import DeploymentFlavour


def _compute(vnfc: Vnfc, vim_id: str) -> dict[str, Any]:
    return {
        "vimConnectionId": vim_id,
        "resourceId": vnfc.server_id,
        "vimLevelResourceType": SERVER_TYPE,
    }


def vnfc_resource_info(vnfc: Vnfc, vim_id: str) -> dict[str, Any]:
    """One VnfcResourceInfo (SOL003 5.5.3.5)."""
    item: dict[str, Any] = {
        "id": vnfc.id,
        "vduId": vnfc.vdu_id,
        "computeResource": _compute(vnfc, vim_id),
        "metadata": {
            "index": vnfc.index,
            "stackResource": vnfc.name,
            "zone": vnfc.zone,
            "computeFlavourId": vnfc.flavor,
            "vcImageId": vnfc.image,
        },
    }
    if vnfc.volumes:
        item["storageResourceIds"] = [
            vnfc.volumes[name] for name in sorted(vnfc.volumes)
        ]
    if vnfc.server_group:
        item["metadata"]["serverGroupId"] = vnfc.server_group
    if vnfc.host_key:
        # Public only: what the MgmtDriver pins (mgmt.ssh host_key).
        item["metadata"]["sshHostKey"] = vnfc.host_key
    if vnfc.zone or vnfc.observed_zone:
        item["zoneId"] = vnfc.zone or vnfc.observed_zone
    return item


def storage_resource_info(
    vnfcs: list[Vnfc], vim_id: str
) -> list[dict[str, Any]]:
    """VirtualStorageResourceInfo (SOL003 5.5.3.8) of the VNFCs' volumes;
    the id is the Cinder volume id (unique, and what storageResourceIds
    and a snapshot's storageResourceId name)."""
    out = []
    for vnfc in sorted(vnfcs, key=lambda v: (v.vdu_id, v.index)):
        for name in sorted(vnfc.volumes):
            handle = {
                "vimConnectionId": vim_id,
                "resourceId": vnfc.volumes[name],
                "vimLevelResourceType": VOLUME_TYPE,
            }
            out.append(
                {
                    "id": vnfc.volumes[name],
                    "virtualStorageDescId": name,
                    "storageResource": handle,
                    "metadata": {"vnfcResourceInfoId": vnfc.id},
                }
            )
    return out


def affected(vnfc: Vnfc, change: str, vim_id: str) -> dict[str, Any]:
    """One AffectedVnfc (SOL003 5.5.3.13)."""
    item: dict[str, Any] = {
        "id": vnfc.id,
        "vduId": vnfc.vdu_id,
        "changeType": change,
        "computeResource": _compute(vnfc, vim_id),
        "metadata": {"zone": vnfc.zone, "stackResource": vnfc.name},
    }
    if (vnfc.zone or vnfc.observed_zone) and change != "REMOVED":
        item["zoneId"] = vnfc.zone or vnfc.observed_zone
    if change == "ADDED":
        item["resourceDefinitionId"] = vnfc.id
    return item


def resource_changes(plan: Plan, vim_id: str) -> dict[str, Any]:
    """affectedVnfcs of an operation: ADDED, REMOVED, MODIFIED."""
    old = {v.id for v in plan.before}
    new = {v.id for v in plan.after}
    out = [affected(v, "ADDED", vim_id) for v in plan.after if v.id not in old]
    out += [
        affected(v, "REMOVED", vim_id)
        for v in plan.before
        if v.id not in new or v in plan.removed
    ]
    before = {v.id: v for v in plan.before}
    for v in plan.after:
        prev = before.get(v.id)
        if prev is None:
            continue
        if v.name in plan.recreate or (prev.server_id, prev.zone) != (
            v.server_id,
            v.zone,
        ):
            out.append(affected(v, "MODIFIED", vim_id))
    return {"affectedVnfcs": out} if out else {}


def cp_networks(task: base.LcmTask) -> dict[str, str]:
    """cpdId -> network of external CPs (request, else the instance)."""
    links = task.request.get("extVirtualLinks")
    if links is None:
        info = task.instance.get("instantiatedVnfInfo") or {}
        links = [
            {
                "resourceId": (link.get("resourceHandle") or {}).get(
                    "resourceId"
                ),
                "extCps": link.get("currentVnfExtCpData") or [],
            }
            for link in info.get("extVirtualLinkInfo") or []
        ]
    out = {}
    for link in links:
        for cp in link.get("extCps") or []:
            if link.get("resourceId"):
                out[cp["cpdId"]] = link["resourceId"]
    return out


def _ext_links(task: base.LcmTask, vim_id: str) -> list[dict] | None:
    links = task.request.get("extVirtualLinks")
    if links is None:
        info = task.instance.get("instantiatedVnfInfo") or {}
        return info.get("extVirtualLinkInfo")
    return [
        {
            "id": link["id"],
            "resourceHandle": {
                "vimConnectionId": link.get("vimConnectionId", vim_id),
                "resourceId": link["resourceId"],
            },
            "currentVnfExtCpData": link.get("extCps") or [],
        }
        for link in links
    ]


def scale_status(
    flavour: DeploymentFlavour, vnfcs: list[Vnfc]
) -> list[dict[str, Any]]:
    """scaleStatus per aspect, from the VNFC counts of its VDUs."""
    out = []
    for aspect in flavour.scaling_aspects:
        level = 0
        for vdu, model in flavour.vdus.items():
            deltas = model.aspect_deltas.get(aspect)
            if not deltas:
                continue
            step = next(iter(deltas.values())) or 1
            have = sum(1 for v in vnfcs if v.vdu_id == vdu)
            level = max(
                level, (have - flavour.vdu_instance_count(vdu)) // step
            )
        out.append({"aspectId": aspect, "scaleLevel": max(level, 0)})
    return out


def instantiated_vnf_info(
    task: base.LcmTask,
    flavour: DeploymentFlavour,
    vnfcs: list[Vnfc],
    vim_id: str,
) -> dict[str, Any]:
    """The new instantiatedVnfInfo (other existing fields kept)."""
    info = dict(task.instance.get("instantiatedVnfInfo") or {})
    if task.operation == lcm.Operation.INSTANTIATE:
        info = {}
    info.update(
        {
            "flavourId": flavour.flavour_id,
            "vnfState": info.get("vnfState", "STARTED"),
            "vnfcResourceInfo": [
                vnfc_resource_info(v, vim_id)
                for v in sorted(vnfcs, key=lambda v: (v.vdu_id, v.index))
            ],
        }
    )
    storage = storage_resource_info(vnfcs, vim_id)
    if storage:
        info["virtualStorageResourceInfo"] = storage
    else:
        info.pop("virtualStorageResourceInfo", None)
    status = scale_status(flavour, vnfcs)
    if status:
        info["scaleStatus"] = status
        info["maxScaleLevels"] = [
            {"aspectId": a.aspect_id, "scaleLevel": a.max_scale_level}
            for a in flavour.scaling_aspects.values()
        ]
    links = _ext_links(task, vim_id)
    if links:
        info["extVirtualLinkInfo"] = links
    managed = tacker_params.managed_vl_info(task, vim_id)
    if managed:
        info["extManagedVirtualLinkInfo"] = managed
    return info
