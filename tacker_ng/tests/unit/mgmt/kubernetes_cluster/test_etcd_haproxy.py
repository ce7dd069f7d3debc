"""The masters' etcd membership and HAProxy backend arguments (pure)."""

import base64
import datetime

import pytest

from tacker_ng.mgmt import sshcmd
from tacker_ng.mgmt.kubernetes_cluster import commands, etcd, haproxy
from tacker_ng.mgmt.kubernetes_cluster.commands import ClusterError

HOSTILE = ["; rm -rf /", "$(reboot)", "`id`", "a\nb", "x' y", "--help", ""]
ADD_OUTPUT = (
    "Member 8211f1d0f64f3269 added to cluster 14841639068965178418\n\n"
    'ETCD_NAME="masternode-1"\n'
    'ETCD_INITIAL_CLUSTER="masternode-0=https://10.0.0.5:2380,'
    'masternode-1=https://10.0.0.9:2380"\n'
    'ETCD_INITIAL_ADVERTISE_PEER_URLS="https://10.0.0.9:2380"\n'
    'ETCD_INITIAL_CLUSTER_STATE="existing"\n'
)


def test_member_add_and_remove_arguments():
    assert etcd.member_add("masternode-1", "10.0.0.9") == [
        "add",
        "masternode-1",
        "https://10.0.0.9:2380",
    ]
    assert etcd.member_remove("masternode-1") == ["remove", "masternode-1"]
    assert etcd.peer_url("fd00::9") == "https://[fd00::9]:2380"


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
        "masternode-0=https://10.0.0.5:2380,masternode-1=https://10.0.0.9:2380"
    )
    swapped = ADD_OUTPUT.replace(
        "masternode-0=https://10.0.0.5:2380,masternode-1=https://10.0.0.9:2380",
        "masternode-1=https://10.0.0.9:2380,masternode-0=https://10.0.0.5:2380",
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


def _ca_bundle() -> str:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "etcd-ca")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    pem = cert.public_bytes(serialization.Encoding.PEM) + key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return base64.b64encode(pem).decode()


def test_ca_bundle_takes_what_read_etcd_ca_prints():
    bundle = _ca_bundle()
    assert etcd.ca_bundle(f"{bundle}\n") == bundle


@pytest.mark.parametrize(
    "output",
    [
        "",
        "not base64 at all; rm -rf /",
        base64.b64encode(
            b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
        ).decode(),
        "$(reboot)",
    ],
)
def test_ca_bundle_refuses_anything_else_without_showing_it(output):
    with pytest.raises(ClusterError) as err:
        etcd.ca_bundle(output)
    if output:
        assert output not in str(err.value)


def test_peer_urls_are_https():
    assert etcd.peer_url("10.0.0.9") == "https://10.0.0.9:2380"
    assert etcd.member_add("m-1", "10.0.0.9") == [
        "add", "m-1", "https://10.0.0.9:2380"]  # fmt: skip
