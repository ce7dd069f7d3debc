"""Field selector support per kind (the fields the API server indexes)."""

from __future__ import annotations

from typing import Any

from tools.simcloud.k8s import errors
from tools.simcloud.k8s import labelsel as selectors

COMMON = {"metadata.name", "metadata.namespace"}
BY_KIND = {
    "Pod": {
        "spec.nodeName",
        "spec.restartPolicy",
        "spec.schedulerName",
        "spec.serviceAccountName",
        "spec.hostNetwork",
        "status.phase",
        "status.podIP",
        "status.nominatedNodeName",
    },
    "Node": {"spec.unschedulable"},
    "Event": {
        "involvedObject.kind",
        "involvedObject.namespace",
        "involvedObject.name",
        "involvedObject.uid",
        "involvedObject.apiVersion",
        "involvedObject.resourceVersion",
        "involvedObject.fieldPath",
        "reason",
        "reportingComponent",
        "source",
        "type",
    },
    "Secret": {"type"},
    "Namespace": {"status.phase"},
    "ReplicaSet": {"status.replicas"},
}


def get(obj: dict[str, Any], path: str) -> str | None:
    """The value of a dotted field as the field selector compares it."""
    if path == "source":
        return (obj.get("source") or {}).get("component")
    node: Any = obj
    for part in path.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    if node is None:
        if path == "spec.unschedulable":
            return "false"
        return None
    if isinstance(node, bool):
        return "true" if node else "false"
    return str(node)


def parse(kind: str, text: str | None) -> selectors.FieldSelector:
    """Parse and check a fieldSelector for ``kind`` (400 if unsupported)."""
    try:
        sel = selectors.parse_fields(text)
    except selectors.SelectorError as exc:
        raise errors.bad_request(str(exc)) from exc
    allowed = COMMON | BY_KIND.get(kind, set())
    for field in sel.fields():
        if field not in allowed:
            raise errors.bad_request(f"field label not supported: {field}")
    return sel


def matches(sel: selectors.FieldSelector, obj: dict[str, Any]) -> bool:
    return sel.matches(lambda path: get(obj, path))
