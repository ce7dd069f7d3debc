"""VNF snapshots on real Nova + Glance (minicloud): an image per VNFC,
revert rebuilds every server from its image, delete removes the images.

minicloud's computes run ``FakeDriverWithSnapshots``
(tools/minicloud/nova_compute.py): Nova's stock fake driver never uploads
a snapshot, so its images stay ``queued`` and cannot be rebuilt from.
"""

from __future__ import annotations

import copy
import uuid

import pytest
from novaclient import exceptions as nova_exc
from oslo_config import cfg

from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors
from tacker_ng.infra.openstack import vnfcs as vnfcs_mod
from tacker_ng.objects import vnf_snapshots as rules
from tacker_ng.tests.functional import sol003_schemas
from tacker_ng.tests.functional.openstack import env

pytestmark = pytest.mark.minicloud
Op = env.Op
_OVERRIDES = (
    ("fallback_best_effort", True, "placement"),
    ("snapshot_timeout", 90, "openstack"),
)


@pytest.fixture(scope="module")
def vnf(cloud, spec_package):
    """One VNF for the module, instantiated with every zone free."""
    conf = cfg.CONF
    for name, value, group in _OVERRIDES:
        conf.set_override(name, value, group=group)
    cloud.free_all()
    vnf = env.Vnf(cloud, spec_package)
    vnf.run(
        Op.INSTANTIATE,
        {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)},
    )
    yield vnf
    try:
        if vnf.instance.get("instantiatedVnfInfo"):
            vnf.run(Op.TERMINATE, {})
    finally:
        for name, _, group in _OVERRIDES:
            conf.clear_override(name, group=group)


def _image(cloud, image_id: str) -> dict | None:
    resp = cloud.project_session().get(
        f"/v2/images/{image_id}",
        endpoint_filter={"service_type": "image"},
        raise_exc=False,
    )
    if resp.status_code == 404:
        return None
    assert resp.status_code == 200, resp.text
    return resp.json()


def test_snapshot_revert_and_delete(cloud, vnf):
    """Snapshot: one active Glance image per VNFC's server. Heal VDU1-0
    (a new server from the package's image) and stop VDU2-0, then revert:
    every server runs its snapshot image again, ACTIVE as it was. Delete:
    the images are gone from Glance."""
    nova = cloud.nova(admin=True)
    before = copy.deepcopy(vnf.instance["instantiatedVnfInfo"])
    info_id = str(uuid.uuid4())
    result = vnf.run(Op.CREATE_SNAPSHOT, {"vnfSnapshotInfoId": info_id})
    taken = result.vnf_snapshot
    assert result.instantiated_vnf_info is None  # the info is unchanged
    by_vnfc = {
        s["vnfcResourceInfoId"]: s["computeSnapshotResource"]
        for s in taken["vnfcSnapshots"]
    }
    assert set(by_vnfc) == {v["id"] for v in before["vnfcResourceInfo"]}
    for vnfc in before["vnfcResourceInfo"]:
        image = _image(cloud, by_vnfc[vnfc["id"]]["resourceId"])
        assert image["status"] == "active", image
        assert image["image_type"] == "snapshot"
        assert image["instance_uuid"] == vnfc["computeResource"]["resourceId"]
        assert by_vnfc[vnfc["id"]]["vimLevelResourceType"] == (
            "OS::Glance::Image"
        )
    # What the API would show, against the SOL003 document.
    row = env.instance_row(vnf.instance)
    snapshot = rules.compose("http://vnfm", row, "occ-1", taken, {})
    sol003_schemas.validate(
        f"/vnflcm/v2/vnf_snapshots/{info_id}",
        "GET",
        200,
        rules.view("http://vnfm", {"id": info_id, "vnf_snapshot": snapshot}),
    )
    # Change the VNF: a healed server, a stopped one.
    names = {n: v["id"] for n, v in vnf.vnfcs().items()}
    old_vdu1 = vnf.vnfcs()["VDU1-0"]["computeResource"]["resourceId"]
    vnf.run(Op.HEAL, {"vnfcInstanceId": [names["VDU1-0"]]})
    new_vdu1 = vnf.vnfcs()["VDU1-0"]["computeResource"]["resourceId"]
    assert new_vdu1 != old_vdu1
    assert nova.servers.get(new_vdu1).image["id"] == cloud.image_id
    vnf.run(
        Op.OPERATE,
        {"changeStateTo": "STOPPED", "vnfcInstanceId": [names["VDU2-0"]]},
    )
    stopped = vnf.vnfcs()["VDU2-0"]["computeResource"]["resourceId"]
    assert nova.servers.get(stopped).status == "SHUTOFF"
    # Revert: every server rebuilt from its VNFC's snapshot image.
    result = vnf.revert(snapshot)
    for name, vnfc in vnf.vnfcs().items():
        server = nova.servers.get(vnfc["computeResource"]["resourceId"])
        assert server.image["id"] == by_vnfc[vnfc["id"]]["resourceId"], name
        assert server.status == "ACTIVE", (name, server.status)
    assert vnf.vnfcs()["VDU1-0"]["computeResource"]["resourceId"] == new_vdu1
    assert [v["id"] for v in result.resource_changes["affectedVnfcs"]] == [
        v["id"] for v in before["vnfcResourceInfo"]
    ]
    assert vnf.last["progress"]["rebuilt"] == {
        vnfc_id: handle["resourceId"] for vnfc_id, handle in by_vnfc.items()
    }
    # A snapshot without a VNFC's image is refused before any rebuild.
    partial = copy.deepcopy(snapshot)
    partial["vnfcSnapshots"] = partial["vnfcSnapshots"][1:]
    with pytest.raises(errors.InvalidRequest, match="has no image of VNFC"):
        vnf.revert(partial)
    # Delete: the images leave Glance.
    vnf.driver.delete_snapshot(
        vnf.instance["vimConnectionInfo"]["vim1"], snapshot
    )
    for handle in by_vnfc.values():
        assert _image(cloud, handle["resourceId"]) is None


