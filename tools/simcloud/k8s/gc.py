"""Garbage collector (ownerReferences, foreground deletion), namespace
controller, and pod GC of pods bound to vanished nodes."""

from __future__ import annotations

import copy
from typing import Any

from tools.simcloud.k8s import deletion
from tools.simcloud.k8s.resources import lookup

Obj = dict[str, Any]
PODS = lookup("", "v1", "pods")
NODES = lookup("", "v1", "nodes")
NAMESPACES = lookup("", "v1", "namespaces")


def collect(cluster: Any) -> None:
    store = cluster.store
    objects = list(store.iter_all())
    uids = {o["metadata"]["uid"] for _, o in objects}
    children: dict[str, list[tuple[Any, Obj]]] = {}
    for res, obj in objects:
        refs = obj["metadata"].get("ownerReferences") or []
        for ref in refs:
            children.setdefault(ref.get("uid"), []).append((res, obj))
        if (
            refs
            and not obj["metadata"].get("deletionTimestamp")
            and not any(ref.get("uid") in uids for ref in refs)
        ):
            current = store.get(
                res, obj["metadata"].get("namespace"), obj["metadata"]["name"]
            )
            if current is not None:
                deletion.delete(
                    store, res, current, {"propagationPolicy": "Background"}
                )
    for res, obj in objects:
        meta = obj["metadata"]
        if not meta.get("deletionTimestamp") or deletion.FOREGROUND not in (
            meta.get("finalizers") or []
        ):
            continue
        deps = [
            (r, d)
            for r, d in children.get(meta["uid"], [])
            if store.get(
                r, d["metadata"].get("namespace"), d["metadata"]["name"]
            )
            is not None
        ]
        for r, dep in deps:
            if not dep["metadata"].get("deletionTimestamp"):
                deletion.delete(
                    store, r, dep, {"propagationPolicy": "Foreground"}
                )
        if not deps:
            current = store.get(res, meta.get("namespace"), meta["name"])
            if current is not None:
                new = copy.deepcopy(current)
                new["metadata"]["finalizers"] = [
                    f
                    for f in new["metadata"]["finalizers"]
                    if f != deletion.FOREGROUND
                ]
                store.update(res, new, check_rv=False)
    live_nodes = {n["metadata"]["name"] for n in store.list(NODES)}
    for pod in store.list(PODS):
        node = pod["spec"].get("nodeName")
        if node and node not in live_nodes:
            store.remove(PODS, pod)


def namespaces(cluster: Any) -> None:
    store = cluster.store
    for ns in store.list(NAMESPACES):
        if not ns["metadata"].get("deletionTimestamp"):
            continue
        name = ns["metadata"]["name"]
        left = 0
        for res, obj in list(store.iter_all()):
            if not res.namespaced or obj["metadata"].get("namespace") != name:
                continue
            left += 1
            if not obj["metadata"].get("deletionTimestamp"):
                deletion.delete(
                    store, res, obj, {"propagationPolicy": "Background"}
                )
        if left == 0 and (ns.get("spec") or {}).get("finalizers"):
            new = copy.deepcopy(ns)
            new["spec"]["finalizers"] = []
            store.update(NAMESPACES, new, check_rv=False)
