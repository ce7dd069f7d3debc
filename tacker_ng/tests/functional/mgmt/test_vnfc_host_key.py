"""A VNFC's VNFM-made host key, from user data to a verified connection.

The OpenStack driver's key for a VNFC (host_keys.assign) goes to the
server in ``#cloud-config``; the test host's sshd is started with the key
taken from that user data, as cloud-init installs it. The executor pins
the public key recorded in the VNFC's VnfcResourceInfo: it connects with
verification, no known_hosts file and no trust-on-first-use.
"""

import pytest

from tacker_ng.infra.openstack import host_keys, info
from tacker_ng.infra.openstack.vnfcs import Vnfc
from tacker_ng.mgmt import ssh, ssh_errors, ssh_hostkeys
from tools.testvms import sshd_host

STRICT = ssh.Settings(
    connect_timeout=5,
    command_timeout=30,
    connect_attempts=3,
    retry_initial_delay=0.2,
    retry_max_delay=1.0,
    known_hosts_file=None,
    trust_on_first_use=False,
)


def _vnfc_with_key():
    vnfc = Vnfc("vnfc-1", "workerNode", 0, None, "m1.medium", "img")
    keys = host_keys.assign([vnfc], {"workerNode"}, {"workerNode-0"})
    user_data = host_keys.cloud_config(keys["workerNode-0"])
    return info.vnfc_resource_info(vnfc, "vim1"), user_data


def _executor(host, pin):
    creds = ssh.Credentials(host.username, private_key=host.client_private_key)
    return ssh.SshExecutor(host.address, creds, host_key=pin, settings=STRICT)


def test_vnfc_answers_with_the_key_the_vnfm_made(sshd_factory):
    record, user_data = _vnfc_with_key()
    host = sshd_factory(host_key=sshd_host.host_key_from_user_data(user_data))
    pin = ssh_hostkeys.pinned_key(record)
    assert pin is not None
    assert pin == host.host_public_key  # sshd serves the handed-over key
    with _executor(host, pin) as executor:
        assert executor.run(["id", "-un"]).stdout.strip() == host.username
    assert "Accepted publickey" in host.log


def test_a_vnfc_with_another_key_is_refused_before_login(sshd_factory):
    record, _ = _vnfc_with_key()
    _, other_user_data = _vnfc_with_key()
    host = sshd_factory(
        host_key=sshd_host.host_key_from_user_data(other_user_data)
    )
    with pytest.raises(ssh_errors.HostKeyRejected, match=host.address):
        _executor(host, ssh_hostkeys.pinned_key(record)).connect()
    assert "Accepted publickey" not in host.log


def test_a_vnfc_without_a_made_key_has_no_pin_and_is_refused(sshd):
    record = info.vnfc_resource_info(
        Vnfc("vnfc-2", "masterNode", 0, None, "f", "i"), "vim1"
    )
    assert ssh_hostkeys.pinned_key(record) is None
    with pytest.raises(ssh_errors.HostKeyRejected, match="not pinned"):
        _executor(sshd, None).connect()
