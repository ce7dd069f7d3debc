"""GrantRequest building from the sample VNFD, and the local NFVO."""

import pytest

from tacker_ng.nfvo import grant_request as gr
from tacker_ng.nfvo import local
from tacker_ng.objects.lcm import Operation as Op


def _vnfc(i, vdu, zone, index):
    return {
        "id": f"c{i}",
        "vduId": vdu,
        "zoneId": zone,
        "computeResource": {
            "resourceId": f"srv-{i}",
            "vimConnectionId": "vim1",
        },
        "metadata": {"index": index},
    }


INSTANCE = {
    "id": "inst-1",
    "instantiatedVnfInfo": {
        "flavourId": "simple",
        "vnfcResourceInfo": [
            _vnfc(1, "VDU1", "az-1", 0),
            _vnfc(2, "VDU2", "az-1", 0),
            _vnfc(3, "VDU2", "az-2", 1),
        ],
    },
}


def _build(vnfd, op, request, instance=None, fallback=False, conf=None):
    conf.set_override("fallback_best_effort", fallback, group="placement")
    return gr.build(
        op,
        vnfd,
        instance or {"id": "inst-1"},
        "occ-1",
        request,
        request.get("flavourId", "simple"),
    )


def test_instantiate(vnfd, conf):
    body = _build(vnfd, Op.INSTANTIATE, {"flavourId": "simple"}, conf=conf)
    assert body["operation"] == "INSTANTIATE"
    assert body["vnfdId"] == vnfd.descriptor_id
    computes = [d for d in body["addResources"] if d["type"] == "COMPUTE"]
    assert sorted(d["vduId"] for d in computes) == ["VDU1", "VDU2", "VDU2"]
    kinds = {
        c["affinityOrAntiAffinity"]: c for c in body["placementConstraints"]
    }
    # VDU1 has one VNFC: a constraint needs two resources (SOL003).
    assert set(kinds) == {"ANTI_AFFINITY"}
    assert kinds["ANTI_AFFINITY"]["scope"] == "ZONE"
    assert len(kinds["ANTI_AFFINITY"]["resource"]) == 2
    assert all(
        c["fallbackBestEffort"] is False for c in body["placementConstraints"]
    )
    assert "removeResources" not in body


def test_fallback_best_effort_from_config(vnfd, conf):
    body = _build(
        vnfd, Op.INSTANTIATE, {"flavourId": "simple"}, fallback=True, conf=conf
    )
    assert all(
        c["fallbackBestEffort"] is True for c in body["placementConstraints"]
    )


def test_scale_out_names_existing_peers(vnfd, conf):
    body = _build(
        vnfd,
        Op.SCALE,
        {"type": "SCALE_OUT", "aspectId": "VDU2_scale", "numberOfSteps": 1},
        INSTANCE,
        conf=conf,
    )
    (new,) = [d for d in body["addResources"] if d["type"] == "COMPUTE"]
    assert new["vduId"] == "VDU2"
    (anti,) = body["placementConstraints"]
    refs = {(r["idType"], r["resourceId"]) for r in anti["resource"]}
    assert refs == {
        ("GRANT", new["id"]),
        ("RES_MGMT", "srv-2"),
        ("RES_MGMT", "srv-3"),
    }


def test_scale_in_removes_the_newest(vnfd, conf):
    body = _build(
        vnfd,
        Op.SCALE,
        {"type": "SCALE_IN", "aspectId": "VDU2_scale", "numberOfSteps": 1},
        {
            **INSTANCE,
            "instantiatedVnfInfo": {
                **INSTANCE["instantiatedVnfInfo"],
                "vnfcResourceInfo": INSTANCE["instantiatedVnfInfo"][
                    "vnfcResourceInfo"
                ]
                + [_vnfc(4, "VDU2", "az-3", 2)],
            },
        },
        conf=conf,
    )
    assert [d["id"] for d in body["removeResources"]] == ["c4"]


def test_heal_updates_targets(vnfd, conf):
    body = _build(
        vnfd, Op.HEAL, {"vnfcInstanceId": ["c3"]}, INSTANCE, conf=conf
    )
    assert [d["id"] for d in body["updateResources"]] == ["c3"]
    (anti,) = body["placementConstraints"]
    assert {
        "idType": "RES_MGMT",
        "resourceId": "srv-2",
        "vimConnectionId": "vim1",
    } in anti["resource"]


