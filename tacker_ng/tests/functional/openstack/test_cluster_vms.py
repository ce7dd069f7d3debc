"""The k8s_cluster sample's VMs on real Heat + Nova: host keys, then
anti-affinity, on one deployment.

One VNF of the sample (VNF-A of the hardware-aware pod affinity spec),
driven through the real driver, tells two stories that used to deploy a
cluster each (``test_vnfc_host_keys.py`` and ``test_anti_affinity.py``):

* VNFM-made SSH host keys handed to the servers: instantiated with
  ``additionalParams.vnfcSshHostKeys``, each worker's user data (as Nova
  holds it) carries the Ed25519 host key whose public half its
  VnfcResourceInfo records; an sshd started with the key from that user
  data (what cloud-init would do) is verified by the executor with that
  pin alone. Scale out gives only the new VNFC a key and leaves the
  others' servers alone; heal gives the rebuilt one a new key.
* TOSCA anti-affinity as a Nova server group: masters and workers are in
  one PlacementGroup under an ``AntiAffinityRule`` of scope
  ``nfvi_node``; the VNFM turns it into an ``OS::Nova::ServerGroup`` of
  the stack, so Nova itself puts every node on its own compute host (the
  cluster scaled to the sample's level 2: 3 masters, 3 workers, one per
  host of the lane), and refuses a seventh.

The grant names no zone (an NFVO that leaves zones to the VIM): host
anti-affinity is the VIM's job here, and a zone per VNFC would cap the
cluster at the hosts of that zone.
"""

from __future__ import annotations

import base64

import pytest
import yaml

from tacker_ng.infra.openstack import errors, host_keys
from tacker_ng.mgmt import ssh, ssh_hostkeys
from tacker_ng.tests.functional.openstack import conftest, env, k8s_env
from tools.testvms import sshd_host

pytestmark = pytest.mark.minicloud
Op = env.Op
RULE = "policy_antiaffinity_group"
HOST_ATTR = "OS-EXT-SRV-ATTR:host"
NODES = [
    "masterNode-0",
    "masterNode-1",
    "masterNode-2",
    "workerNode-0",
    "workerNode-1",
    "workerNode-2",
]


@pytest.fixture(scope="module")
def k8s_package(tmp_path_factory):
    return k8s_env.package(tmp_path_factory.mktemp("k8s-pkg"), conftest.IMAGE)


@pytest.fixture
def strict(cloud):
    """Strict constraints (hard anti-affinity); restored."""
    with env.config([("fallback_best_effort", False, "placement")]):
        cloud.free_all()
        yield cloud


def _user_data(server) -> str:
    raw = getattr(server, "OS-EXT-SRV-ATTR:user_data")
    return base64.b64decode(raw).decode() if raw else ""


def _pins(vnf) -> dict[str, str | None]:
    return {n: ssh_hostkeys.pinned_key(v) for n, v in vnf.vnfcs().items()}


def _groups(cloud) -> list:
    return [g for g in cloud.server_groups() if g.name == RULE]


