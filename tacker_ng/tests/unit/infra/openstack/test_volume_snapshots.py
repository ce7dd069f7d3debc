"""VNFC volumes in VNF snapshots: recorded from the stack, snapshotted
with Cinder (ids persisted, rolled back exactly), reverted in Cinder's
order (detach, revert, attach) and refused when Cinder would refuse."""

import types
from typing import Any

import pytest
from keystoneauth1 import exceptions as ks_exc

from tacker_ng.infra import base
from tacker_ng.infra.openstack import (
    cinder,
    errors,
    heat,
    info,
    restack,
    snapshot,
    volume_snapshots,
)
from tacker_ng.infra.openstack.vnfcs import Vnfc
from tacker_ng.objects import lcm
from tacker_ng.objects import vnf_snapshots as rules

CONF = types.SimpleNamespace(
    openstack=types.SimpleNamespace(
        snapshot_timeout=0.5, stack_poll_interval=0
    )
)
IMAGE = "image-1"


class Cinder:
    """The ``cinder.Cinder`` calls, on dicts; every call logged."""

    def __init__(self, log: list, volumes: dict[str, str]):
        self.log = log
        #: volume id -> server it is attached to (None: available).
        self.volumes = dict(volumes)
        self.snapshots: dict[str, dict[str, Any]] = {}
        self.fail_create_at: int | None = None
        self.clock = 0

    def volume(self, volume_id):
        if volume_id not in self.volumes:
            return None
        server = self.volumes[volume_id]
        return {
            "id": volume_id,
            "status": "in-use" if server else "available",
            "attachments": [{"server_id": server}] if server else [],
        }

    def create_snapshot(self, volume_id, name, metadata):
        if self.fail_create_at == len(self.snapshots):
            raise errors.VimError(reason="conductor crash")
        self.clock += 1
        snap_id = f"snap-{volume_id}-{self.clock}"
        self.snapshots[snap_id] = {
            "id": snap_id,
            "volume_id": volume_id,
            "status": "available",
            "created_at": f"2026-01-01T00:00:{self.clock:02d}.000000",
            "metadata": dict(metadata),
        }
        self.log.append(("snapshot", volume_id))
        return snap_id

    def snapshot(self, snapshot_id):
        return self.snapshots.get(snapshot_id)

    def snapshots_of(self, volume_id):
        return [
            s for s in self.snapshots.values() if s["volume_id"] == volume_id
        ]

    def delete_snapshot(self, snapshot_id):
        self.log.append(("delete", snapshot_id))
        return self.snapshots.pop(snapshot_id, None) is not None

    def revert(self, volume_id, snapshot_id):
        assert self.volumes[volume_id] is None, "revert of an in-use volume"
        latest = max(
            self.snapshots_of(volume_id), key=lambda s: s["created_at"]
        )
        assert latest["id"] == snapshot_id, "not the latest snapshot"
        self.log.append(("revert", volume_id, snapshot_id))


class Nova:
    """Nova as create and revert use it; volume calls change ``cinder``."""

    def __init__(self, log: list, cinder: Cinder):
        self.log = log
        self.cinder = cinder

    def server(self, server_id):
        return {
            "id": server_id,
            "status": "ACTIVE",
            "task_state": None,
            "image": IMAGE,
        }

    def create_image(self, server_id, name, metadata):
        self.log.append(("image", server_id))
        return f"image-of-{server_id}"

    def rebuild(self, server_id, image_id):
        self.log.append(("rebuild", server_id))

    def set_power(self, server_id, started):
        return "ACTIVE"

    def detach_volume(self, server_id, volume_id):
        self.log.append(("detach", server_id, volume_id))
        attached = self.cinder.volumes[volume_id] == server_id
        self.cinder.volumes[volume_id] = None
        return attached

    def attach_volume(self, server_id, volume_id):
        self.log.append(("attach", server_id, volume_id))
        self.cinder.volumes[volume_id] = server_id


class Glance:
    def __init__(self):
        self.deleted: list[str] = []

    def image(self, image_id):
        return {"id": image_id, "status": "active"}

    def delete(self, image_id):
        self.deleted.append(image_id)
        return True


def _vnfc(n: int, volumes: list[str]) -> Vnfc:
    return Vnfc(
        id=f"vnfc-{n}",
        vdu_id="VDU1",
        index=n,
        zone=None,
        flavor="m1",
        image=IMAGE,
        server_id=f"server-{n}",
        volumes={f"VirtualStorage{i}": v for i, v in enumerate(volumes)},
    )


