"""VNFC plans per operation and the SOL views built from them.

Grants come from the real GrantRequest builder and local NFVO on the
sample VNFD, so the driver is tested against the shapes it will get.
"""

import uuid

import pytest

from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors, info, vnfcs
from tacker_ng.nfvo import grant_request, local
from tacker_ng.objects import lcm

Op = lcm.Operation
ZONES = ["AZ-1", "AZ-2", "AZ-3", "AZ-4", "AZ-5"]
LINKS = [
    {
        "id": "vl1",
        "resourceId": "net-1",
        "extCps": [{"cpdId": "VDU1_CP1"}, {"cpdId": "VDU2_CP1"}],
    }
]


def make_task(sample, op, instance, request):
    flavour = request.get("flavourId") or instance.get(
        "instantiatedVnfInfo", {}
    ).get("flavourId")
    occ = str(uuid.uuid4())
    body = grant_request.build(
        op, sample.vnfd, instance, occ, request, flavour
    )
    existing = {
        v["computeResource"]["resourceId"]: v["zoneId"]
        for v in (instance.get("instantiatedVnfInfo") or {}).get(
            "vnfcResourceInfo", []
        )
    }
    grant = local.grant(body, "vim1", ZONES, existing)
    return base.LcmTask(
        None,
        op,
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
    )


def instantiated(sample, simple):
    instance = {"id": "inst-1"}
    request = {"flavourId": "simple", "extVirtualLinks": LINKS}
    task = make_task(sample, Op.INSTANTIATE, instance, request)
    plan = vnfcs.plan(task, simple)
    for n, v in enumerate(plan.after):
        v.server_id = f"server-{n}"
    instance["instantiatedVnfInfo"] = info.instantiated_vnf_info(
        task, simple, plan.after, "vim1"
    )
    return instance, plan, task


def test_instantiate_plan_takes_zones_flavours_images(sample, simple):
    _, plan, task = instantiated(sample, simple)
    names = {v.name: v for v in plan.after}
    assert set(names) == {"VDU1-0", "VDU2-0", "VDU2-1"}
    assert plan.movable == set(names) and not plan.before
    # The local NFVO: VDU1 first zone; VDU2 anti-affinity, distinct zones.
    assert names["VDU1-0"].zone == "AZ-1"
    assert names["VDU2-0"].zone != names["VDU2-1"].zone
    assert names["VDU1-0"].flavor == "m1.tiny"
    assert names["VDU2-0"].flavor == "m1.small"
    assert names["VDU1-0"].image == "cirros-0.6.2-x86_64-disk"
    # VNFC ids are the grant's resource definition ids.
    ids = {d["id"] for d in task.grant_request["addResources"]}
    assert {v.id for v in plan.after} <= ids


def test_grant_vim_assets_win(sample, simple):
    instance = {"id": "i"}
    task = make_task(sample, Op.INSTANTIATE, instance, {"flavourId": "simple"})
    task.grant["vimAssets"] = {
        "computeResourceFlavours": [
            {"vnfdVirtualComputeDescId": "VDU1", "vimFlavourId": "f-1"}
        ],
        "softwareImages": [
            {"vnfdSoftwareImageId": "VDU1", "vimSoftwareImageId": "i-1"}
        ],
    }
    plan = vnfcs.plan(task, simple)
    vdu1 = next(v for v in plan.after if v.vdu_id == "VDU1")
    assert (vdu1.flavor, vdu1.image) == ("f-1", "i-1")


def test_instantiated_info_records_what_later_operations_need(sample, simple):
    instance, _, _ = instantiated(sample, simple)
    got = instance["instantiatedVnfInfo"]
    assert got["flavourId"] == "simple"
    vdu2 = [v for v in got["vnfcResourceInfo"] if v["vduId"] == "VDU2"]
    assert [v["metadata"]["stackResource"] for v in vdu2] == [
        "VDU2-0",
        "VDU2-1",
    ]
    assert vdu2[0]["computeResource"] == {
        "vimConnectionId": "vim1",
        "resourceId": vdu2[0]["computeResource"]["resourceId"],
        "vimLevelResourceType": "OS::Nova::Server",
    }
    assert vdu2[0]["zoneId"] == vdu2[0]["metadata"]["zone"]
    assert got["scaleStatus"] == [
        {"aspectId": "VDU1_scale", "scaleLevel": 0},
        {"aspectId": "VDU2_scale", "scaleLevel": 0},
    ]
    assert got["extVirtualLinkInfo"][0]["resourceHandle"]["resourceId"] == (
        "net-1"
    )
    # Round trip: the instance's VNFCs read back the same.
    back = {v.name: v for v in vnfcs.existing(instance)}
    assert back["VDU2-1"].index == 1 and back["VDU2-1"].flavor == "m1.small"


