"""Pure matching rules the scheduler and controllers share.

Tolerations (v1.Toleration.ToleratesTaint), node selector terms
(component-helpers nodeaffinity), pod resource requests
(resourcehelper.PodRequests) and pod (anti-)affinity terms.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tools.simcloud.k8s import labelsel as selectors
from tools.simcloud.k8s import quantity

Obj = dict[str, Any]


def tolerates(
    tolerations: Iterable[Mapping[str, Any]], taint: Mapping[str, Any]
) -> bool:
    """True when one toleration tolerates ``taint``."""
    for tol in tolerations or ():
        effect = tol.get("effect") or ""
        if effect and effect != taint.get("effect"):
            continue
        key = tol.get("key") or ""
        op = tol.get("operator") or "Equal"
        if not key and op == "Exists":
            return True
        if key != taint.get("key"):
            continue
        if op == "Exists":
            return True
        if (tol.get("value") or "") == (taint.get("value") or ""):
            return True
    return False


def first_untolerated(
    pod: Obj, node: Obj, effects: tuple[str, ...] = ("NoSchedule", "NoExecute")
) -> Obj | None:
    """The first taint of ``node`` with one of ``effects`` not tolerated."""
    tolerations = pod.get("spec", {}).get("tolerations") or []
    for taint in node.get("spec", {}).get("taints") or []:
        if taint.get("effect") in effects and not tolerates(
            tolerations, taint
        ):
            return taint
    return None


def _field_value(node: Obj, key: str) -> str | None:
    if key == "metadata.name":
        return node["metadata"]["name"]
    return None


def _expr_matches(expr: Mapping[str, Any], value: str | None) -> bool:
    op = expr.get("operator")
    values = [str(v) for v in expr.get("values") or []]
    present = value is not None
    if op == "In":
        return present and value in values
    if op == "NotIn":
        return not present or value not in values
    if op == "Exists":
        return present
    if op == "DoesNotExist":
        return not present
    if op in ("Gt", "Lt") and present and values:
        try:
            have, want = int(value or ""), int(values[0])
        except ValueError:
            return False
        return have > want if op == "Gt" else have < want
    return False


def node_term_matches(term: Mapping[str, Any], node: Obj) -> bool:
    """A NodeSelectorTerm: all expressions and fields match; empty is none."""
    exprs = term.get("matchExpressions") or []
    fields = term.get("matchFields") or []
    if not exprs and not fields:
        return False
    labels = node["metadata"].get("labels") or {}
    return all(_expr_matches(e, labels.get(e["key"])) for e in exprs) and all(
        _expr_matches(f, _field_value(node, f["key"])) for f in fields
    )


def node_matches_pod(pod: Obj, node: Obj) -> bool:
    """nodeSelector and requiredDuringScheduling node affinity."""
    spec = pod.get("spec", {})
    labels = node["metadata"].get("labels") or {}
    for key, value in (spec.get("nodeSelector") or {}).items():
        if labels.get(key) != value:
            return False
    required = ((spec.get("affinity") or {}).get("nodeAffinity") or {}).get(
        "requiredDuringSchedulingIgnoredDuringExecution"
    )
    if required is not None:
        terms = required.get("nodeSelectorTerms") or []
        if not any(node_term_matches(t, node) for t in terms):
            return False
    return True


def preferred_node_score(pod: Obj, node: Obj) -> int:
    """Sum of the weights of the preferred node-affinity terms matched."""
    prefs = (
        (
            (pod.get("spec", {}).get("affinity") or {}).get("nodeAffinity")
            or {}
        ).get("preferredDuringSchedulingIgnoredDuringExecution")
    ) or []
    return sum(
        p.get("weight", 0)
        for p in prefs
        if node_term_matches(p.get("preference") or {}, node)
    )


RESOURCES = ("cpu", "memory", "ephemeral-storage")


def _amount(name: str, value: Any) -> int:
    return quantity.milli(value) if name == "cpu" else quantity.whole(value)


def pod_requests(pod: Obj) -> dict[str, int]:
    """Requests of a pod: max(sum(containers), max(initContainers)) +
    overhead; cpu in millicores, the rest in base units."""
    spec = pod.get("spec", {})
    total: dict[str, int] = {}
    for container in spec.get("containers") or []:
        for name, value in (
            (container.get("resources") or {}).get("requests") or {}
        ).items():
            total[name] = total.get(name, 0) + _amount(name, value)
    for container in spec.get("initContainers") or []:
        for name, value in (
            (container.get("resources") or {}).get("requests") or {}
        ).items():
            total[name] = max(total.get(name, 0), _amount(name, value))
    for name, value in (spec.get("overhead") or {}).items():
        total[name] = total.get(name, 0) + _amount(name, value)
    return total


def allocatable(node: Obj) -> dict[str, int]:
    """Node allocatable in the units of :func:`pod_requests`."""
    alloc = node.get("status", {}).get("allocatable") or {}
    return {name: _amount(name, value) for name, value in alloc.items()}


def term_namespaces(
    term: Mapping[str, Any],
    pod_ns: str,
    ns_labels: Mapping[str, Mapping[str, str]],
) -> set[str] | None:
    """Namespaces an affinity term selects; None means all of them."""
    names = set(term.get("namespaces") or [])
    ns_selector = term.get("namespaceSelector")
    if ns_selector is not None:
        sel = selectors.from_object(ns_selector)
        if not ns_selector:  # {} selects every namespace
            return None
        names |= {
            ns for ns, labels in ns_labels.items() if sel.matches(labels)
        }
    elif not names:
        names = {pod_ns}
    return names


def term_matches_pod(
    term: Mapping[str, Any],
    owner_ns: str,
    other: Obj,
    ns_labels: Mapping[str, Mapping[str, str]],
) -> bool:
    """Whether ``other`` is selected by an affinity term of a pod in
    ``owner_ns``."""
    namespaces = term_namespaces(term, owner_ns, ns_labels)
    if (
        namespaces is not None
        and other["metadata"].get("namespace") not in namespaces
    ):
        return False
    sel = selectors.from_object(term.get("labelSelector"))
    return sel.matches(other["metadata"].get("labels"))


def affinity_terms(pod: Obj, kind: str, mode: str) -> list[Obj]:
    """kind: podAffinity|podAntiAffinity; mode: required|preferred."""
    section = (pod.get("spec", {}).get("affinity") or {}).get(kind) or {}
    key = f"{mode}DuringSchedulingIgnoredDuringExecution"
    return list(section.get(key) or [])
