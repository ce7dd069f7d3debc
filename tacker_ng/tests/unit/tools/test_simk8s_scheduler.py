"""The simulator's scheduler: filters, scores and FitError messages."""

import random

import pytest

from tools.simcloud.k8s import predicates, scheduler

ZONE = "kubernetes.io/zone"


def node(
    name, zone=None, cpu="4", taints=None, unschedulable=False, pods="110"
):
    labels = {"kubernetes.io/hostname": name}
    if zone:
        labels[ZONE] = zone
    spec = {"taints": taints or []}
    if unschedulable:
        spec["unschedulable"] = True
    return {
        "metadata": {"name": name, "labels": labels},
        "spec": spec,
        "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": pods}},
    }


def pod(name, labels=None, node_name=None, cpu=None, ns="default", **spec):
    container = {"name": "c", "image": "x"}
    if cpu:
        container["resources"] = {"requests": {"cpu": cpu}}
    body = {
        "metadata": {"name": name, "namespace": ns, "labels": labels or {}},
        "spec": {"containers": [container], **spec},
    }
    if node_name:
        body["spec"]["nodeName"] = node_name
    return body


def anti(mode="required", key=ZONE):
    term = {"labelSelector": {"matchLabels": {"app": "s"}}, "topologyKey": key}
    if mode == "required":
        return {
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [term]
            }
        }
    return {
        "podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": term}
            ]
        }
    }


ZONED = [node("n0", "a"), node("n1", "b"), node("n2", "c")]


def place(pods_to_place, nodes, seed=1):
    snap = scheduler.Snapshot(nodes, [])
    rng = random.Random(seed)
    results = []
    for p in pods_to_place:
        result = scheduler.schedule(p, snap, rng)
        if result.node:
            snap.add(dict(p, spec=dict(p["spec"], nodeName=result.node)))
        results.append(result)
    return results


def test_required_anti_affinity_one_per_zone_then_fit_error():
    pods = [pod(f"p{i}", {"app": "s"}, affinity=anti()) for i in range(4)]
    results = place(pods, ZONED)
    assert sorted(r.node for r in results[:3]) == ["n0", "n1", "n2"]
    assert results[3].node is None
    assert results[3].message == (
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity "
        "rules. preemption: 0/3 nodes are available: 3 No preemption "
        "victims found for incoming pod.."
    )


def test_anti_affinity_on_shared_zone_label():
    nodes = [node("n0", "a"), node("n1", "a"), node("n2", "b")]
    results = place(
        [pod(f"p{i}", {"app": "s"}, affinity=anti()) for i in range(3)], nodes
    )
    zones = {"n0": "a", "n1": "a", "n2": "b"}
    assert sorted(zones[r.node] for r in results[:2]) == ["a", "b"]
    assert results[2].node is None


def test_preferred_anti_affinity_spreads_but_places():
    for seed in range(5):
        results = place(
            [
                pod(f"p{i}", {"app": "s"}, affinity=anti("preferred"))
                for i in range(4)
            ],
            ZONED,
            seed,
        )
        assert all(r.node for r in results)
        assert sorted(r.node for r in results[:3]) == ["n0", "n1", "n2"]


def test_existing_pods_anti_affinity_is_symmetric():
    existing = pod(
        "e",
        {"app": "other"},
        node_name="n0",
        affinity={
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "labelSelector": {"matchLabels": {"app": "s"}},
                        "topologyKey": ZONE,
                    }
                ]
            }
        },
    )
    snap = scheduler.Snapshot(ZONED[:1], [existing])
    result = scheduler.schedule(pod("p", {"app": "s"}), snap)
    assert result.message.startswith(
        "0/1 nodes are available: 1 node(s) didn't satisfy existing pods "
        "anti-affinity rules."
    )


def test_pod_affinity_first_pod_may_select_itself():
    term = {
        "podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [
                {
                    "labelSelector": {"matchLabels": {"app": "s"}},
                    "topologyKey": ZONE,
                }
            ]
        }
    }
    results = place(
        [pod(f"p{i}", {"app": "s"}, affinity=term) for i in range(3)], ZONED
    )
    assert len({r.node for r in results}) == 1
    lone = place([pod("q", {"app": "q"}, affinity=term)], ZONED)[0]
    assert lone.message.startswith(
        "0/3 nodes are available: 3 node(s) didn't match pod affinity "
        "rules. preemption: 0/3 nodes are available: 3 Preemption is not "
        "helpful for scheduling."
    )


