"""simk8s fault: a node whose kubelet is dead, as a real cluster shows it.

Once the node lifecycle controller gave up on the kubelet: every node
condition ``Unknown``, the ``unreachable`` taints, pods not Ready; a pod
deleted there (eviction, drain) stays Terminating because only the kubelet
confirms a graceful deletion, until it is force-deleted
(``gracePeriodSeconds=0``) or the Node object is deleted (pod GC).
"""

from __future__ import annotations

import time

import pytest
from kubernetes import client

from tacker_ng.tests.functional.simk8s.conftest import (
    deployment,
    pod_ready,
    rest,
    wait_list,
)
from tools.simcloud.k8s.client import ControlError

UNREACHABLE = "node.kubernetes.io/unreachable"


def _pods_on(core, node: str) -> list:
    return core.list_namespaced_pod(
        "default", field_selector=f"spec.nodeName={node}"
    ).items


def test_dead_kubelet_keeps_pods_terminating(simk8s_factory):
    sim = simk8s_factory("--nodes", "2", "--terminate-delay", "0.1")
    with sim.api_client() as api_client:
        core = client.CoreV1Api(api_client)
        apps = client.AppsV1Api(api_client)
        apps.create_namespaced_deployment("default", deployment("web", 4))
        wait_list(
            core.list_namespaced_pod,
            lambda ps: len(ps) == 4 and all(map(pod_ready, ps)),
            namespace="default",
        )
        victims = {p.metadata.name for p in _pods_on(core, "node-0")}
        assert victims

        sim.control.kubelet("node-0", running=False)
        node = core.read_node("node-0")
        assert {c.status for c in node.status.conditions} == {"Unknown"}
        ready = next(c for c in node.status.conditions if c.type == "Ready")
        assert ready.reason == "NodeStatusUnknown"
        assert ready.message == "Kubelet stopped posting node status."
        assert {(t.key, t.effect) for t in node.spec.taints} == {
            (UNREACHABLE, "NoSchedule"),
            (UNREACHABLE, "NoExecute"),
        }
        assert not any(pod_ready(p) for p in _pods_on(core, "node-0"))

        # A graceful deletion (what an eviction does) is never confirmed:
        # the pod stays, Terminating, well past its grace period.
        name = sorted(victims)[0]
        core.delete_namespaced_pod(name, "default", grace_period_seconds=1)
        time.sleep(2.0)
        pod = core.read_namespaced_pod(name, "default")
        assert pod.metadata.deletion_timestamp is not None
        assert "Terminating" in sim.kubectl("get", "pod", name).stdout
        # The ReplicaSet replaces it on the live node meanwhile (the
        # unreachable NoSchedule taint keeps new pods off node-0).
        want = 4 - len(victims) + 1
        wait_list(
            core.list_namespaced_pod,
            lambda ps: (
                sum(
                    1
                    for p in ps
                    if pod_ready(p) and p.spec.node_name == "node-1"
                )
                == want
            ),
            namespace="default",
        )
        # Force deletion (kubectl delete --force --grace-period=0) ends it.
        sim.kubectl(
            "delete", "pod", name, "--force", "--grace-period=0", check=True
        )
        remaining = {p.metadata.name for p in _pods_on(core, "node-0")}
        assert name not in remaining

        # Revived: the node is Ready again, pending deletions finish.
        others = sorted(remaining)
        for other in others:
            core.delete_namespaced_pod(other, "default")
        sim.control.kubelet("node-0", running=True)
        node = core.read_node("node-0")
        ready = next(c for c in node.status.conditions if c.type == "Ready")
        assert ready.status == "True"
        assert not node.spec.taints
        wait_list(
            core.list_namespaced_pod,
            lambda ps: not set(others) & {p.metadata.name for p in ps},
            namespace="default",
        )


def test_dead_kubelet_pods_go_with_their_node(simk8s_factory):
    """Deleting the Node object of a dead kubelet removes its pods (pod
    GC); a node registered again under that name has a live kubelet."""
    sim = simk8s_factory("--nodes", "2")
    with sim.api_client() as api_client:
        core = client.CoreV1Api(api_client)
        core.create_namespaced_pod(
            "default",
            {
                "metadata": {"name": "pinned"},
                "spec": {
                    "containers": [{"name": "c", "image": "x:1"}],
                    "nodeSelector": {"kubernetes.io/hostname": "node-0"},
                },
            },
        )
        wait_list(
            core.list_namespaced_pod,
            lambda ps: ps and pod_ready(ps[0]),
            namespace="default",
        )
        sim.control.kubelet("node-0", running=False)
        core.delete_namespaced_pod("pinned", "default")
        assert core.read_namespaced_pod("pinned", "default")
        core.delete_node("node-0")
        wait_list(
            core.list_namespaced_pod, lambda ps: not ps, namespace="default"
        )
        sim.control.add_node("node-0")
        core.create_namespaced_pod(
            "default",
            {
                "metadata": {"name": "again"},
                "spec": {
                    "containers": [{"name": "c", "image": "x:1"}],
                    "nodeSelector": {"kubernetes.io/hostname": "node-0"},
                },
            },
        )
        wait_list(
            core.list_namespaced_pod,
            lambda ps: ps and pod_ready(ps[0]),
            namespace="default",
        )


def test_kubelet_fault_needs_a_boolean_and_a_node(simk8s_factory):
    sim = simk8s_factory("--nodes", "1")
    status, body = rest(
        sim, "POST", "/simcloud/v1/nodes/node-0/kubelet", {"running": "no"}
    )
    assert status == 400, body
    with pytest.raises(ControlError, match="404"):
        sim.control.kubelet("node-9", running=False)
