"""Desired state is the package: a CNF's objects deleted behind the VNFM's
back come back with a heal.

tacker-ng-api + one conductor observing every 2 s (real processes,
RabbitMQ, MariaDB or PostgreSQL), CNFs of the cnf_deployment sample
(VDU1: 1 pod, VDU2: 2 pods with zone anti-affinity) on simk8s with 3
nodes in 3 zones:

* autoheal off, scaled out to vdu2_aspect level 1 (3 vdu2 pods): the
  vdu2 Deployment deleted with kubectl -> a MISSING alarm per vdu2 VNFC;
  the NFVO's heal of one of them re-creates the Deployment as instantiate
  made it (name, labels, selector, owner annotation) with 3 replicas, the
  scale level stays 1, vdu1's pod is untouched, every alarm is cleared;
* autoheal off: the CNF's namespace deleted (everything in it goes) ->
  a heal of the whole VNF waits for the namespace to be gone and re-creates
  it and both Deployments; the alarms are cleared;
* autoheal off, every node cordoned: the heal re-creates the Deployment
  but its pod cannot be scheduled -> FAILED_TEMP; rollback -> ROLLED_BACK
  (nothing to undo: the Deployment stays, the record is unchanged); once
  the nodes are uncordoned the observer adopts the new pod and clears the
  alarm;
* autoheal on: the vdu2 Deployment deleted -> the observer's automatic
  heal re-creates it at the recorded replica count, no operator action,
  no alarm.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from tacker_ng.infra.kubernetes.state import OWNER
from tacker_ng.tests.functional.infra.kubernetes import cnf

INTERVAL = 2


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def nfvo_observing(request, tmp_path_factory):
    """(deployment, client, vnfdId), observer every INTERVAL seconds."""
    tmp = tmp_path_factory.mktemp("cnf-recreate-" + request.param)
    convergence = {"observe_interval": INTERVAL}
    with cnf.nfvo(request.param, tmp, convergence) as got:
        yield got


def _apps(vnf):
    return cnf.k8s.AppsV1Api(vnf.sim.api_client())


def _deployment(vnf, name: str):
    """The Deployment as the cluster has it, or None."""
    found = _apps(vnf).list_namespaced_deployment(vnf.namespace).items
    return next((d for d in found if d.metadata.name == name), None)


def _shape(deploy) -> dict:
    """What instantiate rendered of a Deployment (not the server's)."""
    return {
        "name": deploy.metadata.name,
        "namespace": deploy.metadata.namespace,
        "labels": deploy.metadata.labels,
        "owner": (deploy.metadata.annotations or {}).get(OWNER),
        "selector": deploy.spec.selector.match_labels,
        "pod_labels": deploy.spec.template.metadata.labels,
        "image": deploy.spec.template.spec.containers[0].image,
    }


def _ids(vnf, vdu: str | None = None) -> set[str]:
    return {v["id"] for v in vnf.vnfcs() if vdu in (None, v["vduId"])}


def _changes(occ) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for item in occ["resourceChanges"].get("affectedVnfcs") or []:
        out.setdefault(item["changeType"], set()).add(item["id"])
    return out


def _levels(vnf) -> dict[str, int]:
    status = vnf.instance()["instantiatedVnfInfo"]["scaleStatus"]
    return {s["aspectId"]: s["scaleLevel"] for s in status}


def _missing_alarms(client, vnf, vnfc_ids: set[str]) -> list[dict]:
    """Wait for one MISSING alarm per VNFC of ``vnfc_ids``."""
    return cnf.until(
        "the MISSING alarms",
        lambda: (
            (got := cnf.alarms(client, vnf.id))
            and {a["vnfcInstanceIds"][0] for a in got} == vnfc_ids
            and got
        ),
        INTERVAL * 10,
    )


def test_deleted_deployment_back_at_its_scale_level_by_a_vnfc_heal(
    nfvo_observing, simk8s
):
    dep, client, _ = nfvo_observing
    vnf = cnf.instantiated(nfvo_observing, simk8s)
    vnf.run("scale", {"type": "SCALE_OUT", "aspectId": "vdu2_aspect"})
    assert _levels(vnf)["vdu2_aspect"] == 1
    vdu1, vdu2 = _ids(vnf, "VDU1"), _ids(vnf, "VDU2")
    assert len(vdu2) == 3
    made = _shape(_deployment(vnf, "vdu2"))
    assert made["owner"] == vnf.id

    simk8s.kubectl("delete", "deployment", "vdu2", "-n", vnf.namespace)
    alarms = _missing_alarms(client, vnf, vdu2)
    assert {a["faultType"] for a in alarms} == {"MISSING"}
    assert _deployment(vnf, "vdu2") is None
    assert cnf.heals(client, vnf.id) == []  # autoheal off

    victim = sorted(vdu2)[0]
    occ = vnf.run("heal", {"vnfcInstanceId": [victim]})
    again = _deployment(vnf, "vdu2")
    assert _shape(again) == made
    assert again.spec.replicas == 3  # the scale level, not level 1's 2
    assert _levels(vnf)["vdu2_aspect"] == 1
    new = _ids(vnf, "VDU2")
    assert len(new) == 3 and not new & vdu2
    assert _ids(vnf, "VDU1") == vdu1  # untouched
    assert _changes(occ) == {"REMOVED": vdu2, "ADDED": new}
    pods = vnf.pods()
    assert set(pods) == new | vdu1
    assert cnf.zones_of(vnf.vnfcs(), "VDU2") == ["host-a", "host-b", "host-c"]
    cnf.until(
        "every alarm cleared",
        lambda: cnf.alarms(client, vnf.id) == [],
        INTERVAL * 5,
    )
    cleared = cnf.alarms(client, vnf.id, open_only=False)
    assert {a["id"] for a in cleared} == {a["id"] for a in alarms}
    vnf.run("terminate", {"terminationType": "FORCEFUL"})
    assert not vnf.namespace_exists()


def test_deleted_namespace_back_by_a_whole_vnf_heal(nfvo_observing, simk8s):
    dep, client, _ = nfvo_observing
    vnf = cnf.instantiated(nfvo_observing, simk8s)
    before = _ids(vnf)
    shapes = {n: _shape(_deployment(vnf, n)) for n in ("vdu1", "vdu2")}
    simk8s.kubectl("delete", "namespace", vnf.namespace, "--wait=false")
    alarms = _missing_alarms(client, vnf, before)

    occ = vnf.run("heal", {})
    assert vnf.namespace_exists()
    assert {n: _shape(_deployment(vnf, n)) for n in ("vdu1", "vdu2")} == shapes
    after = _ids(vnf)
    assert Counter(v["vduId"] for v in vnf.vnfcs()) == {"VDU1": 1, "VDU2": 2}
    assert not after & before and set(vnf.pods()) == after
    assert _changes(occ) == {"REMOVED": before, "ADDED": after}
    cnf.until(
        "every alarm cleared",
        lambda: cnf.alarms(client, vnf.id) == [],
        INTERVAL * 5,
    )
    assert len(cnf.alarms(client, vnf.id, open_only=False)) == len(alarms)
    vnf.run("terminate", {"terminationType": "FORCEFUL"})
    assert not vnf.namespace_exists()


def _cordon(vnf, on: bool) -> None:
    for node in vnf.core().list_node().items:
        vnf.sim.kubectl("cordon" if on else "uncordon", node.metadata.name)


def test_failed_heal_rolls_back_then_the_observer_converges(
    nfvo_observing, simk8s
):
    dep, client, _ = nfvo_observing
    vnf = cnf.instantiated(nfvo_observing, simk8s)
    (old,) = _ids(vnf, "VDU1")
    record = vnf.instance()["instantiatedVnfInfo"]["vnfcResourceInfo"]
    simk8s.kubectl("delete", "deployment", "vdu1", "-n", vnf.namespace)
    (alarm,) = _missing_alarms(client, vnf, {old})
    _cordon(vnf, True)
    try:
        occ = vnf.wait(vnf.start("heal", {"vnfcInstanceId": [old]}))
        assert occ["operationState"] == "FAILED_TEMP"
        assert occ["error"]["status"] == 409
        assert "cannot be scheduled" in occ["error"]["detail"]
        resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ['id']}/rollback")
        assert resp.status_code == 202, resp.text
        occ = vnf.wait(occ["id"], ("ROLLED_BACK", "FAILED_TEMP"))
        assert occ["operationState"] == "ROLLED_BACK", occ.get("error")
        # Nothing undone: the re-created Deployment stays, the record too.
        assert _deployment(vnf, "vdu1").metadata.annotations[OWNER] == vnf.id
        got = vnf.instance()["instantiatedVnfInfo"]["vnfcResourceInfo"]
        assert got == record
    finally:
        _cordon(vnf, False)

    def adopted():
        now = _ids(vnf, "VDU1")
        return now if old not in now else None

    (new,) = cnf.until("the new pod adopted", adopted, INTERVAL * 10)
    assert set(vnf.pods()) == _ids(vnf)
    cnf.until(
        "the alarm cleared",
        lambda: cnf.alarms(client, vnf.id) == [],
        INTERVAL * 5,
    )
    (shown,) = cnf.alarms(client, vnf.id, open_only=False)
    assert shown["id"] == alarm["id"]
    vnf.run("terminate", {"terminationType": "FORCEFUL"})


