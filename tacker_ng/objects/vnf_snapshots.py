"""VNF snapshots (SOL003 5.5.2.21-5.5.2.23): the pure rules.

The VnfSnapshot body is composed from the instance as it was and the
VNFC snapshots the infra driver took; a revert is allowed only to a
snapshot of the same instance, VNFD and deployment flavour. It brings
back the snapshot's VNFC set (re-scaling when the VNF was scaled since),
the VNFCs' contents and the instance's information: ``instantiatedVnfInfo``
as of the snapshot with the servers the VNFCs run on after the revert.
"""

import uuid
from collections.abc import Mapping
from typing import Any

from tacker_ng import crypto
from tacker_ng.objects import views

#: Namespace of VnfSnapshot ids: uuid5(op occ id), so that a retried
#: finish writes the same snapshot.
_NAMESPACE = uuid.UUID("5b0c6d2e-7f7a-4c1e-9a54-1d3c0a3f9e21")


def snapshot_id(op_occ_id: str) -> str:
    """The id of the VnfSnapshot taken by ``op_occ_id``."""
    return str(uuid.uuid5(_NAMESPACE, op_occ_id))


def compose(
    base: str,
    instance: Mapping[str, Any],
    op_occ_id: str,
    taken: Mapping[str, Any],
    request: Mapping[str, Any],
) -> dict[str, Any]:
    """The VnfSnapshot of ``instance`` (a ``vnf_instances`` row; its
    vimConnectionInfo stays sealed) from the driver's ``taken``
    (vnfcSnapshots, creationStartedAt/FinishedAt)."""
    vnf_instance = views.vnf_instance(base, instance)
    vnf_instance.pop("_links", None)
    if instance.get("vim_connection_info"):
        vnf_instance["vimConnectionInfo"] = instance["vim_connection_info"]
    body: dict[str, Any] = {
        "id": snapshot_id(op_occ_id),
        "vnfInstanceId": instance["id"],
        "vnfdId": instance["vnfd_id"],
        "vnfInstance": vnf_instance,
        "vnfcSnapshots": list(taken.get("vnfcSnapshots") or []),
    }
    for key in ("creationStartedAt", "creationFinishedAt"):
        if taken.get(key):
            body[key] = taken[key]
    if request.get("userDefinedData"):
        body["userDefinedData"] = request["userDefinedData"]
    return body


#: Attributes of CreateVnfSnapshotInfoRequest and
#: VnfSnapshotInfoModificationRequest tacker-ng cannot honour, and why.
UNSUPPORTED = {
    "vnfSnapshotPkgId": (
        "tacker-ng does not fetch VNF snapshot packages from the NFVO "
        "(SOL005 VNF snapshot package management is not implemented); a "
        "VnfSnapshotInfo is filled by create_snapshot only"
    ),
    "vnfSnapshot": (
        "tacker-ng holds only the snapshots it took itself "
        "(create_snapshot): a VnfSnapshot from elsewhere names VIM "
        "resources it did not create and can neither revert to nor delete "
        "safely"
    ),
}


def unsupported(body: Mapping[str, Any]) -> tuple[str, str] | None:
    """The first attribute of ``body`` (a create or merge-patch body)
    that would set something tacker-ng cannot honour, with the reason; a
    merge-patch null (remove) on an empty VnfSnapshotInfo changes
    nothing and is no such attribute."""
    for name, reason in UNSUPPORTED.items():
        if body.get(name) is not None:
            return name, reason
    return None


