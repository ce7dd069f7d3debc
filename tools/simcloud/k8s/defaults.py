"""API defaulting (SetDefaults_*) and the admission plugins that fill
fields in: what a real cluster adds to an object it stores."""

from __future__ import annotations

import base64
import ipaddress
import itertools
import random
import string
from typing import Any

from tools.simcloud.k8s import quantity

Obj = dict[str, Any]
NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789"  # utilrand.String's alphabet
_service_ips = itertools.count(10)
_node_ports = itertools.count(30000)


def random_suffix(n: int = 5) -> str:
    return "".join(random.choice(NAME_CHARS) for _ in range(n))


def generate_name(meta: Obj) -> None:
    """metadata.generateName -> name (names.SimpleNameGenerator)."""
    if not meta.get("name") and meta.get("generateName"):
        meta["name"] = meta["generateName"][:58] + random_suffix()


def _container(c: Obj) -> None:
    image = c.get("image") or ""
    tag = image.rsplit("/", 1)[-1]
    if "imagePullPolicy" not in c:
        latest = "@" not in tag and (":" not in tag or tag.endswith(":latest"))
        c["imagePullPolicy"] = "Always" if latest else "IfNotPresent"
    c.setdefault("terminationMessagePath", "/dev/termination-log")
    c.setdefault("terminationMessagePolicy", "File")
    res = c.setdefault("resources", {})
    limits = res.get("limits") or {}
    if limits:
        requests = res.setdefault("requests", {})
        for name, value in limits.items():
            requests.setdefault(name, value)
    for port in c.get("ports") or []:
        port.setdefault("protocol", "TCP")


def pod_spec(spec: Obj) -> None:
    """Defaults of a PodSpec (in a pod or a workload's template)."""
    spec.setdefault("restartPolicy", "Always")
    spec.setdefault("dnsPolicy", "ClusterFirst")
    spec.setdefault("schedulerName", "default-scheduler")
    spec.setdefault("terminationGracePeriodSeconds", 30)
    spec.setdefault("securityContext", {})
    for c in (spec.get("containers") or []) + (
        spec.get("initContainers") or []
    ):
        _container(c)


def _qos(spec: Obj) -> str:
    containers = spec.get("containers") or []
    requests = [
        (c.get("resources") or {}).get("requests") or {} for c in containers
    ]
    limits = [
        (c.get("resources") or {}).get("limits") or {} for c in containers
    ]
    if not any(requests) and not any(limits):
        return "BestEffort"
    for req, lim in zip(requests, limits, strict=True):
        for name in ("cpu", "memory"):
            if name not in lim or name not in req:
                return "Burstable"
            if quantity.parse(req[name]) != quantity.parse(lim[name]):
                return "Burstable"
    return "Guaranteed"


def pod(obj: Obj) -> None:
    """Pod defaults plus ServiceAccount and DefaultTolerationSeconds
    admission."""
    spec = obj.setdefault("spec", {})
    pod_spec(spec)
    sa = (
        spec.get("serviceAccountName")
        or spec.get("serviceAccount")
        or "default"
    )
    spec["serviceAccountName"] = spec["serviceAccount"] = sa
    spec.setdefault("enableServiceLinks", True)
    spec.setdefault("priority", 0)
    spec.setdefault("preemptionPolicy", "PreemptLowerPriority")
    tolerations = spec.setdefault("tolerations", [])
    for key in (
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ):
        if not any(
            t.get("key") == key and t.get("effect") in (None, "", "NoExecute")
            for t in tolerations
        ):
            tolerations.append(
                {
                    "key": key,
                    "operator": "Exists",
                    "effect": "NoExecute",
                    "tolerationSeconds": 300,
                }
            )
    status = obj.setdefault("status", {})
    status.setdefault("phase", "Pending")
    status["qosClass"] = _qos(spec)


def _template(obj: Obj) -> None:
    template = obj.setdefault("spec", {}).setdefault("template", {})
    template.setdefault("metadata", {})
    pod_spec(template.setdefault("spec", {}))


def deployment(obj: Obj) -> None:
    spec = obj.setdefault("spec", {})
    spec.setdefault("replicas", 1)
    spec.setdefault("revisionHistoryLimit", 10)
    spec.setdefault("progressDeadlineSeconds", 600)
    strategy = spec.setdefault("strategy", {})
    strategy.setdefault("type", "RollingUpdate")
    if strategy["type"] == "RollingUpdate":
        ru = strategy.setdefault("rollingUpdate", {})
        ru.setdefault("maxSurge", "25%")
        ru.setdefault("maxUnavailable", "25%")
    _template(obj)
    obj.setdefault("status", {})


def replicaset(obj: Obj) -> None:
    obj.setdefault("spec", {}).setdefault("replicas", 1)
    _template(obj)
    obj.setdefault("status", {"replicas": 0})


