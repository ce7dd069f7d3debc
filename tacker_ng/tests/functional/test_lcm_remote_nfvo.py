"""tacker-ng under a real NFVO: SOL003 Grant with OAuth2, sync/async/403.

``[nfvo] mode = remote``; a real HTTP server plays the NFVO. The grant
requests tacker-ng sends are validated against the SOL003 Grant OpenAPI.
"""

import time

import pytest
import requests

from tacker_ng.tests.functional import lcm_fixtures, sol003_schemas
from tacker_ng.tests.functional.fake_nfvo import FakeNfvo
from tacker_ng.tests.functional.receiver import Receiver


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("remote-nfvo")
    with FakeNfvo("vnfm", "s3cret", ["zone-a", "zone-b", "zone-c"]) as nfvo:
        extra = {
            "nfvo": {
                **lcm_fixtures.remote_nfvo(nfvo),
                "grant_poll_timeout": 30,
            },
            "placement": {"fallback_best_effort": True},
        }
        with lcm_fixtures.lcm_deployment(tmp, "mariadb", extra=extra) as dep:
            yield dep, dep.client(), nfvo


def _check_grant_link(dep, client, nfvo, occ) -> None:
    """The op occ links to the grant where the NFVO keeps it (its
    Location), which serves it; tacker-ng itself serves no grant."""
    href = occ["_links"]["grant"]["href"]
    assert href == f"{nfvo.url}/grant/v1/grants/{occ['grantId']}"
    resp = requests.get(
        href,
        headers={"Authorization": f"Bearer {nfvo.token}", "Version": "1.4.0"},
        timeout=10,
    )
    assert resp.status_code == 200, resp.text
    grant = resp.json()
    sol003_schemas.validate("/grant/v1/grants/x", "GET", 200, grant)
    assert grant["id"] == occ["grantId"]
    assert grant["vnfLcmOpOccId"] == occ["id"]
    local = client.get(
        f"/grant/v1/grants/{occ['grantId']}", headers={"Version": "1.4.0"}
    )
    assert local.status_code == 404
    assert "[nfvo] mode = remote" in local.json()["detail"]


def _instance(dep, client) -> str:
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": dep.package["vnfd_id"],
            "vimConnectionInfo": lcm_fixtures.fake_vim(),
        },
    )
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


def test_sync_grant_with_oauth2(env):
    dep, client, nfvo = env
    nfvo.mode = "sync"
    inst_id = _instance(dep, client)
    occ = client.run(inst_id, "instantiate", {"flavourId": "simple"})
    request = nfvo.requests[-1]
    assert not nfvo.invalid, nfvo.invalid
    assert nfvo.tokens_issued >= 1
    assert request["operation"] == "INSTANTIATE"
    assert request["vnfLcmOpOccId"] == occ["id"]
    assert request["flavourId"] == "simple"
    constraints = request["placementConstraints"]
    # One VDU1 VNFC: only VDU2's anti-affinity relates two resources.
    assert [c["affinityOrAntiAffinity"] for c in constraints] == [
        "ANTI_AFFINITY"
    ]
    assert all(c["fallbackBestEffort"] is True for c in constraints)
    info = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()[
        "instantiatedVnfInfo"
    ]
    vdu2_zones = {
        v["zoneId"] for v in info["vnfcResourceInfo"] if v["vduId"] == "VDU2"
    }
    assert len(vdu2_zones) == 2
    _check_grant_link(dep, client, nfvo, occ)


def test_async_grant_is_polled(env):
    dep, client, nfvo = env
    nfvo.mode = "async"
    inst_id = _instance(dep, client)
    occ = client.run(inst_id, "instantiate", {"flavourId": "simple"})
    assert occ["operationState"] == "COMPLETED"
    assert not nfvo.invalid, nfvo.invalid
    _check_grant_link(dep, client, nfvo, occ)


def test_rejected_grant_is_failed_temp_then_retry_succeeds(env):
    dep, client, nfvo = env
    nfvo.mode = "reject"
    inst_id = _instance(dep, client)
    occ_id = client.start(inst_id, "instantiate", {"flavourId": "simple"})
    occ = client.wait(occ_id, ("FAILED_TEMP",))
    assert occ["error"]["status"] == 403
    assert "no capacity in this NFVI" in occ["error"]["detail"]
    nfvo.mode = "sync"
    resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/retry")
    assert resp.status_code == 202
    client.wait(occ_id, ("COMPLETED",))


def test_notifications_with_oauth2_client_credentials(env):
    dep, client, nfvo = env
    nfvo.mode = "sync"
    with Receiver(bearer=nfvo.token) as receiver:
        resp = client.post(
            "/vnflcm/v2/subscriptions",
            {
                "callbackUri": receiver.url,
                "filter": {"operationTypes": ["INSTANTIATE"]},
                "authentication": {
                    "authType": ["OAUTH2_CLIENT_CREDENTIALS"],
                    "paramsOauth2ClientCredentials": {
                        "clientId": "vnfm",
                        "clientPassword": "s3cret",
                        "tokenEndpoint": f"{nfvo.url}/token",
                    },
                },
            },
        )
        assert resp.status_code == 201, resp.text
        inst_id = _instance(dep, client)
        occ = client.run(inst_id, "instantiate", {"flavourId": "simple"})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (
            receiver.states(occ["id"])[-1:] != ["COMPLETED"]
        ):
            time.sleep(0.1)
        assert receiver.states(occ["id"]) == [
            "STARTING",
            "PROCESSING",
            "COMPLETED",
        ]
        client.call("DELETE", f"/vnflcm/v2/subscriptions/{resp.json()['id']}")


def test_subscription_with_wrong_credentials_fails_the_callback_test(env):
    _, client, nfvo = env
    with Receiver(bearer=nfvo.token) as receiver:
        resp = client.post(
            "/vnflcm/v2/subscriptions",
            {
                "callbackUri": receiver.url,
                "authentication": {
                    "authType": ["BASIC"],
                    "paramsBasic": {"userName": "x", "password": "y"},
                },
            },
            validate=False,
        )
    assert resp.status_code == 400
    assert "401" in resp.json()["detail"]
