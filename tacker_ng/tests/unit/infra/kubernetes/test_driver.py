"""Pure parts of the driver: replica targets from the grant request and
the VIM it runs on."""

import pytest

from tacker_ng.infra import base
from tacker_ng.infra.kubernetes import errors
from tacker_ng.infra.kubernetes import state as driver
from tacker_ng.objects import lcm

K8S = {"vimType": "ETSINFV.KUBERNETES.V_1"}


def task(op, instance=None, grant_request=None, grant=None):
    return base.LcmTask(
        context=None,
        operation=op,
        op_occ_id="occ",
        instance=instance or {},
        request={},
        vnfd=None,
        package_root=None,
        grant_request=grant_request or {},
        grant=grant or {},
        progress={},
        save_progress=lambda: None,
        cancel_requested=lambda: None,
    )


def res(vdu, kind="COMPUTE"):
    return {"type": kind, "vduId": vdu}


INSTANCE = {
    "instantiatedVnfInfo": {
        "vnfcResourceInfo": [
            {"id": "a", "vduId": "VDU1"},
            {"id": "b", "vduId": "VDU2"},
            {"id": "c", "vduId": "VDU2"},
        ]
    }
}


def test_target_counts():
    t = task(
        lcm.Operation.INSTANTIATE,
        grant_request={
            "addResources": [res("VDU1"), res("VDU2"), res("VDU2", "STORAGE")]
        },
    )
    assert driver.target_counts(t) == {"VDU1": 1, "VDU2": 1}
    t = task(
        lcm.Operation.SCALE,
        INSTANCE,
        {"addResources": [res("VDU2"), res("VDU2")]},
    )
    assert driver.target_counts(t) == {"VDU1": 1, "VDU2": 4}
    t = task(
        lcm.Operation.SCALE_TO_LEVEL,
        INSTANCE,
        {"removeResources": [res("VDU2")]},
    )
    assert driver.target_counts(t) == {"VDU1": 1, "VDU2": 1}


def test_vim_of_prefers_grant_then_instance():
    mine = {"vim": {**K8S, "n": 1}}
    other = {"os": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}}
    t = task(
        lcm.Operation.INSTANTIATE, {"vimConnectionInfo": {**other, **mine}}
    )
    assert driver.vim_of(t) == ("vim", mine["vim"])
    granted = {"g": {**K8S, "n": 2}}
    t.grant = {"vimConnectionInfo": granted}
    assert driver.vim_of(t) == ("g", granted["g"])
    t = task(lcm.Operation.INSTANTIATE, {"vimConnectionInfo": other})
    with pytest.raises(errors.InvalidVimConnection):
        driver.vim_of(t)


def test_restorable_drops_server_state():
    from tacker_ng.infra.kubernetes import lifecycle
    from tacker_ng.infra.kubernetes.kube import ObjectRef

    obj = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "vdu1",
            "namespace": "ns",
            "labels": {"a": "b"},
            "annotations": {"x": "y"},
            "uid": "u",
            "resourceVersion": "7",
            "generation": 3,
            "managedFields": [],
        },
        "spec": {"replicas": 2},
        "status": {"readyReplicas": 2},
    }
    assert lifecycle.restorable(obj) == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "vdu1",
            "namespace": "ns",
            "labels": {"a": "b"},
            "annotations": {"x": "y"},
        },
        "spec": {"replicas": 2},
    }
    ref = ObjectRef.of(obj)
    assert lifecycle.key(ref) == "apps/v1|Deployment|ns|vdu1"
    assert ObjectRef.from_dict(ref.to_dict()) == ref
    cluster_wide = ObjectRef("v1", "Namespace", "ns")
    assert lifecycle.key(cluster_wide) == "v1|Namespace||ns"
    assert (
        str(cluster_wide) == "Namespace ns"
        and str(ref) == "Deployment ns/vdu1"
    )


def test_stored_state_needs_this_driver():
    from tacker_ng.infra.kubernetes import state

    with pytest.raises(errors.InvalidManifest, match="not deployed by"):
        state.CnfState.stored({"instantiatedVnfInfo": {"metadata": {}}})
