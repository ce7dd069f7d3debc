"""The simulator's scheduler and kubelets: anti-affinity on zones, the
scheduler's failure messages, taints, resources, cordon and faults."""

from __future__ import annotations

import time

from kubernetes import client

from tacker_ng.tests.functional.simk8s.conftest import (
    deployment,
    pod_ready,
    wait_list,
)

ZONE = "kubernetes.io/zone"
NO_VICTIMS = "No preemption victims found for incoming pod"
NOT_HELPFUL = "Preemption is not helpful for scheduling"


def anti_affinity(mode: str) -> dict:
    term = {
        "labelSelector": {
            "matchExpressions": [
                {"key": "app", "operator": "In", "values": ["store"]}
            ]
        },
        "topologyKey": ZONE,
    }
    if mode == "required":
        rules = {"requiredDuringSchedulingIgnoredDuringExecution": [term]}
    else:
        rules = {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": term}
            ]
        }
    return {"podAntiAffinity": rules}


def zones_of(core, pods) -> list[str]:
    nodes = {
        n.metadata.name: n.metadata.labels[ZONE]
        for n in core.list_node().items
    }
    return [nodes[p.spec.node_name] for p in pods]


def scheduled_condition(pod) -> client.V1PodCondition:
    return next(c for c in pod.status.conditions if c.type == "PodScheduled")


def test_required_anti_affinity_spreads_then_blocks(api, namespace):
    core, apps = api
    apps.create_namespaced_deployment(
        namespace,
        deployment(
            "redis-cache",
            3,
            {"app": "store"},
            affinity=anti_affinity("required"),
        ),
    )
    pods = wait_list(
        core.list_namespaced_pod,
        lambda ps: len(ps) == 3 and all(map(pod_ready, ps)),
        namespace=namespace,
    )
    assert sorted(zones_of(core, pods)) == ["host-a", "host-b", "host-c"]
    apps.patch_namespaced_deployment_scale(
        "redis-cache", namespace, {"spec": {"replicas": 4}}
    )
    pods = wait_list(
        core.list_namespaced_pod,
        lambda ps: any(
            p.status.conditions and scheduled_condition(p).status == "False"
            for p in ps
        ),
        namespace=namespace,
    )
    pending = [p for p in pods if not p.spec.node_name]
    assert len(pending) == 1
    cond = scheduled_condition(pending[0])
    assert cond.reason == "Unschedulable"
    assert cond.message == (
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity "
        f"rules. preemption: 0/3 nodes are available: 3 {NO_VICTIMS}.."
    )
    assert pending[0].status.phase == "Pending"
    events = core.list_namespaced_event(
        namespace, field_selector="reason=FailedScheduling"
    )
    assert events.items[0].message == cond.message
    assert events.items[0].type == "Warning"


def test_preferred_anti_affinity_still_places(api, namespace):
    core, apps = api
    apps.create_namespaced_deployment(
        namespace,
        deployment(
            "store", 4, {"app": "store"}, affinity=anti_affinity("preferred")
        ),
    )
    pods = wait_list(
        core.list_namespaced_pod,
        lambda ps: len(ps) == 4 and all(map(pod_ready, ps)),
        namespace=namespace,
    )
    zones = zones_of(core, pods)
    assert set(zones) == {"host-a", "host-b", "host-c"}
    assert sorted(zones.count(z) for z in set(zones)) == [1, 1, 2]


