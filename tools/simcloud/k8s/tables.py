"""Server-side printing: ``meta.k8s.io/v1`` Tables for ``kubectl get``,
with the columns of the API server's printers (pkg/printers/internalversion).
"""

from __future__ import annotations

import datetime
from typing import Any

from tools.simcloud.k8s import labelsel as selectors

Obj = dict[str, Any]


def wants_table(accept: str) -> bool:
    return "as=Table" in accept


def age(stamp: str | None) -> str:
    """duration.HumanDuration of the time since ``stamp``."""
    if not stamp:
        return "<unknown>"
    then = datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.UTC
    )
    secs = int((datetime.datetime.now(datetime.UTC) - then).total_seconds())
    if secs < 0:
        return "0s"
    if secs < 120:
        return f"{secs}s"
    minutes = secs // 60
    if minutes < 10:
        return f"{minutes}m{secs % 60}s" if secs % 60 else f"{minutes}m"
    if minutes < 180:
        return f"{minutes}m"
    hours = minutes // 60
    if hours < 48:
        return f"{hours}h"
    return f"{hours // 24}d"


def _pod_row(o: Obj) -> list:
    status = o.get("status") or {}
    cstat = status.get("containerStatuses") or []
    total = len((o.get("spec") or {}).get("containers") or [])
    ready = sum(1 for c in cstat if c.get("ready"))
    restarts = sum(c.get("restartCount", 0) for c in cstat)
    reason = status.get("reason") or status.get("phase") or "Unknown"
    for c in cstat:
        waiting = (c.get("state") or {}).get("waiting")
        if waiting and waiting.get("reason"):
            reason = waiting["reason"]
    if o["metadata"].get("deletionTimestamp"):
        reason = "Terminating"
    return [
        o["metadata"]["name"],
        f"{ready}/{total}",
        reason,
        restarts,
        age(o["metadata"].get("creationTimestamp")),
        status.get("podIP") or "<none>",
        (o.get("spec") or {}).get("nodeName") or "<none>",
        "<none>",
        "<none>",
    ]


def _node_row(o: Obj) -> list:
    conds = {
        c["type"]: c["status"]
        for c in (o.get("status") or {}).get("conditions") or []
    }
    state = {"True": "Ready", "False": "NotReady"}.get(
        conds.get("Ready", ""), "Unknown"
    )
    if (o.get("spec") or {}).get("unschedulable"):
        state += ",SchedulingDisabled"
    labels = o["metadata"].get("labels") or {}
    roles = ",".join(
        sorted(
            k.split("/", 1)[1]
            for k in labels
            if k.startswith("node-role.kubernetes.io/")
        )
    )
    info = (o.get("status") or {}).get("nodeInfo") or {}
    addrs = {
        a["type"]: a["address"]
        for a in (o.get("status") or {}).get("addresses") or []
    }
    return [
        o["metadata"]["name"],
        state,
        roles or "<none>",
        age(o["metadata"].get("creationTimestamp")),
        info.get("kubeletVersion", ""),
        addrs.get("InternalIP", "<none>"),
        addrs.get("ExternalIP", "<none>"),
        info.get("osImage", ""),
        info.get("kernelVersion", ""),
        info.get("containerRuntimeVersion", ""),
    ]


def _deploy_row(o: Obj) -> list:
    s, st = o.get("spec") or {}, o.get("status") or {}
    return [
        o["metadata"]["name"],
        f"{st.get('readyReplicas', 0)}/{s.get('replicas', 0)}",
        st.get("updatedReplicas", 0),
        st.get("availableReplicas", 0),
        age(o["metadata"].get("creationTimestamp")),
    ]


def _rs_row(o: Obj) -> list:
    s, st = o.get("spec") or {}, o.get("status") or {}
    return [
        o["metadata"]["name"],
        s.get("replicas", 0),
        st.get("replicas", 0),
        st.get("readyReplicas", 0),
        age(o["metadata"].get("creationTimestamp")),
    ]


def _sts_row(o: Obj) -> list:
    s, st = o.get("spec") or {}, o.get("status") or {}
    return [
        o["metadata"]["name"],
        f"{st.get('readyReplicas', 0)}/{s.get('replicas', 0)}",
        age(o["metadata"].get("creationTimestamp")),
    ]


