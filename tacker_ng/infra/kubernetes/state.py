"""What one operation works with: the cluster's clients, the CNF's
parts as recorded, the VIM, and the replica count each VDU ends with."""

import copy
import dataclasses
from collections import Counter
from typing import Any

from tacker_ng.infra import base
from tacker_ng.infra.kubernetes import (
    connection,
    errors,
    info,
    manifests,
    waiting,
)
from tacker_ng.infra.kubernetes.kube import Kube, ObjectRef
from tacker_ng.objects import lcm, vim_refs

Op = lcm.Operation


#: Annotation naming the VNF instance an object was created for.
OWNER = "tacker-ng/vnf-instance-id"


def owned(body: dict[str, Any], instance_id: str) -> dict[str, Any]:
    """A copy of ``body`` annotated as created for ``instance_id``."""
    body = copy.deepcopy(body)
    meta = body["metadata"]
    meta["annotations"] = {
        **(meta.get("annotations") or {}),
        OWNER: instance_id,
    }
    return body


@dataclasses.dataclass
class Cluster:
    """The clients of one operation on one cluster."""

    vim_id: str
    kube: Kube
    waiter: waiting.Waiter
    timer: connection.CallTimer


@dataclasses.dataclass
class CnfState:
    """What a CNF is made of (kept in instantiatedVnfInfo.metadata)."""

    namespace: str
    files: list[str]
    objects: list[ObjectRef]
    #: VDU id -> its workload.
    vdus: dict[str, ObjectRef]

    @classmethod
    def of(cls, manifest: manifests.Manifest) -> "CnfState":
        return cls(
            manifest.namespace,
            list(manifest.files),
            manifest.refs(),
            {k: ObjectRef.of(w) for k, w in manifest.vdus.items()},
        )

    @classmethod
    def stored(cls, instance: dict[str, Any]) -> "CnfState":
        kept = info.stored(instance)
        if not kept.get(info.VDU_WORKLOADS):
            raise errors.InvalidManifest(
                reason="the instance was not deployed by this driver"
            )
        return cls(
            kept[info.NAMESPACE],
            list(kept.get(info.FILES) or []),
            [ObjectRef.from_dict(r) for r in kept.get(info.OBJECTS) or []],
            {
                k: ObjectRef.from_dict(r)
                for k, r in kept[info.VDU_WORKLOADS].items()
            },
        )


def vim_of(task: base.LcmTask) -> tuple[str, dict[str, Any]]:
    """(vimConnectionId, VimConnectionInfo) of the cluster: the grant's
    (a remote NFVO may give one), else the instance's Kubernetes VIM."""
    for source in (
        task.grant.get("vimConnectionInfo"),
        vim_refs.runs_on(task.instance.get("vimConnectionInfo")),
    ):
        for vim_id in sorted(source or {}):
            if source[vim_id].get("vimType") == connection.VIM_TYPE:
                return vim_id, source[vim_id]
    raise errors.InvalidVimConnection(
        reason=f"the instance has no {connection.VIM_TYPE} VIM"
    )


def target_counts(task: base.LcmTask) -> Counter:
    """VNFCs per VDU after the operation: those the instance has, plus
    the grant request's added, minus its removed COMPUTE resources (the
    VNFD's instantiation levels and scaling deltas, already checked)."""
    counts = Counter(v["vduId"] for v in info.vnfcs_of(task.instance))
    if task.operation == Op.INSTANTIATE:
        counts = Counter()
    for item in task.grant_request.get("addResources") or []:
        if item.get("type") == "COMPUTE":
            counts[item["vduId"]] += 1
    for item in task.grant_request.get("removeResources") or []:
        if item.get("type") == "COMPUTE":
            counts[item["vduId"]] -= 1
    return counts