def _info(vnfcs: list[Vnfc]) -> dict[str, Any]:
    return {
        "flavourId": "simple",
        "vnfcResourceInfo": [
            info.vnfc_resource_info(v, "vim1") for v in vnfcs
        ],
        "virtualStorageResourceInfo": info.storage_resource_info(
            vnfcs, "vim1"
        ),
    }


def _task(op, instance_info, progress, vnf_snapshot=None, saves=None):
    return base.LcmTask(
        None,
        op,
        "occ-1",
        {"id": "inst-1", "instantiatedVnfInfo": instance_info},
        {"vnfSnapshotInfoId": "info-1234-5678"},
        None,
        None,
        {},
        {},
        progress,
        (lambda: saves.append(1)) if saves is not None else (lambda: None),
        lambda: None,
        vnf_snapshot=vnf_snapshot,
    )


# -- recording ----------------------------------------------------------
class Heat:
    def __init__(self, resources):
        self._resources = resources

    def resources(self, stack_id):
        return self._resources


def test_read_servers_records_each_vnfcs_nested_volumes():
    """Volumes of a VNFC's nested stack become its storageResourceIds and
    VirtualStorageResourceInfo entries; other VNFCs' do not leak in."""
    resources = [
        {"resource_name": "VDU1-0", "resource_type": "VDU1.yaml"},
        {
            "resource_name": "VDU1",
            "resource_type": heat.SERVER_TYPE,
            "parent_resource": "VDU1-0",
            "physical_resource_id": "server-0",
        },
        {
            "resource_name": "VirtualStorage",
            "resource_type": heat.VOLUME_TYPE,
            "parent_resource": "VDU1-0",
            "physical_resource_id": "vol-0",
        },
        {
            "resource_name": "VirtualStorage_attachment",
            "resource_type": "OS::Cinder::VolumeAttachment",
            "parent_resource": "VDU1-0",
            "physical_resource_id": "vol-0",
        },
        {
            "resource_name": "VDU1",
            "resource_type": heat.SERVER_TYPE,
            "parent_resource": "VDU1-1",
            "physical_resource_id": "server-1",
        },
    ]
    wanted = [_vnfc(0, []), _vnfc(1, [])]
    nova = types.SimpleNamespace(server=lambda _: None)
    restack.read_servers(Heat(resources), nova, "stack", wanted)
    assert wanted[0].volumes == {"VirtualStorage": "vol-0"}
    assert wanted[1].volumes == {}
    got = _info(wanted)
    first, second = got["vnfcResourceInfo"]
    assert first["storageResourceIds"] == ["vol-0"]
    assert "storageResourceIds" not in second
    assert got["virtualStorageResourceInfo"] == [
        {
            "id": "vol-0",
            "virtualStorageDescId": "VirtualStorage",
            "storageResource": {
                "vimConnectionId": "vim1",
                "resourceId": "vol-0",
                "vimLevelResourceType": "OS::Cinder::Volume",
            },
            "metadata": {"vnfcResourceInfoId": "vnfc-0"},
        }
    ]


def test_instantiated_info_replaces_or_drops_storage():
    """A scale that removed the last volume drops the stale entries."""
    flavour = types.SimpleNamespace(flavour_id="simple", scaling_aspects={})
    old = _info([_vnfc(0, ["vol-0"])])
    task = _task(lcm.Operation.SCALE, old, {})
    new = info.instantiated_vnf_info(task, flavour, [_vnfc(1, [])], "vim1")
    assert "virtualStorageResourceInfo" not in new
    new = info.instantiated_vnf_info(
        task, flavour, [_vnfc(1, ["vol-9"])], "vim1"
    )
    assert [s["id"] for s in new["virtualStorageResourceInfo"]] == ["vol-9"]


def test_restored_info_keeps_the_volumes_of_the_vnfcs():
    then = _info([_vnfc(0, ["vol-0"]), _vnfc(1, [])])
    taken = {"vnfInstance": {"instantiatedVnfInfo": then}}
    restored = rules.restored_info(taken, then)
    assert restored["vnfcResourceInfo"][0]["storageResourceIds"] == ["vol-0"]
    assert [s["id"] for s in restored["virtualStorageResourceInfo"]] == [
        "vol-0"
    ]


