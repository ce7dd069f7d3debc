"""The control-plane endpoint, the bounded drain's report and the op
occ's VNFC metadata (pure)."""

import pytest

from tacker_ng.mgmt import base, ssh
from tacker_ng.mgmt.kubernetes_cluster import drain, endpoint, params
from tacker_ng.mgmt.kubernetes_cluster.commands import ClusterError

CREDS = ssh.Credentials("ubuntu", password="pw")

FORCED = """\
node/workernode-1 cordoned
evicting pod default/web-5d4f8-abcde
evicting pod cnf-1a2b/vdu2-7c9-xyz12
error: unable to drain node "workernode-1", aborting command...
drain of workernode-1 not finished after 30s: force-deleting the pods left
force-deleted default/web-5d4f8-abcde
force-deleted cnf-1a2b/vdu2-7c9-xyz12
force-deleted Bad/NAME
force-deleted default/x; rm -rf /
node "workernode-1" deleted
"""


def test_endpoint_is_the_local_balancer_unless_an_address_is_given():
    local = params.ClusterParams(CREDS)
    assert endpoint.control_plane(local) == "127.0.0.1:8383"
    assert endpoint.local_balancer(local)
    vip = params.ClusterParams(
        CREDS, control_plane_address="10.0.0.100", control_plane_port=8383
    )
    assert endpoint.control_plane(vip) == "10.0.0.100:8383"
    assert not endpoint.local_balancer(vip)
    named = params.ClusterParams(CREDS, control_plane_address="k8s.example")
    assert endpoint.control_plane(named) == "k8s.example:6443"
    with pytest.raises(ClusterError):
        endpoint.control_plane(
            params.ClusterParams(CREDS, control_plane_address="-x")
        )


@pytest.mark.parametrize(
    ("server", "want"),
    [
        ("https://127.0.0.1:8383", "https://10.0.0.5:6443"),
        ("https://127.0.1.1:6443", "https://10.0.0.5:6443"),
        ("https://localhost:8383", "https://10.0.0.5:6443"),
        ("https://[::1]:8383", "https://10.0.0.5:6443"),
        ("https://10.0.0.100:8383", "https://10.0.0.100:8383"),
        ("https://k8s.example:6443", "https://k8s.example:6443"),
    ],
)
def test_vim_endpoint_never_a_loopback(server, want):
    assert endpoint.vim_endpoint(server, "10.0.0.5") == want


def test_vim_endpoint_of_an_ipv6_master():
    got = endpoint.vim_endpoint("https://127.0.0.1:8383", "fd00::5")
    assert got == "https://[fd00::5]:6443"


def test_drain_outcomes():
    assert drain.outcome("node/x cordoned\nnode/x drained\ndrained x\n") == (
        drain.Outcome("EVICTED")
    )
    got = drain.outcome(FORCED)
    # Only well-formed namespace/name pairs are taken.
    assert got == drain.Outcome(
        "FORCED", ("default/web-5d4f8-abcde", "cnf-1a2b/vdu2-7c9-xyz12")
    )
    assert drain.outcome("node x is not in the cluster: nothing to "
                         "remove\n") is None  # fmt: skip


def test_drain_metadata_and_arguments():
    forced = drain.Outcome("FORCED", ("default/a",))
    assert drain.metadata("workernode-1", 30, forced) == {
        "nodeDrain": {
            "node": "workernode-1",
            "result": "FORCED",
            "evictionTimeout": 30,
            "forceDeletedPods": ["default/a"],
        }
    }
    assert drain.metadata("w", 5, drain.Outcome("EVICTED")) == {
        "nodeDrain": {"node": "w", "result": "EVICTED", "evictionTimeout": 5}
    }
    assert drain.remove_args("workernode-1", 30) == ["workernode-1", "30"]
    with pytest.raises(ClusterError):
        drain.remove_args("--all", 30)


@pytest.mark.parametrize(
    ("raw", "field", "want"),
    [
        ({"drainTimeout": 15}, "drain_timeout", 15),
        ({}, "drain_timeout", 120),
        ({"controlPlanePort": 8383}, "control_plane_port", 8383),
        ({}, "control_plane_port", 6443),
    ],
)
def test_whole_number_parameters(raw, field, want):
    got = params.from_request(
        {"additionalParams": {"k8sCluster": {"ssh": {"username": "u"}, **raw}}}
    )
    assert getattr(got, field) == want


@pytest.mark.parametrize(
    "raw",
    [
        {"drainTimeout": 0},
        {"drainTimeout": 3601},
        {"drainTimeout": "30"},
        {"drainTimeout": True},
        {"drainTimeout": 1.5},
        {"controlPlanePort": 0},
        {"controlPlanePort": 65536},
    ],
)
def test_bad_whole_numbers_are_422(raw):
    with pytest.raises(ClusterError) as err:
        params.from_request(
            {"additionalParams": {"k8sCluster": {"ssh": {"username": "u"},
                                                 **raw}}}
        )  # fmt: skip
    assert err.value.status == 422
    assert next(iter(raw)) in str(err.value)


def test_vnfc_metadata_merged_into_the_affected_vnfcs():
    changes = {
        "affectedVnfcs": [
            {"id": "a", "changeType": "MODIFIED", "metadata": {"zone": "z"}},
            {"id": "b", "changeType": "REMOVED"},
            {"id": "c", "changeType": "ADDED", "metadata": {"zone": "y"}},
        ],
        "affectedVirtualStorages": [{"id": "v"}],
    }
    notes = {
        "a": {"nodeDrain": {"result": "FORCED"}},
        "b": {"nodeDrain": {"result": "EVICTED"}},
        "gone": {"nodeDrain": {"result": "EVICTED"}},
    }
    got = base.merge_vnfc_metadata(changes, notes)
    assert got["affectedVnfcs"] == [
        {
            "id": "a",
            "changeType": "MODIFIED",
            "metadata": {"zone": "z", "nodeDrain": {"result": "FORCED"}},
        },
        {
            "id": "b",
            "changeType": "REMOVED",
            "metadata": {"nodeDrain": {"result": "EVICTED"}},
        },
        {"id": "c", "changeType": "ADDED", "metadata": {"zone": "y"}},
    ]
    assert got["affectedVirtualStorages"] == [{"id": "v"}]
    # The input is not changed; nothing to merge leaves it as it was.
    assert "nodeDrain" not in changes["affectedVnfcs"][0]["metadata"]
    assert base.merge_vnfc_metadata(changes, {}) is changes
    assert base.merge_vnfc_metadata(None, notes) is None