def test_pod_affinity_and_node_affinity(api, namespace):
    core, apps = api
    apps.create_namespaced_deployment(
        namespace,
        deployment("db", 1, {"app": "db"}, nodeSelector={ZONE: "host-b"}),
    )
    wait_list(
        core.list_namespaced_pod,
        lambda ps: ps and pod_ready(ps[0]),
        namespace=namespace,
        label_selector="app=db",
    )
    apps.create_namespaced_deployment(
        namespace,
        deployment(
            "cache",
            2,
            {"app": "cache"},
            affinity={
                "podAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": [
                        {
                            "labelSelector": {"matchLabels": {"app": "db"}},
                            "topologyKey": ZONE,
                        }
                    ]
                }
            },
        ),
    )
    pods = wait_list(
        core.list_namespaced_pod,
        lambda ps: len(ps) == 2 and all(map(pod_ready, ps)),
        namespace=namespace,
        label_selector="app=cache",
    )
    assert zones_of(core, pods) == ["host-b", "host-b"]
    core.create_namespaced_pod(
        namespace,
        {
            "metadata": {"name": "nowhere"},
            "spec": {
                "containers": [{"name": "c", "image": "x:1"}],
                "affinity": {
                    "nodeAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": {
                            "nodeSelectorTerms": [
                                {
                                    "matchExpressions": [
                                        {
                                            "key": ZONE,
                                            "operator": "In",
                                            "values": ["host-z"],
                                        }
                                    ]
                                }
                            ]
                        }
                    }
                },
            },
        },
    )
    pod = wait_list(
        core.list_namespaced_pod,
        lambda ps: ps and ps[0].status.conditions,
        namespace=namespace,
        field_selector="metadata.name=nowhere",
    )[0]
    assert scheduled_condition(pod).message == (
        "0/3 nodes are available: 3 node(s) didn't match Pod's node "
        f"affinity/selector. preemption: 0/3 nodes are available: 3 "
        f"{NOT_HELPFUL}.."
    )


def test_taints_and_tolerations(simk8s_factory):
    sim = simk8s_factory(
        "--nodes",
        "3",
        "--label",
        f"{ZONE}=a,b,c",
        "--taint",
        "dedicated=db:NoSchedule@0,1",
    )
    with sim.api_client() as api_client:
        core = client.CoreV1Api(api_client)
        for i in range(3):
            core.create_namespaced_pod(
                "default",
                {
                    "metadata": {"name": f"plain-{i}"},
                    "spec": {"containers": [{"name": "c", "image": "x:1"}]},
                },
            )
            core.create_namespaced_pod(
                "default",
                {
                    "metadata": {"name": f"tolerant-{i}"},
                    "spec": {
                        "containers": [{"name": "c", "image": "x:1"}],
                        "nodeSelector": {ZONE: "ab"[i % 2]},
                        "tolerations": [
                            {
                                "key": "dedicated",
                                "operator": "Equal",
                                "value": "db",
                                "effect": "NoSchedule",
                            }
                        ],
                    },
                },
            )
        core.create_namespaced_pod(
            "default",
            {
                "metadata": {"name": "blocked"},
                "spec": {
                    "containers": [{"name": "c", "image": "x:1"}],
                    "nodeSelector": {ZONE: "a"},
                },
            },
        )
        pods = wait_list(
            core.list_namespaced_pod,
            lambda ps: len([p for p in ps if pod_ready(p)]) == 6,
            namespace="default",
        )
        where = {p.metadata.name: p.spec.node_name for p in pods}
        assert {where[f"plain-{i}"] for i in range(3)} == {"node-2"}
        assert {where[f"tolerant-{i}"] for i in range(3)} == {
            "node-0",
            "node-1",
        }
        blocked = core.read_namespaced_pod("blocked", "default")
        assert blocked.spec.node_name is None
        assert scheduled_condition(blocked).message == (
            "0/3 nodes are available: 1 node(s) didn't match Pod's node "
            "affinity/selector, 2 node(s) had untolerated taint "
            "{dedicated: db}. preemption: 0/3 nodes are available: 3 "
            f"{NOT_HELPFUL}.."
        )