def _host_keys_story(cloud, vnf, sshd_factory) -> None:
    """Keys at instantiate, scale out and heal (see module doc)."""
    vnf.run(
        Op.INSTANTIATE,
        {
            "flavourId": k8s_env.FLAVOUR,
            "extVirtualLinks": k8s_env.ext_links(cloud),
            "additionalParams": {host_keys.PARAM: ["workerNode"]},
        },
    )
    pins = _pins(vnf)
    servers = k8s_env.servers(cloud, vnf)
    assert sorted(pins) == ["masterNode-0", "workerNode-0", "workerNode-1"]
    assert pins["masterNode-0"] is None  # not asked for
    # (Heat's own multipart user data, without any host key)
    assert "ssh_keys" not in _user_data(servers["masterNode-0"])
    for name in ("workerNode-0", "workerNode-1"):
        doc = yaml.safe_load(_user_data(servers[name]))
        assert doc["ssh_keys"]["ed25519_public"] == pins[name]
    assert pins["workerNode-0"] != pins["workerNode-1"]
    # What is recorded holds no private key.
    assert "PRIVATE KEY" not in str(vnf.instance)

    # The VM's sshd serves the key from its user data: the executor
    # verifies it with the recorded pin, no known_hosts, no TOFU.
    private = sshd_host.host_key_from_user_data(
        _user_data(servers["workerNode-1"])
    )
    host = sshd_factory(host_key=private)
    settings = ssh.Settings(connect_attempts=2, retry_initial_delay=0.2)
    creds = ssh.Credentials(host.username, private_key=host.client_private_key)
    with ssh.SshExecutor(
        host.address, creds, host_key=pins["workerNode-1"], settings=settings
    ) as executor:
        assert executor.run(["true"]).exit_status == 0

    # Scale out: only the new worker gets a key; the others' servers
    # are not rebuilt (user_data_update_policy IGNORE) and keep theirs.
    vnf.run(Op.SCALE, {"type": "SCALE_OUT", "aspectId": "worker_instance"})
    after_pins = _pins(vnf)
    after = k8s_env.servers(cloud, vnf)
    for name in ("workerNode-0", "workerNode-1", "masterNode-0"):
        assert after[name].id == servers[name].id
        assert after_pins[name] == pins[name]
    assert after_pins["workerNode-2"] not in (None, *pins.values())
    doc = yaml.safe_load(_user_data(after["workerNode-2"]))
    assert doc["ssh_keys"]["ed25519_public"] == after_pins["workerNode-2"]

    # Heal a worker: a new server with a new key.
    vnf.run(Op.HEAL, {"vnfcInstanceId": [vnf.vnfcs()["workerNode-0"]["id"]]})
    healed_pins = _pins(vnf)
    healed = k8s_env.servers(cloud, vnf)
    assert healed["workerNode-0"].id != servers["workerNode-0"].id
    assert healed_pins["workerNode-0"] not in (None, pins["workerNode-0"])
    doc = yaml.safe_load(_user_data(healed["workerNode-0"]))
    assert doc["ssh_keys"]["ed25519_public"] == healed_pins["workerNode-0"]
    assert healed_pins["workerNode-1"] == pins["workerNode-1"]
    assert healed["workerNode-1"].id == servers["workerNode-1"].id


def _anti_affinity_story(cloud, vnf) -> None:
    """Six nodes on six hosts, and no seventh (see module doc)."""
    hosts = set(cloud.hosts())
    assert len(hosts) == 6, hosts  # the premise: 6 compute hosts
    # The masters' step: 1 -> 3 (the sample's level 2 with 3 workers).
    vnf.run(Op.SCALE, {"type": "SCALE_OUT", "aspectId": "master_instance"})
    servers = k8s_env.servers(cloud, vnf)
    assert sorted(servers) == NODES
    assert {s.status for s in servers.values()} == {"ACTIVE"}
    placed = {n: getattr(s, HOST_ATTR) for n, s in servers.items()}
    assert set(placed.values()) == hosts, placed  # one node per host
    (group,) = _groups(cloud)
    assert group.policy == "anti-affinity"  # Nova API >= 2.64
    assert set(group.members) == {s.id for s in servers.values()}

    # A 7th node has no host left: Nova says so, the operation fails
    # (the conductor makes it FAILED_TEMP) with Nova's reason.
    with pytest.raises(errors.InsufficientCapacity) as err:
        vnf.run(Op.SCALE, {"type": "SCALE_OUT", "aspectId": "worker_instance"})
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
        r.resource_name for r in cloud.heat().resources.list(vnf.stack_name)
    }
    assert "workerNode-3" not in stack
    (group,) = _groups(cloud)
    assert set(group.members) == {s.id for s in servers.values()}


def test_host_keys_then_one_node_per_host_and_no_seventh(
    strict, k8s_package, sshd_factory
):
    cloud = strict
    vnf = k8s_env.ZonelessVnf(cloud, k8s_package)
    try:
        _host_keys_story(cloud, vnf, sshd_factory)
        _anti_affinity_story(cloud, vnf)
    finally:
        if vnf.instance.get("instantiatedVnfInfo"):
            vnf.run(Op.TERMINATE, {})
    assert not _groups(cloud)