# -- snapshot -----------------------------------------------------------
def _snapshot_world():
    log: list = []
    cinder = Cinder(log, {"vol-0": "server-0", "vol-1": "server-0"})
    nova = Nova(log, cinder)
    instance_info = _info([_vnfc(0, ["vol-0", "vol-1"]), _vnfc(1, [])])
    return log, cinder, nova, instance_info


def test_snapshot_takes_each_volume_once_and_records_it():
    """A crash after the first volume snapshot: the retry takes only the
    missing one; storageSnapshotResources names both."""
    log, cinder, nova, instance_info = _snapshot_world()
    progress: dict = {}
    saves: list = []
    task = _task(
        lcm.Operation.CREATE_SNAPSHOT, instance_info, progress, saves=saves
    )
    cinder.fail_create_at = 1
    with pytest.raises(errors.VimError, match="conductor crash"):
        snapshot.create(nova, Glance(), task, "vim1", CONF, cinder)
    first = progress[volume_snapshots.TAKEN]["vnfc-0"]["vol-0"]["snapshotId"]
    assert saves  # persisted as requested
    cinder.fail_create_at = None
    result = snapshot.create(nova, Glance(), task, "vim1", CONF, cinder)
    assert [e for e in log if e[0] == "snapshot"] == [
        ("snapshot", "vol-0"),
        ("snapshot", "vol-1"),
    ]
    assert [e for e in log if e[0] == "image"] == [
        ("image", "server-0"),
        ("image", "server-1"),
    ]
    vnfc0, vnfc1 = result.vnf_snapshot["vnfcSnapshots"]
    assert "storageSnapshotResources" not in vnfc1
    assert vnfc0["storageSnapshotResources"][0] == {
        "storageResourceId": "vol-0",
        "storageSnapshotResource": {
            "vimConnectionId": "vim1",
            "resourceId": first,
            "vimLevelResourceType": "OS::Cinder::Snapshot",
        },
    }
    assert len(vnfc0["storageSnapshotResources"]) == 2


def test_snapshot_in_error_fails_clearly():
    _, cinder, nova, instance_info = _snapshot_world()
    real = cinder.create_snapshot

    def broken(*args):
        snap_id = real(*args)
        cinder.snapshots[snap_id]["status"] = "error"
        return snap_id

    cinder.create_snapshot = broken
    task = _task(lcm.Operation.CREATE_SNAPSHOT, instance_info, {})
    with pytest.raises(volume_snapshots.VolumeSnapshotFailed, match="error"):
        snapshot.create(nova, Glance(), task, "vim1", CONF, cinder)


def test_rollback_deletes_exactly_the_snapshots_taken():
    log, cinder, nova, instance_info = _snapshot_world()
    other = cinder.create_snapshot("vol-0", "someone else's", {})
    progress: dict = {}
    task = _task(lcm.Operation.CREATE_SNAPSHOT, instance_info, progress)
    cinder.fail_create_at = 2  # the second of ours fails
    with pytest.raises(errors.VimError):
        snapshot.create(nova, Glance(), task, "vim1", CONF, cinder)
    taken = [
        item["snapshotId"]
        for per_vnfc in progress[volume_snapshots.TAKEN].values()
        for item in per_vnfc.values()
    ]
    assert len(taken) == 1
    glance = Glance()
    snapshot.undo_create(glance, task, cinder, CONF)
    assert [e[1] for e in log if e[0] == "delete"] == taken
    assert set(cinder.snapshots) == {other}
    assert glance.deleted == ["image-of-server-0"]


def test_rollback_waits_for_a_snapshot_still_creating():
    _, cinder, _, instance_info = _snapshot_world()
    snap_id = cinder.create_snapshot("vol-0", "n", {})
    cinder.snapshots[snap_id]["status"] = "creating"
    progress = {
        volume_snapshots.TAKEN: {
            "vnfc-0": {"vol-0": {"snapshotId": snap_id, "volumeId": "vol-0"}}
        }
    }
    task = _task(lcm.Operation.CREATE_SNAPSHOT, instance_info, progress)
    with pytest.raises(volume_snapshots.VolumeSnapshotFailed):
        snapshot.undo_create(Glance(), task, cinder, CONF)
    assert snap_id in cinder.snapshots  # never deleted while creating


