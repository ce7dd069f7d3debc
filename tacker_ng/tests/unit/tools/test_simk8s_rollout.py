"""Rollout arithmetic of the simulator's Deployment controller."""

from tools.simcloud.k8s import rollout


def deploy(replicas=4, surge="25%", unavailable="25%", kind="RollingUpdate"):
    strategy = {"type": kind}
    if kind == "RollingUpdate":
        strategy["rollingUpdate"] = {
            "maxSurge": surge,
            "maxUnavailable": unavailable,
        }
    return {"spec": {"replicas": replicas, "strategy": strategy}}


def rs(uid, replicas, stamp="2026-01-01T00:00:00Z", status=None):
    return {
        "metadata": {"uid": uid, "creationTimestamp": stamp},
        "spec": {"replicas": replicas},
        "status": {"replicas": replicas if status is None else status},
    }


def test_surge_and_unavailable_rounding():
    assert rollout.surge(deploy(3)) == 1  # 0.75 rounds up
    assert rollout.max_unavailable(deploy(3)) == 0  # rounds down
    assert rollout.max_unavailable(deploy(3, 0, 0)) == 1
    assert rollout.surge(deploy(10, 2, 3)) == 2


def test_rolling_update_steps_to_completion():
    d = deploy(4, 1, 0)
    new, old = rs("new", 0), rs("old", 4)
    ready = {"old": 4, "new": 0}
    for _ in range(10):
        plan = rollout.plan(d, new, [old], ready)
        new, old = rs("new", plan["new"]), rs("old", plan["old"])
        assert plan["new"] + plan["old"] <= 5  # maxSurge 1
        assert (
            ready["new"] + min(ready["old"], plan["old"]) >= 4
            or plan["old"] == ready["old"]
        )
        ready = {"new": plan["new"], "old": plan["old"]}
        if plan == {"new": 4, "old": 0}:
            break
    assert (new["spec"]["replicas"], old["spec"]["replicas"]) == (4, 0)


def test_recreate_waits_for_old_pods():
    d = deploy(2, kind="Recreate")
    plan = rollout.plan(d, rs("new", 0), [rs("old", 2)], {"old": 2}, 2)
    assert plan == {"new": 0, "old": 0}
    # scaled to 0 but a pod still terminating: keep waiting
    plan = rollout.plan(d, rs("new", 0), [rs("old", 0, status=0)], {}, 1)
    assert plan == {"new": 0, "old": 0}
    plan = rollout.plan(d, rs("new", 0), [rs("old", 0, status=0)], {}, 0)
    assert plan == {"new": 2, "old": 0}
    assert rollout.initial_replicas(d, [rs("old", 0)], 1) == 0
    assert rollout.initial_replicas(d, [rs("old", 0)], 0) == 2


def test_scaling_without_old_sets():
    assert rollout.plan(deploy(7), rs("n", 3), [], {"n": 3}) == {"n": 7}
    assert rollout.initial_replicas(deploy(5), []) == 5
    assert rollout.initial_replicas(deploy(4, 1, 0), [rs("o", 4)]) == 1


def test_deletion_rank_prefers_unscheduled_and_unready():
    def pod(name, node=None, phase="Pending", ready=False):
        return {
            "metadata": {
                "name": name,
                "creationTimestamp": "2026-01-01T00:00:00Z",
            },
            "spec": {"nodeName": node} if node else {},
            "status": {
                "phase": phase,
                "conditions": [
                    {"type": "Ready", "status": "True" if ready else "False"}
                ],
            },
        }

    pods = [
        pod("running", "n", "Running", True),
        pod("unscheduled"),
        pod("starting", "n"),
    ]
    assert [
        p["metadata"]["name"] for p in sorted(pods, key=rollout.deletion_rank)
    ] == ["unscheduled", "starting", "running"]
