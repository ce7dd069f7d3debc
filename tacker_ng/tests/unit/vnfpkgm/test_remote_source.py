"""``[nfvo] package_source = remote``: packages fetched from the NFVO.

The NFVO is an in-memory web (:mod:`fakeweb`) serving
``/vnfpkgm/v2/onboarded_vnf_packages/{vnfdId}/package_content`` behind
basic auth or OAuth2; the LCM create/instantiate path fetches, verifies
and caches the package, and uses the cache afterwards.
"""

import base64
import shutil

import pytest
import requests

from tacker_ng.packages import store
from tacker_ng.tests import lcm_packages
from tacker_ng.tests.unit.lcm.conftest import Lcm
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm.conftest import PREFIX, V

NFVO = "https://nfvo.example.net:9443"
TOKEN_URL = "https://auth.example.net/token"
VNFD_ID = lcm_packages.SAMPLE_VNFD_ID
CONTENT = f"{NFVO}/vnfpkgm/v2/onboarded_vnf_packages/{VNFD_ID}/package_content"
LCM_V = {"Version": "2.0.0"}


@pytest.fixture
def remote(conf, web):
    conf.set_override("package_source", "remote", "nfvo")
    conf.set_override("endpoint", NFVO, "nfvo")
    conf.set_override("auth_type", "basic", "nfvo")
    conf.set_override("username", "vnfm", "nfvo")
    conf.set_override("password", "nfvo-pass", "nfvo")
    return web


def _basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def _serve(data: bytes, expect_auth: str):
    def handler(request):
        if request.headers.get("Authorization") != expect_auth:
            return (401, {}, b"")
        return (200, {"Content-Type": "application/zip"}, data)

    return handler


def _create(pkgm, vnfd_id=VNFD_ID, status=201):
    return pkgm.app.post_json(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": vnfd_id},
        headers=LCM_V,
        status=status,
    )


def test_fetched_once_with_basic_auth_then_cached(pkgm, remote, test_drivers):
    data = lcm_packages.build()
    remote.route(CONTENT, _serve(data, _basic("vnfm", "nfvo-pass")))
    lcm = Lcm(pkgm.app, {"vnfd_id": VNFD_ID})
    inst = lcm.create()
    [sent] = remote.to(CONTENT)
    assert sent.headers["Version"] == "2.1.0"
    assert sent.headers["Accept"] == "application/zip"
    listed = pkgm.app.get(
        f"{PREFIX}/vnf_packages", params={"all_fields": ""}, headers=V
    ).json
    [pkg] = listed
    assert pkg["vnfdId"] == VNFD_ID
    assert (pkg["onboardingState"], pkg["operationalState"]) == (
        "ONBOARDED",
        "ENABLED",
    )
    assert pkg["usageState"] == "IN_USE"
    assert (
        pkgm.app.get(
            f"{PREFIX}/vnf_packages/{pkg['id']}/package_content", headers=V
        ).body
        == data
    )
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    assert occ["operationState"] == "COMPLETED"
    lcm.create()
    assert len(remote.to(CONTENT)) == 1  # the cache answered
    assert (
        pkgm.app.get(
            f"{PREFIX}/onboarded_vnf_packages/{VNFD_ID}", headers=V
        ).json["id"]
        == pkg["id"]
    )


def test_oauth2_client_credentials(pkgm, remote, conf):
    conf.set_override("auth_type", "oauth2_client_credentials", "nfvo")
    conf.set_override("client_id", "vnfm-client", "nfvo")
    conf.set_override("client_secret", "client-secret", "nfvo")
    conf.set_override("token_endpoint", TOKEN_URL, "nfvo")

    def token(request):
        if request.headers.get("Authorization") != _basic(
            "vnfm-client", "client-secret"
        ):
            return (401, {}, b"")
        return (
            200,
            {"Content-Type": "application/json"},
            b'{"access_token": "tok-123", "expires_in": 300}',
        )

    remote.route(TOKEN_URL, token)
    remote.route(CONTENT, _serve(lcm_packages.build(), "Bearer tok-123"))
    _create(pkgm)
    assert len(remote.to(CONTENT)) == 1


def test_refetched_when_the_store_lost_it(pkgm, remote, test_drivers):
    remote.route(
        CONTENT, _serve(lcm_packages.build(), _basic("vnfm", "nfvo-pass"))
    )
    lcm = Lcm(pkgm.app, {"vnfd_id": VNFD_ID})
    inst = lcm.create()
    [pkg] = pkgm.app.get(f"{PREFIX}/vnf_packages", headers=V).json
    # e.g. a conductor on another host without the shared store
    shutil.rmtree(store.package_dir(pkg["id"]))
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    assert occ["operationState"] == "COMPLETED"
    assert len(remote.to(CONTENT)) == 2
    assert store.package_dir(pkg["id"]).is_dir()


def test_unknown_at_the_nfvo_422(pkgm, remote):
    resp = _create(pkgm, status=422)
    assert "NFVO has no onboarded VNF package" in resp.json["detail"]
    assert pkgm.app.get(f"{PREFIX}/vnf_packages", headers=V).json == []
    assert pkgm.store_entries() <= {".archives", ".incoming"}


def test_nfvo_unreachable_503(pkgm, remote):
    def down(request):
        raise requests.ConnectionError("refused")

    remote.route(CONTENT, down)
    resp = _create(pkgm, status=503)
    assert "could not be reached" in resp.json["detail"]
    assert "nfvo-pass" not in resp.text


def test_nfvo_rejects_our_credentials_503(pkgm, remote, conf):
    conf.set_override("password", "wrong", "nfvo")
    remote.route(
        CONTENT, _serve(lcm_packages.build(), _basic("vnfm", "nfvo-pass"))
    )
    resp = _create(pkgm, status=503)
    assert "answered 401" in resp.json["detail"]
    assert "wrong" not in resp.text


def test_hostile_package_from_the_nfvo_422(pkgm, remote):
    bomb = helpers.make_zip(
        {**helpers.minimal_files(), "Files/bomb": b"\0" * (4 * 1024 * 1024)}
    )
    remote.route(CONTENT, _serve(bomb, _basic("vnfm", "nfvo-pass")))
    resp = _create(pkgm, status=422)
    assert resp.json["reasonCode"] == "compression_ratio"
    assert pkgm.store_entries() <= {".archives", ".incoming"}
    assert pkgm.app.get(f"{PREFIX}/vnf_packages", headers=V).json == []


def test_nfvo_answers_another_vnfd_422(pkgm, remote):
    other = helpers.make_zip(helpers.minimal_files())
    remote.route(CONTENT, _serve(other, _basic("vnfm", "nfvo-pass")))
    resp = _create(pkgm, status=422)
    assert "11111111-2222-3333-4444-555555555555" in resp.json["detail"]
    assert pkgm.store_entries() <= {".archives", ".incoming"}


def test_disabled_cached_package_is_not_fetched_again(pkgm, remote):
    remote.route(
        CONTENT, _serve(lcm_packages.build(), _basic("vnfm", "nfvo-pass"))
    )
    _create(pkgm)
    [pkg] = pkgm.app.get(f"{PREFIX}/vnf_packages", headers=V).json
    pkgm.patch(pkg["id"], {"operationalState": "DISABLED"})
    _create(pkgm, status=422)
    assert len(remote.to(CONTENT)) == 1


def test_local_source_never_asks_the_nfvo(pkgm, remote, conf):
    conf.set_override("package_source", "local", "nfvo")
    _create(pkgm, status=422)
    assert remote.requests == []
