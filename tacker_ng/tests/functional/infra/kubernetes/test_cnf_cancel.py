"""A FORCEFUL cancel stops the driver while it waits for pods.

The deployment waits up to 120 s for an unschedulable pod (the 4th vdu2
pod with required zone anti-affinity on 3 zones); the NFVO cancels the
instantiate meanwhile: the op occ is FAILED_TEMP (Cancelled) at once and
its rollback deletes what was created.
"""

from __future__ import annotations

import time

import pytest

from tacker_ng.tests.functional.infra.kubernetes import cnf


@pytest.fixture(scope="module")
def patient(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cnf-cancel")
    with cnf.nfvo("mariadb", tmp, unschedulable_timeout=120) as got:
        yield got


def test_forceful_cancel_while_waiting_then_rollback(patient, simk8s):
    dep, client, vnfd_id = patient
    vnf = cnf.Cnf(client, vnfd_id, simk8s)
    occ_id = vnf.start(
        "instantiate", vnf.instantiate_body("instantiation_level_3")
    )
    deadline = time.monotonic() + 30
    while len(vnf.pods()) < 4:  # the driver is now waiting
        assert time.monotonic() < deadline, "pods never created"
        time.sleep(0.2)
    started = time.monotonic()
    resp = client.post(
        f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/cancel",
        {"cancelMode": "FORCEFUL"},
    )
    assert resp.status_code == 202, resp.text
    occ = vnf.wait(occ_id, ("FAILED_TEMP", "COMPLETED"))
    assert occ["operationState"] == "FAILED_TEMP"
    assert occ["error"]["title"] == "Cancelled", occ["error"]
    assert time.monotonic() - started < 20
    resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/rollback")
    assert resp.status_code == 202, resp.text
    occ = vnf.wait(occ_id, ("ROLLED_BACK", "FAILED_TEMP"))
    assert occ["operationState"] == "ROLLED_BACK", occ.get("error")
    assert not vnf.namespace_exists()
