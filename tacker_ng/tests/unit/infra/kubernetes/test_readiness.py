"""Readiness rules per workload kind, selectors, unschedulable pods."""

import pytest

from tacker_ng.infra.kubernetes import readiness


def pod(name="p", ready=True, deleting=False, scheduled=None):
    conditions = [{"type": "Ready", "status": "True" if ready else "False"}]
    if scheduled is not None:
        conditions.append({"type": "PodScheduled", **scheduled})
    meta = {"name": name}
    if deleting:
        meta["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    return {
        "kind": "Pod",
        "metadata": meta,
        "status": {"conditions": conditions},
    }


def deployment(want=2, gen=2, seen=2, **status):
    return {
        "kind": "Deployment",
        "metadata": {"name": "d", "generation": gen},
        "spec": {"replicas": want},
        "status": {"observedGeneration": seen, **status},
    }


def test_selector_string():
    selector = {
        "matchLabels": {"app": "store", "tier": "db"},
        "matchExpressions": [
            {"key": "env", "operator": "In", "values": ["a", "b"]},
            {"key": "x", "operator": "NotIn", "values": ["c"]},
            {"key": "y", "operator": "Exists"},
            {"key": "z", "operator": "DoesNotExist"},
        ],
    }
    assert readiness.selector_string(selector) == (
        "app=store,tier=db,env in (a,b),x notin (c),y,!z"
    )
    assert readiness.selector_string(None) == ""


FULL = {"replicas": 2, "readyReplicas": 2, "updatedReplicas": 2}


@pytest.mark.parametrize(
    "workload,pods,ready",
    [
        (deployment(**FULL), [pod("a"), pod("b")], True),
        (deployment(seen=1, **FULL), [pod("a"), pod("b")], False),
        (deployment(**{**FULL, "updatedReplicas": 1}), [pod(), pod()], False),
        (deployment(**{**FULL, "readyReplicas": 1}), [pod(), pod()], False),
        (deployment(**{**FULL, "replicas": 3}), [pod(), pod()], False),
        (deployment(**FULL), [pod("a"), pod("b", ready=False)], False),
        (deployment(**FULL), [pod("a")], False),
        (deployment(want=0, **{"replicas": 0}), [], True),
        (pod(ready=True), [], True),
        (pod(ready=False), [], False),
        (
            {
                "kind": "StatefulSet",
                "metadata": {"name": "s", "generation": 1},
                "spec": {"replicas": 1},
                "status": {
                    "observedGeneration": 1,
                    "replicas": 1,
                    "readyReplicas": 1,
                    "currentRevision": "s-1",
                    "updateRevision": "s-2",
                },
            },
            [pod()],
            False,
        ),
        (
            {
                "kind": "DaemonSet",
                "metadata": {"name": "ds"},
                "status": {
                    "desiredNumberScheduled": 3,
                    "numberReady": 3,
                    "updatedNumberScheduled": 3,
                },
            },
            [pod("a"), pod("b"), pod("c")],
            True,
        ),
        (
            {
                "kind": "DaemonSet",
                "metadata": {"name": "ds"},
                "status": {
                    "desiredNumberScheduled": 3,
                    "numberReady": 2,
                    "updatedNumberScheduled": 3,
                },
            },
            [pod("a"), pod("b"), pod("c")],
            False,
        ),
    ],
)
def test_workload_ready(workload, pods, ready):
    assert readiness.workload_ready(workload, pods) is ready


def test_live_skips_terminating():
    assert [
        p["metadata"]["name"]
        for p in readiness.live([pod("a"), pod("b", deleting=True)])
    ] == ["a"]


def test_unschedulable_message():
    message = "0/3 nodes are available: 3 node(s) didn't match ..."
    stuck = pod(
        ready=False,
        scheduled={
            "status": "False",
            "reason": "Unschedulable",
            "message": message,
        },
    )
    assert readiness.unschedulable(stuck) == message
    other = pod(
        ready=False,
        scheduled={"status": "False", "reason": "SchedulerError"},
    )
    assert readiness.unschedulable(other) is None
    assert readiness.unschedulable(pod(scheduled={"status": "True"})) is None
    assert readiness.unschedulable(pod()) is None
