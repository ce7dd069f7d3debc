"""When is a workload ready, and which of its pods cannot be scheduled.

Pure functions over the API's JSON (no I/O), so the rules are tested
exhaustively in the unit tests; :mod:`.waiting` polls the API with them.
"""

from typing import Any


def selector_string(selector: dict[str, Any] | None) -> str:
    """A LabelSelector as the ``labelSelector`` query parameter."""
    selector = selector or {}
    parts = [
        f"{k}={v}" for k, v in (selector.get("matchLabels") or {}).items()
    ]
    for expr in selector.get("matchExpressions") or []:
        key, op = expr["key"], expr["operator"]
        values = ",".join(expr.get("values") or [])
        if op == "In":
            parts.append(f"{key} in ({values})")
        elif op == "NotIn":
            parts.append(f"{key} notin ({values})")
        elif op == "Exists":
            parts.append(key)
        elif op == "DoesNotExist":
            parts.append(f"!{key}")
    return ",".join(parts)


def condition(obj: dict[str, Any], kind: str) -> dict[str, Any] | None:
    for cond in (obj.get("status") or {}).get("conditions") or []:
        if cond.get("type") == kind:
            return cond
    return None


def pod_ready(pod: dict[str, Any]) -> bool:
    cond = condition(pod, "Ready")
    return bool(cond and cond.get("status") == "True")


def live(pods: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Pods not being deleted."""
    return [p for p in pods if not p["metadata"].get("deletionTimestamp")]


def unschedulable(pod: dict[str, Any]) -> str | None:
    """The scheduler's message when ``pod`` cannot be placed, else None."""
    cond = condition(pod, "PodScheduled")
    if (
        cond
        and cond.get("status") == "False"
        and cond.get("reason") == "Unschedulable"
    ):
        return cond.get("message") or "Unschedulable"
    return None


def _generation_seen(workload: dict[str, Any]) -> bool:
    status = workload.get("status") or {}
    generation = workload["metadata"].get("generation")
    return generation is None or status.get("observedGeneration", 0) >= (
        generation
    )


def workload_ready(
    workload: dict[str, Any], pods: list[dict[str, Any]]
) -> bool:
    """Every wanted pod is up to date and Ready, and no other pod is left.

    ``pods`` are the live pods matching the workload's selector.
    """
    kind = workload["kind"]
    if kind == "Pod":
        return pod_ready(workload)
    status = workload.get("status") or {}
    if not _generation_seen(workload):
        return False
    if kind == "DaemonSet":
        want = status.get("desiredNumberScheduled", 0)
        return (
            status.get("numberReady", 0) == want
            and status.get("updatedNumberScheduled", 0) == want
            and len(pods) == want
            and all(pod_ready(p) for p in pods)
        )
    want = (workload.get("spec") or {}).get("replicas", 1)
    if (
        kind == "StatefulSet"
        and status.get("updateRevision")
        and (status.get("currentRevision") != status.get("updateRevision"))
    ):
        return False
    if kind == "Deployment" and status.get("updatedReplicas", 0) != want:
        return False
    return (
        status.get("readyReplicas", 0) == want
        and status.get("replicas", 0) == want
        and len(pods) == want
        and all(pod_ready(p) for p in pods)
    )
