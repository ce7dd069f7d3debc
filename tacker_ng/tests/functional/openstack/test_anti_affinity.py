"""TOSCA anti-affinity as a Nova server group, on real Heat + Nova.

The k8s_cluster sample (VNF-A of the hardware-aware pod affinity spec):
masters and workers in one PlacementGroup under an ``AntiAffinityRule``
of scope ``nfvi_node``. The VNFM turns the rule into an
``OS::Nova::ServerGroup`` of the stack, so Nova itself puts every node on
its own compute host, and refuses one more than there are hosts.

The grant names no zone (an NFVO that leaves zones to the VIM): host
anti-affinity is the VIM's job here, and a zone per VNFC would cap the
cluster at the hosts of that zone.
"""

from __future__ import annotations

import pytest

from tacker_ng.infra.openstack import errors
from tacker_ng.tests.functional.openstack import conftest, env, k8s_env

pytestmark = pytest.mark.minicloud
Op = env.Op
RULE = "policy_antiaffinity_group"
HOST_ATTR = "OS-EXT-SRV-ATTR:host"


@pytest.fixture(scope="module")
def k8s_package(tmp_path_factory):
    return k8s_env.package(tmp_path_factory.mktemp("k8s-pkg"), conftest.IMAGE)


@pytest.fixture
def strict(cloud):
    """Strict constraints (hard anti-affinity), quick polls; restored."""
    overrides = [
        ("fallback_best_effort", False, "placement"),
    ]
    with env.config(overrides):
        cloud.free_all()
        yield cloud


def _groups(cloud) -> list:
    return cloud.server_groups()


def test_cluster_nodes_on_distinct_hosts_and_no_seventh(strict, k8s_package):
    cloud = strict
    hosts = {h for z in cloud.zones() for h in cloud.hosts(z)}
    assert len(hosts) == 6, hosts  # the test's premise: 6 compute hosts
    vnf = k8s_env.ZonelessVnf(cloud, k8s_package)
    try:
        vnf.run(
            Op.INSTANTIATE,
            {
                "flavourId": k8s_env.FLAVOUR,
                "instantiationLevelId": "instantiation_level_2",
                "extVirtualLinks": k8s_env.ext_links(cloud),
            },
        )
        servers = k8s_env.servers(cloud, vnf)
        assert sorted(servers) == [
            "masterNode-0",
            "masterNode-1",
            "masterNode-2",
            "workerNode-0",
            "workerNode-1",
            "workerNode-2",
        ]
        assert {s.status for s in servers.values()} == {"ACTIVE"}
        placed = {n: getattr(s, HOST_ATTR) for n, s in servers.items()}
        assert set(placed.values()) == hosts, placed  # one node per host
        (group,) = [g for g in _groups(cloud) if g.name == RULE]
        assert group.policy == "anti-affinity"  # Nova API >= 2.64
        assert set(group.members) == {s.id for s in servers.values()}

        # A 7th node has no host left: Nova says so, the operation fails
        # (the conductor makes it FAILED_TEMP) with Nova's reason.
        with pytest.raises(errors.InsufficientCapacity) as err:
            vnf.run(
                Op.SCALE,
                {"type": "SCALE_OUT", "aspectId": "worker_instance"},
            )
        problem = err.value.to_problem_details()
        assert problem["status"] == 409
        assert env.NO_VALID_HOST in problem["detail"], problem
        assert "workerNode-3" in problem["detail"], problem
        vnf.rollback()
        after = k8s_env.servers(cloud, vnf)
        assert {n: s.id for n, s in after.items()} == {
            n: s.id for n, s in servers.items()
        }
        stack = {
            r.resource_name
            for r in cloud.heat().resources.list(vnf.stack_name)
        }
        assert "workerNode-3" not in stack
        (group,) = [g for g in _groups(cloud) if g.name == RULE]
        assert set(group.members) == {s.id for s in servers.values()}
    finally:
        if vnf.instance.get("instantiatedVnfInfo"):
            vnf.run(Op.TERMINATE, {})
    assert not [g for g in _groups(cloud) if g.name == RULE]
