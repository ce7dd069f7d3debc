"""Deletion semantics shared by the API and the controllers: grace periods,
finalizers, and the propagation policies (Orphan, Background, Foreground)
that drive the garbage collector."""

from __future__ import annotations

import copy
import datetime
from typing import Any

from tools.simcloud.k8s import errors
from tools.simcloud.k8s.resources import Resource
from tools.simcloud.k8s.store import Store

Obj = dict[str, Any]
FOREGROUND = "foregroundDeletion"
ORPHAN = "orphan"


def _at(seconds: int) -> str:
    when = datetime.datetime.now(datetime.UTC) + datetime.timedelta(
        seconds=seconds
    )
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def check_preconditions(res: Resource, obj: Obj, options: Obj) -> None:
    pre = options.get("preconditions") or {}
    meta = obj["metadata"]
    if pre.get("uid") and pre["uid"] != meta["uid"]:
        raise errors.conflict(
            res.plural,
            res.group,
            meta["name"],
            f"Precondition failed: UID in precondition: {pre['uid']}, "
            f"UID in object meta: {meta['uid']}",
        )
    if (
        pre.get("resourceVersion")
        and pre["resourceVersion"] != meta["resourceVersion"]
    ):
        raise errors.conflict(
            res.plural,
            res.group,
            meta["name"],
            f"Precondition failed: ResourceVersion in precondition: "
            f"{pre['resourceVersion']}, ResourceVersion in object meta: "
            f"{meta['resourceVersion']}",
        )


def dependents(store: Store, owner: Obj) -> list[tuple[Resource, Obj]]:
    uid = owner["metadata"]["uid"]
    return [
        (r, o)
        for r, o in store.iter_all()
        if any(
            ref.get("uid") == uid
            for ref in o["metadata"].get("ownerReferences") or []
        )
    ]


def orphan_dependents(store: Store, owner: Obj) -> None:
    uid = owner["metadata"]["uid"]
    for res, obj in dependents(store, owner):
        new = copy.deepcopy(obj)
        refs = [
            r
            for r in new["metadata"]["ownerReferences"]
            if r.get("uid") != uid
        ]
        if refs:
            new["metadata"]["ownerReferences"] = refs
        else:
            del new["metadata"]["ownerReferences"]
        new["metadata"].pop("resourceVersion", None)
        store.update(res, new)


def delete(
    store: Store, res: Resource, obj: Obj, options: Obj
) -> tuple[Obj, bool]:
    """Delete ``obj``; returns (object as now, removed from the store)."""
    check_preconditions(res, obj, options)
    meta = obj["metadata"]
    policy = options.get("propagationPolicy")
    if policy is None and options.get("orphanDependents") is not None:
        policy = "Orphan" if options["orphanDependents"] else "Background"
    if policy not in (None, "Orphan", "Background", "Foreground"):
        raise errors.invalid(
            "DeleteOptions",
            "",
            "",
            [
                errors.cause(
                    "FieldValueNotSupported",
                    "propagationPolicy",
                    f'Unsupported value: "{policy}": supported values: '
                    '"Foreground", "Background", "Orphan", "nil"',
                )
            ],
        )
    finalizers = list(meta.get("finalizers") or [])
    if meta.get("deletionTimestamp"):
        grace = options.get("gracePeriodSeconds")
        if res.kind == "Pod" and grace == 0 and not finalizers:
            return store.remove(res, obj), True
        return obj, False  # already being deleted
    if policy == "Orphan":
        orphan_dependents(store, obj)
    new = copy.deepcopy(obj)
    new_meta = new["metadata"]
    if policy == "Foreground" and dependents(store, obj):
        finalizers.append(FOREGROUND)
    grace = 0
    if (
        res.kind == "Pod"
        and new.get("spec", {}).get("nodeName")
        and new.get("status", {}).get("phase") not in ("Succeeded", "Failed")
    ):
        grace = options.get("gracePeriodSeconds")
        if grace is None:
            grace = new["spec"].get("terminationGracePeriodSeconds", 30)
        grace = max(int(grace), 0)
    if res.kind == "Namespace":
        new_meta["deletionTimestamp"] = _at(0)
        new.setdefault("status", {})["phase"] = "Terminating"
        new_meta["finalizers"] = finalizers
        new_meta.pop("resourceVersion", None)
        return store.update(res, _keep_finalizer(new)), False
    if not finalizers and grace == 0:
        return store.remove(res, obj), True
    new_meta["deletionTimestamp"] = _at(grace)
    new_meta["deletionGracePeriodSeconds"] = grace
    if finalizers:
        new_meta["finalizers"] = finalizers
    new_meta.pop("resourceVersion", None)
    return store.update(res, new), False


def _keep_finalizer(ns: Obj) -> Obj:
    # a namespace stays until the namespace controller empties it
    ns["metadata"]["deletionGracePeriodSeconds"] = 0
    ns["metadata"]["finalizers"] = ns["metadata"].get("finalizers") or []
    return ns