def _ds_row(o: Obj) -> list:
    st = o.get("status") or {}
    sel = ((o.get("spec") or {}).get("template") or {}).get("spec", {}).get(
        "nodeSelector"
    ) or {}
    return [
        o["metadata"]["name"],
        st.get("desiredNumberScheduled", 0),
        st.get("currentNumberScheduled", 0),
        st.get("numberReady", 0),
        st.get("updatedNumberScheduled", 0),
        st.get("numberAvailable", 0),
        ",".join(f"{k}={v}" for k, v in sorted(sel.items())) or "<none>",
        age(o["metadata"].get("creationTimestamp")),
    ]


def _svc_row(o: Obj) -> list:
    s = o.get("spec") or {}
    ports = ",".join(
        f"{p.get('port')}"
        f"{':' + str(p['nodePort']) if p.get('nodePort') else ''}"
        f"/{p.get('protocol', 'TCP')}"
        for p in s.get("ports") or []
    )
    return [
        o["metadata"]["name"],
        s.get("type", "ClusterIP"),
        s.get("clusterIP") or "<none>",
        "<none>",
        ports or "<none>",
        age(o["metadata"].get("creationTimestamp")),
        selectors.to_string({"matchLabels": s.get("selector") or {}})
        or "<none>",
    ]


def _ns_row(o: Obj) -> list:
    return [
        o["metadata"]["name"],
        (o.get("status") or {}).get("phase", "Active"),
        age(o["metadata"].get("creationTimestamp")),
    ]


def _generic(o: Obj) -> list:
    return [o["metadata"]["name"], age(o["metadata"].get("creationTimestamp"))]


COLUMNS: dict[str, tuple[list[tuple[str, str, int]], Any]] = {
    "Namespace": (
        [("Name", "string", 0), ("Status", "string", 0), ("Age", "string", 0)],
        _ns_row,
    ),
    "Pod": (
        [
            ("Name", "string", 0),
            ("Ready", "string", 0),
            ("Status", "string", 0),
            ("Restarts", "integer", 0),
            ("Age", "string", 0),
            ("IP", "string", 1),
            ("Node", "string", 1),
            ("Nominated Node", "string", 1),
            ("Readiness Gates", "string", 1),
        ],
        _pod_row,
    ),
    "Node": (
        [
            ("Name", "string", 0),
            ("Status", "string", 0),
            ("Roles", "string", 0),
            ("Age", "string", 0),
            ("Version", "string", 0),
            ("Internal-IP", "string", 1),
            ("External-IP", "string", 1),
            ("OS-Image", "string", 1),
            ("Kernel-Version", "string", 1),
            ("Container-Runtime", "string", 1),
        ],
        _node_row,
    ),
    "Deployment": (
        [
            ("Name", "string", 0),
            ("Ready", "string", 0),
            ("Up-to-date", "integer", 0),
            ("Available", "integer", 0),
            ("Age", "string", 0),
        ],
        _deploy_row,
    ),
    "ReplicaSet": (
        [
            ("Name", "string", 0),
            ("Desired", "integer", 0),
            ("Current", "integer", 0),
            ("Ready", "integer", 0),
            ("Age", "string", 0),
        ],
        _rs_row,
    ),
    "StatefulSet": (
        [("Name", "string", 0), ("Ready", "string", 0), ("Age", "string", 0)],
        _sts_row,
    ),
    "DaemonSet": (
        [
            ("Name", "string", 0),
            ("Desired", "integer", 0),
            ("Current", "integer", 0),
            ("Ready", "integer", 0),
            ("Up-to-date", "integer", 0),
            ("Available", "integer", 0),
            ("Node Selector", "string", 0),
            ("Age", "string", 0),
        ],
        _ds_row,
    ),
    "Service": (
        [
            ("Name", "string", 0),
            ("Type", "string", 0),
            ("Cluster-IP", "string", 0),
            ("External-IP", "string", 0),
            ("Port(s)", "string", 0),
            ("Age", "string", 0),
            ("Selector", "string", 1),
        ],
        _svc_row,
    ),
}


def table(
    res: Any, items: list[Obj], rv: str, include: str | None = None
) -> Obj:
    cols, row = COLUMNS.get(
        res.kind, ([("Name", "string", 0), ("Age", "string", 0)], _generic)
    )
    rows = []
    for o in items:
        if include == "Object":
            embedded = o
        elif include == "None":
            embedded = None
        else:
            embedded = {
                "kind": "PartialObjectMetadata",
                "apiVersion": "meta.k8s.io/v1",
                "metadata": o["metadata"],
            }
        rows.append({"cells": row(o), "object": embedded})
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": rv},
        "columnDefinitions": [
            {
                "name": n,
                "type": t,
                "format": "name" if n == "Name" else "",
                "description": n,
                "priority": p,
            }
            for n, t, p in cols
        ],
        "rows": rows,
    }
