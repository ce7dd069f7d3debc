"""Pure logic of the pod observer: pod states, owners, replacements
adopted (not drift), NotReady nodes, and the refreshed vnfcResourceInfo."""

import pytest

from tacker_ng.convergence import kubernetes, refresh
from tacker_ng.convergence.desired import DesiredVnfc, desired_vnfcs
from tacker_ng.convergence.drift import DriftKind, ObservedServer, judge_all


def _pod(name, phase="Running", ready="True", owner=None, deleting=False):
    meta = {"name": name, "namespace": "ns1", "labels": {}}
    if owner:
        kind, oname = owner
        meta["ownerReferences"] = [
            {"kind": kind, "name": oname, "controller": True}
        ]
        if kind == "ReplicaSet":
            meta["labels"]["pod-template-hash"] = oname.rsplit("-", 1)[1]
    if deleting:
        meta["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    return {
        "metadata": meta,
        "spec": {"nodeName": "node-1"},
        "status": {
            "phase": phase,
            "conditions": [{"type": "Ready", "status": ready}],
        },
    }


@pytest.mark.parametrize(
    ("pod", "status"),
    [
        (_pod("a"), "ACTIVE"),
        (_pod("a", ready="False"), "NOT_READY"),
        (_pod("a", phase="Pending", ready="False"), "BUILD"),
        (_pod("a", phase="Failed", ready="False"), "ERROR"),
        (_pod("a", deleting=True), "TERMINATING"),
    ],
)
def test_pod_status(pod, status):
    assert kubernetes.pod_status(pod) == status


def test_unschedulable_pending_pod_is_not_ready_drift():
    pod = _pod("a", phase="Pending", ready="False")
    pod["status"]["conditions"].append(
        {
            "type": "PodScheduled",
            "status": "False",
            "reason": "Unschedulable",
            "message": "0/2 nodes are available",
        }
    )
    assert kubernetes.pod_status(pod) == "UNSCHEDULABLE"
    seen = kubernetes.observed_pod(pod, {})
    (obs,) = judge_all([_desired("a")], {"ns1/a": seen}, {"node-1": True})
    assert obs.drift == DriftKind.NOT_READY


def test_owner_of():
    rs = _pod("web-5d8f-abcde", owner=("ReplicaSet", "web-5d8f"))
    assert kubernetes.owner_of(rs) == "Deployment/web"
    sts = _pod("db-0", owner=("StatefulSet", "db"))
    assert kubernetes.owner_of(sts) == "StatefulSet/db"
    assert kubernetes.owner_of(_pod("bare")) == "Pod/bare"
    seen = kubernetes.observed_pod(rs, {"node-1": "zone-a"})
    assert (seen.id, seen.host, seen.zone) == (
        "web-5d8f-abcde",
        "node-1",
        "zone-a",
    )


def _desired(name, workload="Deployment/web"):
    return DesiredVnfc(
        "i1", name, "VDU1", "k8s", name, namespace="ns1", workload=workload
    )


def _seen(name, status="ACTIVE", owner="Deployment/web", host="n1"):
    return ObservedServer(name, status, host, "z", owner)


def test_replacement_of_a_deleted_pod_is_not_drift():
    wanted = [_desired("web-1"), _desired("web-2")]
    servers = {
        "ns1/web-1": _seen("web-1"),
        "ns1/web-9": _seen("web-9"),  # the ReplicaSet's replacement
        "ns1/other": _seen("other", owner="Deployment/other"),
    }
    obs = {o.desired.vnfc_id: o for o in judge_all(wanted, servers, {})}
    assert obs["web-1"].drift is None and obs["web-1"].replaced_by is None
    assert obs["web-2"].drift is None
    assert obs["web-2"].replaced_by.id == "web-9"


def test_replacement_not_ready_is_drift_and_no_spare_is_missing():
    wanted = [_desired("web-1"), _desired("web-2")]
    servers = {"ns1/web-9": _seen("web-9", "NOT_READY")}
    obs = {o.desired.vnfc_id: o for o in judge_all(wanted, servers, {})}
    drifts = {k: o.drift for k, o in obs.items()}
    # one replacement for two missing pods: the first is judged on it
    assert drifts == {"web-1": DriftKind.NOT_READY, "web-2": DriftKind.MISSING}
    assert obs["web-2"].replaced_by is None


def test_statefulset_pod_keeps_its_name_so_missing_is_missing():
    wanted = [_desired("db-0", "StatefulSet/db")]
    servers = {"ns1/db-1": _seen("db-1", owner="StatefulSet/db")}
    (obs,) = judge_all(wanted, servers, {})
    assert obs.drift == DriftKind.MISSING


def test_terminating_pod_is_no_replacement():
    wanted = [_desired("web-1")]
    servers = {"ns1/web-9": _seen("web-9", "TERMINATING")}
    (obs,) = judge_all(wanted, servers, {})
    assert obs.drift == DriftKind.MISSING


def test_not_ready_pod_on_not_ready_node_is_host_down():
    wanted = [_desired("web-1"), _desired("web-2")]
    servers = {
        "ns1/web-1": _seen("web-1", "NOT_READY", host="n1"),
        "ns1/web-2": _seen("web-2", "NOT_READY", host="n2"),
    }
    got = {
        o.desired.vnfc_id: o.drift
        for o in judge_all(wanted, servers, {"n1": False, "n2": True})
    }
    assert got == {"web-1": DriftKind.HOST_DOWN, "web-2": DriftKind.NOT_READY}


def test_desired_of_a_cnf_and_adopt():
    info = {
        "vnfcResourceInfo": [
            {
                "id": "web-1",
                "vduId": "VDU1",
                "computeResource": {
                    "vimConnectionId": "k8s",
                    "resourceId": "web-1",
                    "vimLevelResourceType": "Deployment",
                },
                "metadata": {
                    "namespace": "ns1",
                    "nodeName": "n1",
                    "zone": "a",
                },
            }
        ],
        "vnfcInfo": [{"id": "x", "vnfcResourceInfoId": "web-1"}],
        "metadata": {
            "vduWorkloads": {
                "VDU1": {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "name": "web",
                }
            }
        },
    }
    (d,) = desired_vnfcs(
        {
            "id": "i1",
            "instantiation_state": "INSTANTIATED",
            "instantiated_vnf_info": info,
        }
    )
    assert (d.key, d.workload, d.resource_type) == (
        "ns1/web-1",
        "Deployment/web",
        "Deployment",
    )
    new = refresh.adopt(
        info, {"web-1": ObservedServer("web-9", "ACTIVE", "n2", None)}
    )
    (item,) = new["vnfcResourceInfo"]
    assert item["id"] == item["computeResource"]["resourceId"] == "web-9"
    assert item["metadata"] == {"namespace": "ns1", "nodeName": "n2"}
    assert new["vnfcInfo"][0]["vnfcResourceInfoId"] == "web-9"
    assert info["vnfcResourceInfo"][0]["id"] == "web-1"  # not mutated
    assert refresh.adopt(info, {"gone": ObservedServer("x", "ACTIVE")}) is None
