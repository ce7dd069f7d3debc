"""Injected faults and the node lifecycle controller: crash loops, nodes
going NotReady (not-ready taints, pods not Ready) and back, a node whose
kubelet is dead (status Unknown, unreachable taints, its pods never start
nor finish terminating) and back, and the taint manager's NoExecute
evictions after tolerationSeconds."""

from __future__ import annotations

import copy
import datetime
import time
from typing import Any

from tools.simcloud.k8s import deletion, predicates
from tools.simcloud.k8s import nodes as nodes_mod
from tools.simcloud.k8s.resources import lookup
from tools.simcloud.k8s.store import now

Obj = dict[str, Any]
PODS = lookup("", "v1", "pods")
NODES = lookup("", "v1", "nodes")
NOT_READY = "node.kubernetes.io/not-ready"
UNREACHABLE = "node.kubernetes.io/unreachable"
#: What the node lifecycle controller writes into every condition of a
#: node whose kubelet stopped posting status (node-monitor-grace-period).
STATUS_UNKNOWN = ("NodeStatusUnknown", "Kubelet stopped posting node status.")


def _epoch(stamp: str) -> float:
    return (
        datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")
        .replace(tzinfo=datetime.UTC)
        .timestamp()
    )


class NodeFaults:
    """Mixed into the Kubelet: uses its store, timers and pod readiness."""

    crashing: dict[str, set[str]]
    tainted_at: dict[tuple[str, str], float]
    #: uids of the nodes whose kubelet is dead (a node registered again
    #: under the same name, e.g. a rebuilt VM, has a new kubelet).
    dead: set[str]
    evicting: set[str]
    store: Any
    cluster: Any
    _later: Any
    _find: Any
    _set_ready: Any

    # faults -----------------------------------------------------------
    def crash_loop(
        self, pod: Obj, containers: list[str] | None, enabled: bool
    ) -> None:
        uid = pod["metadata"]["uid"]
        names = set(
            containers
            or [c["name"] for c in pod["spec"].get("containers") or []]
        )
        if not enabled:
            self.crashing.pop(uid, None)
            new = copy.deepcopy(pod)
            stamp = now()
            for cs in new["status"].get("containerStatuses") or []:
                if cs["name"] in names:
                    cs.update(
                        ready=True,
                        started=True,
                        state={"running": {"startedAt": stamp}},
                    )
            self._set_ready(new, True)
            self.store.update(PODS, new, check_rv=False)
            return
        self.crashing[uid] = names
        if pod["status"].get("phase") == "Running":
            self._crash_tick(
                pod["metadata"]["namespace"], pod["metadata"]["name"], uid
            )

    def _crash_tick(self, ns: str, name: str, uid: str) -> None:
        pod = self._find(ns, name, uid)
        names = self.crashing.get(uid)
        if (
            pod is None
            or names is None
            or pod["metadata"].get("deletionTimestamp")
        ):
            return
        new = copy.deepcopy(pod)
        stamp = now()
        for cs in new["status"].get("containerStatuses") or []:
            if cs["name"] not in names:
                continue
            cs["restartCount"] = cs.get("restartCount", 0) + 1
            cs["lastState"] = {
                "terminated": {
                    "exitCode": 1,
                    "reason": "Error",
                    "startedAt": stamp,
                    "finishedAt": stamp,
                    "containerID": cs.get("containerID"),
                }
            }
            backoff = min(300, 10 * 2 ** (cs["restartCount"] - 1))
            cs.update(
                ready=False,
                started=False,
                state={
                    "waiting": {
                        "reason": "CrashLoopBackOff",
                        "message": f"back-off {backoff}s restarting failed "
                        f"container={cs['name']} pod={name}_{ns}({uid})",
                    }
                },
            )
        self._set_ready(new, False)
        self.store.update(PODS, new, check_rv=False)
        self.cluster.record(
            PODS,
            new,
            "Warning",
            "BackOff",
            "Back-off restarting failed container",
            "kubelet",
        )
        self._later(
            self.cluster.config.crash_interval, self._crash_tick, ns, name, uid
        )

    def set_node_ready(self, name: str, ready: bool) -> Obj:
        self.tainted_at[(name, NOT_READY)] = time.time()
        node = self.store.must_get(NODES, None, name)
        new = copy.deepcopy(node)
        stamp = now()
        for cond in new["status"]["conditions"]:
            if cond["type"] == "Ready":
                fresh = nodes_mod.conditions(ready, stamp)[-1]
                if cond["status"] != fresh["status"]:
                    cond.update(fresh)
        taints = [
            t
            for t in new["spec"].get("taints") or []
            if t.get("key") != NOT_READY
        ]
        if not ready:
            taints += [
                {"key": NOT_READY, "effect": "NoSchedule"},
                {"key": NOT_READY, "effect": "NoExecute", "timeAdded": stamp},
            ]
        if taints:
            new["spec"]["taints"] = taints
        else:
            new["spec"].pop("taints", None)
        stored = self.store.update(NODES, new, check_rv=False)
        for pod in self.store.list(PODS):
            if (
                pod["spec"].get("nodeName") != name
                or pod["status"].get("phase") != "Running"
            ):
                continue
            changed = copy.deepcopy(pod)
            self._set_ready(
                changed, pod["metadata"]["uid"] not in self.crashing
            )
            self.store.update(PODS, changed, check_rv=False)
        return stored

    def kubelet_dead(self, name: str) -> bool:
        node = self.store.get(NODES, None, name)
        return node is not None and node["metadata"]["uid"] in self.dead

    def set_kubelet_running(self, name: str, running: bool) -> Obj:
        """Kill (or revive) the kubelet of node ``name``.

        As a real cluster shows it once node-monitor-grace-period has
        passed: every condition ``Unknown`` (``NodeStatusUnknown``), the
        ``node.kubernetes.io/unreachable`` NoSchedule and NoExecute taints,
        its pods not Ready. Nothing on the node starts, and a pod deleted
        there (an eviction, a drain) stays ``Terminating`` until it is
        deleted with ``gracePeriodSeconds=0`` (``--force``) or the Node
        object goes (pod GC), because only the kubelet confirms a graceful
        deletion. Revived: the node is Ready again and pending deletions
        finish."""
        node = self.store.must_get(NODES, None, name)
        uid = node["metadata"]["uid"]
        new = copy.deepcopy(node)
        stamp = now()
        taints = [
            t
            for t in new["spec"].get("taints") or []
            if t.get("key") not in (UNREACHABLE, NOT_READY)
        ]
        if running:
            self.dead.discard(uid)
            new["status"]["conditions"] = nodes_mod.conditions(True, stamp)
        else:
            self.dead.add(uid)
            self.tainted_at[(name, UNREACHABLE)] = time.time()
            reason, message = STATUS_UNKNOWN
            for cond in new["status"]["conditions"]:
                cond.update(
                    status="Unknown",
                    reason=reason,
                    message=message,
                    lastTransitionTime=stamp,
                )
            taints += [
                {"key": UNREACHABLE, "effect": "NoSchedule"},
                {
                    "key": UNREACHABLE,
                    "effect": "NoExecute",
                    "timeAdded": stamp,
                },
            ]
        if taints:
            new["spec"]["taints"] = taints
        else:
            new["spec"].pop("taints", None)
        stored = self.store.update(NODES, new, check_rv=False)
        for pod in self.store.list(PODS):
            if (
                pod["spec"].get("nodeName") != name
                or pod["status"].get("phase") != "Running"
            ):
                continue
            changed = copy.deepcopy(pod)
            self._set_ready(
                changed, pod["metadata"]["uid"] not in self.crashing
            )
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
            matching = [
                t for t in tolerations if predicates.tolerates([t], taint)
            ]
            if not matching:
                wait = 0
                break
            seconds = [
                t["tolerationSeconds"]
                for t in matching
                if t.get("tolerationSeconds") is not None
            ]
            if seconds and len(seconds) == len(matching):
                added = _epoch(taint.get("timeAdded") or now())
                # timeAdded has whole seconds: use the exact time we
                # tainted the node, so no pod leaves before its time
                added = max(
                    added,
                    self.tainted_at.get(
                        (node["metadata"]["name"], taint.get("key")), 0.0
                    ),
                )
                left = added + min(seconds) - time.time()
                wait = left if wait is None else min(wait, left)
        if wait is None:
            return
        self.evicting.add(uid)
        meta = pod["metadata"]
        self._later(
            max(0.0, wait), self._evict, meta["namespace"], meta["name"], uid
        )

    def _evict(self, ns: str, name: str, uid: str) -> None:
        self.evicting.discard(uid)
        pod = self._find(ns, name, uid)
        if pod is None or pod["metadata"].get("deletionTimestamp"):
            return
        node = self.store.get(NODES, None, pod["spec"].get("nodeName", ""))
        still = node is not None and any(
            t.get("effect") == "NoExecute"
            and not predicates.tolerates(
                [
                    t2
                    for t2 in pod["spec"].get("tolerations") or []
                    if t2.get("tolerationSeconds") is None
                ],
                t,
            )
            for t in node["spec"].get("taints") or []
        )
        if still:
            self.cluster.record(
                PODS,
                pod,
                "Normal",
                "TaintManagerEviction",
                f"Marking for deletion Pod {ns}/{name}",
                "taint-eviction-controller",
            )
            deletion.delete(self.store, PODS, pod, {})
