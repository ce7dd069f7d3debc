"""The VNFM owns its automatic heals, on the Kubernetes API simulator.

tacker-ng-api + one conductor observing every second (real processes,
RabbitMQ, MariaDB or PostgreSQL), CNFs of the cnf_deployment sample
(VDU2: 2 pods with required zone anti-affinity) on simk8s with 2 nodes
in 2 zones, so a VDU2 pod whose node goes NotReady has nowhere to go:

* autoheal on: the automatic heal ends FAILED_TEMP (Unschedulable); the
  VNFM fails it itself (FAILED, the instance free for the NFVO's next
  operation), raises one ``AUTO_HEAL_FAILED`` alarm naming the op occ,
  the VNFCs and the cause; the next attempt waits the back-off; after
  ``auto_heal_attempts`` no attempt; capacity back (node Ready) -> the
  instance converges and the alarm is cleared;
* ``auto_heal_failed_action = rollback``: the VNFM rolls its failed
  automatic heal back through a conductor (ROLLED_BACK), the alarm says
  so, the instance is free;
* autoheal off: an instance held by a manual heal in FAILED_TEMP still
  gets HOST_DOWN alarms for the VNFCs of a node that goes NotReady
  (and their clearing), and the VNFM leaves the NFVO's op alone.
"""

from __future__ import annotations

import contextlib
import datetime
import time

import pytest

from tacker_ng.tests.functional.infra.kubernetes import cnf

INTERVAL = 1
BACKOFF = 5
ATTEMPTS = 2
TWO_ZONES = ("--nodes", "2", "--label", "kubernetes.io/zone=host-a,host-b")


@contextlib.contextmanager
def _nfvo(backend: str, tmp, **convergence):
    with cnf.nfvo(
        backend,
        tmp,
        {
            "observe_interval": INTERVAL,
            "auto_heal_attempts": ATTEMPTS,
            "auto_heal_backoff_base": BACKOFF,
            "auto_heal_backoff_max": BACKOFF,
            "autoheal_backoff": 3600,
            **convergence,
        },
    ) as got:
        yield got


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def nfvo_autoops(request, tmp_path_factory):
    """(deployment, client, vnfdId): fast observer, short back-off."""
    tmp = tmp_path_factory.mktemp(f"cnf-autoops-{request.param}")
    with _nfvo(request.param, tmp) as got:
        yield got


@pytest.fixture(params=["mariadb", "postgresql"])
def nfvo_rollback(request, tmp_path_factory):
    """As :func:`nfvo_autoops`, auto_heal_failed_action = rollback."""
    tmp = tmp_path_factory.mktemp(f"cnf-autoops-rb-{request.param}")
    # A long back-off: the test frees the instance after the rollback
    # (a modify); a second attempt 5 s later took it first on a loaded
    # machine (409).
    with _nfvo(
        request.param,
        tmp,
        auto_heal_failed_action="rollback",
        auto_heal_backoff_base=600,
        auto_heal_backoff_max=600,
    ) as got:
        yield got


