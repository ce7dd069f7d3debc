"""Operate (SOL003 5.4.10): API checks, the conductor path, vnfcInfo."""

import types

import pytest

from tacker_ng.infra import base
from tacker_ng.objects import lcm as lcm_objects
from tacker_ng.objects import vnfc_info


def _instantiated(lcm) -> tuple[dict, list[dict]]:
    inst = lcm.create()
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    got = lcm.instance(inst["id"])
    return got, got["instantiatedVnfInfo"]["vnfcResourceInfo"]


def test_stop_one_vnfc_then_start_all(lcm):
    inst, vnfcs = _instantiated(lcm)
    info = inst["instantiatedVnfInfo"]
    # Instantiate already reports every VNFC STARTED in vnfcInfo.
    assert {c["id"]: c["vnfcState"] for c in info["vnfcInfo"]} == {
        v["id"]: "STARTED" for v in vnfcs
    }
    first = vnfcs[0]["id"]
    occ = lcm.run(
        inst["id"],
        "operate",
        {
            "changeStateTo": "STOPPED",
            "vnfcInstanceId": [first],
            "stopType": "GRACEFUL",
            "gracefulStopTimeout": 5,
        },
    )
    assert occ["operation"] == "OPERATE"
    assert [a["id"] for a in occ["resourceChanges"]["affectedVnfcs"]] == [
        first
    ]
    states = {
        c["id"]: c["vnfcState"]
        for c in lcm.instance(inst["id"])["instantiatedVnfInfo"]["vnfcInfo"]
    }
    assert states[first] == "STOPPED"
    assert all(s == "STARTED" for k, s in states.items() if k != first)
    lcm.run(inst["id"], "operate", {"changeStateTo": "STARTED"})
    after = lcm.instance(inst["id"])["instantiatedVnfInfo"]["vnfcInfo"]
    assert {c["vnfcState"] for c in after} == {"STARTED"}


def test_bad_operate_requests(lcm):
    inst, vnfcs = _instantiated(lcm)
    for body in (
        {},
        {"changeStateTo": "PAUSED"},
        {"changeStateTo": "STARTED", "stopType": "FORCEFUL"},
        {"changeStateTo": "STOPPED", "gracefulStopTimeout": 3},
        {
            "changeStateTo": "STOPPED",
            "stopType": "FORCEFUL",
            "gracefulStopTimeout": 3,
        },
    ):
        lcm.task(inst["id"], "operate", body, status=400)
    resp = lcm.task(
        inst["id"],
        "operate",
        {"changeStateTo": "STOPPED", "vnfcInstanceId": ["no-such-vnfc"]},
        status=422,
    )
    assert "no-such-vnfc" in resp.json["detail"]


def test_operate_on_not_instantiated_is_409(lcm):
    inst = lcm.create()
    lcm.task(inst["id"], "operate", {"changeStateTo": "STARTED"}, status=409)


class _Minimal(base.InfraDriver):
    name = "minimal"

    def instantiate(self, task):
        return base.LcmResult()

    def terminate(self, task):
        return base.LcmResult()

    def rollback(self, task):
        return base.LcmResult()


def test_supports_says_which_operations_a_driver_implements():
    driver = _Minimal()
    assert driver.supports(lcm_objects.Operation.INSTANTIATE)
    assert not driver.supports(lcm_objects.Operation.OPERATE)
    assert not driver.supports(lcm_objects.Operation.HEAL)
    with pytest.raises(base.OperationNotSupported):
        driver.operate(
            types.SimpleNamespace(operation="OPERATE")  # type: ignore[arg-type]
        )


def test_vnfc_info_keeps_states_and_follows_the_vnfcs():
    previous = {
        "vnfcResourceInfo": [{"id": "a", "vduId": "VDU1"}],
        "vnfcInfo": [
            {
                "id": "a",
                "vduId": "VDU1",
                "vnfcResourceInfoId": "a",
                "vnfcState": "STOPPED",
            }
        ],
    }
    info = {
        "vnfcResourceInfo": [
            {"id": "a", "vduId": "VDU1"},
            {"id": "b", "vduId": "VDU2"},
        ]
    }
    out = vnfc_info.with_vnfc_info(info, previous)
    assert [(c["id"], c["vnfcState"]) for c in out["vnfcInfo"]] == [
        ("a", "STOPPED"),
        ("b", "STARTED"),
    ]
    assert out["vnfcInfo"][1]["vnfcResourceInfoId"] == "b"
    again = vnfc_info.with_vnfc_info(dict(info), out, {"b": "STOPPED"})
    assert {c["vnfcState"] for c in again["vnfcInfo"]} == {"STOPPED"}
    assert [v["id"] for v in vnfc_info.targets(info, None)] == ["a", "b"]
    assert [v["id"] for v in vnfc_info.targets(info, ["b"])] == ["b"]
    with pytest.raises(KeyError):
        vnfc_info.targets(info, ["c"])
