"""An NFVO on SOL013 terms: mutual TLS to tacker-ng-api, a
certificate-bound access token from an external authorization server
(RFC 7662 introspection, :mod:`..authz_server`), and the refusals an
attacker meets: no certificate, another CA's certificate, a token that
expired, was meant for another VNFM or is bound to another certificate.
"""

import ssl
import time

import pytest
import requests

from tacker_ng.tests import pki
from tacker_ng.tests.functional import deployment, services
from tacker_ng.tests.functional.auth import nfvo
from tacker_ng.tests.functional.authz_server import AuthzServer

AUDIENCE = "https://vnfm.test/tacker-ng"
PROJECT = "p-nfvo"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ext-oauth2")
    ca = pki.CertificateAuthority(tmp / "pki", "nfv-ca")
    server = ca.server("127.0.0.1")
    with AuthzServer(ca, AUDIENCE) as authz:
        authz.register("nfvo-1", "nfvo-secret", PROJECT, "vnflcm")
        extra = {
            "api": {
                "auth_strategy": "external_oauth2",
                "ssl_cert_file": server.cert,
                "ssl_key_file": server.key,
                "ssl_client_ca_file": ca.ca,
            },
            "external_oauth2": {
                "introspection_endpoint": f"{authz.url}/introspect",
                "client_id": "vnfm",
                "client_secret": "vnfm-secret",
                "ca_file": ca.ca,
                "audience": AUDIENCE,
                "issuer": authz.url,
                "scope_roles": "vnflcm=member",
            },
        }
        probe = ca.client("probe")
        with (
            services.scratch_database("mariadb") as sql_url,
            deployment.deploy(
                tmp,
                sql_url,
                conductors=("cond-a",),
                extra=extra,
                api_workers=1,
                http_kw={"verify": str(ca.ca), "cert": probe.pair},
            ) as dep,
        ):
            package = nfvo.onboard(dep, PROJECT)
            yield dep, ca, authz, package


def _token(authz, ca, cert) -> str:
    resp = requests.post(
        f"{authz.url}/token",
        data={"grant_type": "client_credentials"},
        auth=("nfvo-1", "nfvo-secret"),
        verify=str(ca.ca),
        cert=cert.pair if cert else None,
        timeout=10,
    )
    assert resp.status_code == 200, resp.text
    return resp.json()["access_token"]


def _client(dep, ca, cert, token) -> deployment.SolClient:
    return deployment.SolClient(
        dep.url,
        {"Authorization": f"Bearer {token}"},
        verify=str(ca.ca),
        cert=cert.pair,
    )


def test_nfvo_with_bound_token_drives_the_lifecycle(env):
    dep, ca, authz, package = env
    cert = ca.client("nfvo-1")
    token = _token(authz, ca, cert)
    before = authz.introspections
    client = _client(dep, ca, cert, token)
    nfvo.lifecycle(client, package["vnfd_id"])
    # Dozens of requests, one introspection: cached for the lifetime.
    assert authz.introspections - before == 1
    # The token is never written to the API's log.
    assert token not in dep.api.log_text()


@pytest.mark.parametrize(
    ("claims", "words"),
    [
        ({"exp": int(time.time()) - 3600}, "expired"),
        ({"aud": "https://other-vnfm.test"}, "audience"),
        ({"iss": "https://rogue.test"}, "issuer"),
    ],
    ids=["expired", "foreign-audience", "foreign-issuer"],
)
def test_bad_tokens_get_401_with_bearer_challenge(env, claims, words):
    dep, ca, authz, _ = env
    base = {
        "sub": "nfvo-1",
        "aud": AUDIENCE,
        "iss": authz.url,
        "exp": int(time.time()) + 600,
        "scope": "vnflcm",
        "project_id": PROJECT,
    }
    token = authz.mint(**{**base, **claims})
    cert = ca.client("nfvo-1")
    resp = _client(dep, ca, cert, token).get("/vnflcm/v2/vnf_instances")
    assert resp.status_code == 401
    assert resp.headers["Content-Type"] == "application/problem+json"
    challenge = resp.headers["WWW-Authenticate"]
    assert challenge.startswith(
        'Bearer realm="tacker-ng", error="invalid_token"'
    )
    assert words in resp.json()["detail"]


def test_token_bound_to_another_certificate_is_refused(env):
    dep, ca, authz, _ = env
    owner, thief = ca.client("nfvo-1"), ca.client("thief")
    token = _token(authz, ca, owner)
    resp = _client(dep, ca, thief, token).get("/vnflcm/v2/vnf_instances")
    assert resp.status_code == 401
    assert "another client certificate" in resp.json()["detail"]
    ok = _client(dep, ca, owner, token).get("/vnflcm/v2/vnf_instances")
    assert ok.status_code == 200


def test_no_token_is_401_and_no_role_is_403(env):
    dep, ca, authz, _ = env
    cert = ca.client("nfvo-1")
    resp = requests.get(
        f"{dep.url}/vnflcm/v2/vnf_instances",
        headers={"Version": "2.0.0"},
        verify=str(ca.ca),
        cert=cert.pair,
        timeout=10,
    )
    assert resp.status_code == 401
    assert resp.headers["WWW-Authenticate"] == 'Bearer realm="tacker-ng"'
    token = authz.mint(
        sub="nfvo-1",
        aud=AUDIENCE,
        iss=authz.url,
        exp=int(time.time()) + 600,
        scope="openid",
        project_id=PROJECT,
    )
    resp = _client(dep, ca, cert, token).get("/vnflcm/v2/vnf_instances")
    assert resp.status_code == 403
    assert 'error="insufficient_scope"' in resp.headers["WWW-Authenticate"]


def test_mtls_refuses_clients_without_or_with_a_foreign_certificate(
    env, tmp_path
):
    dep, ca, _, _ = env
    other = pki.CertificateAuthority(tmp_path, "rogue-ca").client("nfvo-1")
    for cert in (None, other.pair):
        with pytest.raises(requests.exceptions.SSLError):
            requests.get(
                f"{dep.url}/vnflcm/v2/api_versions",
                verify=str(ca.ca),
                cert=cert,
                timeout=10,
            )
    # And in plain HTTP nothing is served at all.
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(dep.url.replace("https://", "http://") + "/", timeout=10)
    assert ssl.HAS_TLSv1_3  # the handshake above ran on a modern stack