def test_failed_snapshot_rollback_deletes_its_images(cloud, vnf):
    """A snapshot that fails after some images were requested (here a
    FORCEFUL cancel before the last VNFC's createImage) is rolled back by
    deleting exactly those images."""
    info_id = str(uuid.uuid4())
    task = vnf.task(Op.CREATE_SNAPSHOT, {"vnfSnapshotInfoId": info_id})
    calls = {"n": 0}

    def cancel_before_the_last():
        calls["n"] += 1  # checked before each createImage
        return "FORCEFUL" if calls["n"] == len(vnf.vnfcs()) else None

    task.cancel_requested = cancel_before_the_last
    vnf.last = {"task": task, "progress": task.progress}
    with pytest.raises(base.Cancelled):
        vnf.driver.create_snapshot(task)
    requested = [
        i["imageId"] for i in task.progress["snapshot_images"].values()
    ]
    assert len(requested) == len(vnf.vnfcs()) - 1
    assert all(_image(cloud, image_id) for image_id in requested)
    vnf.rollback()
    for image_id in requested:
        assert _image(cloud, image_id) is None


def _snapshot(vnf) -> tuple[dict, dict[str, str]]:
    """Take a snapshot; the VnfSnapshot and VNFC id -> image id."""
    result = vnf.run(Op.CREATE_SNAPSHOT, {"vnfSnapshotInfoId": "snap-info"})
    occ_id = str(uuid.uuid4())
    snapshot = rules.compose(
        "http://vnfm",
        env.instance_row(vnf.instance),
        occ_id,
        result.vnf_snapshot,
        {},
    )
    images = {
        s["vnfcResourceInfoId"]: s["computeSnapshotResource"]["resourceId"]
        for s in snapshot["vnfcSnapshots"]
    }
    return snapshot, images


def _stack_vnfcs(cloud, vnf) -> set[str]:
    """Names of the VNFC resources Heat's stack holds."""
    return {
        r.resource_name
        for r in cloud.heat().resources.list(vnf.stack_name)
        if r.resource_name.startswith("VDU")
    }


