"""Pure rollout arithmetic of the Deployment controller (RollingUpdate and
Recreate), after pkg/controller/deployment/rolling.go and util."""

from __future__ import annotations

import calendar
import math
import time
from typing import Any

Obj = dict[str, Any]


def _resolve(value: Any, total: int, round_up: bool) -> int:
    if isinstance(value, int):
        return value
    text = str(value)
    if text.endswith("%"):
        exact = int(text[:-1]) * total / 100
        return math.ceil(exact) if round_up else math.floor(exact)
    return int(text)


def _params(deploy: Obj) -> tuple[int, int]:
    spec = deploy["spec"]
    strategy = spec.get("strategy") or {}
    if strategy.get("type") == "Recreate":
        return 0, 0
    ru = strategy.get("rollingUpdate") or {}
    replicas = spec.get("replicas", 1)
    surge = _resolve(ru.get("maxSurge", "25%"), replicas, True)
    unavailable = _resolve(ru.get("maxUnavailable", "25%"), replicas, False)
    if surge == 0 and unavailable == 0:
        unavailable = 1
    return surge, unavailable


def surge(deploy: Obj) -> int:
    return _params(deploy)[0]


def max_unavailable(deploy: Obj) -> int:
    """MaxUnavailable, never above the desired replicas."""
    return min(_params(deploy)[1], deploy["spec"].get("replicas", 1))


def _recreate(deploy: Obj) -> bool:
    return (deploy["spec"].get("strategy") or {}).get("type") == "Recreate"


def initial_replicas(
    deploy: Obj, olds: list[Obj], old_pods_running: int = 0
) -> int:
    """Replicas of a brand-new ReplicaSet.

    ``old_pods_running``: pods of the old sets not yet gone (terminating
    ones included), which Recreate waits for.
    """
    replicas = deploy["spec"].get("replicas", 1)
    if _recreate(deploy):
        busy = old_pods_running or any(r["spec"]["replicas"] for r in olds)
        return 0 if busy else replicas
    if not any(r["spec"]["replicas"] for r in olds):
        return replicas
    total = sum(r["spec"]["replicas"] for r in olds)
    return max(0, min(replicas, replicas + surge(deploy) - total))


def plan(
    deploy: Obj,
    new_rs: Obj,
    olds: list[Obj],
    ready: dict[str, int],
    old_pods_running: int = 0,
) -> dict[str, int]:
    """Target replicas per ReplicaSet uid for this sync."""
    replicas = deploy["spec"].get("replicas", 1)
    uid = new_rs["metadata"]["uid"]
    spec = {
        r["metadata"]["uid"]: r["spec"]["replicas"] for r in [new_rs, *olds]
    }
    if _recreate(deploy):
        for r in olds:
            spec[r["metadata"]["uid"]] = 0
        if not old_pods_running:
            spec[uid] = replicas
        return spec
    active_olds = [r for r in olds if spec[r["metadata"]["uid"]] > 0]
    if not active_olds:
        spec[uid] = replicas
        return spec
    max_surge, max_unav = surge(deploy), max_unavailable(deploy)
    if spec[uid] < replicas:
        allowed = replicas + max_surge - sum(spec.values())
        if allowed > 0:
            spec[uid] = min(replicas, spec[uid] + allowed)
    elif spec[uid] > replicas:
        spec[uid] = replicas
    min_available = replicas - max_unav
    new_unavailable = max(0, spec[uid] - ready.get(uid, 0))
    olds_sorted = sorted(
        active_olds, key=lambda r: r["metadata"]["creationTimestamp"]
    )
    budget = sum(spec.values()) - min_available - new_unavailable
    for r in olds_sorted:  # unhealthy replicas go first
        if budget <= 0:
            break
        rid = r["metadata"]["uid"]
        unhealthy = spec[rid] - ready.get(rid, 0)
        if unhealthy <= 0:
            continue
        cut = min(unhealthy, budget)
        spec[rid] -= cut
        budget -= cut
    available = sum(min(ready.get(k, 0), v) for k, v in spec.items())
    budget = available - min_available
    for r in olds_sorted:
        if budget <= 0:
            break
        rid = r["metadata"]["uid"]
        cut = min(spec[rid], budget)
        spec[rid] -= cut
        budget -= cut
    return spec


def _epoch(stamp: str | None) -> int:
    if not stamp:
        return 0
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))


def deletion_rank(pod: Obj) -> tuple:
    """controller.ActivePods ordering: the pods to delete first sort first."""
    phase_rank = {"Pending": 0, "Unknown": 1, "Running": 2}
    status = pod.get("status") or {}
    ready = any(
        c["type"] == "Ready" and c["status"] == "True"
        for c in status.get("conditions") or []
    )
    restarts = sum(
        c.get("restartCount", 0) for c in status.get("containerStatuses") or []
    )
    return (
        1 if pod["spec"].get("nodeName") else 0,
        phase_rank.get(status.get("phase", ""), 0),
        1 if ready else 0,
        -restarts,
        -_epoch(pod["metadata"].get("creationTimestamp")),
        pod["metadata"]["name"],
    )


def condition(
    status: Obj, kind: str, ok: bool, reason: str, message: str
) -> None:
    """Deployment conditions carry lastUpdateTime and lastTransitionTime."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    value = "True" if ok else "False"
    conds = status.setdefault("conditions", [])
    for cond in conds:
        if cond["type"] != kind:
            continue
        if (
            cond["status"] == value
            and cond.get("reason") == reason
            and cond.get("message") == message
        ):
            return
        if cond["status"] != value:
            cond["lastTransitionTime"] = stamp
        cond.update(
            status=value, reason=reason, message=message, lastUpdateTime=stamp
        )
        return
    conds.append(
        {
            "type": kind,
            "status": value,
            "reason": reason,
            "message": message,
            "lastUpdateTime": stamp,
            "lastTransitionTime": stamp,
        }
    )


def deadline_exceeded(deploy: Obj, status: Obj) -> bool:
    deadline = deploy["spec"].get("progressDeadlineSeconds")
    if deadline is None:
        return False
    for cond in status.get("conditions") or []:
        if cond["type"] == "Progressing":
            if cond.get("reason") == "ProgressDeadlineExceeded":
                return True
            return time.time() - _epoch(cond.get("lastUpdateTime")) > deadline
    return False
