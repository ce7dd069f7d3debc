"""An NFVO drives every SOL003 operation through real processes.

API (2 workers) and two conductors on RabbitMQ with MariaDB and with
PostgreSQL, the fake VIM driver, a real HTTP receiver for notifications
(with basic auth). Every response body is checked against the SOL003
OpenAPI documents by the client; every op occ must be notified
STARTING -> PROCESSING -> result, in that order.
"""

import time

import pytest

from tacker_ng.tests.functional import lcm_fixtures
from tacker_ng.tests.functional.receiver import Receiver


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def env(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"lcm-{request.param}")
    with (
        Receiver("nfvo", "cb-pass") as receiver,
        lcm_fixtures.lcm_deployment(tmp, request.param) as dep,
    ):
        client = dep.client()
        resp = client.post(
            "/vnflcm/v2/subscriptions",
            {
                "callbackUri": receiver.url,
                "authentication": {
                    "authType": ["BASIC"],
                    "paramsBasic": {
                        "userName": "nfvo",
                        "password": "cb-pass",
                    },
                },
            },
        )
        assert resp.status_code == 201, resp.text
        yield dep, client, receiver


def _notified(receiver, occ_id, final, timeout=20) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = receiver.states(occ_id)
        if states and states[-1] == final:
            return states
        time.sleep(0.1)
    raise AssertionError(
        f"notifications of {occ_id}: {receiver.states(occ_id)}"
    )


def _create(dep, client) -> dict:
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": dep.package["vnfd_id"],
            "vnfInstanceName": "walk",
            "vimConnectionInfo": lcm_fixtures.fake_vim(),
        },
    )
    assert resp.status_code == 201, resp.text
    assert resp.headers["Location"].endswith(resp.json()["id"])
    return resp.json()


def _op(client, receiver, inst_id, task, body) -> dict:
    occ = client.run(inst_id, task, body)
    states = _notified(receiver, occ["id"], "COMPLETED")
    assert states == ["STARTING", "PROCESSING", "COMPLETED"], states
    return occ


def _vdus(client, inst_id) -> list[str]:
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    return sorted(
        v["vduId"] for v in inst["instantiatedVnfInfo"]["vnfcResourceInfo"]
    )


def test_every_operation(env):
    dep, client, receiver = env
    inst = _create(dep, client)
    inst_id = inst["id"]
    assert "vim-secret" not in str(inst)
    _op(client, receiver, inst_id, "instantiate", {"flavourId": "simple"})
    assert _vdus(client, inst_id) == ["VDU1", "VDU2", "VDU2"]
    _op(
        client,
        receiver,
        inst_id,
        "scale",
        {"type": "SCALE_OUT", "aspectId": "VDU1_scale", "numberOfSteps": 2},
    )
    assert _vdus(client, inst_id) == ["VDU1"] * 3 + ["VDU2"] * 2
    _op(
        client,
        receiver,
        inst_id,
        "scale",
        {"type": "SCALE_IN", "aspectId": "VDU1_scale"},
    )
    _op(
        client,
        receiver,
        inst_id,
        "scale_to_level",
        {"instantiationLevelId": "instantiation_level_2"},
    )
    assert _vdus(client, inst_id) == ["VDU1"] * 3 + ["VDU2"] * 4
    info = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()[
        "instantiatedVnfInfo"
    ]
    target = info["vnfcResourceInfo"][0]["id"]
    occ = _op(client, receiver, inst_id, "heal", {"vnfcInstanceId": [target]})
    assert [c["id"] for c in occ["resourceChanges"]["affectedVnfcs"]] == [
        target
    ]
    _op(client, receiver, inst_id, "heal", {"cause": "whole VNF"})
    _op(
        client,
        receiver,
        inst_id,
        "change_flavour",
        {"newFlavourId": "internal_vl"},
    )
    _op(
        client,
        receiver,
        inst_id,
        "change_ext_conn",
        {
            "extVirtualLinks": [
                {
                    "id": "ext",
                    "resourceId": "net-9",
                    "extCps": [{"cpdId": "c"}],
                }
            ]
        },
    )
    resp = client.call(
        "PATCH",
        f"/vnflcm/v2/vnf_instances/{inst_id}",
        json={"vnfInstanceName": "renamed"},
        headers={"Content-Type": "application/merge-patch+json"},
    )
    assert resp.status_code == 202, resp.text
    occ_id = resp.headers["Location"].rsplit("/", 1)[1]
    client.wait(occ_id, ("COMPLETED",))
    assert _notified(receiver, occ_id, "COMPLETED") == [
        "STARTING",
        "PROCESSING",
        "COMPLETED",
    ]
    _op(
        client, receiver, inst_id, "terminate", {"terminationType": "FORCEFUL"}
    )
    resp = client.call("DELETE", f"/vnflcm/v2/vnf_instances/{inst_id}")
    assert resp.status_code == 204
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        kinds = [
            n["notificationType"]
            for n in receiver.notifications
            if n.get("vnfInstanceId") == inst_id
        ]
        if "VnfIdentifierDeletionNotification" in kinds:
            break
        time.sleep(0.1)
    assert kinds[0] == "VnfIdentifierCreationNotification"
    assert kinds[-1] == "VnfIdentifierDeletionNotification"
    listed = client.get("/vnflcm/v2/vnf_lcm_op_occs").json()
    assert {
        o["operation"] for o in listed if o["vnfInstanceId"] == inst_id
    } == set()  # op occs go with their deleted instance