def _check_reverted(cloud, vnf, snapshot: dict, images: dict) -> None:
    """The VNF is the snapshot's: its VNFCs and scaleStatus, in the stack
    too, each server ACTIVE on its VNFC's snapshot image."""
    nova = cloud.nova(admin=True)
    then = snapshot["vnfInstance"]["instantiatedVnfInfo"]
    now = vnf.instance["instantiatedVnfInfo"]
    assert [v["id"] for v in now["vnfcResourceInfo"]] == [
        v["id"] for v in then["vnfcResourceInfo"]
    ]
    assert now["scaleStatus"] == then["scaleStatus"]
    assert _stack_vnfcs(cloud, vnf) == set(vnf.vnfcs())
    for name, vnfc in vnf.vnfcs().items():
        server = nova.servers.get(vnfc["computeResource"]["resourceId"])
        assert server.image["id"] == images[vnfc["id"]], name
        assert server.status == "ACTIVE", (name, server.status)


def _level(info: dict, aspect: str) -> int:
    return next(
        s["scaleLevel"] for s in info["scaleStatus"] if s["aspectId"] == aspect
    )


def _granted(task) -> dict[str, list[str]]:
    """Resource definition ids of the op occ's grant (the NFVO's answer),
    per kind: add (COMPUTE), remove, update."""
    computes = {
        d["id"]
        for d in task.grant_request.get("addResources") or []
        if d["type"] == "COMPUTE"
    }
    return {
        "add": [
            g["resourceDefinitionId"]
            for g in task.grant.get("addResources") or []
            if g["resourceDefinitionId"] in computes
        ],
        "remove": [
            g["resourceDefinitionId"]
            for g in task.grant.get("removeResources") or []
        ],
        "update": [
            g["resourceDefinitionId"]
            for g in task.grant.get("updateResources") or []
        ],
    }


def _record_zone(snapshot: dict, vnfc_ids, zone: str) -> None:
    """Record ``zone`` for these VNFCs in the snapshot (as if they had run
    there): a revert must place them where its grant says, not there."""
    for v in snapshot["vnfInstance"]["instantiatedVnfInfo"][
        "vnfcResourceInfo"
    ]:
        if v["id"] in vnfc_ids:
            v["zoneId"] = v["metadata"]["zone"] = zone


