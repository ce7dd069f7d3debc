"""The masters' etcd membership and HAProxy backend arguments (pure)."""

import pytest

from tacker_ng.mgmt import sshcmd
from tacker_ng.mgmt.kubernetes_cluster import commands, etcd, haproxy

HOSTILE = ["; rm -rf /", "$(reboot)", "`id`", "a\nb", "x' y", "--help", ""]
ADD_OUTPUT = (
    "Member 8211f1d0f64f3269 added to cluster 14841639068965178418\n\n"
    'ETCD_NAME="masternode-1"\n'
    'ETCD_INITIAL_CLUSTER="masternode-0=http://10.0.0.5:2380,'
    'masternode-1=http://10.0.0.9:2380"\n'
    'ETCD_INITIAL_ADVERTISE_PEER_URLS="http://10.0.0.9:2380"\n'
    'ETCD_INITIAL_CLUSTER_STATE="existing"\n'
)


def test_member_add_and_remove_arguments():
    assert etcd.member_add("masternode-1", "10.0.0.9") == [
        "add",
        "masternode-1",
        "http://10.0.0.9:2380",
    ]
    assert etcd.member_remove("masternode-1") == ["remove", "masternode-1"]
    assert etcd.peer_url("fd00::9") == "http://[fd00::9]:2380"


@pytest.mark.parametrize("bad", HOSTILE)
def test_member_arguments_refuse_hostile_values(bad):
    with pytest.raises(commands.ClusterError):
        etcd.member_add(bad, "10.0.0.9")
    with pytest.raises(commands.ClusterError):
        etcd.member_add("masternode-1", bad)
    with pytest.raises(commands.ClusterError):
        etcd.member_remove(bad)


def test_initial_cluster_from_member_add():
    got = etcd.initial_cluster(ADD_OUTPUT, "masternode-1", "10.0.0.9")
    assert got == (
        "masternode-0=http://10.0.0.5:2380,masternode-1=http://10.0.0.9:2380"
    )
    swapped = ADD_OUTPUT.replace(
        "masternode-0=http://10.0.0.5:2380,masternode-1=http://10.0.0.9:2380",
        "masternode-1=http://10.0.0.9:2380,masternode-0=http://10.0.0.5:2380",
    )
    assert swapped != ADD_OUTPUT
    assert etcd.initial_cluster(swapped, "masternode-1", "10.0.0.9") == got
    # It is one shell word: passed on as a single quoted argument.
    assert sshcmd.build_command(["x", got]) == f"x {got}"


@pytest.mark.parametrize(
    "output",
    [
        "",
        # Not naming the new member (or at another address).
        ADD_OUTPUT.replace('10.0.0.9:2380"\n', '10.0.0.7:2380"\n', 1),
        # An entry smuggling shell text.
        ADD_OUTPUT.replace("masternode-0=", "$(reboot)=", 1),
        ADD_OUTPUT.replace(":2380,", ":2380;rm -rf /,", 1),
    ],
)
def test_initial_cluster_refuses_anything_else(output):
    with pytest.raises(commands.ClusterError):
        etcd.initial_cluster(output, "masternode-1", "10.0.0.9")


def test_backends_one_word_per_master():
    args = haproxy.backends([("masternode-0", "10.0.0.5"),
                             ("masternode-1", "10.0.0.9")])  # fmt: skip
    assert args == ["masternode-0=10.0.0.5", "masternode-1=10.0.0.9"]
    assert sshcmd.build_command(args) == " ".join(args)


@pytest.mark.parametrize("bad", HOSTILE)
def test_backends_refuse_hostile_values(bad):
    with pytest.raises(commands.ClusterError):
        haproxy.backends([(bad, "10.0.0.5")])
    with pytest.raises(commands.ClusterError):
        haproxy.backends([("masternode-0", bad)])


def test_backends_never_empty():
    with pytest.raises(commands.ClusterError):
        haproxy.backends([])
