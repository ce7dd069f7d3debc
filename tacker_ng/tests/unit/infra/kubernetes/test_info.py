"""vnfcResourceInfo per pod, resource changes, scale status."""

from tacker_ng.infra.kubernetes import info
from tacker_ng.infra.kubernetes.kube import ObjectRef


def pod(name, node=None):
    return {
        "metadata": {"name": name, "namespace": "ns"},
        "spec": {"nodeName": node} if node else {},
    }


def test_vnfc_of_a_pod():
    zones = info.node_zones(
        [
            {"metadata": {"name": "n0", "labels": {info.ZONE_LABEL: "h-a"}}},
            {"metadata": {"name": "n1"}},
        ]
    )
    assert zones == {"n0": "h-a", "n1": None}
    got = info.vnfc("VDU2", "StatefulSet", pod("p-0", "n0"), zones, "k8s")
    assert got == {
        "id": "p-0",
        "vduId": "VDU2",
        "computeResource": {
            "vimConnectionId": "k8s",
            "resourceId": "p-0",
            "vimLevelResourceType": "StatefulSet",
        },
        "metadata": {"namespace": "ns", "nodeName": "n0", "zone": "h-a"},
    }
    bare = info.vnfc("VDU1", "Pod", pod("p"), zones, "k8s")
    assert bare["metadata"] == {"namespace": "ns"}
    unlabelled = info.vnfc("VDU1", "Pod", pod("p", "n1"), zones, "k8s")
    assert unlabelled["metadata"] == {"namespace": "ns", "nodeName": "n1"}


def _v(name, vdu="VDU1"):
    return info.vnfc(vdu, "Deployment", pod(name), {}, "k8s")


def test_resource_changes():
    before = [_v("a"), _v("b"), _v("s-0")]
    after = [_v("b"), _v("c"), _v("s-0")]
    got = info.resource_changes(before, after, {"s-0"})["affectedVnfcs"]
    assert [(c["id"], c["changeType"]) for c in got] == [
        ("c", "ADDED"),
        ("a", "REMOVED"),
        ("s-0", "MODIFIED"),
    ]
    assert info.resource_changes(before, before) == {}


def test_scale_status_and_info(flavour):
    vnfcs = [_v("w")] + [_v(f"s{i}", "VDU2") for i in range(4)]
    assert info.scale_status(flavour, vnfcs) == [
        {"aspectId": "vdu1_aspect", "scaleLevel": 0},
        {"aspectId": "vdu2_aspect", "scaleLevel": 2},
    ]
    refs = [ObjectRef("v1", "Namespace", "ns")]
    workload = ObjectRef("apps/v1", "Deployment", "vdu1", "ns")
    got = info.instantiated_vnf_info(
        flavour, vnfcs, "ns", ["f.yaml"], refs, {"VDU1": workload}
    )
    assert got["flavourId"] == "simple"
    assert [v["id"] for v in got["vnfcResourceInfo"]] == [
        "w",
        "s0",
        "s1",
        "s2",
        "s3",
    ]
    assert got["metadata"] == {
        "namespace": "ns",
        "lcm-kubernetes-def-files": ["f.yaml"],
        "kubernetesResources": [
            {"apiVersion": "v1", "kind": "Namespace", "name": "ns"}
        ],
        "vduWorkloads": {
            "VDU1": {
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "name": "vdu1",
                "namespace": "ns",
            }
        },
    }
    instance = {"instantiatedVnfInfo": got}
    assert info.stored(instance)["namespace"] == "ns"
    assert info.vnfcs_of(instance) == got["vnfcResourceInfo"]
    assert info.stored({}) == {} and info.vnfcs_of({}) == []
