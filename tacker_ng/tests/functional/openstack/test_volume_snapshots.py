"""VNF snapshots of a VNFC with a data volume on real Nova + Cinder
(minicloud): the snapshot takes a Cinder snapshot of the volume, the
revert puts the volume's content back and re-attaches it, the delete
removes the Cinder snapshot; a terminate that would delete a volume
holding snapshots is refused before anything changes.

minicloud's Cinder backend is a file per volume
(``tools/minicloud/anyhost/mc_anyhost/file_volume.py``): the test writes
and reads that file where a VNF would write to and read from its disk.
The package is the no-BaseHOT tosca_anti_affinity sample with a
``Vdu.VirtualBlockStorage`` on VDU1 (the generated HOT gives VDU1's
server an ``OS::Cinder::Volume`` and its attachment) and without its
anti-affinity rule (not the point here).
"""

from __future__ import annotations

import shutil
import time
import uuid
from pathlib import Path

import pytest
import yaml

from tacker_ng.infra.openstack import errors
from tacker_ng.objects import views
from tacker_ng.objects import vnf_snapshots as rules
from tacker_ng.tests.functional import sol003_schemas
from tacker_ng.tests.functional.openstack import conftest, env, k8s_env

pytestmark = [pytest.mark.minicloud, pytest.mark.timeout(600)]
Op = env.Op
SAMPLE = Path(__file__).parents[4] / "samples/vnf_packages/tosca_anti_affinity"
STORAGE = "VirtualStorage"
CINDER = {"service_type": "block-storage"}
_OVERRIDES = (
    ("stack_timeout", 300, "openstack"),
    ("snapshot_timeout", 120, "openstack"),
)


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """The sample with minicloud's image and a 1 GiB volume on VDU1."""
    tmp = tmp_path_factory.mktemp("vol-pkg")
    src = tmp / "src"
    shutil.copytree(SAMPLE, src)
    path = src / "Definitions" / "tosca_anti_affinity_df_simple.yaml"
    doc = yaml.safe_load(path.read_text())
    topology = doc["topology_template"]
    nodes = topology["node_templates"]
    for vdu in ("VDU1", "VDU2"):
        nodes[vdu]["properties"]["sw_image_data"]["name"] = conftest.IMAGE
    nodes[STORAGE] = {
        "type": "tosca.nodes.nfv.Vdu.VirtualBlockStorage",
        "properties": {
            "virtual_block_storage_data": {
                "size_of_storage": "1 GiB",
                "rdma_enabled": False,
            }
        },
    }
    nodes["VDU1"]["requirements"] = [{"virtual_storage": STORAGE}]
    topology.pop("policies")
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return env.onboard(src, tmp / "p")


@pytest.fixture
def quick(cloud):
    with env.config(_OVERRIDES):
        cloud.free_all()
        yield cloud


def _cinder(cloud, path: str) -> dict | None:
    """GET a Cinder v3 path of the project; None on 404."""
    resp = cloud.project_session().get(
        path, endpoint_filter=CINDER, raise_exc=False
    )
    if resp.status_code == 404:
        return None
    assert resp.status_code == 200, resp.text
    return resp.json()