def test_terminate_removes_everything(vnfd, conf):
    body = _build(vnfd, Op.TERMINATE, {}, INSTANCE, conf=conf)
    assert sorted(d["id"] for d in body["removeResources"]) == [
        "c1",
        "c2",
        "c3",
    ]


@pytest.mark.parametrize(
    "request_body",
    [
        {"type": "SCALE_OUT", "aspectId": "VDU1_scale", "numberOfSteps": 3},
        {"type": "SCALE_IN", "aspectId": "VDU1_scale", "numberOfSteps": 1},
        {"type": "SCALE_OUT", "aspectId": "nope", "numberOfSteps": 1},
    ],
)
def test_invalid_scale(vnfd, conf, request_body):
    with pytest.raises(gr.InvalidLcmRequest):
        _build(vnfd, Op.SCALE, request_body, INSTANCE, conf=conf)


def test_local_grant_zones_and_references(vnfd, conf):
    body = _build(
        vnfd,
        Op.SCALE,
        {"type": "SCALE_OUT", "aspectId": "VDU2_scale", "numberOfSteps": 1},
        INSTANCE,
        conf=conf,
    )
    grant = local.grant(
        body,
        "vim1",
        ["az-1", "az-2", "az-3"],
        {"srv-1": "az-1", "srv-2": "az-1", "srv-3": "az-2"},
    )
    zones = {z["id"]: z["zoneId"] for z in grant["zones"]}
    (added,) = [
        g
        for g in grant["addResources"]
        if g["resourceDefinitionId"]
        in {d["id"] for d in body["addResources"] if d["type"] == "COMPUTE"}
    ]
    # GrantInfo.zoneId references ZoneInfo.id; the VIM zone is az-3.
    assert zones[added["zoneId"]] == "az-3"
    assert added["vimConnectionId"] == "vim1"


def test_local_grant_rejects_impossible_strict_placement(vnfd, conf):
    body = _build(vnfd, Op.INSTANTIATE, {"flavourId": "simple"}, conf=conf)
    with pytest.raises(local.GrantRejected):
        local.grant(body, "vim1", ["az-1"], {})


def test_affinity_constraint_with_several_members(vnfd, conf):
    body = _build(
        vnfd,
        Op.INSTANTIATE,
        {
            "flavourId": "simple",
            "instantiationLevelId": "instantiation_level_2",
        },
        conf=conf,
    )
    kinds = {
        c["affinityOrAntiAffinity"]: c for c in body["placementConstraints"]
    }
    assert kinds["AFFINITY"]["scope"] == "ZONE"
    assert len(kinds["AFFINITY"]["resource"]) == 3


def test_reservation_in_the_grant(vnfd, conf):
    body = _build(vnfd, Op.INSTANTIATE, {"flavourId": "simple"}, conf=conf)
    grant = local.grant(body, "vim1", ["AZ-1", "AZ-2"], {})
    reservation = {
        "reservationId": "rsv-1",
        "flavour_id": "flavor-reserved",
        "server_group_id": "sg-1",
        "hosts": ["cmp-1", "cmp-2"],
        "zones": ["AZ-2"],
    }
    local.apply_reservation(grant, body, reservation, "vim1")
    computes = {
        d["id"] for d in body["addResources"] if d["type"] == "COMPUTE"
    }
    granted = [
        g
        for g in grant["addResources"]
        if g["resourceDefinitionId"] in computes
    ]
    assert {g["reservationId"] for g in granted} == {"rsv-1"}
    assert grant["vimAssets"]["computeResourceFlavours"] == [
        {
            "vnfdVirtualComputeDescId": "VDU1",
            "vimFlavourId": "flavor-reserved",
            "vimConnectionId": "vim1",
        },
        {
            "vnfdVirtualComputeDescId": "VDU2",
            "vimFlavourId": "flavor-reserved",
            "vimConnectionId": "vim1",
        },
    ]
    assert grant["additionalParams"]["reservation"]["serverGroupId"] == "sg-1"


def test_reservation_id_from_additional_params():
    from tacker_ng.conductor.operations import granting

    assert granting.reservation_of({}) is None
    assert (
        granting.reservation_of({"additionalParams": {"reservationId": "r"}})
        == "r"
    )
    assert (
        granting.reservation_of({"additionalParams": {"reservation_id": "r2"}})
        == "r2"
    )
