"""The pure rules of VNF snapshots: compose, view, revert checks."""

import copy

import pytest

from tacker_ng import crypto
from tacker_ng.objects import vnf_snapshots as rules

BASE = "http://vnfm"


def _vnfc(vnfc_id: str, server: str, zone: str = "AZ-1") -> dict:
    return {
        "id": vnfc_id,
        "vduId": "VDU1",
        "zoneId": zone,
        "computeResource": {"vimConnectionId": "vim1", "resourceId": server},
    }


INFO = {
    "flavourId": "simple",
    "vnfState": "STARTED",
    "vnfcResourceInfo": [_vnfc("c1", "s1"), _vnfc("c2", "s2")],
    "vnfcInfo": [
        {
            "id": "c1",
            "vduId": "VDU1",
            "vnfcResourceInfoId": "c1",
            "vnfcState": "STARTED",
        },
        {
            "id": "c2",
            "vduId": "VDU1",
            "vnfcResourceInfoId": "c2",
            "vnfcState": "STARTED",
        },
    ],
}


@pytest.fixture
def instance(conf):
    crypto.forget_keys()
    yield {
        "id": "inst-1",
        "vnfd_id": "vnfd-1",
        "vnf_provider": "p",
        "vnf_product_name": "n",
        "vnf_software_version": "1",
        "vnfd_version": "1",
        "instantiation_state": "INSTANTIATED",
        "instantiated_vnf_info": copy.deepcopy(INFO),
        "vim_connection_info": crypto.seal(
            {
                "vim1": {
                    "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
                    "accessInfo": {"username": "u", "password": "pw-1"},
                }
            }
        ),
    }
    crypto.forget_keys()


def _taken() -> dict:
    return {
        "vnfcSnapshots": [
            {
                "id": c,
                "vnfcInstanceId": c,
                "vnfcResourceInfoId": c,
                "computeSnapshotResource": {"resourceId": f"img-{c}"},
            }
            for c in ("c1", "c2")
        ],
        "creationStartedAt": "2026-11-25T00:00:00Z",
        "creationFinishedAt": "2026-11-25T00:00:09Z",
    }


def test_compose_keeps_the_instance_sealed_and_view_masks(instance):
    body = rules.compose(
        BASE, instance, "occ-1", _taken(), {"userDefinedData": {"a": 1}}
    )
    assert body["id"] == rules.snapshot_id("occ-1")  # stable on retry
    assert body["id"] != rules.snapshot_id("occ-2")
    assert body["vnfInstanceId"] == "inst-1"
    assert body["vnfInstance"]["instantiatedVnfInfo"] == INFO
    assert "_links" not in body["vnfInstance"]
    password = body["vnfInstance"]["vimConnectionInfo"]["vim1"]["accessInfo"][
        "password"
    ]
    assert password.startswith("fernet:")  # the conductor can delete later
    assert body["userDefinedData"] == {"a": 1}
    view = rules.view(
        BASE,
        {"id": "snap-1", "vnf_snapshot": body, "vnf_snapshot_pkg_id": None},
    )
    assert "password" not in repr(view) and "pw-1" not in repr(view)
    assert view["_links"] == {
        "self": {"href": f"{BASE}/vnflcm/v2/vnf_snapshots/snap-1"},
        "takenFrom": {"href": f"{BASE}/vnflcm/v2/vnf_instances/inst-1"},
    }


def test_empty_view_has_no_snapshot():
    view = rules.view(BASE, {"id": "s", "vnf_snapshot": None})
    assert view == {
        "id": "s",
        "_links": {"self": {"href": f"{BASE}/vnflcm/v2/vnf_snapshots/s"}},
    }


