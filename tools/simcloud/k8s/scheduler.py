"""kube-scheduler's placement decision for one pod, as pure logic.

Filters run in the order of the default profile of Kubernetes 1.30
(NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
NodeResourcesFit, InterPodAffinity); the first failing filter gives a node's
reason, with the scheduler's texts. The failure message is the one of
framework.FitError, including the preemption part ("preemption: 0/3 nodes
are available: 3 No preemption victims found for incoming pod.").
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tools.simcloud.k8s import predicates as pr

Obj = dict[str, Any]

UNSCHEDULABLE = "Unschedulable"
UNRESOLVABLE = "UnschedulableAndUnresolvable"

REASON_UNSCHEDULABLE = "node(s) were unschedulable"
REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector"
REASON_PORTS = "node(s) didn't have free ports for the requested pod ports"
REASON_TOO_MANY_PODS = "Too many pods"
REASON_AFFINITY = "node(s) didn't match pod affinity rules"
REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules"
REASON_EXISTING_ANTI = (
    "node(s) didn't satisfy existing pods anti-affinity rules"
)
NO_NODES = "no nodes available to schedule pods"
PREEMPTION_NOT_HELPFUL = "Preemption is not helpful for scheduling"
NO_VICTIMS = "No preemption victims found for incoming pod"

UNSCHEDULABLE_TAINT = {
    "key": "node.kubernetes.io/unschedulable",
    "effect": "NoSchedule",
}


@dataclass
class Snapshot:
    """Nodes and the pods bound to them, as the scheduler's cache sees them."""

    nodes: list[Obj]
    pods: list[Obj] = field(default_factory=list)
    namespaces: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_node: dict[str, list[Obj]] = defaultdict(list)
        self.node_by_name = {n["metadata"]["name"]: n for n in self.nodes}
        for pod in self.pods:
            self.by_node[pod["spec"]["nodeName"]].append(pod)

    def add(self, pod: Obj) -> None:
        """Account a newly bound pod (the scheduler's 'assume')."""
        self.pods.append(pod)
        self.by_node[pod["spec"]["nodeName"]].append(pod)

    def topology(self, node_name: str, key: str) -> str | None:
        node = self.node_by_name.get(node_name)
        if node is None:
            return None
        return (node["metadata"].get("labels") or {}).get(key)


@dataclass
class Result:
    """A node name, or the FitError message and each node's reasons."""

    node: str | None
    message: str = ""
    reasons: dict[str, tuple[str, list[str]]] = field(default_factory=dict)


def _ports(pod: Obj) -> set[tuple[str, str, int]]:
    found = set()
    for c in pod["spec"].get("containers") or []:
        for p in c.get("ports") or []:
            if p.get("hostPort"):
                found.add(
                    (
                        p.get("hostIP") or "0.0.0.0",
                        p.get("protocol") or "TCP",
                        p["hostPort"],
                    )
                )
    return found