def test_resources_exhausted_then_freed(simk8s_factory):
    sim = simk8s_factory("--nodes", "3", "--cpu", "1", "--memory", "1Gi")
    with sim.api_client() as api_client:
        core = client.CoreV1Api(api_client)
        apps = client.AppsV1Api(api_client)
        apps.create_namespaced_deployment(
            "default",
            deployment(
                "hungry",
                4,
                containers=[
                    {
                        "name": "c",
                        "image": "x:1",
                        "resources": {
                            "requests": {"cpu": "600m", "memory": "100Mi"}
                        },
                    }
                ],
            ),
        )
        pods = wait_list(
            core.list_namespaced_pod,
            lambda ps: (
                len(ps) == 4
                and sum(map(pod_ready, ps)) == 3
                and any(
                    p.status.conditions and not p.spec.node_name for p in ps
                )
            ),
            namespace="default",
        )
        assert len({p.spec.node_name for p in pods if p.spec.node_name}) == 3
        pending = next(p for p in pods if not p.spec.node_name)
        assert scheduled_condition(pending).message == (
            "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 "
            f"nodes are available: 3 {NO_VICTIMS}.."
        )
        victim = next(p for p in pods if p.spec.node_name)
        core.create_namespaced_pod(
            "default",
            {
                "metadata": {"name": "huge"},
                "spec": {
                    "containers": [
                        {
                            "name": "c",
                            "image": "x:1",
                            "resources": {
                                "requests": {"cpu": "100m", "memory": "2Gi"}
                            },
                        }
                    ]
                },
            },
        )
        # scaling down frees a node: the pending replica is retried
        apps.patch_namespaced_deployment_scale(
            "hungry", "default", {"spec": {"replicas": 3}}
        )
        wait_list(
            core.list_namespaced_pod,
            lambda ps: len(ps) == 3 and all(map(pod_ready, ps)),
            namespace="default",
            label_selector="app=hungry",
        )
        assert victim is not None
        huge = core.read_namespaced_pod("huge", "default")
        assert scheduled_condition(huge).message.startswith(
            "0/3 nodes are available: 3 Insufficient memory."
        )


def test_cordon_by_patch_is_honoured(simk8s_factory):
    sim = simk8s_factory("--nodes", "2")
    with sim.api_client() as api_client:
        core = client.CoreV1Api(api_client)
        core.patch_node("node-1", {"spec": {"unschedulable": True}})
        for i in range(4):
            core.create_namespaced_pod(
                "default",
                {
                    "metadata": {"name": f"p{i}"},
                    "spec": {"containers": [{"name": "c", "image": "x:1"}]},
                },
            )
        pods = wait_list(
            core.list_namespaced_pod,
            lambda ps: len(ps) == 4 and all(map(pod_ready, ps)),
            namespace="default",
        )
        assert {p.spec.node_name for p in pods} == {"node-0"}


def test_node_not_ready_fault_and_recovery(simk8s_factory):
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
        core.create_namespaced_pod(
            "default",
            {
                "metadata": {"name": "impatient"},
                "spec": {
                    "containers": [{"name": "c", "image": "x:1"}],
                    "nodeSelector": {"kubernetes.io/hostname": "node-0"},
                    "tolerations": [
                        {
                            "key": "node.kubernetes.io/not-ready",
                            "operator": "Exists",
                            "effect": "NoExecute",
                            "tolerationSeconds": 1,
                        }
                    ],
                },
            },
        )
        wait_list(
            core.list_namespaced_pod,
            lambda ps: len(ps) == 2 and all(map(pod_ready, ps)),
            namespace="default",
        )
        started = time.monotonic()
        sim.control.node_not_ready("node-0")
        node = core.read_node("node-0")
        ready = next(c for c in node.status.conditions if c.type == "Ready")
        assert ready.status == "False"
        assert {(t.key, t.effect) for t in node.spec.taints} == {
            ("node.kubernetes.io/not-ready", "NoSchedule"),
            ("node.kubernetes.io/not-ready", "NoExecute"),
        }
        pinned = core.read_namespaced_pod("pinned", "default")
        assert not pod_ready(pinned)
        assert pinned.status.phase == "Running"
        # tolerationSeconds: 1 -> evicted by the taint manager
        wait_list(
            core.list_namespaced_pod,
            lambda ps: [p.metadata.name for p in ps] == ["pinned"],
            namespace="default",
        )
        assert time.monotonic() - started >= 1.0
        core.create_namespaced_pod(
            "default",
            {
                "metadata": {"name": "newcomer"},
                "spec": {"containers": [{"name": "c", "image": "x:1"}]},
            },
        )
        newcomer = wait_list(
            core.list_namespaced_pod,
            lambda ps: ps and pod_ready(ps[0]),
            namespace="default",
            field_selector="metadata.name=newcomer",
        )[0]
        assert newcomer.spec.node_name == "node-1"
        sim.control.node_ready("node-0")
        assert not core.read_node("node-0").spec.taints
        pinned = core.read_namespaced_pod("pinned", "default")
        assert pod_ready(pinned)