def test_autoheal_recreates_a_deleted_deployment(nfvo_observing, simk8s):
    dep, client, _ = nfvo_observing
    vnf = cnf.instantiated(nfvo_observing, simk8s, autoheal=True)
    vnf.run("scale", {"type": "SCALE_OUT", "aspectId": "vdu2_aspect"})
    vdu1, vdu2 = _ids(vnf, "VDU1"), _ids(vnf, "VDU2")
    made = _shape(_deployment(vnf, "vdu2"))
    simk8s.kubectl("delete", "deployment", "vdu2", "-n", vnf.namespace)

    (heal,) = cnf.until(
        "an automatic heal",
        lambda: [
            o for o in cnf.heals(client, vnf.id) if o["isAutomaticInvocation"]
        ],
        INTERVAL * 10,
    )
    occ = vnf.wait(heal["id"])
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    assert set(occ["operationParams"]["vnfcInstanceId"]) == vdu2
    again = _deployment(vnf, "vdu2")
    assert _shape(again) == made and again.spec.replicas == 3
    new = _ids(vnf, "VDU2")
    assert len(new) == 3 and not new & vdu2
    assert _ids(vnf, "VDU1") == vdu1
    assert set(vnf.pods()) == new | vdu1
    assert _levels(vnf)["vdu2_aspect"] == 1
    time.sleep(INTERVAL * 2)
    assert len(cnf.heals(client, vnf.id)) == 1  # converged: no second heal
    assert cnf.alarms(client, vnf.id, open_only=False) == []
    vnf.run("terminate", {"terminationType": "FORCEFUL"})
