"""An NFVO with a Keystone application credential: it gets an OAuth 2.0
access token from minicloud's real Keystone (``POST
/v3/OS-OAUTH2/token``, client credentials grant) and drives a VNF's
lifecycle with it; keystonemiddleware validates the token, Keystone's
roles drive policy, revoked and foreign tokens get RFC 6750 answers.
"""

import pytest
import requests

from tacker_ng.tests.functional import deployment, services
from tacker_ng.tests.functional.auth import nfvo

pytestmark = pytest.mark.minicloud


@pytest.fixture(scope="module")
def env(minicloud, tmp_path_factory):
    extra = {
        "api": {"auth_strategy": "oauth2"},
        "keystone_authtoken": minicloud.keystone_authtoken(),
    }
    tmp = tmp_path_factory.mktemp("keystone-oauth2")
    with (
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(
            tmp, sql_url, conductors=("cond-a",), extra=extra, api_workers=1
        ) as dep,
    ):
        package = nfvo.onboard(dep, minicloud.project_id)
        yield dep, package


@pytest.fixture
def app_credential(minicloud):
    """An application credential of the lane's project user (member)."""
    session = minicloud.project_session()
    user_id = session.get_user_id()
    resp = session.post(
        f"/users/{user_id}/application_credentials",
        endpoint_filter={"service_type": "identity"},
        json={"application_credential": {"name": minicloud.name("nfvo")}},
    )
    cred = resp.json()["application_credential"]
    path = f"/users/{user_id}/application_credentials/{cred['id']}"
    yield (
        cred,
        lambda: session.delete(
            path, endpoint_filter={"service_type": "identity"}, raise_exc=False
        ),
    )
    session.delete(
        path, endpoint_filter={"service_type": "identity"}, raise_exc=False
    )


def _token(minicloud, cred) -> str:
    resp = requests.post(
        f"{minicloud.auth_url}/OS-OAUTH2/token",
        data={"grant_type": "client_credentials"},
        auth=(cred["id"], cred["secret"]),
        timeout=30,
    )
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["token_type"] == "Bearer"
    return body["access_token"]


def _bearer(dep, token) -> deployment.SolClient:
    return deployment.SolClient(dep.url, {"Authorization": f"Bearer {token}"})


def test_nfvo_token_from_keystone_drives_the_lifecycle(
    env, minicloud, app_credential
):
    dep, package = env
    cred, _ = app_credential
    token = _token(minicloud, cred)
    client = _bearer(dep, token)
    nfvo.lifecycle(client, package["vnfd_id"])
    # A member of the project, not an admin.
    assert client.get("/v1/conductors", validate=False).status_code == 403
    assert token not in dep.api.log_text()


def test_revoked_and_forged_tokens_get_401_bearer(
    env, minicloud, app_credential
):
    dep, _ = env
    cred, revoke = app_credential
    token = _token(minicloud, cred)
    revoke()  # deleting the credential revokes its tokens
    for bad in (token, "not-a-token"):
        resp = _bearer(dep, bad).get("/vnflcm/v2/vnf_instances")
        assert resp.status_code == 401
        assert resp.headers["Content-Type"] == "application/problem+json"
        assert resp.headers["WWW-Authenticate"].startswith(
            'Bearer realm="tacker-ng", error="invalid_token"'
        )


def test_plain_keystone_header_is_not_a_bearer_token(env, minicloud):
    dep, _ = env
    token = minicloud.project_session().get_token()
    resp = requests.get(
        f"{dep.url}/vnflcm/v2/vnf_instances",
        headers={"X-Auth-Token": token, "Version": "2.0.0"},
        timeout=30,
    )
    assert resp.status_code == 401
    assert resp.headers["WWW-Authenticate"] == 'Bearer realm="tacker-ng"'