def test_taints_unschedulable_selector_and_resources_mixed():
    nodes = [
        node(
            "n0",
            "a",
            taints=[{"key": "k", "value": "v", "effect": "NoSchedule"}],
        ),
        node("n1", "b", unschedulable=True),
        node("n2", "c", cpu="1"),
        node("n3", "d"),
    ]
    p = pod("p", cpu="2", nodeSelector={ZONE: "c"})
    result = place([p], nodes)[0]
    assert result.message == (
        "0/4 nodes are available: 1 Insufficient cpu, 1 node(s) didn't "
        "match Pod's node affinity/selector, 1 node(s) had untolerated "
        "taint {k: v}, 1 node(s) were unschedulable. preemption: 0/4 nodes "
        "are available: 1 No preemption victims found for incoming pod, 3 "
        "Preemption is not helpful for scheduling.."
    )
    tolerant = pod(
        "t",
        tolerations=[{"key": "k", "operator": "Exists"}],
        nodeSelector={ZONE: "a"},
    )
    assert place([tolerant], nodes)[0].node == "n0"
    assert (
        place(
            [
                pod(
                    "u",
                    tolerations=[
                        {
                            "key": "node.kubernetes.io/unschedulable",
                            "operator": "Exists",
                            "effect": "NoSchedule",
                        }
                    ],
                    nodeSelector={ZONE: "b"},
                )
            ],
            nodes,
        )[0].node
        == "n1"
    )


def test_resources_accumulate_and_too_many_pods():
    nodes = [node("n0", cpu="1", pods="2")]
    results = place(
        [pod("a", cpu="400m"), pod("b", cpu="400m"), pod("c", cpu="100m")],
        nodes,
    )
    assert [r.node for r in results[:2]] == ["n0", "n0"]
    assert results[2].message.startswith(
        "0/1 nodes are available: 1 Too many pods."
    )
    results = place([pod("a", cpu="700m"), pod("b", cpu="400m")], nodes)
    assert results[1].reasons == {
        "n0": ("Unschedulable", ["Insufficient cpu"])
    }


def test_no_nodes():
    assert (
        place([pod("a")], [])[0].message
        == "no nodes available to schedule pods"
    )


def test_required_node_affinity_and_match_fields():
    p = pod(
        "p",
        affinity={
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchFields": [
                                {
                                    "key": "metadata.name",
                                    "operator": "In",
                                    "values": ["n2"],
                                }
                            ]
                        }
                    ]
                }
            }
        },
    )
    assert place([p], ZONED)[0].node == "n2"
    q = pod(
        "q",
        affinity={
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {
                                    "key": ZONE,
                                    "operator": "NotIn",
                                    "values": ["a", "b"],
                                }
                            ]
                        }
                    ]
                },
                "preferredDuringSchedulingIgnoredDuringExecution": [],
            }
        },
    )
    assert place([q], ZONED)[0].node == "n2"


@pytest.mark.parametrize(
    ("tol", "taint", "ok"),
    [
        ({"operator": "Exists"}, {"key": "a", "effect": "NoSchedule"}, True),
        (
            {"key": "a", "operator": "Exists"},
            {"key": "a", "value": "x", "effect": "NoExecute"},
            True,
        ),
        (
            {"key": "a", "value": "x"},
            {"key": "a", "value": "y", "effect": "NoSchedule"},
            False,
        ),
        (
            {"key": "a", "value": "x", "effect": "NoExecute"},
            {"key": "a", "value": "x", "effect": "NoSchedule"},
            False,
        ),
        (
            {"key": "b", "operator": "Exists"},
            {"key": "a", "effect": "NoSchedule"},
            False,
        ),
    ],
)
def test_tolerations(tol, taint, ok):
    assert predicates.tolerates([tol], taint) is ok


def test_pod_requests_init_containers_and_overhead():
    p = {
        "spec": {
            "containers": [
                {"resources": {"requests": {"cpu": "100m", "memory": "1Mi"}}},
                {"resources": {"requests": {"cpu": "200m"}}},
            ],
            "initContainers": [{"resources": {"requests": {"cpu": "1"}}}],
            "overhead": {"cpu": "10m"},
        }
    }
    assert predicates.pod_requests(p) == {"cpu": 1010, "memory": 1024**2}
