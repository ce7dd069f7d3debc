"""The cluster: the store plus the control loops that a real control plane
runs (controllers, garbage collector, scheduler, kubelets), reconciled in
passes on the server's asyncio loop whenever something changed."""

from __future__ import annotations

import asyncio
import collections
import copy
import hashlib
import json
import logging
import random
from dataclasses import dataclass
from typing import Any

from tools.simcloud.k8s import controllers, gc, kubelet, scheduler, workloads
from tools.simcloud.k8s import nodes as nodes_mod
from tools.simcloud.k8s.resources import lookup
from tools.simcloud.k8s.store import Store, now, now_micro

LOG = logging.getLogger("simk8s")
Obj = dict[str, Any]
PODS = lookup("", "v1", "pods")
NODES = lookup("", "v1", "nodes")
NAMESPACES = lookup("", "v1", "namespaces")
EVENTS = lookup("", "v1", "events")
SERVICEACCOUNTS = lookup("", "v1", "serviceaccounts")
CONFIGMAPS = lookup("", "v1", "configmaps")
MAX_EVENTS = 3000
ROOT_CA_TEXT = (
    "Contains a CA bundle that can be used to verify the kube-apiserver "
    "when using internal endpoints such as the internal service IP or "
    "kubernetes.default.svc. No other usage is guaranteed across "
    "distributions of Kubernetes clusters."
)


@dataclass
class Config:
    """Timings of the simulated kubelets and controllers (seconds)."""

    ready_delay: float = 0.2
    terminate_delay: float = 0.1
    crash_interval: float = 1.0
    heartbeat: float = 10.0
    seed: int | None = None
    ca_pem: str = ""