def test_revert_conflicts(instance):
    snap = rules.compose(BASE, instance, "occ-1", _taken(), {})
    assert rules.revert_conflict(instance, snap) is None
    assert "holds no snapshot" in rules.revert_conflict(instance, None)
    other = {**instance, "id": "inst-2"}
    assert "taken of VNF instance inst-1" in rules.revert_conflict(other, snap)
    changed_pkg = {**instance, "vnfd_id": "vnfd-2"}
    assert "VNFD vnfd-1" in rules.revert_conflict(changed_pkg, snap)
    scaled = copy.deepcopy(instance)
    scaled["instantiated_vnf_info"]["vnfcResourceInfo"].append(
        _vnfc("c3", "s3")
    )
    assert rules.revert_conflict(scaled, snap) is None  # a revert re-scales
    other_flavour = copy.deepcopy(instance)
    other_flavour["instantiated_vnf_info"]["flavourId"] = "complex"
    assert "deployment flavour simple" in rules.revert_conflict(
        other_flavour, snap
    )
    partial = copy.deepcopy(snap)
    partial["vnfcSnapshots"] = partial["vnfcSnapshots"][:1]
    assert "no image of VNFC(s) c2" in rules.revert_conflict(instance, partial)


def test_needs_rescale(instance):
    snap = rules.compose(BASE, instance, "occ-1", _taken(), {})
    assert not rules.needs_rescale(snap, INFO)
    healed = copy.deepcopy(INFO)
    healed["vnfcResourceInfo"][0] = _vnfc("c1", "s1-new")
    assert not rules.needs_rescale(snap, healed)  # same VNFCs
    out = copy.deepcopy(INFO)
    out["vnfcResourceInfo"].append(_vnfc("c3", "s3"))
    assert rules.needs_rescale(snap, out)
    scaled_in = copy.deepcopy(INFO)
    del scaled_in["vnfcResourceInfo"][1]
    assert rules.needs_rescale(snap, scaled_in)
    assert rules.needs_rescale(snap, None)


def test_revert_changes():
    before = {
        "vnfcResourceInfo": [_vnfc("c1", "s1"), _vnfc("c3", "s3")],
    }
    after = [_vnfc("c1", "s1"), _vnfc("c2", "s2-new")]
    changes = rules.revert_changes(before, after)
    assert [(c["id"], c["changeType"]) for c in changes] == [
        ("c1", "MODIFIED"),
        ("c2", "ADDED"),
        ("c3", "REMOVED"),
    ]
    assert changes[1]["computeResource"]["resourceId"] == "s2-new"
    assert changes[2]["computeResource"]["resourceId"] == "s3"
    assert rules.revert_changes(None, []) == []


def test_restored_info_keeps_the_servers_of_now(instance):
    snap = rules.compose(BASE, instance, "occ-1", _taken(), {})
    now = copy.deepcopy(INFO)
    now["vnfState"] = "STOPPED"
    now["vnfcResourceInfo"][1] = _vnfc("c2", "s2-healed", zone="AZ-2")
    restored = rules.restored_info(snap, now)
    assert restored["vnfState"] == "STARTED"
    assert [
        v["computeResource"]["resourceId"]
        for v in restored["vnfcResourceInfo"]
    ] == ["s1", "s2-healed"]
    assert restored["vnfcResourceInfo"][1]["zoneId"] == "AZ-2"
    # The snapshot itself is not changed.
    assert snap["vnfInstance"]["instantiatedVnfInfo"] == INFO


def test_image_of(instance):
    snap = rules.compose(BASE, instance, "occ-1", _taken(), {})
    assert rules.image_of(snap, "c2") == "img-c2"
    assert rules.image_of(snap, "c9") is None


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({}, None),
        ({"vnfSnapshotPkgId": None, "vnfSnapshot": None}, None),
        ({"vnfSnapshotPkgId": "pkg-1"}, "vnfSnapshotPkgId"),
        ({"vnfSnapshot": {}}, "vnfSnapshot"),
        (
            {"vnfSnapshot": {"id": "x"}, "vnfSnapshotPkgId": None},
            "vnfSnapshot",
        ),
    ],
)
def test_unsupported_names_the_attribute(body, named):
    found = rules.unsupported(body)
    if named is None:
        assert found is None
    else:
        assert found is not None and found[0] == named
        assert found[1] == rules.UNSUPPORTED[named]
