"""Kubelet stand-ins and the node lifecycle controller: pods start and
become Ready after a delay, terminate after their grace period, crash-loop
on demand; nodes heartbeat, go NotReady (not-ready taints, pods not Ready,
NoExecute eviction after tolerationSeconds) and come back."""

from __future__ import annotations

import copy
import datetime
import ipaddress
import time
from typing import Any

from tools.simcloud.k8s import controllers as ctl
from tools.simcloud.k8s import deletion
from tools.simcloud.k8s import nodes as nodes_mod
from tools.simcloud.k8s import predicates
from tools.simcloud.k8s.resources import lookup
from tools.simcloud.k8s.store import now

Obj = dict[str, Any]
PODS = lookup("", "v1", "pods")
NODES = lookup("", "v1", "nodes")
NOT_READY = "node.kubernetes.io/not-ready"


def _epoch(stamp: str) -> float:
    return datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.UTC).timestamp()


class Kubelet:
    """All nodes' kubelets plus the node lifecycle controller."""

    def __init__(self, cluster: Any) -> None:
        self.cluster = cluster
        self.starting: set[str] = set()
        self.stopping: set[str] = set()
        self.evicting: set[str] = set()
        self.crashing: dict[str, set[str]] = {}
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
        return any(c["type"] == "Ready" and c["status"] == "True"
                   for c in node.get("status", {}).get("conditions") or [])

    # the sync of every pass ------------------------------------------
    def sync(self) -> None:
        cfg = self.cluster.config
        node_taints = {n["metadata"]["name"]: n for n in
                       self.store.list(NODES)}
        for pod in self.store.list(PODS):
            meta, spec = pod["metadata"], pod["spec"]
            uid, node = meta["uid"], spec.get("nodeName")
            key = (meta["namespace"], meta["name"], uid)
            if meta.get("deletionTimestamp"):
                if uid not in self.stopping:
                    self.stopping.add(uid)
                    grace = meta.get("deletionGracePeriodSeconds") or 0
                    self._later(min(cfg.terminate_delay, grace),
                                self._finish, *key)
                continue
            if not node:
                continue
            if pod["status"].get("phase") == "Pending" and \
                    uid not in self.starting and self.node_ready(node):
                self.starting.add(uid)
                self._later(cfg.ready_delay, self._start, *key)
            if node in node_taints:
                self._taint_eviction(pod, node_taints[node])

    def _finish(self, ns: str, name: str, uid: str) -> None:
        self.stopping.discard(uid)
        self.crashing.pop(uid, None)
        pod = self._find(ns, name, uid)
        if pod is not None and not pod["metadata"].get("finalizers"):
            self.store.remove(PODS, pod)

    def _pod_ip(self, node: Obj) -> str:
        name = node["metadata"]["name"]
        self.ip_counter[name] = self.ip_counter.get(name, 1) + 1
        net = ipaddress.ip_network(node["spec"].get("podCIDR",
                                                    "10.244.0.0/24"))
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
        host_ip = next((a["address"] for a in node["status"]["addresses"]
                        if a["type"] == "InternalIP"), "")
        pod_ip = host_ip if pod["spec"].get("hostNetwork") else \
            self._pod_ip(node)
        stamp = now()
        status.update(phase="Running", hostIP=host_ip,
                      hostIPs=[{"ip": host_ip}], podIP=pod_ip,
                      podIPs=[{"ip": pod_ip}], startTime=stamp)
        status["containerStatuses"] = [
            self._container_status(c, stamp) for c in
            pod["spec"].get("containers") or []]
        if pod["spec"].get("initContainers"):
            status["initContainerStatuses"] = [
                {**self._container_status(c, stamp), "ready": True,
                 "started": False, "state": {"terminated": {
                     "exitCode": 0, "reason": "Completed",
                     "startedAt": stamp, "finishedAt": stamp,
                     "containerID": self._cid()}}}
                for c in pod["spec"]["initContainers"]]
        self._set_ready(new, uid not in self.crashing)
        self.store.update(PODS, new, check_rv=False)
        if uid in self.crashing:
            self._later(self.cluster.config.crash_interval, self._crash_tick,
                        ns, name, uid)

    def _cid(self) -> str:
        return "containerd://" + "%064x" % self.cluster.rng.getrandbits(256)

    def _container_status(self, c: Obj, stamp: str) -> Obj:
        image = c.get("image", "")
        return {"name": c["name"], "state": {"running": {"startedAt": stamp}},
                "lastState": {}, "ready": True, "restartCount": 0,
                "image": image, "imageID": f"{image}@sha256:"
                + "%064x" % self.cluster.rng.getrandbits(256),
                "containerID": self._cid(), "started": True}

    def _set_ready(self, pod: Obj, ready: bool) -> None:
        from tools.simcloud.k8s.engine import set_condition

        status = pod["status"]
        bad = [c["name"] for c in status.get("containerStatuses") or []
               if not c.get("ready")]
        node_ok = self.node_ready(pod["spec"].get("nodeName", ""))
        ok = ready and not bad and node_ok
        set_condition(pod, "PodReadyToStartContainers", "True")
        set_condition(pod, "Initialized", "True")
        reason = "" if ok else "ContainersNotReady"
        message = "" if ok or not bad else \
            f"containers with unready status: [{' '.join(bad)}]"
        if not node_ok and not bad:
            reason, message = "", ""
        set_condition(pod, "Ready", "True" if ok else "False", reason,
                      message)
        set_condition(pod, "ContainersReady", "True" if not bad else "False",
                      "" if not bad else "ContainersNotReady", message
                      if bad else "")
        set_condition(pod, "PodScheduled", "True")
        order = ["PodReadyToStartContainers", "Initialized", "Ready",
                 "ContainersReady", "PodScheduled"]
        status["conditions"].sort(key=lambda c: order.index(c["type"])
                                  if c["type"] in order else 99)

    # faults -----------------------------------------------------------
    def crash_loop(self, pod: Obj, containers: list[str] | None,
                   enabled: bool) -> None:
        uid = pod["metadata"]["uid"]
        names = set(containers or [c["name"] for c in
                                   pod["spec"].get("containers") or []])
        if not enabled:
            self.crashing.pop(uid, None)
            new = copy.deepcopy(pod)
            stamp = now()
            for cs in new["status"].get("containerStatuses") or []:
                if cs["name"] in names:
                    cs.update(ready=True, started=True, state={
                        "running": {"startedAt": stamp}})
            self._set_ready(new, True)
            self.store.update(PODS, new, check_rv=False)
            return
        self.crashing[uid] = names
        if pod["status"].get("phase") == "Running":
            self._crash_tick(pod["metadata"]["namespace"],
                             pod["metadata"]["name"], uid)

    def _crash_tick(self, ns: str, name: str, uid: str) -> None:
        pod = self._find(ns, name, uid)
        names = self.crashing.get(uid)
        if pod is None or names is None or \
                pod["metadata"].get("deletionTimestamp"):
            return
        new = copy.deepcopy(pod)
        stamp = now()
        for cs in new["status"].get("containerStatuses") or []:
            if cs["name"] not in names:
                continue
            cs["restartCount"] = cs.get("restartCount", 0) + 1
            cs["lastState"] = {"terminated": {
                "exitCode": 1, "reason": "Error", "startedAt": stamp,
                "finishedAt": stamp, "containerID": cs.get("containerID")}}
            backoff = min(300, 10 * 2 ** (cs["restartCount"] - 1))
            cs.update(ready=False, started=False, state={"waiting": {
                "reason": "CrashLoopBackOff",
                "message": f"back-off {backoff}s restarting failed "
                           f"container={cs['name']} pod={name}_{ns}({uid})"}})
        self._set_ready(new, False)
        self.store.update(PODS, new, check_rv=False)
        self.cluster.record(PODS, new, "Warning", "BackOff",
                            "Back-off restarting failed container",
                            "kubelet")
        self._later(self.cluster.config.crash_interval, self._crash_tick,
                    ns, name, uid)

    def set_node_ready(self, name: str, ready: bool) -> Obj:
        node = self.store.must_get(NODES, None, name)
        new = copy.deepcopy(node)
        stamp = now()
        for cond in new["status"]["conditions"]:
            if cond["type"] == "Ready":
                fresh = nodes_mod.conditions(ready, stamp)[-1]
                if cond["status"] != fresh["status"]:
                    cond.update(fresh)
        taints = [t for t in new["spec"].get("taints") or []
                  if t.get("key") != NOT_READY]
        if not ready:
            taints += [{"key": NOT_READY, "effect": "NoSchedule"},
                       {"key": NOT_READY, "effect": "NoExecute",
                        "timeAdded": stamp}]
        if taints:
            new["spec"]["taints"] = taints
        else:
            new["spec"].pop("taints", None)
        stored = self.store.update(NODES, new, check_rv=False)
        for pod in self.store.list(PODS):
            if pod["spec"].get("nodeName") != name or \
                    pod["status"].get("phase") != "Running":
                continue
            changed = copy.deepcopy(pod)
            self._set_ready(changed, pod["metadata"]["uid"]
                            not in self.crashing)
            self.store.update(PODS, changed, check_rv=False)
        return stored

    def _taint_eviction(self, pod: Obj, node: Obj) -> None:
        """NoExecute taint manager: evict now or after tolerationSeconds."""
        uid = pod["metadata"]["uid"]
        if uid in self.evicting:
            return
        tolerations = pod["spec"].get("tolerations") or []
        wait: float | None = None
        for taint in node["spec"].get("taints") or []:
            if taint.get("effect") != "NoExecute":
                continue
            matching = [t for t in tolerations
                        if predicates.tolerates([t], taint)]
            if not matching:
                wait = 0
                break
            seconds = [t["tolerationSeconds"] for t in matching
                       if t.get("tolerationSeconds") is not None]
            if seconds and len(seconds) == len(matching):
                added = _epoch(taint.get("timeAdded") or now())
                left = added + min(seconds) - time.time()
                wait = left if wait is None else min(wait, left)
        if wait is None:
            return
        self.evicting.add(uid)
        meta = pod["metadata"]
        self._later(max(0.0, wait), self._evict, meta["namespace"],
                    meta["name"], uid)

    def _evict(self, ns: str, name: str, uid: str) -> None:
        self.evicting.discard(uid)
        pod = self._find(ns, name, uid)
        if pod is None or pod["metadata"].get("deletionTimestamp"):
            return
        node = self.store.get(NODES, None, pod["spec"].get("nodeName", ""))
        still = node is not None and any(
            t.get("effect") == "NoExecute" and not predicates.tolerates(
                [t2 for t2 in pod["spec"].get("tolerations") or []
                 if t2.get("tolerationSeconds") is None], t)
            for t in node["spec"].get("taints") or [])
        if still:
            self.cluster.record(PODS, pod, "Normal", "TaintManagerEviction",
                                f"Marking for deletion Pod {ns}/{name}",
                                "taint-eviction-controller")
            deletion.delete(self.store, PODS, pod, {})

    def heartbeat(self) -> None:
        stamp = now()
        for node in self.store.list(NODES):
            new = copy.deepcopy(node)
            for cond in new.get("status", {}).get("conditions") or []:
                cond["lastHeartbeatTime"] = stamp
            self.store.update(NODES, new, check_rv=False)


__all__ = ["Kubelet", "ctl"]