def view(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """A VnfSnapshotInfo (SOL003 5.5.2.22) from a ``vnf_snapshots`` row;
    VIM credentials removed."""
    href = f"{base}{views.LCM_PREFIX}/vnf_snapshots/{row['id']}"
    body: dict[str, Any] = {"id": row["id"]}
    if row.get("vnf_snapshot_pkg_id"):
        body["vnfSnapshotPkgId"] = row["vnf_snapshot_pkg_id"]
    links: dict[str, Any] = {"self": {"href": href}}
    snapshot = row.get("vnf_snapshot")
    if snapshot:
        body["vnfSnapshot"] = crypto.mask(dict(snapshot))
        instance_id = snapshot["vnfInstanceId"]
        links["takenFrom"] = {
            "href": f"{base}{views.LCM_PREFIX}/vnf_instances/{instance_id}"
        }
    body["_links"] = links
    return body


def vnfc_ids(info: Mapping[str, Any] | None) -> set[str]:
    """Ids of the VNFCs in an instantiatedVnfInfo."""
    return {v["id"] for v in (info or {}).get("vnfcResourceInfo") or []}


def revert_conflict(
    instance: Mapping[str, Any], snapshot: Mapping[str, Any] | None
) -> str | None:
    """Why ``instance`` (a row) cannot be reverted to ``snapshot`` (a
    VnfSnapshot), or None when it can."""
    if not snapshot:
        return "it holds no snapshot yet (create_snapshot fills it)"
    if snapshot["vnfInstanceId"] != instance["id"]:
        return f"it was taken of VNF instance {snapshot['vnfInstanceId']}"
    if snapshot["vnfdId"] != instance["vnfd_id"]:
        return (
            f"it was taken with VNFD {snapshot['vnfdId']}; the instance now "
            f"uses {instance['vnfd_id']}"
        )
    then = (snapshot["vnfInstance"].get("instantiatedVnfInfo") or {}).get(
        "flavourId"
    )
    now = (instance.get("instantiated_vnf_info") or {}).get("flavourId")
    if then != now:
        return (
            f"it was taken with deployment flavour {then}; the instance now "
            f"uses {now} (a revert does not change the flavour back)"
        )
    missing = sorted(
        vnfc_ids(snapshot["vnfInstance"].get("instantiatedVnfInfo"))
        - {s.get("vnfcResourceInfoId") for s in snapshot["vnfcSnapshots"]}
    )
    if missing:
        return f"it has no image of VNFC(s) {', '.join(missing)}"
    return None


def needs_rescale(
    snapshot: Mapping[str, Any], current: Mapping[str, Any] | None
) -> bool:
    """Whether the VNFCs of ``current`` (an instantiatedVnfInfo) are not
    the snapshot's: the VNF was scaled (or healed into new VNFCs) since,
    and a revert must bring the snapshot's VNFC set back first."""
    then = vnfc_ids(snapshot["vnfInstance"].get("instantiatedVnfInfo"))
    return then != vnfc_ids(current)


def revert_changes(
    before: Mapping[str, Any] | None, after: list[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """affectedVnfcs of a revert: the VNFCs of ``after`` (vnfcResourceInfo
    once reverted) MODIFIED (rebuilt) or ADDED (brought back), those of
    ``before`` (the instantiatedVnfInfo) it no longer has REMOVED."""
    old = {v["id"]: v for v in (before or {}).get("vnfcResourceInfo") or []}
    new = {v["id"] for v in after}
    changes = [
        {
            "id": v["id"],
            "vduId": v["vduId"],
            "changeType": "MODIFIED" if v["id"] in old else "ADDED",
            "computeResource": v["computeResource"],
        }
        for v in after
    ]
    changes += [
        {
            "id": v["id"],
            "vduId": v["vduId"],
            "changeType": "REMOVED",
            "computeResource": v["computeResource"],
        }
        for vnfc_id, v in old.items()
        if vnfc_id not in new
    ]
    return changes


def restored_info(
    snapshot: Mapping[str, Any], current: Mapping[str, Any]
) -> dict[str, Any]:
    """instantiatedVnfInfo as of ``snapshot``, each VNFC on the server it
    runs on after the revert (``current``: a heal since the snapshot
    replaced some servers, a re-scale brought back others; the revert
    rebuilt them all from the snapshot's images)."""
    info = dict(snapshot["vnfInstance"]["instantiatedVnfInfo"])
    now = {v["id"]: v for v in current.get("vnfcResourceInfo") or []}
    vnfcs = []
    for then in info.get("vnfcResourceInfo") or []:
        vnfc = dict(then)
        if vnfc["id"] in now:
            vnfc["computeResource"] = now[vnfc["id"]]["computeResource"]
            if now[vnfc["id"]].get("zoneId"):
                vnfc["zoneId"] = now[vnfc["id"]]["zoneId"]
            if "storageResourceIds" in now[vnfc["id"]]:
                vnfc["storageResourceIds"] = now[vnfc["id"]][
                    "storageResourceIds"
                ]
        vnfcs.append(vnfc)
    info["vnfcResourceInfo"] = vnfcs
    _restore_storage(info, current)
    return info


def _restore_storage(info: dict[str, Any], current: Mapping[str, Any]) -> None:
    """virtualStorageResourceInfo of the volumes the VNFCs of ``info``
    name (reverted in place: the same volumes as now or then)."""
    known = {
        s["id"]: s
        for source in (info, current)
        for s in source.get("virtualStorageResourceInfo") or []
    }
    used = [
        known[i]
        for v in info["vnfcResourceInfo"]
        for i in v.get("storageResourceIds") or []
        if i in known
    ]
    if used:
        info["virtualStorageResourceInfo"] = used
    else:
        info.pop("virtualStorageResourceInfo", None)


def image_of(snapshot: Mapping[str, Any], vnfc_id: str) -> str | None:
    """The VIM image the snapshot holds for VNFC ``vnfc_id``."""
    for item in snapshot.get("vnfcSnapshots") or []:
        if item.get("vnfcResourceInfoId") == vnfc_id:
            return item["computeSnapshotResource"]["resourceId"]
    return None