class _Affinity:
    """Pre-computed topology domains for the incoming pod (PreFilter)."""

    def __init__(self, pod: Obj, snap: Snapshot) -> None:
        ns = pod["metadata"].get("namespace", "default")
        self.pod = pod
        self.required_aff = pr.affinity_terms(pod, "podAffinity", "required")
        self.required_anti = pr.affinity_terms(
            pod, "podAntiAffinity", "required"
        )
        # term index -> set of topology values holding a matching pod
        self.aff_domains: list[set[str]] = [set() for _ in self.required_aff]
        self.aff_any: list[bool] = [False] * len(self.required_aff)
        self.anti_domains: list[set[str]] = [set() for _ in self.required_anti]
        self.existing_anti: set[tuple[str, str]] = set()
        for other in snap.pods:
            node = other["spec"]["nodeName"]
            for i, term in enumerate(self.required_aff):
                if pr.term_matches_pod(term, ns, other, snap.namespaces):
                    self.aff_any[i] = True
                    value = snap.topology(node, term["topologyKey"])
                    if value is not None:
                        self.aff_domains[i].add(value)
            for i, term in enumerate(self.required_anti):
                if pr.term_matches_pod(term, ns, other, snap.namespaces):
                    value = snap.topology(node, term["topologyKey"])
                    if value is not None:
                        self.anti_domains[i].add(value)
            other_ns = other["metadata"].get("namespace", "default")
            for term in pr.affinity_terms(
                other, "podAntiAffinity", "required"
            ):
                if pr.term_matches_pod(term, other_ns, pod, snap.namespaces):
                    value = snap.topology(node, term["topologyKey"])
                    if value is not None:
                        self.existing_anti.add((term["topologyKey"], value))
        self.self_match = [
            pr.term_matches_pod(t, ns, pod, snap.namespaces)
            for t in self.required_aff
        ]

    def check(self, node: Obj) -> tuple[str, str] | None:
        labels = node["metadata"].get("labels") or {}
        for i, term in enumerate(self.required_aff):
            value = labels.get(term["topologyKey"])
            if value is None:
                return UNRESOLVABLE, REASON_AFFINITY
            if value in self.aff_domains[i]:
                continue
            if not self.aff_any[i] and self.self_match[i]:
                continue  # the first pod of a group that selects itself
            return UNRESOLVABLE, REASON_AFFINITY
        for i, term in enumerate(self.required_anti):
            value = labels.get(term["topologyKey"])
            if value is not None and value in self.anti_domains[i]:
                return UNSCHEDULABLE, REASON_ANTI_AFFINITY
        for key, value in self.existing_anti:
            if labels.get(key) == value:
                return UNSCHEDULABLE, REASON_EXISTING_ANTI
        return None


def filter_node(
    pod: Obj, node: Obj, snap: Snapshot, aff: _Affinity
) -> tuple[str, list[str]] | None:
    """None if ``pod`` fits ``node``, else (status code, reasons)."""
    tolerations = pod["spec"].get("tolerations") or []
    if node.get("spec", {}).get("unschedulable") and not pr.tolerates(
        tolerations, UNSCHEDULABLE_TAINT
    ):
        return UNRESOLVABLE, [REASON_UNSCHEDULABLE]
    taint = pr.first_untolerated(pod, node)
    if taint is not None:
        return UNRESOLVABLE, [
            "node(s) had untolerated taint "
            f"{{{taint.get('key', '')}: {taint.get('value', '')}}}"
        ]
    if not pr.node_matches_pod(pod, node):
        return UNRESOLVABLE, [REASON_NODE_AFFINITY]
    name = node["metadata"]["name"]
    on_node = snap.by_node.get(name, [])
    wanted_ports = _ports(pod)
    if wanted_ports:
        used = set().union(*(_ports(p) for p in on_node)) if on_node else set()
        if wanted_ports & used:
            return UNSCHEDULABLE, [REASON_PORTS]
    reasons = _resource_reasons(pod, node, on_node)
    if reasons:
        return UNSCHEDULABLE, reasons
    failed = aff.check(node)
    if failed is not None:
        return failed[0], [failed[1]]
    return None


def _resource_reasons(pod: Obj, node: Obj, on_node: list[Obj]) -> list[str]:
    alloc = pr.allocatable(node)
    reasons = []
    if len(on_node) + 1 > alloc.get("pods", 110):
        reasons.append(REASON_TOO_MANY_PODS)
    want = pr.pod_requests(pod)
    if not want:
        return reasons
    used: Counter[str] = Counter()
    for other in on_node:
        used.update(pr.pod_requests(other))
    for name in sorted(want, key=lambda n: (n not in pr.RESOURCES, n)):
        if want[name] == 0:
            continue
        if used[name] + want[name] > alloc.get(name, 0):
            reasons.append(f"Insufficient {name}")
    return reasons


def _normalize(
    raw: dict[str, float], reverse: bool = False
) -> dict[str, float]:
    if not raw:
        return {}
    low, high = min(raw.values()), max(raw.values())
    if high == low:
        return (
            dict.fromkeys(raw, 0.0 if reverse else 100.0)
            if high
            else dict.fromkeys(raw, 100.0 if reverse else 0.0)
        )
    scale = 100.0 / (high - low)
    return {
        k: (high - v if reverse else v - low) * scale for k, v in raw.items()
    }


