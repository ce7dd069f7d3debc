"""SOL003 views of a CNF: vnfcResourceInfo per pod, resource changes.

A VNFC is a pod: ``id`` and ``computeResource.resourceId`` are the pod
name, ``vimLevelResourceType`` the workload kind; ``metadata`` says where
it runs (node and the node's ``kubernetes.io/zone`` label). What the
driver needs later (namespace, files, objects applied, the workload of
each VDU) is kept in ``instantiatedVnfInfo.metadata``.
"""

from collections import Counter
from typing import Any

from tacker_ng.infra.kubernetes.kube import ObjectRef
from tacker_ng.objects.vnfd import DeploymentFlavour

ZONE_LABEL = "kubernetes.io/zone"
#: instantiatedVnfInfo.metadata keys.
NAMESPACE = "namespace"
FILES = "lcm-kubernetes-def-files"
OBJECTS = "kubernetesResources"
VDU_WORKLOADS = "vduWorkloads"


def node_zones(nodes: list[dict[str, Any]]) -> dict[str, str | None]:
    """Node name -> its ``kubernetes.io/zone`` label."""
    return {
        n["metadata"]["name"]: (n["metadata"].get("labels") or {}).get(
            ZONE_LABEL
        )
        for n in nodes
    }


def vnfc(
    vdu_id: str,
    kind: str,
    pod: dict[str, Any],
    zones: dict[str, str | None],
    vim_id: str,
) -> dict[str, Any]:
    """One VnfcResourceInfo (SOL003 5.5.3.5) for a pod."""
    meta = pod["metadata"]
    node = (pod.get("spec") or {}).get("nodeName")
    metadata: dict[str, Any] = {"namespace": meta.get("namespace")}
    if node:
        metadata["nodeName"] = node
        if zones.get(node):
            metadata["zone"] = zones[node]
    return {
        "id": meta["name"],
        "vduId": vdu_id,
        "computeResource": {
            "vimConnectionId": vim_id,
            "resourceId": meta["name"],
            "vimLevelResourceType": kind,
        },
        "metadata": metadata,
    }


def _affected(item: dict[str, Any], change: str) -> dict[str, Any]:
    out = {
        "id": item["id"],
        "vduId": item["vduId"],
        "changeType": change,
        "computeResource": item["computeResource"],
    }
    if item.get("metadata"):
        out["metadata"] = item["metadata"]
    return out


def resource_changes(
    before: list[dict[str, Any]],
    after: list[dict[str, Any]],
    modified: frozenset[str] | set[str] = frozenset(),
) -> dict[str, Any]:
    """affectedVnfcs: pods that appeared, went, or (``modified``) were
    replaced under the same name (StatefulSet or bare pods)."""
    old = {v["id"]: v for v in before}
    new = {v["id"]: v for v in after}
    out = [_affected(v, "ADDED") for k, v in new.items() if k not in old]
    out += [_affected(v, "REMOVED") for k, v in old.items() if k not in new]
    out += [
        _affected(new[k], "MODIFIED") for k in sorted(modified) if k in new
    ]
    return {"affectedVnfcs": out} if out else {}


def scale_status(
    flavour: DeploymentFlavour, vnfcs: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """scaleStatus per aspect, from the VNFC count of its VDUs."""
    have = Counter(v["vduId"] for v in vnfcs)
    out = []
    for aspect in flavour.scaling_aspects:
        level = 0
        for vdu, model in flavour.vdus.items():
            deltas = model.aspect_deltas.get(aspect)
            if deltas:
                step = next(iter(deltas.values())) or 1
                extra = have[vdu] - flavour.vdu_instance_count(vdu)
                level = max(level, extra // step)
        out.append({"aspectId": aspect, "scaleLevel": max(level, 0)})
    return out


def instantiated_vnf_info(
    flavour: DeploymentFlavour,
    vnfcs: list[dict[str, Any]],
    namespace: str,
    files: list[str],
    objects: list[ObjectRef],
    vdu_workloads: dict[str, ObjectRef],
) -> dict[str, Any]:
    """The instance's instantiatedVnfInfo after an operation."""
    info: dict[str, Any] = {
        "flavourId": flavour.flavour_id,
        "vnfState": "STARTED",
        "vnfcResourceInfo": sorted(vnfcs, key=lambda v: (v["vduId"], v["id"])),
        "metadata": {
            NAMESPACE: namespace,
            FILES: list(files),
            OBJECTS: [r.to_dict() for r in objects],
            VDU_WORKLOADS: {k: r.to_dict() for k, r in vdu_workloads.items()},
        },
    }
    status = scale_status(flavour, vnfcs)
    if status:
        info["scaleStatus"] = status
        info["maxScaleLevels"] = [
            {"aspectId": a.aspect_id, "scaleLevel": a.max_scale_level}
            for a in flavour.scaling_aspects.values()
        ]
    return info


def stored(instance: dict[str, Any]) -> dict[str, Any]:
    """What a previous operation kept in instantiatedVnfInfo.metadata."""
    info = instance.get("instantiatedVnfInfo") or {}
    return info.get("metadata") or {}


def vnfcs_of(instance: dict[str, Any]) -> list[dict[str, Any]]:
    info = instance.get("instantiatedVnfInfo") or {}
    return list(info.get("vnfcResourceInfo") or [])
