"""Arguments and parsing of the Kubernetes-cluster MgmtDriver (pure)."""

import base64
import json
import re

import pytest

from tacker_ng.mgmt import sshcmd
from tacker_ng.mgmt.kubernetes_cluster import commands

HOSTILE = ["; rm -rf /", "$(reboot)", "`id`", "a\nb", "x' y", "--help"]
HASH = "sha256:" + "ab" * 32


def test_tokens_have_kubeadm_format_and_differ():
    tokens = {commands.new_token() for _ in range(50)}
    assert len(tokens) == 50
    for token in tokens:
        assert re.fullmatch(r"[a-z0-9]{6}\.[a-z0-9]{16}", token)
        assert commands.check_token(token) == token
    assert re.fullmatch(r"[0-9a-f]{64}", commands.new_certificate_key())


@pytest.mark.parametrize("bad", HOSTILE + ["abc.def", ""])
def test_malformed_token_refused(bad):
    with pytest.raises(commands.ClusterError):
        commands.check_token(bad)


def test_endpoint_of_addresses_and_names():
    assert commands.endpoint("10.99.0.5") == "10.99.0.5:6443"
    assert commands.endpoint("fd00::5", 443) == "[fd00::5]:443"
    assert commands.endpoint("k8s.example.org") == "k8s.example.org:6443"


@pytest.mark.parametrize("bad", HOSTILE)
def test_endpoint_refuses_hostile_values(bad):
    with pytest.raises(commands.ClusterError):
        commands.endpoint(bad)


def test_join_secrets_only_on_stdin():
    join = commands.JoinData("10.0.0.1:6443", HASH, "abcdef.0123456789abcdef",
                             "k" * 64)  # fmt: skip
    initial = "m-0=https://10.0.0.1:2380,m-1=https://10.0.0.2:2380"
    argv = commands.install_master_join(join, "m-1", "10.0.0.2", initial)
    assert argv == ["join", "10.0.0.1:6443", HASH, "m-1", "10.0.0.2", initial]
    assert commands.install_worker(join, "w-0") == [
        "10.0.0.1:6443",
        HASH,
        "w-0",
    ]
    for secret in join.secrets():
        assert secret not in " ".join(argv)
        assert secret not in repr(join)
    assert join.stdin() == f"abcdef.0123456789abcdef\n{'k' * 64}\n"


def test_control_plane_join_carries_the_etcd_ca_on_stdin_only():
    ca = "Q0EgY2VydCBhbmQga2V5"
    join = commands.JoinData("10.0.0.1:6443", HASH, "abcdef.0123456789abcdef",
                             "k" * 64, etcd_ca=ca)  # fmt: skip
    initial = "m-0=https://10.0.0.1:2380"
    argv = commands.install_master_join(join, "m-1", "10.0.0.2", initial)
    assert ca not in " ".join(argv)
    assert ca not in repr(join)
    assert ca in join.secrets()
    assert join.stdin().splitlines() == [
        "abcdef.0123456789abcdef", "k" * 64, ca]  # fmt: skip


def test_install_init_quotes_and_validates():
    argv = commands.install_master_init(
        "10.0.0.1:6443", "10.244.0.0/16", "m-0", "10.0.0.1"
    )
    assert sshcmd.build_command(argv) == (
        "init 10.0.0.1:6443 10.244.0.0/16 m-0 10.0.0.1"
    )
    with pytest.raises(ValueError):
        commands.install_master_init(
            "10.0.0.1:6443", "; rm -rf /", "m-0", "10.0.0.1"
        )


@pytest.mark.parametrize("bad", HOSTILE)
def test_install_master_refuses_hostile_addresses(bad):
    with pytest.raises(commands.ClusterError):
        commands.install_master_init(
            "10.0.0.1:6443", "10.244.0.0/16", "m-0", bad
        )


def test_parse_join_takes_only_our_token():
    token = "abcdef.0123456789abcdef"
    out = (
        "W1125 noise\n"
        f"kubeadm join 10.99.0.5:6443 --token {token} "
        f"--discovery-token-ca-cert-hash {HASH}\n"
    )
    assert commands.parse_join(out, token) == ("10.99.0.5:6443", HASH)
    with pytest.raises(commands.ClusterError):
        commands.parse_join(out, "zzzzzz.0123456789abcdef")


@pytest.mark.parametrize(
    "line",
    [
        "kubeadm join $(reboot):6443 --token {t} "
        "--discovery-token-ca-cert-hash " + HASH,
        "kubeadm join 10.0.0.1:6443 --token {t} "
        "--discovery-token-ca-cert-hash sha256:;rm",
        "kubeadm join 10.0.0.1;rm:6443 --token {t} "
        "--discovery-token-ca-cert-hash " + HASH,
        "",
    ],
)
def test_parse_join_refuses_odd_output(line):
    token = "abcdef.0123456789abcdef"
    with pytest.raises(commands.ClusterError):
        commands.parse_join(line.format(t=token), token)


def _kubeconfig(user: dict) -> str:
    ca = base64.b64encode(b"-----BEGIN CERTIFICATE-----\nX\n").decode()
    return json.dumps(
        {
            "current-context": "c",
            "contexts": [
                {"name": "c", "context": {"cluster": "k", "user": "u"}}
            ],
            "clusters": [
                {
                    "name": "k",
                    "cluster": {
                        "server": "https://10.0.0.1:6443",
                        "certificate-authority-data": ca,
                    },
                }
            ],
            "users": [{"name": "u", "user": user}],
        }
    )


def test_vim_from_kubeconfig_token_and_cert():
    vim = commands.vim_from_kubeconfig(_kubeconfig({"token": "s3cret"}), "v")
    assert vim["vimType"] == "ETSINFV.KUBERNETES.V_1"
    assert vim["interfaceInfo"]["endpoint"] == "https://10.0.0.1:6443"
    assert vim["interfaceInfo"]["ssl_ca_cert"].startswith("-----BEGIN")
    assert vim["accessInfo"] == {"bearer_token": "s3cret"}
    pem = base64.b64encode(b"PEM").decode()
    vim = commands.vim_from_kubeconfig(
        _kubeconfig({"client-certificate-data": pem, "client-key-data": pem}),
        "v",
    )
    assert vim["accessInfo"] == {"client_cert": "PEM", "client_key": "PEM"}


@pytest.mark.parametrize("text", ["", "{]", json.dumps({"a": 1})])
def test_unusable_kubeconfig_is_refused_without_its_text(text):
    with pytest.raises(commands.ClusterError) as err:
        commands.vim_from_kubeconfig(text, "v")
    assert "s3cret" not in str(err.value)


def test_kubeconfig_without_credentials_refused():
    with pytest.raises(commands.ClusterError):
        commands.vim_from_kubeconfig(_kubeconfig({}), "v")


@pytest.mark.parametrize("bad", [*HOSTILE, "Worker_0", "-w", ""])
def test_node_name_refuses_hostile_values(bad):
    join = commands.JoinData("10.0.0.1:6443", HASH, "abcdef.0123456789abcdef")
    with pytest.raises(commands.ClusterError):
        commands.install_worker(join, bad)