def test_revert_rescales(cloud, vnf):
    """Snapshot A, scale VDU1 out (+2 VNFCs), snapshot B. Revert to A:
    the 2 VNFCs added since are removed from the stack (their servers
    deleted), scaleStatus is A's, every remaining server runs its A image;
    the grant removes the 2 VNFCs and updates the others. Revert to B: the
    grant adds the 2 VNFCs, which come back on new servers in the granted
    zone (not the one B records), rebuilt from their B images, scaleStatus
    is B's. At most 6 servers, 10 images, all removed."""
    nova = cloud.nova(admin=True)
    vim = vnf.instance["vimConnectionInfo"]["vim1"]
    taken: list[dict] = []
    try:
        snap_a, images_a = _snapshot(vnf)
        taken.append(snap_a)
        level_a = _level(vnf.instance["instantiatedVnfInfo"], "VDU1_scale")
        vnf.run(Op.SCALE, {"type": "SCALE_OUT", "aspectId": "VDU1_scale"})
        scaled = copy.deepcopy(vnf.instance["instantiatedVnfInfo"])
        assert _level(scaled, "VDU1_scale") == level_a + 1
        snap_b, images_b = _snapshot(vnf)
        taken.append(snap_b)
        added = {
            v["id"]: v["computeResource"]["resourceId"]
            for v in scaled["vnfcResourceInfo"]
            if v["id"] not in images_a
        }
        assert len(added) == 2
        # Back to A: scaled in by the stack update, then rebuilt.
        result = vnf.revert(snap_a)
        granted = _granted(vnf.last["task"])
        assert granted["add"] == []
        assert set(granted["remove"]) == set(added)
        assert set(granted["update"]) == set(images_a)
        _check_reverted(cloud, vnf, snap_a, images_a)
        for server_id in added.values():
            with pytest.raises(nova_exc.NotFound):
                nova.servers.get(server_id)
        changes = {
            c["id"]: c["changeType"]
            for c in result.resource_changes["affectedVnfcs"]
        }
        assert {i for i, c in changes.items() if c == "REMOVED"} == set(added)
        assert {i for i, c in changes.items() if c == "MODIFIED"} == set(
            images_a
        )
        # Forward to B: the two VNFCs are back, on new servers, in the
        # zone the grant gives them (B records another one).
        used = {cloud.az(z) for z in vnf.zones().values()}
        elsewhere = next(
            z for z in vnf.driver.list_zones(vim) if z not in used
        )
        _record_zone(snap_b, set(added), elsewhere)
        result = vnf.revert(snap_b)
        task = vnf.last["task"]
        granted = _granted(task)
        assert set(granted["add"]) == set(added)
        assert granted["remove"] == []
        assert set(granted["update"]) == set(images_a)
        zone_of = vnfcs_mod.granted_zones(task.grant)
        assert {cloud.logical(zone_of[i]) for i in added} == {
            vnf.zones()["VDU1-0"]
        }
        nova_zones = vnf.nova_zones()
        for name, vnfc in vnf.vnfcs().items():
            if vnfc["id"] in added:
                granted_zone = cloud.logical(zone_of[vnfc["id"]])
                assert nova_zones[name] == granted_zone
                assert zone_of[vnfc["id"]] != elsewhere
                assert vnfc["zoneId"] == zone_of[vnfc["id"]], name
                assert vnfc["metadata"]["zone"] == zone_of[vnfc["id"]], name
        _check_reverted(cloud, vnf, snap_b, images_b)
        back = {
            vnfc["id"]: vnfc["computeResource"]["resourceId"]
            for vnfc in vnf.vnfcs().values()
            if vnfc["id"] in added
        }
        assert set(back) == set(added)
        assert not set(back.values()) & set(added.values())
        changes = {
            c["id"]: c["changeType"]
            for c in result.resource_changes["affectedVnfcs"]
        }
        assert {i for i, c in changes.items() if c == "ADDED"} == set(added)
        vnf.run(Op.SCALE, {"type": "SCALE_IN", "aspectId": "VDU1_scale"})
        assert _level(vnf.instance["instantiatedVnfInfo"], "VDU1_scale") == (
            level_a
        )
    finally:
        for snapshot in taken:
            vnf.driver.delete_snapshot(vim, snapshot)


def test_failed_revert_rollback_puts_the_vnfc_set_back(cloud, vnf):
    """A revert cancelled (FORCEFUL) after its stack update removed the
    VNFCs of a scale-out is rolled back: the stack and instantiatedVnfInfo
    have the scaled-out VNFC set again."""
    vim = vnf.instance["vimConnectionInfo"]["vim1"]
    snap, _ = _snapshot(vnf)
    try:
        vnf.run(Op.SCALE, {"type": "SCALE_OUT", "aspectId": "VDU1_scale"})
        scaled = copy.deepcopy(vnf.instance["instantiatedVnfInfo"])
        task = vnf.task(
            Op.REVERT_TO_SNAPSHOT, {"vnfSnapshotInfoId": "snap-info"}, snap
        )
        task.cancel_requested = lambda: (
            "FORCEFUL" if "restacked" in task.progress else None
        )
        vnf.last = {"task": task, "progress": task.progress}
        with pytest.raises(base.Cancelled):
            vnf.driver.revert_to_snapshot(task)
        assert _stack_vnfcs(cloud, vnf) == {
            v["metadata"]["stackResource"]
            for v in snap["vnfInstance"]["instantiatedVnfInfo"][
                "vnfcResourceInfo"
            ]
        }
        # The cancel ended the revert; its rollback runs uncancelled.
        task.cancel_requested = lambda: None
        vnf.rollback()
        assert _stack_vnfcs(cloud, vnf) == set(vnf.vnfcs())
        now = vnf.instance["instantiatedVnfInfo"]
        assert [v["id"] for v in now["vnfcResourceInfo"]] == [
            v["id"] for v in scaled["vnfcResourceInfo"]
        ]
        assert now["scaleStatus"] == scaled["scaleStatus"]
        vnf.run(Op.SCALE, {"type": "SCALE_IN", "aspectId": "VDU1_scale"})
    finally:
        vnf.driver.delete_snapshot(vim, snap)
