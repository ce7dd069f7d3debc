"""SOL013 toward the NFVO: mutual TLS on tacker-ng's outbound calls, and
errors and URLs that reveal nothing (issue #27).

A test PKI (:mod:`tacker_ng.tests.pki`) signs an NFVO and a notification
receiver that require a client certificate (``CERT_REQUIRED``): they
refuse a client without one, and tacker-ng's grant requests, subscription
test GETs and notifications, made with ``[nfvo]`` and ``[notification]
client_cert_file``, get through. A grant that gets no answer fails the
op occ in tacker-ng's words, without the NFVO's address; credentials in
a callbackUri or package URI are refused before anything is stored.
"""

import json
import ssl

import pytest
import requests

from tacker_ng.tests import pki
from tacker_ng.tests.functional import lcm_fixtures
from tacker_ng.tests.functional.fake_nfvo import FakeNfvo
from tacker_ng.tests.functional.receiver import Receiver

NFVO_TIMEOUT = 3


def _mutual_tls(ca: pki.CertificateAuthority) -> ssl.SSLContext:
    """A server context that requires a client certificate of ``ca``."""
    context = ssl.create_default_context(
        ssl.Purpose.CLIENT_AUTH, cafile=str(ca.ca)
    )
    context.load_cert_chain(*ca.server("127.0.0.1").pair)
    context.verify_mode = ssl.CERT_REQUIRED
    return context


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("outbound-mtls")
    ca = pki.CertificateAuthority(tmp / "pki")
    vnfm = ca.client("tacker-ng")
    tls = {
        "ca_file": str(ca.ca),
        "client_cert_file": str(vnfm.cert),
        "client_key_file": str(vnfm.key),
    }
    context = _mutual_tls(ca)
    zones = ["zone-a", "zone-b", "zone-c"]
    with FakeNfvo("vnfm", "s3cret", zones, tls=context) as nfvo:
        extra = {
            "nfvo": {
                **lcm_fixtures.remote_nfvo(nfvo),
                **tls,
                "timeout": NFVO_TIMEOUT,
            },
            "notification": tls,
        }
        with lcm_fixtures.lcm_deployment(
            tmp, "mariadb", conductors=("cond-a",), api_workers=1, extra=extra
        ) as dep:
            yield dep, dep.client(), nfvo, ca, context


def _refuses_without_a_certificate(url: str, ca) -> None:
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(url, verify=str(ca.ca), timeout=10)


def test_the_grant_is_requested_over_mutual_tls(env):
    dep, client, nfvo, ca, _ = env
    _refuses_without_a_certificate(f"{nfvo.url}/grant/v1/grants/x", ca)
    instance_id = lcm_fixtures.create_instance(dep, client)
    occ = client.run(instance_id, "instantiate", {"flavourId": "simple"})
    assert occ["operationState"] == "COMPLETED"
    assert nfvo.grant_requests(occ["id"])


def test_notifications_are_delivered_over_mutual_tls(env):
    dep, client, _, ca, context = env
    with Receiver("nfvo", "cb-pass", tls=context) as receiver:
        _refuses_without_a_certificate(receiver.url, ca)
        # The subscription's test GET passes the receiver's TLS.
        lcm_fixtures.subscribe(client, receiver)
        instance_id = lcm_fixtures.create_instance(dep, client)
        occ = client.run(instance_id, "instantiate", {"flavourId": "simple"})
        assert receiver.settled_states(occ["id"]) == [
            "STARTING",
            "PROCESSING",
            "COMPLETED",
        ]


def test_a_grant_without_answer_fails_in_our_words(env):
    """Issue #27: the op occ of a grant that timed out said "The NFVO
    could not be reached or failed: HTTPConnectionPool(host='127.0.0.1',
    port=...): Read timed out. (read timeout=12)" to any API user."""
    dep, client, nfvo, _, _ = env
    instance_id = lcm_fixtures.create_instance(dep, client)
    nfvo.hold_next(instance_id)
    occ_id = client.start(instance_id, "instantiate", {"flavourId": "simple"})
    occ = client.wait(occ_id, ("FAILED_TEMP",), timeout=NFVO_TIMEOUT + 60)
    assert occ["error"] == {
        "status": 503,
        "title": "Service Unavailable",
        "detail": "The grant request to the NFVO ([nfvo] endpoint) failed: "
        "there was no answer in time.",
    }
    port = nfvo.url.rsplit(":", 1)[1]
    shown = client.get(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}").json()
    error = json.dumps(shown["error"])
    for leak in ("127.0.0.1", port, "Pool", "timed out", "read timeout"):
        assert leak not in error
    resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/retry")
    assert resp.status_code == 202, resp.text
    client.wait(occ_id, ("COMPLETED",))


def test_credentials_in_urls_are_refused_and_not_stored(env):
    dep, client, _, _, context = env
    with Receiver(tls=context) as receiver:
        url = receiver.url.replace("https://", "https://nfvo:cb-pw@")
        resp = client.post(
            "/vnflcm/v2/subscriptions", {"callbackUri": url}, validate=False
        )
        assert resp.status_code == 400, resp.text
        assert "callbackUri must not carry credentials" in resp.text
        assert "cb-pw" not in resp.text
        assert receiver.notifications == []
    listed = client.get("/vnflcm/v2/subscriptions").json()
    assert url not in [s["callbackUri"] for s in listed]
    packages = f"{dep.url}/vnfpkgm/v1/vnf_packages"
    pkg = requests.post(packages, json={}, headers=dep.auth, timeout=30)
    assert pkg.status_code == 201, pkg.text
    pkg_id = pkg.json()["id"]
    resp = requests.post(
        f"{packages}/{pkg_id}/package_content/upload_from_uri",
        json={"addressInformation": "https://repo:pw@192.0.2.1/x.zip"},
        headers=dep.auth,
        timeout=30,
    )
    assert resp.status_code == 400, resp.text
    assert "userName and password" in resp.json()["detail"]
    got = requests.get(f"{packages}/{pkg_id}", headers=dep.auth, timeout=30)
    assert got.json()["onboardingState"] == "CREATED"
