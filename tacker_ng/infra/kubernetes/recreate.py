"""Re-create what a CNF lost behind the VNFM's back: the package is the
desired state.

An object that instantiate created for the CNF (the instance's recorded
``kubernetesResources``: a Deployment someone deleted with kubectl, its
Service, a whole namespace with everything in it) and that is gone from
the cluster cannot come back by itself: no controller owns it. A heal,
manual or automatic, creates it again from the package's manifests as
instantiate rendered them (the instance's files and namespace, so the
same names, labels and annotations), each VDU's workload at the number
of VNFCs the instance records for it - its current scale level, not the
instantiation level. An object still being deleted is waited for first:
the API server refuses to create an object of that name before it is
gone. Each object is recorded in the op occ's progress (``recreated``)
before it is created, so a retry knows which workloads are already new.
"""

import copy
from collections import Counter
from collections.abc import Mapping
from typing import Any

from oslo_log import log as logging

from tacker_ng.infra import base
from tacker_ng.infra.kubernetes import errors, info, manifests
from tacker_ng.infra.kubernetes.kube import ObjectRef
from tacker_ng.infra.kubernetes.state import OWNER, Cluster, CnfState, owned

LOG = logging.getLogger(__name__)
#: Op occ progress key: the objects a heal re-created (ObjectRef dicts).
PROGRESS_KEY = "recreated"


def recorded_counts(instance: Mapping[str, Any]) -> Counter:
    """VNFCs per VDU as the instance records them: the replica count each
    VDU's workload had when the last operation ended (scale included)."""
    return Counter(v["vduId"] for v in info.vnfcs_of(dict(instance)))


def desired_bodies(
    manifest: manifests.Manifest,
    state: CnfState,
    counts: Mapping[str, int],
) -> list[dict[str, Any]]:
    """The CNF's own objects as the package renders them, in apply order,
    each VDU workload at ``counts`` replicas. Objects of the manifests the
    CNF does not own (a namespace that existed before instantiate) are
    left out: they were never the VNF's to re-create. Pure."""
    mine = set(state.objects)
    vdu_of = {ref: vdu for vdu, ref in state.vdus.items()}
    out = []
    for rendered in manifest.objects:
        ref = ObjectRef.of(rendered)
        if ref not in mine:
            continue
        body = copy.deepcopy(rendered)
        vdu = vdu_of.get(ref)
        if vdu is not None:
            manifests.set_replicas(body, counts.get(vdu, 0))
        out.append(body)
    return out


def recreated_vdus(state: CnfState, progress: Mapping[str, Any]) -> set[str]:
    """VDUs whose workload this op occ re-created (a retry included)."""
    done = {ObjectRef.from_dict(r) for r in progress.get(PROGRESS_KEY) or []}
    return {vdu for vdu, ref in state.vdus.items() if ref in done}


def _terminating(obj: dict[str, Any]) -> bool:
    return bool((obj.get("metadata") or {}).get("deletionTimestamp"))


def recreate_missing(
    task: base.LcmTask,
    cluster: Cluster,
    state: CnfState,
    manifest: manifests.Manifest,
) -> set[str]:
    """Create every object of the CNF that is gone (or going) from the
    cluster; the VDUs whose workload is new (see module doc)."""
    bodies = desired_bodies(manifest, state, recorded_counts(task.instance))
    gone, going = [], []
    for body in bodies:
        ref = ObjectRef.of(body)
        current = cluster.kube.get(ref)
        if current is None or _terminating(current):
            gone.append(body)
            if current is not None:
                going.append(ref)
    if going:
        cluster.waiter.until_gone(going)
    recreated = task.progress.setdefault(PROGRESS_KEY, [])
    for body in gone:
        ref = ObjectRef.of(body)
        if ref.to_dict() not in recreated:
            recreated.append(ref.to_dict())
            task.save_progress()
        LOG.info(
            "Op occ %s: %s is gone; creating it again from the package",
            task.op_occ_id,
            ref,
        )
        try:
            cluster.kube.create(owned(body, task.instance["id"]))
        except errors.ApiError as exc:
            if exc.code != 409:
                raise
            _ours_or_conflict(task, cluster, ref)
    return recreated_vdus(state, task.progress)


def _ours_or_conflict(
    task: base.LcmTask, cluster: Cluster, ref: ObjectRef
) -> None:
    """It appeared meanwhile: ours (a conductor died after creating it) is
    fine; anything else holds a name the VNF needs."""
    found = cluster.kube.get(ref) or {}
    annotations = (found.get("metadata") or {}).get("annotations") or {}
    if annotations.get(OWNER) != task.instance["id"]:
        raise errors.NotOwned(object=str(ref))
