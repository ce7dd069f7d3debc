"""Node objects as a kubelet would register them, from short specs.

A spec is ``{"name", "labels", "taints", "allocatable", "internalIP"}``
(all optional but the name); the command line and the nodes file give
lists of them.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

from tools.simcloud.k8s.store import now

Obj = dict[str, Any]
KUBELET_VERSION = "v1.30.0"
DEFAULT_ALLOCATABLE = {
    "cpu": "4",
    "memory": "8Gi",
    "pods": "110",
    "ephemeral-storage": "100Gi",
}


def conditions(ready: bool = True, stamp: str | None = None) -> list[Obj]:
    stamp = stamp or now()
    pressure = [
        (
            "MemoryPressure",
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
        ),
        (
            "DiskPressure",
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
        ),
        (
            "PIDPressure",
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
        ),
    ]
    out = [
        {
            "type": t,
            "status": "False",
            "reason": r,
            "message": m,
            "lastHeartbeatTime": stamp,
            "lastTransitionTime": stamp,
        }
        for t, r, m in pressure
    ]
    out.append(
        {
            "type": "Ready",
            "status": "True" if ready else "False",
            "reason": "KubeletReady" if ready else "KubeletNotReady",
            "message": "kubelet is posting ready status"
            if ready
            else "container runtime is down",
            "lastHeartbeatTime": stamp,
            "lastTransitionTime": stamp,
        }
    )
    return out


def fill_status(
    node: Obj, index: int = 0, internal_ip: str | None = None
) -> None:
    """Defaults a registering kubelet would report (API-created nodes)."""
    name = node["metadata"]["name"]
    labels = node["metadata"].setdefault("labels", {})
    labels.setdefault("kubernetes.io/hostname", name)
    labels.setdefault("kubernetes.io/os", "linux")
    labels.setdefault("kubernetes.io/arch", "amd64")
    labels.setdefault("beta.kubernetes.io/os", "linux")
    labels.setdefault("beta.kubernetes.io/arch", "amd64")
    spec = node.setdefault("spec", {})
    spec.setdefault("podCIDR", f"10.244.{index % 256}.0/24")
    spec.setdefault("podCIDRs", [spec["podCIDR"]])
    status = node.setdefault("status", {})
    capacity = status.setdefault("capacity", dict(DEFAULT_ALLOCATABLE))
    status.setdefault("allocatable", dict(capacity))
    status.setdefault("conditions", conditions())
    if "addresses" not in status:
        ip = internal_ip or f"127.0.{100 + index // 250}.{index % 250 + 1}"
        status["addresses"] = [
            {"type": "InternalIP", "address": ip},
            {"type": "Hostname", "address": name},
        ]
    status.setdefault("daemonEndpoints", {"kubeletEndpoint": {"Port": 10250}})
    status.setdefault(
        "nodeInfo",
        {
            "machineID": uuid.uuid4().hex,
            "systemUUID": str(uuid.uuid4()),
            "bootID": str(uuid.uuid4()),
            "kernelVersion": "6.1.0-simk8s",
            "osImage": "Debian GNU/Linux 12 (bookworm)",
            "containerRuntimeVersion": "containerd://1.7.13",
            "kubeletVersion": KUBELET_VERSION,
            "kubeProxyVersion": KUBELET_VERSION,
            "operatingSystem": "linux",
            "architecture": "amd64",
        },
    )


def build(spec: Obj, index: int) -> Obj:
    """A Node from a short spec."""
    node: Obj = {
        "metadata": {
            "name": spec["name"],
            "labels": dict(spec.get("labels") or {}),
            "annotations": {
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-"
                "detach": "true",
            },
        },
        "spec": {},
    }
    if spec.get("taints"):
        node["spec"]["taints"] = copy.deepcopy(spec["taints"])
    alloc = dict(DEFAULT_ALLOCATABLE)
    alloc.update(
        {k: str(v) for k, v in (spec.get("allocatable") or {}).items()}
    )
    node["status"] = {"capacity": dict(alloc), "allocatable": alloc}
    fill_status(node, index, spec.get("internalIP"))
    return node


def parse_taint(text: str) -> Obj:
    """``key=value:Effect`` or ``key:Effect`` (kubectl taint syntax)."""
    key_value, _, effect = text.rpartition(":")
    if not key_value or effect not in (
        "NoSchedule",
        "PreferNoSchedule",
        "NoExecute",
    ):
        raise ValueError(f"invalid taint spec: {text}")
    key, _, value = key_value.partition("=")
    taint = {"key": key, "effect": effect}
    if value:
        taint["value"] = value
    return taint


def from_cli(
    count: int,
    labels: list[str],
    taints: list[str],
    allocatable: dict[str, str],
    prefix: str = "node",
) -> list[Obj]:
    """N specs; ``KEY=V1,V2,...`` gives node i the value V[i mod len]."""
    specs = []
    for i in range(count):
        node_labels = {}
        for item in labels:
            key, _, values = item.partition("=")
            choices = values.split(",")
            node_labels[key] = choices[i % len(choices)]
        node_taints = []
        for item in taints:
            head, _, nodes = item.partition("@")
            if not nodes or str(i) in nodes.split(","):
                node_taints.append(parse_taint(head))
        specs.append(
            {
                "name": f"{prefix}-{i}",
                "labels": node_labels,
                "taints": node_taints,
                "allocatable": dict(allocatable),
            }
        )
    return specs
