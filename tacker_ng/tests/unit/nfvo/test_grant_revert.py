"""The GrantRequest of a revert to snapshot, and the local NFVO's grant.

A revert re-scales the VNF to the snapshot's VNFC set: the VNFCs it
brings back are added, those made since removed, the others rebuilt in
place (updated).
"""

import copy

import pytest

from tacker_ng.nfvo import grant_request as gr
from tacker_ng.nfvo import local
from tacker_ng.objects.lcm import Operation as Op

REVERT = {"vnfSnapshotInfoId": "snap-1"}


def _vnfc(i, vdu, zone, index):
    return {
        "id": f"c{i}",
        "vduId": vdu,
        "zoneId": zone,
        "computeResource": {"resourceId": f"srv-{i}", "vimConnectionId": "v"},
        "metadata": {"index": index, "zone": zone},
    }


def _instance(*vnfcs):
    return {
        "id": "inst-1",
        "instantiatedVnfInfo": {
            "flavourId": "simple",
            "vnfcResourceInfo": list(vnfcs),
        },
    }


C1, C2, C3 = (
    _vnfc(1, "VDU1", "az-1", 0),
    _vnfc(2, "VDU2", "az-1", 0),
    _vnfc(3, "VDU2", "az-2", 1),
)
#: Taken with a third VDU2 VNFC (c5), since scaled in; VDU1 scaled out
#: since (c4).
SNAPSHOT = {
    "id": "snap",
    "vnfInstanceId": "inst-1",
    "vnfInstance": _instance(C1, C2, C3, _vnfc(5, "VDU2", "az-gone", 2)),
}
NOW = _instance(C1, C2, C3, _vnfc(4, "VDU1", "az-1", 1))


def _build(vnfd, conf, instance=NOW, snapshot=SNAPSHOT):
    conf.set_override("fallback_best_effort", False, group="placement")
    return gr.build(
        Op.REVERT_TO_SNAPSHOT,
        vnfd,
        instance,
        "occ-1",
        REVERT,
        "simple",
        snapshot=snapshot,
    )


def test_revert_adds_the_vnfcs_it_brings_back_and_removes_newer(vnfd, conf):
    body = _build(vnfd, conf)
    assert body["operation"] == "REVERT_TO_SNAPSHOT"
    computes = [d for d in body["addResources"] if d["type"] == "COMPUTE"]
    # The definition id is the VNFC's: it comes back under its own id.
    assert computes == [
        {
            "id": "c5",
            "type": "COMPUTE",
            "vduId": "VDU2",
            "resourceTemplateId": "VDU2",
        }
    ]
    (removed,) = body["removeResources"]
    assert removed["id"] == "c4"
    assert removed["resource"]["resourceId"] == "srv-4"
    # Rebuilt from their images, on the servers they run on.
    assert [d["id"] for d in body["updateResources"]] == ["c1", "c2", "c3"]
    # The VNFC brought back keeps apart from the VDU2 ones that stay.
    (anti,) = body["placementConstraints"]
    refs = {(r["idType"], r["resourceId"]) for r in anti["resource"]}
    assert refs == {
        ("GRANT", "c5"),
        ("RES_MGMT", "srv-2"),
        ("RES_MGMT", "srv-3"),
    }


def test_revert_to_the_same_vnfc_set_adds_and_removes_nothing(vnfd, conf):
    same = copy.deepcopy(SNAPSHOT)
    same["vnfInstance"] = _instance(C1, C2, C3)
    body = _build(vnfd, conf, _instance(C1, C2, C3), same)
    assert "addResources" not in body
    assert "removeResources" not in body
    assert "placementConstraints" not in body
    assert [d["id"] for d in body["updateResources"]] == ["c1", "c2", "c3"]


def test_revert_without_its_snapshot_is_refused(vnfd, conf):
    with pytest.raises(gr.InvalidLcmRequest, match="VnfSnapshot"):
        _build(vnfd, conf, snapshot=None)


def test_local_nfvo_grants_zones_to_what_comes_back(vnfd, conf):
    body = _build(vnfd, conf)
    grant = local.grant(
        body,
        "vim1",
        ["az-1", "az-2", "az-3"],
        {"srv-1": "az-1", "srv-2": "az-1", "srv-3": "az-2", "srv-4": "az-1"},
    )
    zones = {z["id"]: z["zoneId"] for z in grant["zones"]}
    added = {g["resourceDefinitionId"]: g for g in grant["addResources"]}
    # Anti-affinity with c2 (az-1) and c3 (az-2): az-3, not its old zone.
    assert zones[added["c5"]["zoneId"]] == "az-3"
    assert [g["resourceDefinitionId"] for g in grant["removeResources"]] == [
        "c4"
    ]
    # Rebuilt VNFCs are granted where they run.
    updated = {
        g["resourceDefinitionId"]: zones[g["zoneId"]]
        for g in grant["updateResources"]
    }
    assert updated == {"c1": "az-1", "c2": "az-1", "c3": "az-2"}
