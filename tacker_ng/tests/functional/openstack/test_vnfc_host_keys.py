"""VNFM-made SSH host keys handed to the servers, on real Heat + Nova.

The k8s_cluster sample instantiated with ``additionalParams``
``vnfcSshHostKeys``: each server's user data (as Nova holds it) carries
the Ed25519 host key whose public half the VNFC's VnfcResourceInfo
records; an sshd started with the key from that user data (what
cloud-init would do) is verified by the executor with that pin alone.
Scale out gives only the new VNFC a key and leaves the others' servers
alone; heal gives the rebuilt one a new key.
"""

from __future__ import annotations

import base64

import pytest
import yaml

from tacker_ng.infra.openstack import host_keys
from tacker_ng.mgmt import ssh, ssh_hostkeys
from tacker_ng.tests.functional.openstack import conftest, env, k8s_env
from tools.testvms import sshd_host

pytestmark = pytest.mark.minicloud
Op = env.Op


@pytest.fixture(scope="module")
def k8s_package(tmp_path_factory):
    return k8s_env.package(tmp_path_factory.mktemp("k8s-pkg"), conftest.IMAGE)


@pytest.fixture
def quick(cloud):
    """The lane, without fillers (the default polls start at 0.2 s)."""
    cloud.free_all()
    return cloud


def _user_data(server) -> str:
    raw = getattr(server, "OS-EXT-SRV-ATTR:user_data")
    return base64.b64decode(raw).decode() if raw else ""


def _pins(vnf) -> dict[str, str | None]:
    return {n: ssh_hostkeys.pinned_key(v) for n, v in vnf.vnfcs().items()}


def test_each_vnfc_gets_its_key_through_user_data(
    quick, k8s_package, sshd_factory
):
    cloud = quick
    vnf = k8s_env.ZonelessVnf(cloud, k8s_package)
    try:
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
        creds = ssh.Credentials(
            host.username, private_key=host.client_private_key
        )
        with ssh.SshExecutor(
            host.address,
            creds,
            host_key=pins["workerNode-1"],
            settings=settings,
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
        vnf.run(
            Op.HEAL,
            {"vnfcInstanceId": [vnf.vnfcs()["workerNode-0"]["id"]]},
        )
        healed_pins = _pins(vnf)
        healed = k8s_env.servers(cloud, vnf)
        assert healed["workerNode-0"].id != servers["workerNode-0"].id
        assert healed_pins["workerNode-0"] not in (None, pins["workerNode-0"])
        doc = yaml.safe_load(_user_data(healed["workerNode-0"]))
        assert doc["ssh_keys"]["ed25519_public"] == healed_pins["workerNode-0"]
        assert healed_pins["workerNode-1"] == pins["workerNode-1"]
        assert healed["workerNode-1"].id == servers["workerNode-1"].id
    finally:
        if vnf.instance.get("instantiatedVnfInfo"):
            vnf.run(Op.TERMINATE, {})
