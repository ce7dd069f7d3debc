"""StatefulSet and DaemonSet controllers."""

from __future__ import annotations

import copy
from typing import Any

from tools.simcloud.k8s import controllers as ctl
from tools.simcloud.k8s import defaults, deletion, predicates
from tools.simcloud.k8s.resources import lookup

Obj = dict[str, Any]
PODS = lookup("", "v1", "pods")
NODES = lookup("", "v1", "nodes")
PVCS = lookup("", "v1", "persistentvolumeclaims")
STATEFULSETS = lookup("apps", "v1", "statefulsets")
DAEMONSETS = lookup("apps", "v1", "daemonsets")
REVISION_LABEL = "controller-revision-hash"
DAEMON_TOLERATIONS = [
    {
        "key": "node.kubernetes.io/not-ready",
        "operator": "Exists",
        "effect": "NoExecute",
    },
    {
        "key": "node.kubernetes.io/unreachable",
        "operator": "Exists",
        "effect": "NoExecute",
    },
    {
        "key": "node.kubernetes.io/disk-pressure",
        "operator": "Exists",
        "effect": "NoSchedule",
    },
    {
        "key": "node.kubernetes.io/memory-pressure",
        "operator": "Exists",
        "effect": "NoSchedule",
    },
    {
        "key": "node.kubernetes.io/pid-pressure",
        "operator": "Exists",
        "effect": "NoSchedule",
    },
    {
        "key": "node.kubernetes.io/unschedulable",
        "operator": "Exists",
        "effect": "NoSchedule",
    },
]


def _revision(obj: Obj) -> str:
    digest = ctl.template_hash(obj["spec"]["template"])
    return f"{obj['metadata']['name']}-{digest}"


def _ordinal(sts: Obj, pod: Obj) -> int:
    suffix = pod["metadata"]["name"][len(sts["metadata"]["name"]) + 1 :]
    return int(suffix) if suffix.isdigit() else -1


def statefulsets(cluster: Any) -> None:
    for sts in cluster.store.list(STATEFULSETS):
        if not sts["metadata"].get("deletionTimestamp"):
            _sync_sts(cluster, sts)


def _sts_pod(cluster: Any, sts: Obj, ordinal: int, revision: str) -> Obj:
    name = f"{sts['metadata']['name']}-{ordinal}"
    pod = ctl.new_pod(STATEFULSETS, sts, sts["spec"]["template"], name)
    pod["metadata"].pop("generateName", None)
    labels = pod["metadata"]["labels"]
    labels["statefulset.kubernetes.io/pod-name"] = name
    labels["apps.kubernetes.io/pod-index"] = str(ordinal)
    labels[REVISION_LABEL] = revision
    pod["spec"]["hostname"] = name
    if sts["spec"].get("serviceName"):
        pod["spec"]["subdomain"] = sts["spec"]["serviceName"]
    volumes = pod["spec"].setdefault("volumes", [])
    ns = sts["metadata"]["namespace"]
    for claim in sts["spec"].get("volumeClaimTemplates") or []:
        cname = claim["metadata"]["name"]
        claim_name = f"{cname}-{name}"
        volumes[:] = [v for v in volumes if v.get("name") != cname]
        volumes.append(
            {"name": cname, "persistentVolumeClaim": {"claimName": claim_name}}
        )
        if cluster.store.get(PVCS, ns, claim_name) is None:
            pvc = {
                "metadata": {
                    "name": claim_name,
                    "namespace": ns,
                    "labels": dict(
                        (sts["spec"]["selector"] or {}).get("matchLabels")
                        or {}
                    ),
                },
                "spec": copy.deepcopy(claim.get("spec") or {}),
            }
            defaults.pvc(pvc)
            cluster.store.create(PVCS, pvc)
    return pod


