"""tacker-ng-all (cheroot) serves mutual TLS too, and certificate-bound
tokens bind there as under gunicorn: the client certificate reaches the
binding check through cheroot's ``SSL_CLIENT_CERT``."""

import os

import pytest
import requests

from tacker_ng.tests import pki
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional import services
from tacker_ng.tests.functional.authz_server import AuthzServer

AUDIENCE = "tacker-ng-embedded"


def test_embedded_mtls_and_bound_tokens(tmp_path):
    ca = pki.CertificateAuthority(tmp_path / "pki", "nfv-ca")
    server = ca.server("127.0.0.1")
    owner, thief = ca.client("nfvo"), ca.client("thief")
    port = services.free_port()
    with AuthzServer(ca, AUDIENCE) as authz:
        authz.register("nfvo", "pw", "p1", "lcm")
        conf = procs.write_config(
            str(tmp_path / "tacker.conf"),
            {
                "DEFAULT": {"state_path": tmp_path / "state"},
                "api": {
                    "port": port,
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
                    "scope_roles": "lcm=member",
                },
            },
        )
        argv = [procs.script("tacker-ng-all"), "--config-file", conf]
        with procs.processes() as started:
            log = tmp_path / "all.log"
            proc = procs.Process(
                "tacker-ng-all", argv, str(log), env=os.environ
            )
            started.append(proc)
            url = f"https://127.0.0.1:{port}"
            tls = {"verify": str(ca.ca), "timeout": 10}
            procs.wait_http(f"{url}/", proc, cert=owner.pair, **tls)
            assert f"tacker-ng is serving {url}/" in log.read_text()

            token = requests.post(
                f"{authz.url}/token",
                data={"grant_type": "client_credentials"},
                auth=("nfvo", "pw"),
                cert=owner.pair,
                **tls,
            ).json()["access_token"]
            path = f"{url}/vnflcm/v2/vnf_instances"
            headers = {"Authorization": f"Bearer {token}", "Version": "2.0.0"}
            ok = requests.get(path, headers=headers, cert=owner.pair, **tls)
            assert (ok.status_code, ok.json()) == (200, [])
            stolen = requests.get(
                path, headers=headers, cert=thief.pair, **tls
            )
            assert stolen.status_code == 401
            assert (
                'error="invalid_token"' in stolen.headers["WWW-Authenticate"]
            )
            with pytest.raises(requests.exceptions.SSLError):
                requests.get(path, headers=headers, **tls)
