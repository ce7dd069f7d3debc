"""A broken zone anti-affinity rule is visible: VNFC and affected VNFC
metadata, and one WARNING FM alarm per VNF raised, changed and cleared
with the operations that break and restore the rule (fake VIM with two
zones, local NFVO with fallbackBestEffort: the third VDU2 VNFC has to
share a zone with a peer)."""

import copy

import pytest
import sqlalchemy as sa

from tacker_ng import context as tcontext
from tacker_ng.convergence import converge
from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.placement.rule_check import METADATA_KEY
from tacker_ng.tests.unit.lcm.conftest import FAKE_VIM

FM = {"Version": "1.3.0"}
OUT = {"type": "SCALE_OUT", "aspectId": "VDU2_scale"}
IN = {"type": "SCALE_IN", "aspectId": "VDU2_scale"}


@pytest.fixture
def two_zones(lcm, conf):
    conf.set_override("fallback_best_effort", True, group="placement")
    vim = copy.deepcopy(FAKE_VIM)
    vim["vim1"]["extra"]["zones"] = ["zone-a", "zone-b"]
    inst = lcm.create(vimConnectionInfo=vim)
    resp = lcm.app.post_json(
        "/vnffm/v1/subscriptions",
        {"callbackUri": "http://127.0.0.1:9/fm"},
        headers=FM,
    )
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    return inst["id"], resp.json["id"]


def _vnfcs(lcm, inst_id) -> dict[str, dict]:
    info = lcm.instance(inst_id)["instantiatedVnfInfo"]
    return {v["id"]: v for v in info["vnfcResourceInfo"]}


def _alarms(lcm) -> list[dict]:
    return lcm.app.get("/vnffm/v1/alarms", headers=FM).json


def _notifications(sub_id) -> list[dict]:
    with db_api.reader() as session:
        return list(
            session.execute(
                sa.select(models.LcmNotification.payload)
                .where(models.LcmNotification.subscription_id == sub_id)
                .order_by(models.LcmNotification.id)
            ).scalars()
        )


def _broken(vnfcs: dict[str, dict]) -> dict[str, dict]:
    return {
        i: v["metadata"][METADATA_KEY]
        for i, v in vnfcs.items()
        if METADATA_KEY in (v.get("metadata") or {})
    }


def test_break_raises_change_and_restore_clears(lcm, two_zones):
    inst_id, sub_id = two_zones
    assert _broken(_vnfcs(lcm, inst_id)) == {}
    assert _alarms(lcm) == []

    # Third VDU2 VNFC: two zones only, it joins a peer.
    occ = lcm.run(inst_id, "scale", OUT)
    vnfcs = _vnfcs(lcm, inst_id)
    (added,) = occ["resourceChanges"]["affectedVnfcs"]
    broken = _broken(vnfcs)
    assert added["id"] in broken
    assert added["metadata"][METADATA_KEY] == broken[added["id"]]
    zone = vnfcs[added["id"]]["zoneId"]
    (peer,) = broken[added["id"]]["peerVnfcIds"]
    assert vnfcs[peer]["zoneId"] == zone
    assert set(broken) == {added["id"], peer}
    assert broken[peer] == {
        "zoneId": zone,
        "peerVnfcIds": [added["id"]],
        "rules": ["policy_antiaffinity_vdu2"],
    }
    (alarm,) = _alarms(lcm)
    assert alarm["perceivedSeverity"] == "WARNING"
    assert alarm["eventType"] == "QOS_ALARM"
    assert alarm["faultType"] == "ANTI_AFFINITY_BROKEN"
    assert alarm["managedObjectId"] == inst_id
    assert alarm["vnfcInstanceIds"] == sorted(broken)
    assert alarm["rootCauseFaultyResource"] == {
        "faultyResource": vnfcs[added["id"]]["computeResource"],
        "faultyResourceType": "COMPUTE",
    }
    assert any(occ["id"] in d for d in alarm["faultDetails"])
    assert any(f"zone {zone}" in d for d in alarm["faultDetails"])

    # Fourth: every VDU2 VNFC now breaks it; the same alarm, changed.
    lcm.run(inst_id, "scale", OUT)
    broken = _broken(_vnfcs(lcm, inst_id))
    assert len(broken) == 4
    (changed,) = _alarms(lcm)
    assert changed["id"] == alarm["id"]
    assert changed["vnfcInstanceIds"] == sorted(broken)
    assert "alarmChangedTime" in changed

    # An operation that changes no placement changes nothing.
    lcm.run(inst_id, "operate", {"changeStateTo": "STARTED"})
    assert _alarms(lcm) == [changed]

    # Back to two VDU2 VNFCs, in their two zones: the rule holds again.
    lcm.run(inst_id, "scale", IN)
    lcm.run(inst_id, "scale", IN)
    assert _broken(_vnfcs(lcm, inst_id)) == {}
    (cleared,) = _alarms(lcm)
    assert cleared["id"] == alarm["id"]
    assert cleared["perceivedSeverity"] == "CLEARED"
    assert "alarmClearedTime" in cleared

    kinds = [
        (n["notificationType"], n.get("alarm", {}).get("id") or n["alarmId"])
        for n in _notifications(sub_id)
    ]
    assert kinds == [
        ("AlarmNotification", alarm["id"]),
        ("AlarmNotification", alarm["id"]),
        ("AlarmNotification", alarm["id"]),
        ("AlarmClearedNotification", alarm["id"]),
    ]


def test_terminate_clears(lcm, two_zones):
    inst_id, sub_id = two_zones
    lcm.run(inst_id, "scale", OUT)
    (alarm,) = _alarms(lcm)
    lcm.run(inst_id, "terminate", {"terminationType": "FORCEFUL"})
    (cleared,) = _alarms(lcm)
    assert cleared["perceivedSeverity"] == "CLEARED"
    types = [n["notificationType"] for n in _notifications(sub_id)]
    assert types == ["AlarmNotification", "AlarmClearedNotification"]


def test_convergence_leaves_the_alarm_alone(lcm, two_zones):
    """The observer clears alarms of VNFCs that stopped drifting; the
    anti-affinity alarm is no drift and stays open."""
    inst_id, _ = two_zones
    lcm.run(inst_id, "scale", OUT)
    with db_api.reader() as session:
        instance = (
            session.execute(
                sa.select(models.VnfInstance.__table__).where(
                    models.VnfInstance.id == inst_id
                )
            )
            .mappings()
            .one()
        )
    out = converge.Converger(
        tcontext.get_admin_context(), lambda *a: None
    ).converge(instance, [], stack_known=True)
    assert out.cleared == []
    (alarm,) = _alarms(lcm)
    assert alarm["perceivedSeverity"] == "WARNING"