def _sync_sts(cluster: Any, sts: Obj) -> None:
    spec = sts["spec"]
    replicas = spec.get("replicas", 1)
    revision = _revision(sts)
    ordered = spec.get("podManagementPolicy") != "Parallel"
    pods = {_ordinal(sts, p): p for p in ctl.owned(cluster, PODS, sts)}
    for pod in list(pods.values()):
        if pod.get("status", {}).get("phase") == "Failed" and not pod[
            "metadata"
        ].get("deletionTimestamp"):
            deletion.delete(cluster.store, PODS, pod, {})
    pods = {_ordinal(sts, p): p for p in ctl.owned(cluster, PODS, sts)}
    for ordinal in range(replicas):
        pod = pods.get(ordinal)
        if pod is None:
            pod = cluster.store.create(
                PODS, _sts_pod(cluster, sts, ordinal, revision)
            )
            pods[ordinal] = pod
            cluster.record(
                STATEFULSETS,
                sts,
                "Normal",
                "SuccessfulCreate",
                f"create Pod {pod['metadata']['name']} in "
                f"StatefulSet {sts['metadata']['name']} "
                "successful",
                "statefulset-controller",
            )
            if ordered:
                break
        elif ordered and not ctl.is_ready(pod):
            break
    extra = sorted((o for o in pods if o >= replicas or o < 0), reverse=True)
    all_ready = all(ctl.is_ready(pods[o]) for o in pods if 0 <= o < replicas)
    terminating = any(
        p["metadata"].get("deletionTimestamp") for p in pods.values()
    )
    for o in extra:
        if ordered and (terminating or not all_ready):
            break
        if not pods[o]["metadata"].get("deletionTimestamp"):
            deletion.delete(cluster.store, PODS, pods[o], {})
            terminating = True
    strategy = spec.get("updateStrategy") or {}
    partition = (strategy.get("rollingUpdate") or {}).get("partition", 0)
    if (
        strategy.get("type") == "RollingUpdate"
        and all_ready
        and not terminating
        and len([o for o in pods if o < replicas]) == replicas
    ):
        stale = [
            o
            for o in range(replicas - 1, partition - 1, -1)
            if pods[o]["metadata"].get("labels", {}).get(REVISION_LABEL)
            != revision
        ]
        if stale:
            deletion.delete(cluster.store, PODS, pods[stale[0]], {})
    live = list(ctl.owned(cluster, PODS, sts))
    ready = sum(1 for p in live if ctl.is_ready(p))
    updated = sum(
        1
        for p in live
        if p["metadata"].get("labels", {}).get(REVISION_LABEL) == revision
    )
    status = {
        "observedGeneration": sts["metadata"]["generation"],
        "replicas": len(live),
        "readyReplicas": ready,
        "currentReplicas": updated,
        "updatedReplicas": updated,
        "availableReplicas": ready,
        "currentRevision": revision,
        "updateRevision": revision,
        "collisionCount": 0,
    }
    for key in ("readyReplicas", "currentReplicas", "updatedReplicas"):
        if not status[key]:
            del status[key]
    ctl.update_status(cluster, STATEFULSETS, sts, status)


def daemonsets(cluster: Any) -> None:
    node_list = cluster.store.list(NODES)
    for ds in cluster.store.list(DAEMONSETS):
        if not ds["metadata"].get("deletionTimestamp"):
            _sync_ds(cluster, ds, node_list)


def _ds_template(ds: Obj) -> Obj:
    template = copy.deepcopy(ds["spec"]["template"])
    tolerations = template["spec"].setdefault("tolerations", [])
    for tol in DAEMON_TOLERATIONS:
        if tol not in tolerations:
            tolerations.append(dict(tol))
    return template


def _sync_ds(cluster: Any, ds: Obj, node_list: list[Obj]) -> None:
    template = _ds_template(ds)
    revision = _revision(ds)
    probe = {
        "metadata": {"namespace": ds["metadata"]["namespace"]},
        "spec": template["spec"],
    }
    wanted = {
        n["metadata"]["name"]
        for n in node_list
        if predicates.node_matches_pod(probe, n)
        and predicates.first_untolerated(probe, n) is None
    }
    pods = [p for p in ctl.owned(cluster, PODS, ds) if ctl.active(p)]
    by_node: dict[str, list[Obj]] = {}
    for pod in pods:
        target = _target_node(pod)
        by_node.setdefault(target, []).append(pod)
    for name in sorted(wanted - set(by_node)):
        pod = ctl.new_pod(
            DAEMONSETS,
            ds,
            template,
            f"{ds['metadata']['name']}-{defaults.random_suffix()}",
        )
        pod["metadata"]["labels"][REVISION_LABEL] = revision
        pod["spec"].setdefault("affinity", {})["nodeAffinity"] = {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchFields": [
                            {
                                "key": "metadata.name",
                                "operator": "In",
                                "values": [name],
                            }
                        ]
                    }
                ]
            }
        }
        cluster.store.create(PODS, pod)
    misscheduled = 0
    for target, group in by_node.items():
        doomed = group if target not in wanted else group[1:]
        misscheduled += len(doomed) if target not in wanted else 0
        for pod in doomed:
            deletion.delete(cluster.store, PODS, pod, {})
    pods = [p for p in ctl.owned(cluster, PODS, ds) if ctl.active(p)]
    stale = [
        p
        for p in pods
        if p["metadata"].get("labels", {}).get(REVISION_LABEL) != revision
    ]
    if stale and all(ctl.is_ready(p) for p in pods):
        deletion.delete(cluster.store, PODS, stale[0], {})
    scheduled = [p for p in pods if p["spec"].get("nodeName")]
    ready = sum(1 for p in scheduled if ctl.is_ready(p))
    status = {
        "currentNumberScheduled": len(scheduled),
        "numberMisscheduled": misscheduled,
        "desiredNumberScheduled": len(wanted),
        "numberReady": ready,
        "observedGeneration": ds["metadata"]["generation"],
        "updatedNumberScheduled": len(scheduled) - len(stale),
        "numberAvailable": ready,
        "numberUnavailable": max(0, len(wanted) - ready),
    }
    for key in ("numberAvailable", "numberUnavailable"):
        if not status[key]:
            del status[key]
    ctl.update_status(cluster, DAEMONSETS, ds, status)


def _target_node(pod: Obj) -> str:
    if pod["spec"].get("nodeName"):
        return pod["spec"]["nodeName"]
    terms = (
        ((pod["spec"].get("affinity") or {}).get("nodeAffinity") or {}).get(
            "requiredDuringSchedulingIgnoredDuringExecution"
        )
        or {}
    ).get("nodeSelectorTerms") or []
    for term in terms:
        for field in term.get("matchFields") or []:
            if field.get("key") == "metadata.name" and field.get("values"):
                return field["values"][0]
    return ""