class Cluster:
    """Holds the store and runs the control loops."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()
        self.store = Store()
        self.rng = random.Random(self.config.seed)
        self.kubelet = kubelet.Kubelet(self)
        self._dirty = asyncio.Event()
        self.store.listeners.append(lambda _event: self._dirty.set())
        self.passes = 0
        self.ready = False
        #: Requests served, "GET /path" (+ " paged" when ``limit`` was
        #: given): tests count a client's calls (GET /simcloud/v1/requests).
        self.requests: collections.Counter[str] = collections.Counter()
        self._events: list[tuple[str, str]] = []

    # bootstrap ---------------------------------------------------------
    def bootstrap(self, node_specs: list[Obj]) -> None:
        for name in (
            "default",
            "kube-system",
            "kube-public",
            "kube-node-lease",
        ):
            ns = {"metadata": {"name": name}}
            from tools.simcloud.k8s import defaults

            defaults.namespace(ns)
            self.namespace_created(self.store.create(NAMESPACES, ns))
        for index, spec in enumerate(node_specs):
            self.store.create(NODES, nodes_mod.build(spec, index))

    def namespace_created(self, ns: Obj) -> None:
        """The ServiceAccount and root-CA publisher controllers."""
        name = ns["metadata"]["name"]
        if self.store.get(SERVICEACCOUNTS, name, "default") is None:
            self.store.create(
                SERVICEACCOUNTS,
                {"metadata": {"name": "default", "namespace": name}},
            )
        if self.store.get(CONFIGMAPS, name, "kube-root-ca.crt") is None:
            self.store.create(
                CONFIGMAPS,
                {
                    "metadata": {
                        "name": "kube-root-ca.crt",
                        "namespace": name,
                        "annotations": {
                            "kubernetes.io/description": ROOT_CA_TEXT
                        },
                    },
                    "data": {"ca.crt": self.config.ca_pem},
                },
            )

    # loop --------------------------------------------------------------
    def kick(self) -> None:
        self._dirty.set()

    async def run(self) -> None:
        self.kick()
        heartbeat = asyncio.get_running_loop().create_task(self._beat())
        try:
            while True:
                await self._dirty.wait()
                await asyncio.sleep(0.005)  # batch a burst of writes
                self._dirty.clear()
                try:
                    self.reconcile()
                except Exception:  # a bug must not stop the control plane
                    LOG.exception("reconcile pass failed")
                self.ready = True
        finally:
            heartbeat.cancel()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.config.heartbeat)
            self.kubelet.heartbeat()
            self.kick()

    def reconcile(self) -> None:
        self.passes += 1
        gc.collect(self)
        gc.namespaces(self)
        controllers.deployments(self)
        controllers.replicasets(self)
        workloads.statefulsets(self)
        workloads.daemonsets(self)
        self.schedule_pending()
        self.kubelet.sync()

    # scheduler ---------------------------------------------------------
    def schedule_pending(self) -> None:
        pods = self.store.list(PODS)
        pending = sorted(
            (
                p
                for p in pods
                if not p["spec"].get("nodeName")
                and not p["metadata"].get("deletionTimestamp")
                and p["spec"].get("schedulerName") == "default-scheduler"
            ),
            key=lambda p: int(p["metadata"]["resourceVersion"]),
        )
        if not pending:
            return
        bound = [
            p
            for p in pods
            if p["spec"].get("nodeName")
            and p["status"].get("phase") not in ("Succeeded", "Failed")
        ]
        namespaces = {
            n["metadata"]["name"]: n["metadata"].get("labels", {})
            for n in self.store.list(NAMESPACES)
        }
        snap = scheduler.Snapshot(self.store.list(NODES), bound, namespaces)
        cache: dict[str, scheduler.Result] = {}
        for pod in pending:
            key = hashlib.sha1(
                json.dumps(  # noqa: S324 - a cache key
                    [
                        pod["metadata"].get("namespace"),
                        pod["metadata"].get("labels"),
                        pod["spec"],
                    ],
                    sort_keys=True,
                ).encode()
            ).hexdigest()
            result = cache.get(key) or scheduler.schedule(pod, snap, self.rng)
            if result.node is None:
                cache[key] = result
                self._unschedulable(pod, result.message)
            else:
                cache.clear()
                snap.add(self.bind(pod, result.node))

    def bind(self, pod: Obj, node: str) -> Obj:
        new = copy.deepcopy(pod)
        new["spec"]["nodeName"] = node
        set_condition(new, "PodScheduled", "True")
        stored = self.store.update(PODS, new, check_rv=False)
        self.record(
            PODS,
            stored,
            "Normal",
            "Scheduled",
            f"Successfully assigned {pod['metadata']['namespace']}/"
            f"{pod['metadata']['name']} to {node}",
            "default-scheduler",
        )
        return stored

    def _unschedulable(self, pod: Obj, message: str) -> None:
        for cond in pod["status"].get("conditions") or []:
            if (
                cond["type"] == "PodScheduled"
                and cond.get("message") == message
            ):
                return
        new = copy.deepcopy(pod)
        set_condition(new, "PodScheduled", "False", "Unschedulable", message)
        self.store.update(PODS, new, check_rv=False)
        self.record(
            PODS,
            pod,
            "Warning",
            "FailedScheduling",
            message,
            "default-scheduler",
        )

    # helpers -----------------------------------------------------------
    def record(
        self,
        res: Any,
        obj: Obj,
        kind: str,
        reason: str,
        message: str,
        component: str,
    ) -> None:
        """Write a core/v1 Event about ``obj``."""
        meta = obj["metadata"]
        ns = meta.get("namespace") or "default"
        name = f"{meta['name']}.{self.rng.getrandbits(64):016x}"
        stamp = now()
        event = {
            "metadata": {"name": name, "namespace": ns},
            "involvedObject": {
                "kind": res.kind,
                "namespace": ns,
                "name": meta["name"],
                "uid": meta["uid"],
                "apiVersion": res.api_version,
                "resourceVersion": meta.get("resourceVersion", ""),
            },
            "reason": reason,
            "message": message,
            "source": {"component": component},
            "firstTimestamp": stamp,
            "lastTimestamp": stamp,
            "count": 1,
            "type": kind,
            "eventTime": None,
            "reportingComponent": component,
            "reportingInstance": "",
        }
        ns_obj = self.store.get(NAMESPACES, None, ns)
        if ns_obj is None or ns_obj["metadata"].get("deletionTimestamp"):
            return
        self.store.create(EVENTS, event)
        self._events.append((ns, name))
        if len(self._events) > MAX_EVENTS:
            old_ns, old_name = self._events.pop(0)
            old = self.store.get(EVENTS, old_ns, old_name)
            if old is not None:
                self.store.remove(EVENTS, old)

    def pod_log(self, pod: Obj) -> str:
        return "".join(
            f"simk8s: container {c['name']} ({c.get('image', '')}) of pod "
            f"{pod['metadata']['name']} runs no process\n"
            for c in pod["spec"].get("containers") or []
        )


def set_condition(
    obj: Obj, kind: str, status: str, reason: str = "", message: str = ""
) -> bool:
    """Set a status condition; True when it changed."""
    conds = obj.setdefault("status", {}).setdefault("conditions", [])
    for cond in conds:
        if cond["type"] == kind:
            if (
                cond.get("status") == status
                and cond.get("reason", "") == reason
                and cond.get("message", "") == message
            ):
                return False
            if cond.get("status") != status:
                cond["lastTransitionTime"] = now()
            cond.update(status=status)
            _reason(cond, reason, message)
            return True
    cond = {
        "type": kind,
        "status": status,
        "lastProbeTime": None,
        "lastTransitionTime": now(),
    }
    _reason(cond, reason, message)
    conds.append(cond)
    return True


def _reason(cond: Obj, reason: str, message: str) -> None:
    for key, value in (("reason", reason), ("message", message)):
        if value:
            cond[key] = value
        else:
            cond.pop(key, None)


__all__ = ["Cluster", "Config", "now_micro", "set_condition"]
