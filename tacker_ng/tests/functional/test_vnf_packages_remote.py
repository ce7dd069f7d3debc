"""A VNFM under a real NFVO: packages come from the NFVO by vnfdId.

``[nfvo] package_source = remote`` with OAuth2 client credentials; the
NFVO is a real HTTP server in the test serving
``/vnfpkgm/v2/onboarded_vnf_packages/{vnfdId}/package_content`` and a
token endpoint. Real tacker-ng-api (2 workers) and two conductors on
RabbitMQ + MariaDB: the first create fetches, verifies and caches the
package, later requests on any worker use the cache, and the VNF is
instantiated with the fake driver.
"""

import uuid

import pytest
import requests

from tacker_ng.tests import lcm_packages
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional.test_vnf_packages import PackageServer
from tacker_ng.tests.unit.packages import helpers

VNFD_ID = str(uuid.uuid4())
CONTENT = f"/vnfpkgm/v2/onboarded_vnf_packages/{VNFD_ID}/package_content"
PKGS = lcm_fixtures.PKGM


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pkgm-remote")
    data = lcm_packages.build(VNFD_ID)
    bomb_id = str(uuid.uuid4())
    bomb = helpers.make_zip(
        {**helpers.minimal_files(), "Files/bomb": b"\0" * (4 * 1024 * 1024)}
    )
    files = {
        CONTENT: data,
        CONTENT.replace(VNFD_ID, bomb_id): bomb,
    }
    with (
        PackageServer(files, oauth2=("vnfm", "client-secret")) as nfvo,
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(
            tmp,
            sql_url,
            extra={
                "nfvo": {
                    "package_source": "remote",
                    "endpoint": nfvo.url,
                    "auth_type": "oauth2_client_credentials",
                    "client_id": "vnfm",
                    "client_secret": "client-secret",
                    "token_endpoint": f"{nfvo.url}/token",
                }
            },
        ) as dep,
    ):
        yield dep, nfvo, data, bomb_id


def _create(client, vnfd_id):
    return client.post(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": vnfd_id, "vimConnectionInfo": lcm_fixtures.fake_vim()},
    )


def test_fetched_once_cached_and_instantiated(env):
    dep, nfvo, data, _ = env
    client = dep.client()
    resp = _create(client, VNFD_ID)
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    assert [hit for hit in nfvo.hits if hit[0] == CONTENT] == [
        (CONTENT, "2.1.0")
    ]
    occ = client.run(inst_id, "instantiate", {"flavourId": "simple"})
    assert occ["operationState"] == "COMPLETED"
    for _ in range(4):  # both API workers: the cache answers
        assert _create(client, VNFD_ID).status_code == 201
    assert len([hit for hit in nfvo.hits if hit[0] == CONTENT]) == 1
    [pkg] = requests.get(
        dep.url + PKGS,
        params={"filter": f"(eq,vnfdId,{VNFD_ID})"},
        headers=dep.auth,
    ).json()
    assert (pkg["onboardingState"], pkg["usageState"]) == (
        "ONBOARDED",
        "IN_USE",
    )
    content = requests.get(
        f"{dep.url}{PKGS}/{pkg['id']}/package_content", headers=dep.auth
    )
    assert content.content == data


def test_unknown_vnfd_at_the_nfvo_422(env):
    dep, nfvo, _, _ = env
    missing = str(uuid.uuid4())
    resp = _create(dep.client(), missing)
    assert resp.status_code == 422, resp.text
    assert "NFVO has no onboarded VNF package" in resp.json()["detail"]
    assert any(missing in hit[0] for hit in nfvo.hits)


def test_hostile_package_from_the_nfvo_422(env):
    dep, _, _, bomb_id = env
    resp = _create(dep.client(), bomb_id)
    assert resp.status_code == 422, resp.text
    assert resp.json()["reasonCode"] == "compression_ratio"
    store = dep.state_path / "vnf_packages"
    assert not [
        p
        for p in store.iterdir()
        if p.name.startswith(".")
        and (p.name not in (".archives", ".incoming"))
    ]
    listed = requests.get(
        dep.url + PKGS,
        params={"filter": f"(eq,vnfdId,{bomb_id})"},
        headers=dep.auth,
    ).json()
    assert listed == []
