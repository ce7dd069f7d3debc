"""Convergence of CNFs on the Kubernetes API simulator.

tacker-ng-api + one conductor observing every 2 s (real processes,
RabbitMQ, MariaDB or PostgreSQL), CNFs of the cnf_deployment sample
(VDU1: 1 pod, VDU2: 2 pods with zone anti-affinity) on simk8s with 3
nodes in 3 zones:

* autoheal off: a pod made NotReady (crash loop) -> a NOT_READY alarm
  within an observe interval, cleared when the pod is Ready again; the
  observer lists the pods once per namespace and cycle (counted on the
  simulator) and the nodes once per cycle;
* autoheal off: a node made NotReady -> a HOST_DOWN alarm for each VNFC
  on that node, cleared when the node is Ready again;
* autoheal off: a VDU2 pod deleted behind our back -> its ReplicaSet's
  replacement (a new name) is adopted into vnfcResourceInfo: no alarm,
  no heal;
* autoheal on: a crash-looping pod, then a pod on a NotReady node ->
  an automatic HEAL op occ of that VNFC only, COMPLETED, a new Ready pod
  (on a Ready node), every other pod untouched.
"""

from __future__ import annotations

import time

import pytest

from tacker_ng.tests.functional.infra.kubernetes import cnf

INTERVAL = 2


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def nfvo_observing(request, tmp_path_factory):
    """(deployment, client, vnfdId), observer every INTERVAL seconds."""
    tmp = tmp_path_factory.mktemp("cnf-convergence-" + request.param)
    convergence = {"observe_interval": INTERVAL}
    with cnf.nfvo(request.param, tmp, convergence) as got:
        yield got


def _paged(sim, path: str) -> int:
    return sim.control.requests().get(f"GET {path} paged", 0)


def test_not_ready_pod_alarm_and_one_pod_list_per_namespace(
    nfvo_observing, simk8s
):
    dep, client, _ = nfvo_observing
    vnf = cnf.instantiated(nfvo_observing, simk8s, autoheal=False)
    pods_path = f"/api/v1/namespaces/{vnf.namespace}/pods"
    cnf.until("a first observation", lambda: _paged(simk8s, pods_path) > 0)
    nodes0, pods0 = _paged(simk8s, "/api/v1/nodes"), _paged(simk8s, pods_path)
    time.sleep(INTERVAL * 3)
    nodes1, pods1 = _paged(simk8s, "/api/v1/nodes"), _paged(simk8s, pods_path)
    cycles = nodes1 - nodes0
    assert cycles >= 2, (nodes0, nodes1)
    # One pod list of this namespace per cycle (3 pods, page_size 1000),
    # not one per pod (a cycle may straddle a snapshot: +-1).
    assert abs((pods1 - pods0) - cycles) <= 1, (cycles, pods0, pods1)
    assert cnf.alarms(client, vnf.id) == []  # converged

    victim = cnf.by_vdu(vnf)["VDU2"][0]["id"]
    simk8s.control.crash_loop(vnf.namespace, victim)
    made = time.monotonic()
    (alarm,) = cnf.until(
        "the NOT_READY alarm", lambda: cnf.alarms(client, vnf.id), INTERVAL * 5
    )
    assert time.monotonic() - made < INTERVAL * 5
    assert alarm["faultType"] == "NOT_READY"
    assert alarm["vnfcInstanceIds"] == [victim]
    fault = alarm["rootCauseFaultyResource"]["faultyResource"]
    assert fault["resourceId"] == victim
    assert fault["vimLevelResourceType"] == "Deployment"
    assert cnf.heals(client, vnf.id) == []  # autoheal off

    simk8s.control.crash_loop(vnf.namespace, victim, enabled=False)
    cnf.until(
        "the alarm cleared",
        lambda: cnf.alarms(client, vnf.id) == [],
        INTERVAL * 5,
    )
    (shown,) = cnf.alarms(client, vnf.id, open_only=False)
    assert shown["id"] == alarm["id"] and "alarmClearedTime" in shown
    vnf.run("terminate", {"terminationType": "FORCEFUL"})


def test_not_ready_node_alarms_its_vnfcs(nfvo_observing, simk8s):
    dep, client, _ = nfvo_observing
    vnf = cnf.instantiated(nfvo_observing, simk8s, autoheal=False)
    vdu1 = cnf.by_vdu(vnf)["VDU1"][0]
    node = vdu1["metadata"]["nodeName"]
    on_node = {
        v["id"] for v in vnf.vnfcs() if v["metadata"]["nodeName"] == node
    }
    simk8s.control.node_not_ready(node)
    try:
        alarms = cnf.until(
            "HOST_DOWN alarms",
            lambda: (
                (got := cnf.alarms(client, vnf.id))
                and len(got) == len(on_node)
                and got
            ),
            INTERVAL * 5,
        )
        assert {a["faultType"] for a in alarms} == {"HOST_DOWN"}
        assert {a["vnfcInstanceIds"][0] for a in alarms} == on_node
    finally:
        simk8s.control.node_ready(node)
    cnf.until(
        "the alarms cleared",
        lambda: cnf.alarms(client, vnf.id) == [],
        INTERVAL * 5,
    )
    vnf.run("terminate", {"terminationType": "FORCEFUL"})