def test_failure_retry_rollback_fail_and_cancel(env):
    dep, client, receiver = env
    fake = {
        "additionalParams": {
            "fake": {"fail_at": "INSTANTIATE", "fail_times": 1}
        }
    }
    inst = _create(dep, client)
    occ_id = client.start(
        inst["id"], "instantiate", {"flavourId": "simple", **fake}
    )
    occ = client.wait(occ_id, ("FAILED_TEMP",))
    assert occ["error"]["status"] == 500
    assert (
        client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/retry").status_code
        == 202
    )
    client.wait(occ_id, ("COMPLETED",))
    assert _notified(receiver, occ_id, "COMPLETED") == [
        "STARTING",
        "PROCESSING",
        "FAILED_TEMP",
        "PROCESSING",
        "COMPLETED",
    ]

    inst = _create(dep, client)
    occ_id = client.start(
        inst["id"],
        "instantiate",
        {
            "flavourId": "simple",
            "additionalParams": {"fake": {"fail_at": "INSTANTIATE"}},
        },
    )
    client.wait(occ_id, ("FAILED_TEMP",))
    conflict = client.post(
        f"/vnflcm/v2/vnf_instances/{inst['id']}/instantiate",
        {"flavourId": "simple"},
    )
    assert conflict.status_code == 409
    assert (
        client.post(
            f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/rollback"
        ).status_code
        == 202
    )
    client.wait(occ_id, ("ROLLED_BACK",))
    assert _notified(receiver, occ_id, "ROLLED_BACK") == [
        "STARTING",
        "PROCESSING",
        "FAILED_TEMP",
        "ROLLING_BACK",
        "ROLLED_BACK",
    ]

    occ_id = client.start(
        inst["id"],
        "instantiate",
        {
            "flavourId": "simple",
            "additionalParams": {"fake": {"fail_at": "INSTANTIATE"}},
        },
    )
    client.wait(occ_id, ("FAILED_TEMP",))
    resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/fail")
    assert resp.status_code == 200
    assert resp.json()["operationState"] == "FAILED"
    assert _notified(receiver, occ_id, "FAILED")[-1] == "FAILED"
    assert (
        client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/retry").status_code
        == 409
    )

    occ_id = client.start(
        inst["id"],
        "instantiate",
        {"flavourId": "simple", "additionalParams": {"fake": {"sleep": 30}}},
    )
    client.wait(occ_id, ("PROCESSING",))
    resp = client.post(
        f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/cancel",
        {"cancelMode": "FORCEFUL"},
    )
    assert resp.status_code == 202
    occ = client.wait(occ_id, ("FAILED_TEMP",), timeout=20)
    assert occ["cancelMode"] == "FORCEFUL"
    assert occ["isCancelPending"] is False


def test_notifications_survive_a_receiver_outage(env):
    dep, client, receiver = env
    receiver.fail_next = 4
    inst = _create(dep, client)
    occ_id = client.start(inst["id"], "instantiate", {"flavourId": "simple"})
    client.wait(occ_id, ("COMPLETED",))
    assert _notified(receiver, occ_id, "COMPLETED", timeout=60) == [
        "STARTING",
        "PROCESSING",
        "COMPLETED",
    ]
    assert receiver.rejected == 4


def test_errors_are_sol003_problem_details(env):
    dep, client, _ = env
    for path, status in (
        ("/vnflcm/v2/vnf_instances/no-such", 404),
        ("/vnflcm/v2/vnf_lcm_op_occs/no-such", 404),
        ("/vnflcm/v2/subscriptions/no-such", 404),
    ):
        resp = client.get(path)
        assert resp.status_code == status
        assert resp.headers["Content-Type"] == "application/problem+json"
    resp = client.post("/vnflcm/v2/vnf_instances", {"vnfdId": 5})
    assert resp.status_code == 400
    resp = client.post(
        "/vnflcm/v2/vnf_instances", {"vnfdId": "nope"}, validate=False
    )
    assert resp.status_code == 422