def score(pod: Obj, nodes: list[Obj], snap: Snapshot) -> dict[str, float]:
    """Weighted scores (default profile weights) of the feasible nodes."""
    ns = pod["metadata"].get("namespace", "default")
    names = [n["metadata"]["name"] for n in nodes]
    node_aff = {
        n["metadata"]["name"]: float(pr.preferred_node_score(pod, n))
        for n in nodes
    }
    taints = {
        n["metadata"]["name"]: float(
            sum(
                1
                for t in n.get("spec", {}).get("taints") or []
                if t.get("effect") == "PreferNoSchedule"
                and not pr.tolerates(pod["spec"].get("tolerations") or [], t)
            )
        )
        for n in nodes
    }
    inter: dict[str, float] = dict.fromkeys(names, 0.0)
    prefs = [
        (t, 1) for t in pr.affinity_terms(pod, "podAffinity", "preferred")
    ]
    prefs += [
        (t, -1) for t in pr.affinity_terms(pod, "podAntiAffinity", "preferred")
    ]
    owner = _controller_uid(pod)
    spread: dict[str, float] = dict.fromkeys(names, 0.0)
    for other in snap.pods:
        where = other["spec"]["nodeName"]
        for weighted, sign in prefs:
            term = weighted.get("podAffinityTerm") or {}
            if not pr.term_matches_pod(term, ns, other, snap.namespaces):
                continue
            value = snap.topology(where, term.get("topologyKey", ""))
            if value is None:
                continue
            for n in nodes:
                if (n["metadata"].get("labels") or {}).get(
                    term["topologyKey"]
                ) == value:
                    inter[n["metadata"]["name"]] += sign * weighted.get(
                        "weight", 0
                    )
        if owner and _controller_uid(other) == owner and where in spread:
            spread[where] += 1
    least = {}
    for n in nodes:
        alloc = pr.allocatable(n)
        used: Counter[str] = Counter(pr.pod_requests(pod))
        for other in snap.by_node.get(n["metadata"]["name"], []):
            used.update(pr.pod_requests(other))
        parts = [
            max(0.0, (alloc[r] - used[r]) / alloc[r])
            for r in ("cpu", "memory")
            if alloc.get(r)
        ]
        least[n["metadata"]["name"]] = (
            100.0 * sum(parts) / len(parts) if parts else 0.0
        )
    totals = Counter[str]()
    for weight, part in (
        (2, _normalize(node_aff)),
        (3, _normalize(taints, reverse=True)),
        (2, _normalize(inter)),
        (2, _normalize(spread, reverse=True)),
        (1, least),
    ):
        for name, value in part.items():
            totals[name] += weight * value
    return {name: totals[name] for name in names}


def _controller_uid(pod: Obj) -> str | None:
    for ref in pod["metadata"].get("ownerReferences") or []:
        if ref.get("controller"):
            return ref.get("uid")
    return None


def fit_message(
    num_nodes: int, reasons: Mapping[str, tuple[str, list[str]]]
) -> str:
    """framework.FitError.Error() with the preemption post-filter part."""
    if num_nodes == 0:
        return NO_NODES
    histogram = Counter(r for _, rs in reasons.values() for r in rs)
    message = (
        f"0/{num_nodes} nodes are available: "
        + ", ".join(
            sorted(f"{count} {reason}" for reason, count in histogram.items())
        )
        + "."
    )
    preemption = Counter(
        PREEMPTION_NOT_HELPFUL if code == UNRESOLVABLE else NO_VICTIMS
        for code, _ in reasons.values()
    )
    inner = (
        f"0/{num_nodes} nodes are available: "
        + ", ".join(
            sorted(f"{count} {reason}" for reason, count in preemption.items())
        )
        + "."
    )
    return f"{message} preemption: {inner}."


def schedule(
    pod: Obj, snap: Snapshot, rng: random.Random | None = None
) -> Result:
    """Pick a node for ``pod`` or explain why none fits."""
    rng = rng or random.Random()
    aff = _Affinity(pod, snap)
    feasible, reasons = [], {}
    for node in snap.nodes:
        failed = filter_node(pod, node, snap, aff)
        if failed is None:
            feasible.append(node)
        else:
            reasons[node["metadata"]["name"]] = failed
    if not feasible:
        return Result(None, fit_message(len(snap.nodes), reasons), reasons)
    scores = score(pod, feasible, snap)
    best = max(scores.values())
    top = sorted(
        name for name, value in scores.items() if value >= best - 1e-9
    )
    return Result(rng.choice(top))
