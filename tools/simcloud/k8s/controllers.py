"""Deployment and ReplicaSet controllers (kube-controller-manager)."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from tools.simcloud.k8s import defaults, deletion, rollout
from tools.simcloud.k8s.resources import lookup
from tools.simcloud.k8s.store import now

Obj = dict[str, Any]
PODS = lookup("", "v1", "pods")
DEPLOYMENTS = lookup("apps", "v1", "deployments")
REPLICASETS = lookup("apps", "v1", "replicasets")
REVISION = "deployment.kubernetes.io/revision"
HASH_LABEL = "pod-template-hash"


def template_hash(template: Obj) -> str:
    """A stable pod-template-hash (ComputeHash's role, not its value)."""
    digest = hashlib.sha256(json.dumps(template, sort_keys=True).encode())
    number = int.from_bytes(digest.digest()[:8], "big")
    out = ""
    for _ in range(10):
        number, rem = divmod(number, len(defaults.NAME_CHARS))
        out += defaults.NAME_CHARS[rem]
    return out


def owner_ref(res: Any, owner: Obj) -> Obj:
    return {
        "apiVersion": res.api_version,
        "kind": res.kind,
        "name": owner["metadata"]["name"],
        "uid": owner["metadata"]["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def controller_uid(obj: Obj) -> str | None:
    for ref in obj["metadata"].get("ownerReferences") or []:
        if ref.get("controller"):
            return ref.get("uid")
    return None


def owned(cluster: Any, res: Any, owner: Obj) -> list[Obj]:
    uid = owner["metadata"]["uid"]
    return [
        o
        for o in cluster.store.list(res, owner["metadata"]["namespace"])
        if controller_uid(o) == uid
    ]


def is_ready(pod: Obj) -> bool:
    if pod["metadata"].get("deletionTimestamp"):
        return False
    return any(
        c["type"] == "Ready" and c["status"] == "True"
        for c in pod.get("status", {}).get("conditions") or []
    )


def active(pod: Obj) -> bool:
    return not pod["metadata"].get("deletionTimestamp") and pod.get(
        "status", {}
    ).get("phase") not in ("Succeeded", "Failed")


def new_pod(owner_res: Any, owner: Obj, template: Obj, name: str) -> Obj:
    tmeta = template.get("metadata") or {}
    pod = {
        "metadata": {
            "name": name,
            "generateName": owner["metadata"]["name"] + "-",
            "namespace": owner["metadata"]["namespace"],
            "labels": dict(tmeta.get("labels") or {}),
            "ownerReferences": [owner_ref(owner_res, owner)],
        },
        "spec": copy.deepcopy(template.get("spec") or {}),
    }
    if tmeta.get("annotations"):
        pod["metadata"]["annotations"] = dict(tmeta["annotations"])
    defaults.pod(pod)
    return pod


def update_status(cluster: Any, res: Any, obj: Obj, status: Obj) -> None:
    if obj.get("status") == status:
        return
    new = copy.copy(obj)
    new["metadata"] = dict(obj["metadata"])
    new["status"] = status
    cluster.store.update(res, new, check_rv=False)


def set_replicas(
    cluster: Any,
    rs: Obj,
    replicas: int,
    deploy: Obj,
    revision: str | None = None,
) -> Obj:
    new = copy.deepcopy(rs)
    old_count = rs["spec"]["replicas"]
    new["spec"]["replicas"] = replicas
    ann = new["metadata"].setdefault("annotations", {})
    ann["deployment.kubernetes.io/desired-replicas"] = str(
        deploy["spec"]["replicas"]
    )
    if revision:
        ann[REVISION] = revision
    stored = cluster.store.update(REPLICASETS, new, check_rv=False)
    if old_count != replicas:
        verb = "up" if replicas > old_count else "down"
        cluster.record(
            DEPLOYMENTS,
            deploy,
            "Normal",
            "ScalingReplicaSet",
            f"Scaled {verb} replica set {rs['metadata']['name']} "
            f"to {replicas} from {old_count}",
            "deployment-controller",
        )
    return stored


def deployments(cluster: Any) -> None:
    for deploy in cluster.store.list(DEPLOYMENTS):
        if deploy["metadata"].get("deletionTimestamp"):
            continue
        _sync_deployment(cluster, deploy)


def _sync_deployment(cluster: Any, deploy: Obj) -> None:
    spec = deploy["spec"]
    template = spec["template"]
    pth = template_hash(template)
    rses = [
        r
        for r in owned(cluster, REPLICASETS, deploy)
        if not r["metadata"].get("deletionTimestamp")
    ]
    new_rs = next(
        (
            r
            for r in rses
            if r["metadata"].get("labels", {}).get(HASH_LABEL) == pth
        ),
        None,
    )
    olds = [r for r in rses if r is not new_rs]
    revisions = [
        int(r["metadata"].get("annotations", {}).get(REVISION, 0))
        for r in rses
    ]
    if not spec.get("paused"):
        pods_by_rs = {
            r["metadata"]["uid"]: owned(cluster, PODS, r) for r in rses
        }
        ready = {
            uid: sum(1 for p in pods if is_ready(p))
            for uid, pods in pods_by_rs.items()
        }
        old_running = sum(
            1
            for r in olds
            for p in pods_by_rs[r["metadata"]["uid"]]
            if p.get("status", {}).get("phase") not in ("Succeeded", "Failed")
        )
        if new_rs is None:
            new_rs = _create_rs(
                cluster,
                deploy,
                template,
                pth,
                rollout.initial_replicas(deploy, olds, old_running),
                str(max(revisions, default=0) + 1),
            )
            ready[new_rs["metadata"]["uid"]] = 0
        else:
            current_rev = int(
                new_rs["metadata"].get("annotations", {}).get(REVISION, 0)
            )
            if olds and current_rev < max(revisions, default=0):
                new_rev = str(max(revisions) + 1)
                new_rs = set_replicas(
                    cluster,
                    new_rs,
                    new_rs["spec"]["replicas"],
                    deploy,
                    new_rev,
                )
        plan = rollout.plan(deploy, new_rs, olds, ready, old_running)
        for rs in [new_rs, *olds]:
            want = plan.get(rs["metadata"]["uid"])
            if want is not None and want != rs["spec"]["replicas"]:
                stored = set_replicas(cluster, rs, want, deploy)
                if rs is new_rs:
                    new_rs = stored
        _cleanup(cluster, deploy, olds)
        deploy = _annotate_revision(cluster, deploy, new_rs)
    _deployment_status(cluster, deploy, new_rs)


def _annotate_revision(cluster: Any, deploy: Obj, new_rs: Obj) -> Obj:
    """The Deployment carries its current revision (rollout undo reads it)."""
    revision = new_rs["metadata"].get("annotations", {}).get(REVISION)
    annotations = deploy["metadata"].get("annotations") or {}
    if not revision or annotations.get(REVISION) == revision:
        return deploy
    new = copy.deepcopy(deploy)
    new["metadata"].setdefault("annotations", {})[REVISION] = revision
    return cluster.store.update(DEPLOYMENTS, new, check_rv=False)


def _create_rs(
    cluster: Any,
    deploy: Obj,
    template: Obj,
    pth: str,
    replicas: int,
    revision: str,
) -> Obj:
    labels = dict(template.get("metadata", {}).get("labels") or {})
    labels[HASH_LABEL] = pth
    rs_template = copy.deepcopy(template)
    rs_template.setdefault("metadata", {})["labels"] = labels
    selector = copy.deepcopy(deploy["spec"]["selector"])
    selector.setdefault("matchLabels", {})[HASH_LABEL] = pth
    name = f"{deploy['metadata']['name']}-{pth}"
    rs = {
        "metadata": {
            "name": name,
            "namespace": deploy["metadata"]["namespace"],
            "labels": labels,
            "annotations": {
                "deployment.kubernetes.io/desired-replicas": str(
                    deploy["spec"]["replicas"]
                ),
                "deployment.kubernetes.io/max-replicas": str(
                    deploy["spec"]["replicas"] + rollout.surge(deploy)
                ),
                REVISION: revision,
            },
            "ownerReferences": [owner_ref(DEPLOYMENTS, deploy)],
        },
        "spec": {
            "replicas": replicas,
            "selector": selector,
            "template": rs_template,
            "minReadySeconds": deploy["spec"].get("minReadySeconds", 0),
        },
        "status": {"replicas": 0},
    }
    stored = cluster.store.create(REPLICASETS, rs)
    cluster.record(
        DEPLOYMENTS,
        deploy,
        "Normal",
        "ScalingReplicaSet",
        f"Scaled up replica set {name} to {replicas}",
        "deployment-controller",
    )
    return stored


def _cleanup(cluster: Any, deploy: Obj, olds: list[Obj]) -> None:
    limit = deploy["spec"].get("revisionHistoryLimit", 10)
    idle = [
        r
        for r in olds
        if r["spec"]["replicas"] == 0
        and r.get("status", {}).get("replicas", 0) == 0
    ]
    idle.sort(
        key=lambda r: int(
            r["metadata"].get("annotations", {}).get(REVISION, 0)
        )
    )
    for rs in idle[: max(0, len(idle) - limit)]:
        deletion.delete(cluster.store, REPLICASETS, rs, {})


def _deployment_status(cluster: Any, deploy: Obj, new_rs: Obj | None) -> None:
    rses = owned(cluster, REPLICASETS, deploy)
    st = [r.get("status") or {} for r in rses]
    replicas = deploy["spec"]["replicas"]
    total = sum(s.get("replicas", 0) for s in st)
    ready = sum(s.get("readyReplicas", 0) for s in st)
    available = sum(s.get("availableReplicas", 0) for s in st)
    new_status = (new_rs or {}).get("status") or {}
    updated = new_status.get("replicas", 0)
    status = copy.deepcopy(deploy.get("status") or {})
    status.update(
        observedGeneration=deploy["metadata"]["generation"],
        replicas=total,
        updatedReplicas=updated,
        readyReplicas=ready,
        availableReplicas=available,
    )
    unavailable = max(0, replicas - available)
    if unavailable:
        status["unavailableReplicas"] = unavailable
    else:
        status.pop("unavailableReplicas", None)
    for key in (
        "readyReplicas",
        "availableReplicas",
        "updatedReplicas",
        "replicas",
    ):
        if not status.get(key):
            status.pop(key, None)
    min_ok = available >= replicas - rollout.max_unavailable(deploy)
    rollout.condition(
        status,
        "Available",
        min_ok,
        "MinimumReplicasAvailable" if min_ok else "MinimumReplicasUnavailable",
        "Deployment has minimum availability."
        if min_ok
        else "Deployment does not have minimum availability.",
    )
    name = (new_rs or {}).get("metadata", {}).get("name", "")
    complete = (
        updated == replicas == total == available
        and new_status.get("availableReplicas", 0) == replicas
    )
    if complete:
        rollout.condition(
            status,
            "Progressing",
            True,
            "NewReplicaSetAvailable",
            f'ReplicaSet "{name}" has successfully progressed.',
        )
    elif rollout.deadline_exceeded(deploy, status):
        rollout.condition(
            status,
            "Progressing",
            False,
            "ProgressDeadlineExceeded",
            f'ReplicaSet "{name}" has timed out progressing.',
        )
    else:
        rollout.condition(
            status,
            "Progressing",
            True,
            "ReplicaSetUpdated",
            f'ReplicaSet "{name}" is progressing.',
        )
    update_status(cluster, DEPLOYMENTS, deploy, status)


def replicasets(cluster: Any) -> None:
    for rs in cluster.store.list(REPLICASETS):
        if rs["metadata"].get("deletionTimestamp"):
            continue
        pods = [p for p in owned(cluster, PODS, rs) if active(p)]
        want = rs["spec"]["replicas"]
        if len(pods) < want:
            for _ in range(want - len(pods)):
                name = f"{rs['metadata']['name']}-{defaults.random_suffix()}"
                pod = cluster.store.create(
                    PODS,
                    new_pod(REPLICASETS, rs, rs["spec"]["template"], name),
                )
                pods.append(pod)
                cluster.record(
                    REPLICASETS,
                    rs,
                    "Normal",
                    "SuccessfulCreate",
                    f"Created pod: {name}",
                    "replicaset-controller",
                )
        elif len(pods) > want:
            doomed = sorted(pods, key=rollout.deletion_rank)[
                : len(pods) - want
            ]
            for pod in doomed:
                deletion.delete(cluster.store, PODS, pod, {})
                pods.remove(pod)
                cluster.record(
                    REPLICASETS,
                    rs,
                    "Normal",
                    "SuccessfulDelete",
                    f"Deleted pod: {pod['metadata']['name']}",
                    "replicaset-controller",
                )
        all_pods = owned(cluster, PODS, rs)
        ready = sum(1 for p in all_pods if is_ready(p))
        status = {
            "replicas": len([p for p in all_pods if active(p)]),
            "fullyLabeledReplicas": len(pods),
            "readyReplicas": ready,
            "availableReplicas": ready,
            "observedGeneration": rs["metadata"]["generation"],
        }
        for key in (
            "fullyLabeledReplicas",
            "readyReplicas",
            "availableReplicas",
        ):
            if not status[key]:
                del status[key]
        update_status(cluster, REPLICASETS, rs, status)


__all__ = ["now"]