def _until_gone(cloud, path: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while _cinder(cloud, path) is not None:
        assert time.monotonic() < deadline, f"{path} still there"
        time.sleep(1)


def _snapshot(vnf) -> dict:
    """CREATE_SNAPSHOT, composed into the VnfSnapshot the API shows
    (checked against the SOL003 document)."""
    info_id = str(uuid.uuid4())
    result = vnf.run(Op.CREATE_SNAPSHOT, {"vnfSnapshotInfoId": info_id})
    taken = rules.compose(
        "http://vnfm", env.instance_row(vnf.instance), str(uuid.uuid4()),
        result.vnf_snapshot, {},
    )  # fmt: skip
    sol003_schemas.validate(
        f"/vnflcm/v2/vnf_snapshots/{info_id}",
        "GET",
        200,
        rules.view("http://vnfm", {"id": info_id, "vnf_snapshot": taken}),
    )
    return taken


def _cinder_snapshot_id(snapshot: dict, volume_id: str) -> str:
    (vdu1,) = [
        s
        for s in snapshot["vnfcSnapshots"]
        if s.get("storageSnapshotResources")
    ]
    (storage,) = vdu1["storageSnapshotResources"]
    assert storage["storageResourceId"] == volume_id
    handle = storage["storageSnapshotResource"]
    assert handle["vimLevelResourceType"] == "OS::Cinder::Snapshot"
    return handle["resourceId"]


def test_snapshot_and_revert_restore_the_volume(quick, package):
    """Write "before", snapshot, write "after", revert: the disk says
    "before", the volume is in-use on VDU1's server again. A later
    snapshot makes a revert to the first one refused (Cinder reverts
    only to the latest). Delete: the Cinder snapshot is gone."""
    cloud = quick
    vim = None
    vnf = k8s_env.ZonelessVnf(cloud, package)
    taken: list[dict] = []
    try:
        vnf.run(
            Op.INSTANTIATE,
            {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)},
        )
        vim = vnf.instance["vimConnectionInfo"]["vim1"]
        info = vnf.instance["instantiatedVnfInfo"]
        vdu1 = vnf.vnfcs()["VDU1-0"]
        server_id = vdu1["computeResource"]["resourceId"]
        (storage,) = info["virtualStorageResourceInfo"]
        volume_id = storage["storageResource"]["resourceId"]
        assert storage["virtualStorageDescId"] == STORAGE
        assert storage["storageResource"]["vimLevelResourceType"] == (
            "OS::Cinder::Volume"
        )
        assert vdu1["storageResourceIds"] == [storage["id"]]
        assert "storageResourceIds" not in vnf.vnfcs()["VDU2-0"]
        sol003_schemas.validate(
            f"/vnflcm/v2/vnf_instances/{vnf.instance['id']}",
            "GET",
            200,
            views.vnf_instance("http://vnfm", env.instance_row(vnf.instance)),
        )
        volume = _cinder(cloud, f"/volumes/{volume_id}")["volume"]
        assert volume["status"] == "in-use"
        assert [a["server_id"] for a in volume["attachments"]] == [server_id]

        disk = cloud.volume_disk(volume_id)
        disk.write_text("before")
        snap_a = _snapshot(vnf)
        taken.append(snap_a)
        cinder_a = _cinder_snapshot_id(snap_a, volume_id)
        found = _cinder(cloud, f"/snapshots/{cinder_a}")["snapshot"]
        assert (found["status"], found["volume_id"]) == (
            "available",
            volume_id,
        )

        disk.write_text("after")
        vnf.revert(snap_a)
        assert disk.read_text() == "before"
        volume = _cinder(cloud, f"/volumes/{volume_id}")["volume"]
        assert volume["status"] == "in-use"
        assert [a["server_id"] for a in volume["attachments"]] == [server_id]
        nova = cloud.nova(admin=True)
        attached = nova.volumes.get_server_volumes(server_id)
        assert [(a.id, a.volumeId) for a in attached] == [
            (volume_id, volume_id)
        ]
        assert nova.servers.get(server_id).status == "ACTIVE"
        info = vnf.instance["instantiatedVnfInfo"]
        assert info["virtualStorageResourceInfo"] == [storage]
        assert vnf.vnfcs()["VDU1-0"]["storageResourceIds"] == [volume_id]
        assert vnf.last["progress"]["volume_reverts"] == {
            volume_id: "attached"
        }

        # A later snapshot: reverting to the first is refused up front.
        snap_b = _snapshot(vnf)
        taken.append(snap_b)
        disk.write_text("after b")
        with pytest.raises(errors.InvalidRequest, match="later snapshot"):
            vnf.revert(snap_a)
        assert disk.read_text() == "after b"  # nothing was changed

        # Cinder deletes no volume that has snapshots: terminate is
        # refused before the stack is touched, naming what holds it.
        with pytest.raises(errors.VolumeHasSnapshots, match="has 2 Cinder"):
            vnf.run(Op.TERMINATE, {})
        assert nova.servers.get(server_id).status == "ACTIVE"
        assert _cinder(cloud, f"/volumes/{volume_id}")["volume"]["status"] == (
            "in-use"
        )

        for snap in reversed(taken):
            vnf.driver.delete_snapshot(vim, snap)
            _until_gone(
                cloud, f"/snapshots/{_cinder_snapshot_id(snap, volume_id)}"
            )
        taken.clear()
        # The stack still deletes its re-attached volume (Nova's
        # attachment id is the volume id Heat's VolumeAttachment keeps).
        vnf.run(Op.TERMINATE, {})
        _until_gone(cloud, f"/volumes/{volume_id}")
    finally:
        for snap in taken:
            vnf.driver.delete_snapshot(vim, snap)
        if vnf.instance.get("instantiatedVnfInfo"):
            vnf.run(Op.TERMINATE, {})
