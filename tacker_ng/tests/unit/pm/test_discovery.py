"""Scrape targets: a server's address on the chosen network, pods through
the API server's proxy, files written atomically only on change, swept
when their VNF is gone."""

import json
import os

import pytest

from tacker_ng.convergence import drift, scrape_targets
from tacker_ng.convergence.desired import DesiredVnfc
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm
from tacker_ng.pm import discovery
from tacker_ng.tests.unit.vnfpm.conftest import make_instance

ADDRS = (
    ("public", "203.0.113.7", 4, "floating"),
    ("net1", "fd00::5", 6, "fixed"),
    ("net1", "10.0.0.5", 4, "fixed"),
    ("ext", "192.0.2.9", 4, "fixed"),
)


def test_pick_address_prefers_the_scrape_network_and_fixed_ipv4():
    assert discovery.pick_address(ADDRS, "") == "192.0.2.9"  # "ext" < "net1"
    assert discovery.pick_address(ADDRS, "net1") == "10.0.0.5"
    assert discovery.pick_address(ADDRS, "public") is None  # floating only
    assert discovery.pick_address((), "") is None


def test_targets_carry_the_labels_the_queries_group_by():
    groups = discovery.server_targets(
        "vnf-1",
        [
            ("c2", "VDU1", "10.0.0.6"),
            ("c1", "VDU1", "10.0.0.5"),
            ("c3", "VDU2", None),
        ],
        9100,
    )
    assert groups == [
        {
            "targets": ["10.0.0.5:9100"],
            "labels": {
                "vnfInstanceId": "vnf-1",
                "vnfcId": "c1",
                "vduId": "VDU1",
            },
        },
        {
            "targets": ["10.0.0.6:9100"],
            "labels": {
                "vnfInstanceId": "vnf-1",
                "vnfcId": "c2",
                "vduId": "VDU1",
            },
        },
    ]
    (pod,) = discovery.pod_targets(
        "vnf-2",
        "https://k8s.example:6443/prefix/",
        [("p1", "VDU1", "ns a", "web-1")],
        "/api/v1/namespaces/{namespace}/pods/{pod}/proxy/metrics",
    )
    assert pod == {
        "targets": ["k8s.example:6443"],
        "labels": {
            "vnfInstanceId": "vnf-2",
            "vnfcId": "p1",
            "vduId": "VDU1",
            "__metrics_path__": "/prefix/api/v1/namespaces/ns%20a/pods/"
            "web-1/proxy/metrics",
            "__scheme__": "https",
        },
    }


def test_files_change_only_when_their_content_does(tmp_path):
    files = discovery.TargetFiles(tmp_path / "sd")
    groups = discovery.server_targets("v1", [("c1", "VDU1", "10.0.0.5")], 9100)
    assert files.write("openstack", "v1", groups) is True
    path = tmp_path / "sd" / "openstack" / "v1.json"
    assert json.loads(path.read_text()) == groups
    inode = os.stat(path).st_ino
    assert files.write("openstack", "v1", groups) is False
    assert os.stat(path).st_ino == inode
    assert oct(os.stat(path).st_mode & 0o777) == "0o644"
    assert [p.name for p in path.parent.iterdir()] == [
        "v1.json"
    ]  # no temp left
    assert files.write("openstack", "v1", []) is True  # no VNFC: no file
    assert not path.exists()
    with pytest.raises(ValueError):
        files.path("openstack", "../etc")


def _obs(vnf_id, vnfc, server, namespace=None):
    desired = DesiredVnfc(
        vnf_id, vnfc, "VDU1", None, f"srv-{vnfc}", namespace=namespace
    )
    return drift.Observation(
        desired, server, True, None if server else drift.DriftKind.MISSING
    )


def test_publish_from_one_vims_observations(conf, tmp_path):
    files = discovery.TargetFiles(tmp_path)
    judged = [
        _obs(
            "v1",
            "c1",
            drift.ObservedServer("srv-c1", "ACTIVE", addresses=ADDRS),
        ),
        _obs("v1", "c2", None),  # missing: no target
    ]
    assert (
        scrape_targets.publish(
            files,
            {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"},
            ["v1"],
            judged,
            conf,
        )
        == 1
    )
    (group,) = json.loads((tmp_path / "openstack" / "v1.json").read_text())
    assert (
        group["targets"] == ["192.0.2.9:9100"]
        and group["labels"]["vnfcId"] == "c1"
    )
    k8s = {
        "vimType": "ETSINFV.KUBERNETES.V_1",
        "interfaceInfo": {"endpoint": "https://127.0.0.1:6443"},
    }
    pods = [
        _obs(
            "v2", "p1", drift.ObservedServer("web-7", "ACTIVE"), namespace="ns"
        )
    ]
    scrape_targets.publish(files, k8s, ["v2"], pods, conf)
    (group,) = json.loads((tmp_path / "kubernetes" / "v2.json").read_text())
    assert (
        group["labels"]["__metrics_path__"]
        == "/api/v1/namespaces/ns/pods/web-7/proxy/metrics"
    )
    assert group["labels"]["vnfcId"] == "p1"


def test_sweep_removes_files_of_vnfs_no_longer_instantiated(
    conf, db, tmp_path
):
    files = discovery.TargetFiles(tmp_path)
    kept, ended = make_instance("default"), make_instance("default")
    for vnf in (kept, ended):
        files.write(
            "openstack",
            vnf["id"],
            discovery.server_targets(
                vnf["id"], [("c1", "VDU1", "10.0.0.5")], 9100
            ),
        )
    files.write(
        "kubernetes", "deleted-vnf", [{"targets": ["a:1"], "labels": {}}]
    )
    with db_api.writer() as s:
        vnf_lcm.update_instance(
            s, ended["id"], {"instantiation_state": "NOT_INSTANTIATED"}
        )
    assert scrape_targets.sweep(files) == 2
    assert files.vnf_ids() == {kept["id"]}
