"""vimConnectionInfo checks, secrets at rest, client configuration."""

import os

import pytest

from tacker_ng import crypto
from tacker_ng.infra.kubernetes import connection, errors

PEM = "-----BEGIN X-----\nAAAA\n-----END X-----\n"


def vim(**access):
    return {
        "vimId": "k8s",
        "vimType": connection.VIM_TYPE,
        "interfaceInfo": {"endpoint": "https://k8s.example:6443/"},
        "accessInfo": access,
    }


@pytest.mark.parametrize(
    "change,reason",
    [
        ({"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}, "is not"),
        ({"interfaceInfo": {}}, "endpoint"),
        ({"interfaceInfo": {"endpoint": "k8s:6443"}}, "endpoint"),
        ({"accessInfo": {}}, "bearer_token"),
        ({"accessInfo": {"client_cert": PEM}}, "bearer_token"),
    ],
)
def test_check_refuses(change, reason):
    bad = {**vim(bearer_token="t"), **change}
    with pytest.raises(errors.InvalidVimConnection, match=reason) as exc:
        connection.check(bad)
    assert exc.value.status == 422


def test_secrets_sealed_and_masked(conf):
    body = vim(bearer_token="tok-123", client_cert=PEM, client_key=PEM)
    body["interfaceInfo"]["ssl_ca_cert"] = PEM
    sealed = crypto.seal(body)
    access = sealed["accessInfo"]
    assert access["bearer_token"].startswith(crypto.PREFIX)
    assert access["client_key"].startswith(crypto.PREFIX)
    assert access["client_cert"] == PEM  # a certificate is public
    assert crypto.unseal(sealed) == body
    masked = crypto.mask(sealed)
    assert masked["accessInfo"] == {"client_cert": PEM}
    assert masked["interfaceInfo"]["ssl_ca_cert"] == PEM


def test_bearer_client(conf):
    body = vim(bearer_token="tok-123")
    body["interfaceInfo"]["ssl_ca_cert"] = PEM
    with connection.api_client(body) as api:
        cfg = api.configuration
        assert cfg.host == "https://k8s.example:6443"
        assert cfg.get_api_key_with_prefix("authorization") == "Bearer tok-123"
        assert cfg.debug is False
        with open(cfg.ssl_ca_cert) as f:
            assert f.read() == PEM
        directory = os.path.dirname(cfg.ssl_ca_cert)
    assert not os.path.exists(directory)


def test_client_cert_client(conf):
    body = vim(client_cert=PEM, client_key=PEM)
    body["interfaceInfo"]["skipCertificateVerification"] = True
    with connection.api_client(body) as api:
        cfg = api.configuration
        assert cfg.verify_ssl is False
        assert oct(os.stat(cfg.key_file).st_mode & 0o777) == "0o600"
        assert not cfg.api_key
        key_file = cfg.key_file
    assert not os.path.exists(key_file)


def test_a_bearer_token_and_a_client_cert_together(conf):
    """A cluster that wants mutual TLS and a token gets both."""
    body = vim(bearer_token="tok-123", client_cert=PEM, client_key=PEM)
    with connection.api_client(body) as api:
        cfg = api.configuration
        assert cfg.get_api_key_with_prefix("authorization") == "Bearer tok-123"
        with open(cfg.cert_file) as f:
            assert f.read() == PEM
        assert oct(os.stat(cfg.key_file).st_mode & 0o777) == "0o600"