def test_scale_out_adds_next_indices_only_new_ones_move(sample, simple):
    instance, _, _ = instantiated(sample, simple)
    task = make_task(
        sample,
        Op.SCALE,
        instance,
        {"type": "SCALE_OUT", "aspectId": "VDU2_scale", "numberOfSteps": 2},
    )
    plan = vnfcs.plan(task, simple)
    assert [v.name for v in plan.added] == ["VDU2-2", "VDU2-3"]
    assert plan.movable == {"VDU2-2", "VDU2-3"}
    assert len(plan.after) == 5 and not plan.removed
    # Networks come from the instance when the request has none.
    assert info.cp_networks(task) == {"VDU1_CP1": "net-1", "VDU2_CP1": "net-1"}
    changes = info.resource_changes(plan, "vim1")["affectedVnfcs"]
    assert [c["changeType"] for c in changes] == ["ADDED", "ADDED"]
    assert changes[0]["resourceDefinitionId"] == changes[0]["id"]


def test_scale_in_removes_the_newest_and_frees_the_index(sample, simple):
    instance, _, _ = instantiated(sample, simple)
    out = make_task(
        sample,
        Op.SCALE,
        instance,
        {"type": "SCALE_OUT", "aspectId": "VDU2_scale"},
    )
    plan = vnfcs.plan(out, simple)
    instance["instantiatedVnfInfo"] = info.instantiated_vnf_info(
        out, simple, plan.after, "vim1"
    )
    task = make_task(
        sample,
        Op.SCALE,
        instance,
        {"type": "SCALE_IN", "aspectId": "VDU2_scale"},
    )
    plan = vnfcs.plan(task, simple)
    assert [v.name for v in plan.removed] == ["VDU2-2"]
    assert sorted(v.name for v in plan.after) == ["VDU1-0", "VDU2-0", "VDU2-1"]
    assert not plan.movable
    changes = info.resource_changes(plan, "vim1")["affectedVnfcs"]
    assert [(c["changeType"], c["vduId"]) for c in changes] == [
        ("REMOVED", "VDU2")
    ]


def test_scale_out_fills_a_gap_in_indices(sample, simple):
    keep = [vnfcs.Vnfc("a", "VDU2", 1, "AZ-1", "f", "i")]
    task = make_task(
        sample, Op.INSTANTIATE, {"id": "x"}, {"flavourId": "simple"}
    )
    added = vnfcs.new_vnfcs(task, simple, keep)
    assert [v.name for v in added if v.vdu_id == "VDU2"] == [
        "VDU2-0",
        "VDU2-2",
    ]


def test_heal_targets_move_and_are_recreated(sample, simple):
    instance, _, _ = instantiated(sample, simple)
    target = next(
        v
        for v in instance["instantiatedVnfInfo"]["vnfcResourceInfo"]
        if v["metadata"]["stackResource"] == "VDU2-0"
    )
    task = make_task(
        sample, Op.HEAL, instance, {"vnfcInstanceId": [target["id"]]}
    )
    plan = vnfcs.plan(task, simple)
    assert plan.movable == plan.recreate == {"VDU2-0"}
    assert [v.zone for v in plan.after] == [v.zone for v in plan.before]
    changes = info.resource_changes(plan, "vim1")["affectedVnfcs"]
    assert [(c["changeType"], c["id"]) for c in changes] == [
        ("MODIFIED", target["id"])
    ]


def test_heal_whole_vnf_recreates_everything(sample, simple):
    instance, _, _ = instantiated(sample, simple)
    task = make_task(sample, Op.HEAL, instance, {})
    plan = vnfcs.plan(task, simple)
    assert plan.recreate == {"VDU1-0", "VDU2-0", "VDU2-1"}


def test_heal_with_the_stack_gone_recreates_every_vnfc(sample, simple):
    """A VNFC heal when the stack was deleted behind the VNFM's back: a
    new stack holds every VNFC the instance records (ids, indices,
    flavours, images, zones; the healed one's granted zone), all new
    servers that may move, reported MODIFIED once their servers are read."""
    instance, _, _ = instantiated(sample, simple)
    records = instance["instantiatedVnfInfo"]["vnfcResourceInfo"]
    target = next(
        v for v in records if v["metadata"]["stackResource"] == "VDU2-0"
    )
    task = make_task(
        sample, Op.HEAL, instance, {"vnfcInstanceId": [target["id"]]}
    )
    plan = vnfcs.anew(vnfcs.plan(task, simple))
    names = {"VDU1-0", "VDU2-0", "VDU2-1"}
    assert plan.movable == plan.recreate == names
    assert plan.removed == [] and plan.added == []
    assert [(v.id, v.name, v.zone, v.flavor, v.image) for v in plan.after] == [
        (v.id, v.name, v.zone, v.flavor, v.image) for v in plan.before
    ]
    assert all(v.server_id is None and v.volumes == {} for v in plan.after)
    assert all(v.server_id for v in plan.before)  # the record is kept
    for n, v in enumerate(plan.after):
        v.server_id = f"new-server-{n}"
    changes = info.resource_changes(plan, "vim1")["affectedVnfcs"]
    assert sorted((c["changeType"], c["id"]) for c in changes) == sorted(
        ("MODIFIED", v["id"]) for v in records
    )


