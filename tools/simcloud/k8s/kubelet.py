"""Kubelet stand-ins: pods start and become Ready after a delay, terminate
after their grace period; nodes heartbeat. Faults live in faults.py."""

from __future__ import annotations

import copy
import ipaddress
from typing import Any

from tools.simcloud.k8s.faults import NodeFaults
from tools.simcloud.k8s.resources import lookup
from tools.simcloud.k8s.store import now

Obj = dict[str, Any]
PODS = lookup("", "v1", "pods")
NODES = lookup("", "v1", "nodes")


class Kubelet(NodeFaults):
    """All nodes' kubelets plus the node lifecycle controller."""

    def __init__(self, cluster: Any) -> None:
        self.cluster = cluster
        self.starting: set[str] = set()
        self.stopping: set[str] = set()
        self.evicting: set[str] = set()
        self.crashing: dict[str, set[str]] = {}
        self.tainted_at: dict[tuple[str, str], float] = {}
        self.dead: set[str] = set()
        self.ip_counter: dict[str, int] = {}

    @property
    def store(self) -> Any:
        return self.cluster.store

    def _later(self, delay: float, fn: Any, *args: Any) -> None:
        import asyncio

        asyncio.get_running_loop().call_later(delay, self._run, fn, *args)

    def _run(self, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        finally:
            self.cluster.kick()

    def _find(self, ns: str, name: str, uid: str) -> Obj | None:
        pod = self.store.get(PODS, ns, name)
        if pod is None or pod["metadata"]["uid"] != uid:
            return None
        return pod

    def node_ready(self, name: str) -> bool:
        node = self.store.get(NODES, None, name)
        if node is None:
            return False
        return any(
            c["type"] == "Ready" and c["status"] == "True"
            for c in node.get("status", {}).get("conditions") or []
        )

    # the sync of every pass ------------------------------------------
    def sync(self) -> None:
        cfg = self.cluster.config
        node_taints = {
            n["metadata"]["name"]: n for n in self.store.list(NODES)
        }
        for pod in self.store.list(PODS):
            meta, spec = pod["metadata"], pod["spec"]
            uid, node = meta["uid"], spec.get("nodeName")
            key = (meta["namespace"], meta["name"], uid)
            if meta.get("deletionTimestamp"):
                if node and self.kubelet_dead(node):
                    continue  # nobody confirms the deletion
                if uid not in self.stopping:
                    self.stopping.add(uid)
                    grace = meta.get("deletionGracePeriodSeconds") or 0
                    self._later(
                        min(cfg.terminate_delay, grace), self._finish, *key
                    )
                continue
            if not node:
                continue
            if (
                pod["status"].get("phase") == "Pending"
                and uid not in self.starting
                and self.node_ready(node)
            ):
                self.starting.add(uid)
                self._later(cfg.ready_delay, self._start, *key)
            if node in node_taints:
                self._taint_eviction(pod, node_taints[node])

    def _finish(self, ns: str, name: str, uid: str) -> None:
        self.stopping.discard(uid)
        pod = self._find(ns, name, uid)
        if pod is not None and self.kubelet_dead(
            pod["spec"].get("nodeName", "")
        ):
            return  # its kubelet died meanwhile: picked up once revived
        self.crashing.pop(uid, None)
        if pod is not None and not pod["metadata"].get("finalizers"):
            self.store.remove(PODS, pod)

    def _pod_ip(self, node: Obj) -> str:
        name = node["metadata"]["name"]
        self.ip_counter[name] = self.ip_counter.get(name, 1) + 1
        net = ipaddress.ip_network(
            node["spec"].get("podCIDR", "10.244.0.0/24")
        )
        return str(net.network_address + self.ip_counter[name] % 250 + 1)

    def _start(self, ns: str, name: str, uid: str) -> None:
        self.starting.discard(uid)
        pod = self._find(ns, name, uid)
        if pod is None or pod["metadata"].get("deletionTimestamp"):
            return
        node = self.store.get(NODES, None, pod["spec"]["nodeName"])
        if node is None or not self.node_ready(node["metadata"]["name"]):
            return
        new = copy.deepcopy(pod)
        status = new["status"]
        host_ip = next(
            (
                a["address"]
                for a in node["status"]["addresses"]
                if a["type"] == "InternalIP"
            ),
            "",
        )
        pod_ip = (
            host_ip if pod["spec"].get("hostNetwork") else self._pod_ip(node)
        )
        stamp = now()
        status.update(
            phase="Running",
            hostIP=host_ip,
            hostIPs=[{"ip": host_ip}],
            podIP=pod_ip,
            podIPs=[{"ip": pod_ip}],
            startTime=stamp,
        )
        status["containerStatuses"] = [
            self._container_status(c, stamp)
            for c in pod["spec"].get("containers") or []
        ]
        if pod["spec"].get("initContainers"):
            status["initContainerStatuses"] = [
                {
                    **self._container_status(c, stamp),
                    "ready": True,
                    "started": False,
                    "state": {
                        "terminated": {
                            "exitCode": 0,
                            "reason": "Completed",
                            "startedAt": stamp,
                            "finishedAt": stamp,
                            "containerID": self._cid(),
                        }
                    },
                }
                for c in pod["spec"]["initContainers"]
            ]
        self._set_ready(new, uid not in self.crashing)
        self.store.update(PODS, new, check_rv=False)
        if uid in self.crashing:
            self._later(
                self.cluster.config.crash_interval,
                self._crash_tick,
                ns,
                name,
                uid,
            )

    def _cid(self) -> str:
        return f"containerd://{self.cluster.rng.getrandbits(256):064x}"

    def _container_status(self, c: Obj, stamp: str) -> Obj:
        image = c.get("image", "")
        return {
            "name": c["name"],
            "state": {"running": {"startedAt": stamp}},
            "lastState": {},
            "ready": True,
            "restartCount": 0,
            "image": image,
            "imageID": f"{image}@sha256:"
            f"{self.cluster.rng.getrandbits(256):064x}",
            "containerID": self._cid(),
            "started": True,
        }

    def _set_ready(self, pod: Obj, ready: bool) -> None:
        from tools.simcloud.k8s.engine import set_condition

        status = pod["status"]
        bad = [
            c["name"]
            for c in status.get("containerStatuses") or []
            if not c.get("ready")
        ]
        node_ok = self.node_ready(pod["spec"].get("nodeName", ""))
        ok = ready and not bad and node_ok
        set_condition(pod, "PodReadyToStartContainers", "True")
        set_condition(pod, "Initialized", "True")
        reason = "" if ok else "ContainersNotReady"
        message = (
            ""
            if ok or not bad
            else f"containers with unready status: [{' '.join(bad)}]"
        )
        if not node_ok and not bad:
            reason, message = "", ""
        set_condition(pod, "Ready", "True" if ok else "False", reason, message)
        set_condition(
            pod,
            "ContainersReady",
            "True" if not bad else "False",
            "" if not bad else "ContainersNotReady",
            message if bad else "",
        )
        set_condition(pod, "PodScheduled", "True")
        order = [
            "PodReadyToStartContainers",
            "Initialized",
            "Ready",
            "ContainersReady",
            "PodScheduled",
        ]
        status["conditions"].sort(
            key=lambda c: order.index(c["type"]) if c["type"] in order else 99
        )

    def heartbeat(self) -> None:
        stamp = now()
        for node in self.store.list(NODES):
            if node["metadata"]["uid"] in self.dead:
                continue  # a dead kubelet posts nothing
            new = copy.deepcopy(node)
            for cond in new.get("status", {}).get("conditions") or []:
                cond["lastHeartbeatTime"] = stamp
            self.store.update(NODES, new, check_rv=False)


__all__ = ["Kubelet"]
