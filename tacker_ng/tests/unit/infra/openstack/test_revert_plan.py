"""The VNFC plan of a revert to snapshot that re-scales the VNF.

The grant comes from the real GrantRequest builder and local NFVO: the
VNFCs brought back are placed where the grant says, like a scale out's.
"""

import copy
import dataclasses
import uuid

from tacker_ng.infra import base
from tacker_ng.infra.openstack import info, vnfcs
from tacker_ng.nfvo import grant_request, local
from tacker_ng.objects import lcm
from tacker_ng.objects import vnf_snapshots as rules
from tacker_ng.tests.unit.infra.openstack import test_vnfcs as helpers

Op = lcm.Operation


def _scaled_out(sample, simple):
    """(instance as instantiated, instance after a VDU2 scale out)."""
    instance, _, _ = helpers.instantiated(sample, simple)
    before = copy.deepcopy(instance)
    task = helpers.make_task(
        sample,
        Op.SCALE,
        instance,
        {"type": "SCALE_OUT", "aspectId": "VDU2_scale", "numberOfSteps": 1},
    )
    plan = vnfcs.plan(task, simple)
    for v in plan.added:
        v.server_id = f"server-{v.name}"
    scaled = copy.deepcopy(instance)
    scaled["instantiatedVnfInfo"] = info.instantiated_vnf_info(
        task, simple, plan.after, "vim1"
    )
    return before, scaled


def _revert_task(sample, instance, snapshot, zones=helpers.ZONES):
    occ = str(uuid.uuid4())
    request = {"vnfSnapshotInfoId": "snap-1"}
    body = grant_request.build(
        Op.REVERT_TO_SNAPSHOT,
        sample.vnfd,
        instance,
        occ,
        request,
        "simple",
        snapshot=snapshot,
    )
    existing = {
        v["computeResource"]["resourceId"]: v["zoneId"]
        for v in instance["instantiatedVnfInfo"]["vnfcResourceInfo"]
    }
    grant = local.grant(body, "vim1", zones, existing)
    return base.LcmTask(
        None,
        Op.REVERT_TO_SNAPSHOT,
        occ,
        instance,
        request,
        sample.vnfd,
        sample.root,
        body,
        grant,
        {},
        lambda: None,
        lambda: None,
        vnf_snapshot=snapshot,
    )


def _snapshot(instance, moved_to=None):
    """A VnfSnapshot of ``instance``; its VDU2-2 recorded in ``moved_to``."""
    taken = copy.deepcopy(instance)
    for v in taken["instantiatedVnfInfo"]["vnfcResourceInfo"]:
        if moved_to and v["metadata"]["stackResource"] == "VDU2-2":
            v["zoneId"] = v["metadata"]["zone"] = moved_to
    return {"id": "snap", "vnfInstance": taken}


def test_vnfc_brought_back_goes_to_the_granted_zone(sample, simple):
    before, scaled = _scaled_out(sample, simple)
    snapshot = _snapshot(scaled, moved_to="AZ-gone")
    task = _revert_task(sample, before, snapshot)
    plan = vnfcs.plan(task, simple)
    (back,) = plan.added
    assert back.name == "VDU2-2" and back.id in vnfcs.granted_zones(task.grant)
    granted = vnfcs.granted_zones(task.grant)[back.id]
    assert granted != "AZ-gone"
    assert back.zone == granted and back.server_id is None
    # Only it may move on "No valid host"; nothing else is touched.
    assert plan.movable == {"VDU2-2"}
    assert not plan.removed and not plan.recreate
    kept = {v.id: v for v in vnfcs.existing(before)}
    for v in plan.after:
        if v.id in kept:
            assert (v.zone, v.server_id) == (
                kept[v.id].zone,
                kept[v.id].server_id,
            )
    # The snapshot's order, the brought-back VNFC under its own id.
    then = [
        v["id"]
        for v in snapshot["vnfInstance"]["instantiatedVnfInfo"][
            "vnfcResourceInfo"
        ]
    ]
    assert [v.id for v in plan.after] == then


def test_restored_info_keeps_the_granted_zone_for_later_updates(
    sample, simple
):
    before, scaled = _scaled_out(sample, simple)
    snapshot = _snapshot(scaled, moved_to="AZ-gone")
    task = _revert_task(sample, before, snapshot)
    plan = vnfcs.plan(task, simple)
    (back,) = plan.added
    back.server_id = "server-new"
    restacked = [info.vnfc_resource_info(v, "vim1") for v in plan.after]
    restored = rules.restored_info(snapshot, {"vnfcResourceInfo": restacked})
    vnfcs.keep_stack_metadata(restored, restacked)
    again = {
        v.id: v for v in vnfcs.existing({"instantiatedVnfInfo": restored})
    }
    # The next scale's stack update asks for the zone it runs in.
    assert again[back.id].zone == back.zone != "AZ-gone"
    assert again[back.id].server_id == "server-new"
    # The snapshot itself is left as it was taken.
    (then,) = [
        v
        for v in snapshot["vnfInstance"]["instantiatedVnfInfo"][
            "vnfcResourceInfo"
        ]
        if v["id"] == back.id
    ]
    assert then["metadata"]["zone"] == "AZ-gone"


def test_recorded_zone_when_the_grant_names_none(sample, simple):
    before, scaled = _scaled_out(sample, simple)
    task = _revert_task(sample, before, _snapshot(scaled, "AZ-old"))
    task = dataclasses.replace(task, grant={})
    (back,) = vnfcs.plan(task, simple).added
    assert back.zone == "AZ-old"


def test_revert_to_fewer_vnfcs_removes_the_newer(sample, simple):
    before, scaled = _scaled_out(sample, simple)
    task = _revert_task(sample, scaled, _snapshot(before))
    plan = vnfcs.plan(task, simple)
    assert [v.name for v in plan.removed] == ["VDU2-2"]
    assert not plan.added and not plan.movable
    assert {v.id for v in plan.after} == {
        v["id"] for v in before["instantiatedVnfInfo"]["vnfcResourceInfo"]
    }
    assert task.grant["removeResources"] == [
        {"resourceDefinitionId": plan.removed[0].id}
    ]