def test_delete_removes_volume_snapshots_and_skips_gone_ones():
    log, cinder, nova, instance_info = _snapshot_world()
    task = _task(lcm.Operation.CREATE_SNAPSHOT, instance_info, {})
    taken = snapshot.create(nova, Glance(), task, "vim1", CONF, cinder)
    body = {
        "vnfInstance": {"instantiatedVnfInfo": instance_info},
        **taken.vnf_snapshot,
    }
    cinder.snapshots.pop(next(iter(cinder.snapshots)))  # gone already
    snapshot.delete(Glance(), cinder, body)
    assert not cinder.snapshots
    assert len([e for e in log if e[0] == "delete"]) == 2


# -- revert -------------------------------------------------------------
def _taken_world():
    """A snapshot of VNFC 0 (two volumes) and VNFC 1 (none)."""
    log, cinder, nova, instance_info = _snapshot_world()
    task = _task(lcm.Operation.CREATE_SNAPSHOT, instance_info, {})
    taken = snapshot.create(nova, Glance(), task, "vim1", CONF, cinder)
    body = {
        "vnfInstance": {
            "instantiatedVnfInfo": {
                **instance_info,
                "vnfcInfo": [
                    {"id": "vnfc-0", "vnfcState": "STARTED"},
                    {"id": "vnfc-1", "vnfcState": "STARTED"},
                ],
            }
        },
        **taken.vnf_snapshot,
    }
    for item in body["vnfcSnapshots"]:
        item["computeSnapshotResource"]["resourceId"] = IMAGE
    log.clear()
    return log, cinder, nova, instance_info, body


def test_revert_rebuilds_then_detaches_reverts_attaches():
    log, cinder, nova, instance_info, body = _taken_world()
    progress: dict = {}
    task = _task(
        lcm.Operation.REVERT_TO_SNAPSHOT, instance_info, progress, body
    )
    result = snapshot.revert(nova, task, CONF, None, cinder)
    snaps = {s["volume_id"]: s["id"] for s in cinder.snapshots.values()}
    assert log == [
        ("rebuild", "server-0"),
        ("rebuild", "server-1"),
        ("detach", "server-0", "vol-0"),
        ("revert", "vol-0", snaps["vol-0"]),
        ("attach", "server-0", "vol-0"),
        ("detach", "server-0", "vol-1"),
        ("revert", "vol-1", snaps["vol-1"]),
        ("attach", "server-0", "vol-1"),
    ]
    assert cinder.volumes == {"vol-0": "server-0", "vol-1": "server-0"}
    assert progress[volume_snapshots.REVERTED] == {
        "vol-0": "attached",
        "vol-1": "attached",
    }
    restored = result.instantiated_vnf_info
    assert [s["id"] for s in restored["virtualStorageResourceInfo"]] == [
        "vol-0",
        "vol-1",
    ]


def test_revert_retry_resumes_after_the_recorded_step():
    """A retry after vol-0 was detached and reverted (not re-attached)
    neither detaches nor reverts it again."""
    log, cinder, nova, instance_info, body = _taken_world()
    cinder.volumes["vol-0"] = None
    progress = {
        "rebuilt": {"vnfc-0": IMAGE, "vnfc-1": IMAGE},
        volume_snapshots.REVERTED: {"vol-0": "reverted"},
    }
    task = _task(
        lcm.Operation.REVERT_TO_SNAPSHOT, instance_info, progress, body
    )
    snapshot.revert(nova, task, CONF, None, cinder)
    vol0 = [e[0] for e in log if "vol-0" in e]
    assert vol0 == ["attach"]
    assert [e[0] for e in log if "vol-1" in e] == [
        "detach",
        "revert",
        "attach",
    ]
    assert not [e for e in log if e[0] == "rebuild"]


def test_failed_revert_step_leaves_the_volume_attached():
    """Cinder fails the revert of vol-0: the volume is attached again and
    its step forgotten, so a retry starts it over (and a rollback leaves
    no data volume detached)."""
    log, cinder, nova, instance_info, body = _taken_world()

    def refused(volume_id, snapshot_id):
        raise errors.VimError(reason="Cinder refused the revert")

    cinder.revert = refused
    progress: dict = {}
    task = _task(
        lcm.Operation.REVERT_TO_SNAPSHOT, instance_info, progress, body
    )
    with pytest.raises(errors.VimError, match="refused the revert"):
        snapshot.revert(nova, task, CONF, None, cinder)
    assert cinder.volumes["vol-0"] == "server-0"
    assert [e[0] for e in log if "vol-0" in e] == ["detach", "attach"]
    assert "vol-0" not in progress[volume_snapshots.REVERTED]