def test_change_flavour_replaces_every_vnfc(sample, simple):
    instance, _, _ = instantiated(sample, simple)
    task = make_task(
        sample,
        Op.CHANGE_FLAVOUR,
        instance,
        {"newFlavourId": "internal_vl", "flavourId": "internal_vl"},
    )
    flavour = sample.vnfd.flavour("internal_vl")
    plan = vnfcs.plan(task, flavour)
    assert plan.flavour_id == "internal_vl"
    assert len(plan.removed) == 3 and len(plan.after) == 3
    assert plan.recreate == {"VDU1-0", "VDU2-0", "VDU2-1"}
    kinds = [
        c["changeType"]
        for c in info.resource_changes(plan, "vim1")["affectedVnfcs"]
    ]
    assert sorted(kinds) == ["ADDED"] * 3 + ["REMOVED"] * 3


def test_terminate_plan_removes_everything(sample, simple):
    instance, _, _ = instantiated(sample, simple)
    task = make_task(sample, Op.TERMINATE, instance, {})
    plan = vnfcs.plan(task, simple)
    assert not plan.after and len(plan.removed) == 3


def test_unknown_operation_is_unsupported(sample, simple):
    instance, _, _ = instantiated(sample, simple)
    task = make_task(sample, Op.CHANGE_EXT_CONN, instance, {})
    with pytest.raises(base.OperationNotSupported):
        vnfcs.plan(task, simple)


def test_no_flavour_anywhere_is_a_422(sample, simple):
    task = make_task(
        sample, Op.INSTANTIATE, {"id": "i"}, {"flavourId": "simple"}
    )
    bare = simple.vdus["VDU1"].__class__(
        **{
            **simple.vdus["VDU1"].__dict__,
            "virtual_compute": None,
            "sw_image_data": None,
        }
    )
    flavour = simple.__class__(**{**simple.__dict__, "vdus": {"VDU1": bare}})
    with pytest.raises(errors.UnsupportedPackage, match="VIM flavour"):
        vnfcs.flavor_for(flavour, "VDU1", task.grant)
    with pytest.raises(errors.UnsupportedPackage, match="image"):
        vnfcs.image_for(flavour, "VDU1", task.grant)


def test_granted_zones_maps_definitions_to_zone_names():
    grant = {
        "zones": [{"id": "z1", "zoneId": "AZ-3"}],
        "addResources": [
            {"resourceDefinitionId": "a", "zoneId": "z1"},
            {"resourceDefinitionId": "b"},
        ],
        "updateResources": [{"resourceDefinitionId": "c", "zoneId": "z1"}],
    }
    assert vnfcs.granted_zones(grant) == {"a": "AZ-3", "c": "AZ-3"}


def test_reserved_vnfcs_take_the_reservations_flavour_and_server_group(
    sample, simple
):
    instance = {"id": "inst-r"}
    request = {"flavourId": "simple", "extVirtualLinks": LINKS}
    task = make_task(sample, Op.INSTANTIATE, instance, request)
    local.apply_reservation(
        task.grant,
        task.grant_request,
        {
            "reservationId": "rsv-1",
            "flavour_id": "flavor-rsv",
            "server_group_id": "sg-1",
        },
        "vim1",
    )
    plan = vnfcs.plan(task, simple)
    assert {v.flavor for v in plan.after} == {"flavor-rsv"}
    assert {v.server_group for v in plan.after} == {"sg-1"}
    assert vnfcs.reserved_zones(task.grant) == sorted(
        {z["zoneId"] for z in task.grant["zones"]}
    )
    # Recorded in vnfcResourceInfo, so heal and rollback keep the group.
    for n, v in enumerate(plan.after):
        v.server_id = f"server-{n}"
    instance["instantiatedVnfInfo"] = info.instantiated_vnf_info(
        task, simple, plan.after, "vim1"
    )
    again = vnfcs.existing(instance)
    assert {v.server_group for v in again} == {"sg-1"}
    assert {v.flavor for v in again} == {"flavor-rsv"}


def test_no_reservation_no_server_group(sample, simple):
    _, plan, task = instantiated(sample, simple)
    assert {v.server_group for v in plan.after} == {None}
    assert vnfcs.reserved_zones(task.grant) is None
    assert all(
        "serverGroupId" not in v["metadata"]
        for v in info.instantiated_vnf_info(task, simple, plan.after, "vim1")[
            "vnfcResourceInfo"
        ]
    )