def statefulset(obj: Obj) -> None:
    spec = obj.setdefault("spec", {})
    spec.setdefault("replicas", 1)
    spec.setdefault("podManagementPolicy", "OrderedReady")
    spec.setdefault("revisionHistoryLimit", 10)
    strategy = spec.setdefault("updateStrategy", {})
    strategy.setdefault("type", "RollingUpdate")
    if strategy["type"] == "RollingUpdate":
        strategy.setdefault("rollingUpdate", {}).setdefault("partition", 0)
    spec.setdefault(
        "persistentVolumeClaimRetentionPolicy",
        {"whenDeleted": "Retain", "whenScaled": "Retain"},
    )
    for claim in spec.get("volumeClaimTemplates") or []:
        claim.setdefault("spec", {}).setdefault("volumeMode", "Filesystem")
    _template(obj)
    obj.setdefault("status", {"replicas": 0, "availableReplicas": 0})


def daemonset(obj: Obj) -> None:
    spec = obj.setdefault("spec", {})
    spec.setdefault("revisionHistoryLimit", 10)
    strategy = spec.setdefault("updateStrategy", {})
    strategy.setdefault("type", "RollingUpdate")
    if strategy["type"] == "RollingUpdate":
        ru = strategy.setdefault("rollingUpdate", {})
        ru.setdefault("maxUnavailable", 1)
        ru.setdefault("maxSurge", 0)
    _template(obj)
    obj.setdefault(
        "status",
        {
            "currentNumberScheduled": 0,
            "numberMisscheduled": 0,
            "desiredNumberScheduled": 0,
            "numberReady": 0,
        },
    )


def service(obj: Obj) -> None:
    spec = obj.setdefault("spec", {})
    spec.setdefault("type", "ClusterIP")
    spec.setdefault("sessionAffinity", "None")
    if spec["type"] != "ExternalName":
        if not spec.get("clusterIP"):
            n = next(_service_ips)
            spec["clusterIP"] = str(ipaddress.ip_address("10.96.0.0") + n)
        spec.setdefault("clusterIPs", [spec["clusterIP"]])
        spec.setdefault("ipFamilies", ["IPv4"])
        spec.setdefault("ipFamilyPolicy", "SingleStack")
        spec.setdefault("internalTrafficPolicy", "Cluster")
    for port in spec.get("ports") or []:
        port.setdefault("protocol", "TCP")
        port.setdefault("targetPort", port.get("port"))
        if spec["type"] in ("NodePort", "LoadBalancer"):
            port.setdefault("nodePort", next(_node_ports))
    if spec["type"] in ("NodePort", "LoadBalancer"):
        spec.setdefault("externalTrafficPolicy", "Cluster")
    obj.setdefault("status", {"loadBalancer": {}})


def secret(obj: Obj) -> None:
    obj.setdefault("type", "Opaque")
    string_data = obj.pop("stringData", None) or {}
    if string_data:
        data = obj.setdefault("data", {})
        for key, value in string_data.items():
            data[key] = base64.b64encode(str(value).encode()).decode()


def namespace(obj: Obj) -> None:
    name = obj["metadata"]["name"]
    obj["metadata"].setdefault("labels", {})["kubernetes.io/metadata.name"] = (
        name
    )
    obj.setdefault("spec", {}).setdefault("finalizers", ["kubernetes"])
    obj.setdefault("status", {}).setdefault("phase", "Active")


def pvc(obj: Obj) -> None:
    """Defaults, and the binding a default dynamic provisioner would do."""
    spec = obj.setdefault("spec", {})
    spec.setdefault("volumeMode", "Filesystem")
    spec.setdefault("storageClassName", "standard")
    spec.setdefault(
        "volumeName",
        "pvc-"
        + "".join(random.choice(string.hexdigits.lower()) for _ in range(12)),
    )
    requests = (spec.get("resources") or {}).get("requests") or {}
    obj["status"] = {
        "phase": "Bound",
        "accessModes": spec.get("accessModes") or [],
        "capacity": dict(requests),
    }


def resourcequota(obj: Obj) -> None:
    """What the quota controller reports first: hard limits, nothing used."""
    hard = dict((obj.get("spec") or {}).get("hard") or {})
    obj["status"] = {"hard": hard, "used": dict.fromkeys(hard, "0")}


BY_KIND = {
    "ResourceQuota": resourcequota,
    "Pod": pod,
    "Deployment": deployment,
    "ReplicaSet": replicaset,
    "StatefulSet": statefulset,
    "DaemonSet": daemonset,
    "Service": service,
    "Secret": secret,
    "Namespace": namespace,
    "PersistentVolumeClaim": pvc,
}


def apply(kind: str, obj: Obj) -> None:
    """Fill the defaults of ``kind`` into ``obj`` in place."""
    fn = BY_KIND.get(kind)
    if fn is not None:
        fn(obj)


def node(obj: Obj) -> None:
    from tools.simcloud.k8s import nodes

    nodes.fill_status(obj)


BY_KIND["Node"] = node