def test_crash_loop_fault(api, namespace, simk8s):
    core, _ = api
    core.create_namespaced_pod(
        namespace,
        {
            "metadata": {"name": "flaky"},
            "spec": {"containers": [{"name": "app", "image": "x:1"}]},
        },
    )
    wait_list(
        core.list_namespaced_pod,
        lambda ps: ps and pod_ready(ps[0]),
        namespace=namespace,
    )
    simk8s.control.crash_loop(namespace, "flaky")
    pod = wait_list(
        core.list_namespaced_pod,
        lambda ps: ps[0].status.container_statuses[0].restart_count >= 2,
        namespace=namespace,
        timeout=15,
    )[0]
    status = pod.status.container_statuses[0]
    assert status.state.waiting.reason == "CrashLoopBackOff"
    assert status.last_state.terminated.exit_code == 1
    assert not status.ready and not pod_ready(pod)
    ready = next(c for c in pod.status.conditions if c.type == "Ready")
    assert ready.reason == "ContainersNotReady"
    assert ready.message == "containers with unready status: [app]"
    assert (
        "CrashLoopBackOff"
        in simk8s.kubectl("get", "pod", "flaky", "-n", namespace).stdout
    )
    simk8s.control.crash_loop(namespace, "flaky", enabled=False)
    pod = wait_list(
        core.list_namespaced_pod,
        lambda ps: pod_ready(ps[0]),
        namespace=namespace,
    )[0]
    assert pod.status.container_statuses[0].state.running is not None


def test_deleted_node_pods_are_replaced(simk8s_factory):
    sim = simk8s_factory("--nodes", "3")
    with sim.api_client() as api_client:
        core = client.CoreV1Api(api_client)
        apps = client.AppsV1Api(api_client)
        apps.create_namespaced_deployment("default", deployment("web", 3))
        pods = wait_list(
            core.list_namespaced_pod,
            lambda ps: len(ps) == 3 and all(map(pod_ready, ps)),
            namespace="default",
        )
        lost = {p.metadata.name for p in pods if p.spec.node_name == "node-2"}
        sim.control.delete_node("node-2")
        pods = wait_list(
            core.list_namespaced_pod,
            lambda ps: (
                len(ps) == 3
                and all(map(pod_ready, ps))
                and not lost & {p.metadata.name for p in ps}
            ),
            namespace="default",
        )
        assert {p.spec.node_name for p in pods} <= {"node-0", "node-1"}


def test_hundred_replicas_ready_quickly(simk8s_factory):
    sim = simk8s_factory("--nodes", "3", "--ready-delay", "0.2")
    with sim.api_client() as api_client:
        apps = client.AppsV1Api(api_client)
        started = time.monotonic()
        apps.create_namespaced_deployment("default", deployment("big", 100))
        wait_list(
            apps.list_namespaced_deployment,
            lambda ds: ds[0].status.ready_replicas == 100,
            namespace="default",
            timeout=30,
        )
        elapsed = time.monotonic() - started
    print(f"100-replica Deployment all Ready in {elapsed:.2f}s")
    assert elapsed < 10