def test_pod_replaced_by_its_replicaset_is_adopted(nfvo_observing, simk8s):
    dep, client, _ = nfvo_observing
    vnf = cnf.instantiated(nfvo_observing, simk8s, autoheal=False)
    before = {v["id"] for v in vnf.vnfcs()}
    victim = cnf.by_vdu(vnf)["VDU2"][0]["id"]
    vnf.core().delete_namespaced_pod(victim, vnf.namespace)

    def adopted():
        now = {v["id"] for v in vnf.vnfcs()}
        return now if victim not in now else None

    now = cnf.until("the new pod adopted", adopted, INTERVAL * 10)
    (new,) = now - before
    assert now - {new} == before - {victim}
    assert set(vnf.pods()) == now
    (entry,) = [v for v in vnf.vnfcs() if v["id"] == new]
    assert entry["computeResource"]["resourceId"] == new
    assert entry["metadata"]["nodeName"] == vnf.pods()[new].spec.node_name
    assert cnf.alarms(client, vnf.id, open_only=False) == []
    assert cnf.heals(client, vnf.id) == []
    vnf.run("terminate", {"terminationType": "FORCEFUL"})


def _automatic_heal(vnf, client, victim: str, others: dict[str, str]):
    (heal,) = cnf.until(
        "an automatic heal",
        lambda: [
            o for o in cnf.heals(client, vnf.id) if o["isAutomaticInvocation"]
        ],
        INTERVAL * 5,
    )
    occ = vnf.wait(heal["id"])
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    assert occ["operationParams"]["vnfcInstanceId"] == [victim]
    after = {v["id"]: v for v in vnf.vnfcs()}
    assert victim not in after
    kept = {
        i: v["metadata"]["nodeName"] for i, v in after.items() if i in others
    }
    assert kept == others  # nothing else moved
    (new,) = set(after) - set(others)
    pods = vnf.pods()
    assert set(pods) == set(after)
    ready = {c.type: c.status for c in pods[new].status.conditions}
    assert ready["Ready"] == "True"
    return heal, after[new]


def test_autoheal_of_not_ready_pod_and_pod_on_not_ready_node(
    nfvo_observing, simk8s
):
    dep, client, _ = nfvo_observing
    vnf = cnf.instantiated(nfvo_observing, simk8s, autoheal=True)
    victim = cnf.by_vdu(vnf)["VDU2"][0]["id"]
    others = {
        v["id"]: v["metadata"]["nodeName"]
        for v in vnf.vnfcs()
        if v["id"] != victim
    }
    simk8s.control.crash_loop(vnf.namespace, victim)
    first, _ = _automatic_heal(vnf, client, victim, others)

    # Then the node of VDU1's pod goes NotReady.
    vdu1 = cnf.by_vdu(vnf)["VDU1"][0]
    node = vdu1["metadata"]["nodeName"]
    on_node = [
        v["id"] for v in vnf.vnfcs() if v["metadata"]["nodeName"] == node
    ]
    others = {
        v["id"]: v["metadata"]["nodeName"]
        for v in vnf.vnfcs()
        if v["metadata"]["nodeName"] != node
    }
    simk8s.control.node_not_ready(node)
    try:
        (heal,) = cnf.until(
            "a second automatic heal",
            lambda: [
                o
                for o in cnf.heals(client, vnf.id)
                if o["isAutomaticInvocation"] and o["id"] != first["id"]
            ],
            INTERVAL * 5,
        )
        occ = vnf.wait(heal["id"])
        assert occ["operationState"] == "COMPLETED", occ.get("error")
        assert sorted(occ["operationParams"]["vnfcInstanceId"]) == sorted(
            on_node
        )
        after = {v["id"]: v for v in vnf.vnfcs()}
        assert not set(on_node) & set(after)
        assert {
            i: v["metadata"]["nodeName"]
            for i, v in after.items()
            if i in others
        } == others
        assert all(
            v["metadata"]["nodeName"] != node
            for i, v in after.items()
            if i not in others
        )
    finally:
        simk8s.control.node_ready(node)
    time.sleep(INTERVAL * 2)
    assert len(cnf.heals(client, vnf.id)) == 2  # converged: no third heal
    assert cnf.alarms(client, vnf.id, open_only=False) == []
    vnf.run("terminate", {"terminationType": "FORCEFUL"})