def test_revert_refuses_a_snapshot_that_is_not_the_latest():
    log, cinder, _, _, body = _taken_world()
    cinder.create_snapshot("vol-1", "a later VNF snapshot", {})
    with pytest.raises(errors.InvalidRequest, match="later snapshot"):
        snapshot.check_images(body, cinder)
    assert not [e for e in log if e[0] in ("detach", "revert", "rebuild")]


def test_revert_refuses_when_a_volume_is_gone():
    _, cinder, _, _, body = _taken_world()
    del cinder.volumes["vol-0"]
    with pytest.raises(errors.InvalidRequest, match="no longer exists"):
        snapshot.check_images(body, cinder)


# -- deleting volumes that have snapshots -----------------------------
def test_terminate_or_scale_in_refuses_volumes_with_snapshots():
    """Cinder deletes no volume that has snapshots: the operation is
    refused before the stack changes, naming the VNF snapshot."""
    vnfcs = [_vnfc(0, ["vol-0"]), _vnfc(1, ["vol-1"])]
    instance = {"instantiatedVnfInfo": _info(vnfcs)}
    cinder = Cinder([], {"vol-0": "server-0", "vol-1": "server-1"})
    cinder.create_snapshot(
        "vol-1", "s", {volume_snapshots.VNF_SNAPSHOT_KEY: "vnf-snap-9"}
    )
    volume_snapshots.refuse_deleting_held(cinder, instance, {"vnfc-0"})
    with pytest.raises(errors.VolumeHasSnapshots) as caught:
        volume_snapshots.refuse_deleting_held(cinder, instance)
    assert caught.value.status == 409
    assert "vol-1 of VNFC vnfc-1" in str(caught.value)
    assert "vnf-snap-9" in str(caught.value)
    with pytest.raises(errors.VolumeHasSnapshots):
        volume_snapshots.refuse_deleting_held(cinder, instance, {"vnfc-1"})
    cinder.delete_snapshot(next(iter(cinder.snapshots)))
    volume_snapshots.refuse_deleting_held(cinder, instance)


def test_removing_vnfcs_without_volumes_asks_cinder_nothing():
    instance = {"instantiatedVnfInfo": _info([_vnfc(0, [])])}
    volume_snapshots.refuse_deleting_held(object(), instance)


def test_revert_without_volumes_needs_no_cinder():
    """A VNF without volumes: the check and the revert never call Cinder
    (a cloud without it keeps working)."""
    _, _, nova, _, body = _taken_world()
    for item in body["vnfcSnapshots"]:
        item.pop("storageSnapshotResources", None)
    snapshot.check_images(body, None)
    info_now = body["vnfInstance"]["instantiatedVnfInfo"]
    task = _task(lcm.Operation.REVERT_TO_SNAPSHOT, info_now, {}, body)
    snapshot.revert(nova, task, CONF, None, None)


# -- the Cinder client --------------------------------------------------
class Session:
    """A keystoneauth session whose catalog has only ``catalog``."""

    def __init__(self, catalog: str):
        self.catalog = catalog
        self.calls: list = []

    def get_endpoint(self, service_type, **_):
        if service_type != self.catalog:
            raise ks_exc.EndpointNotFound()
        return "http://cinder/v3/project"

    def post(self, path, endpoint_filter, **kw):
        self.calls.append((path, endpoint_filter["service_type"], kw))
        return types.SimpleNamespace(json=lambda: {"snapshot": {"id": "s1"}})


@pytest.mark.parametrize("catalog", ["block-storage", "volumev3"])
def test_cinder_finds_either_service_type_and_forces_snapshots(catalog):
    sess = Session(catalog)
    client = cinder.Cinder(sess, "RegionOne", "public")
    assert client.create_snapshot("v1", "n", {}) == "s1"
    client.revert("v1", "s1")
    (snap_path, used, snap_kw), (revert_path, _, revert_kw) = sess.calls
    assert used == catalog
    assert snap_path == "/snapshots"
    assert snap_kw["json"]["snapshot"]["force"] is True
    assert revert_path == "/volumes/v1/action"
    assert revert_kw["json"] == {"revert": {"snapshot_id": "s1"}}
    assert revert_kw["headers"] == {"OpenStack-API-Version": "volume 3.40"}


def test_cinder_missing_from_the_catalog_is_a_clear_vim_error():
    client = cinder.Cinder(Session("image"), None, "public")
    with pytest.raises(errors.VimError, match="no Cinder endpoint"):
        client.volume("v1")