def _time(stamp: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _automatic(client, vnf) -> list[dict]:
    heals = [
        o for o in cnf.heals(client, vnf.id) if o["isAutomaticInvocation"]
    ]
    return sorted(heals, key=lambda o: o["startTime"])


def _autoheal_alarm(client, vnf) -> dict | None:
    got = [
        a
        for a in cnf.alarms(client, vnf.id)
        if a["faultType"] == "AUTO_HEAL_FAILED"
    ]
    assert len(got) <= 1, got  # one per instance, updated
    return got[0] if got else None


def test_failed_autoheal_failed_by_vnfm_backed_off_given_up_cleared(
    nfvo_autoops, simk8s_factory
):
    dep, client, vnfd_id = nfvo_autoops
    sim = simk8s_factory(*TWO_ZONES)
    vnf = cnf.Cnf(client, vnfd_id, sim)
    vnf.run("instantiate", vnf.instantiate_body("instantiation_level_1"))
    assert cnf.set_autoheal(vnf, True)["operationState"] == "COMPLETED"
    node = cnf.by_vdu(vnf)["VDU2"][0]["metadata"]["nodeName"]
    on_node = sorted(
        v["id"] for v in vnf.vnfcs() if v["metadata"]["nodeName"] == node
    )
    sim.control.node_not_ready(node)
    try:
        (first,) = cnf.until(
            "an automatic heal", lambda: _automatic(client, vnf), 15
        )
        occ = vnf.wait(first["id"], ("FAILED", "COMPLETED", "ROLLED_BACK"))
        # FAILED_TEMP (Unschedulable), then failed by the VNFM itself
        assert occ["operationState"] == "FAILED", occ
        assert "nschedulable" in str(occ["error"]), occ["error"]
        assert sorted(occ["operationParams"]["vnfcInstanceId"]) == on_node
        # the instance is free: the NFVO's operation is accepted at once
        assert cnf.set_autoheal(vnf, True)["operationState"] == "COMPLETED"
        alarm = cnf.until(
            "the automatic-heal alarm",
            lambda: _autoheal_alarm(client, vnf),
            10,
        )
        assert sorted(alarm["vnfcInstanceIds"]) == on_node
        assert first["id"] in alarm["probableCause"]
        assert "cannot be scheduled" in alarm["probableCause"]
        assert "cause: Pod Unschedulable: " in "\n".join(alarm["faultDetails"])
        assert "attempt 1 of 2" in alarm["faultDetails"]
        assert alarm["eventType"] == "PROCESSING_ERROR_ALARM"

        # The next attempt waits the back-off.
        second = cnf.until(
            "a second automatic heal",
            lambda: (got := _automatic(client, vnf)[1:]) and got[0],
            BACKOFF + 20,
        )
        waited = _time(second["startTime"]) - _time(occ["stateEnteredTime"])
        assert waited.total_seconds() >= BACKOFF - 0.5, waited
        occ2 = vnf.wait(second["id"], ("FAILED", "COMPLETED", "ROLLED_BACK"))
        assert occ2["operationState"] == "FAILED", occ2

        def updated():
            got = _autoheal_alarm(client, vnf)
            return got if "attempt 2 of 2" in got["faultDetails"] else None

        again = cnf.until("the alarm updated", updated, 10)
        assert again["id"] == alarm["id"]
        assert second["id"] in again["probableCause"]
        assert again["faultDetails"][-1].startswith("attempts exhausted")
        # Attempts exhausted: no third heal (back-off x2 and more).
        time.sleep(BACKOFF * 2 + INTERVAL * 2)
        assert len(_automatic(client, vnf)) == 2
    finally:
        sim.control.node_ready(node)
    # Capacity is back: the instance converges, the alarm is cleared.
    cnf.until(
        "the automatic-heal alarm cleared",
        lambda: _autoheal_alarm(client, vnf) is None,
        60,
    )
    (shown,) = [
        a
        for a in cnf.alarms(client, vnf.id, open_only=False)
        if a["id"] == alarm["id"]
    ]
    assert shown["perceivedSeverity"] == "CLEARED"
    vnf.run("terminate", {"terminationType": "FORCEFUL"})


def test_instance_held_by_failed_temp_op_gets_host_down_alarms(
    nfvo_autoops, simk8s_factory
):
    dep, client, vnfd_id = nfvo_autoops
    sim = simk8s_factory(*TWO_ZONES)
    vnf = cnf.Cnf(client, vnfd_id, sim)
    vnf.run("instantiate", vnf.instantiate_body("instantiation_level_1"))
    vdu2 = cnf.by_vdu(vnf)["VDU2"]
    node_a = vdu2[0]["metadata"]["nodeName"]
    node_b = vdu2[1]["metadata"]["nodeName"]
    assert node_a != node_b
    # A manual heal of the VDU2 pod of node A, NotReady: Unschedulable.
    sim.control.node_not_ready(node_a)
    manual = vnf.wait(vnf.start("heal", {"vnfcInstanceId": [vdu2[0]["id"]]}))
    try:
        assert manual["operationState"] == "FAILED_TEMP", manual
        assert not manual["isAutomaticInvocation"]
        # Held by it, node B goes NotReady: its VNFCs are alarmed.
        on_b = {
            v["id"] for v in vnf.vnfcs() if v["metadata"]["nodeName"] == node_b
        }
        sim.control.node_not_ready(node_b)

        def host_down() -> set[str]:
            return on_b & {
                a["vnfcInstanceIds"][0]
                for a in cnf.alarms(client, vnf.id)
                if a["faultType"] == "HOST_DOWN"
            }

        cnf.until(
            "HOST_DOWN alarms of node B",
            lambda: host_down() == on_b,
            INTERVAL * 10,
        )
        sim.control.node_ready(node_b)
        cnf.until(
            "node B's alarms cleared",
            lambda: host_down() == set(),
            INTERVAL * 10,
        )
        # The NFVO's own op is left to the NFVO; nothing automatic.
        assert client.occ(manual["id"])["operationState"] == "FAILED_TEMP"
        assert _automatic(client, vnf) == []
    finally:
        sim.control.node_ready(node_a)
        sim.control.node_ready(node_b)
    resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{manual['id']}/fail")
    assert resp.status_code == 200, resp.text
    vnf.run("terminate", {"terminationType": "FORCEFUL"})


def test_failed_autoheal_rolled_back_by_vnfm(nfvo_rollback, simk8s_factory):
    dep, client, vnfd_id = nfvo_rollback
    sim = simk8s_factory(*TWO_ZONES)
    vnf = cnf.Cnf(client, vnfd_id, sim)
    vnf.run("instantiate", vnf.instantiate_body("instantiation_level_1"))
    assert cnf.set_autoheal(vnf, True)["operationState"] == "COMPLETED"
    node = cnf.by_vdu(vnf)["VDU2"][0]["metadata"]["nodeName"]
    sim.control.node_not_ready(node)
    try:
        (first,) = cnf.until(
            "an automatic heal", lambda: _automatic(client, vnf), 15
        )
        # FAILED_TEMP, rolled back by the VNFM (cast to the conductor)
        occ = vnf.wait(first["id"], ("FAILED", "COMPLETED", "ROLLED_BACK"))
        assert occ["operationState"] == "ROLLED_BACK", occ
        alarm = cnf.until(
            "the automatic-heal alarm",
            lambda: _autoheal_alarm(client, vnf),
            10,
        )
        assert first["id"] in alarm["probableCause"]
        assert any(
            "rolled back by the VNFM" in d for d in alarm["faultDetails"]
        )
        # the instance is free
        assert cnf.set_autoheal(vnf, True)["operationState"] == "COMPLETED"
    finally:
        sim.control.node_ready(node)
    cnf.until(
        "the automatic-heal alarm cleared",
        lambda: _autoheal_alarm(client, vnf) is None,
        60,
    )
    vnf.run("terminate", {"terminationType": "FORCEFUL"})
