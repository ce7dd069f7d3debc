"""tacker-ng-api behind minicloud's real Keystone (keystonemiddleware).

Tokens come from keystoneauth1 exactly as an NFVO or the CLI gets them;
roles from Keystone drive oslo.policy.
"""

import pytest
import requests

from tacker_ng.tests.functional import deployment, services

pytestmark = pytest.mark.minicloud


@pytest.fixture(scope="module")
def api(minicloud, tmp_path_factory):
    extra = {
        "api": {"auth_strategy": "keystone"},
        "keystone_authtoken": minicloud.keystone_authtoken(),
    }
    tmp = tmp_path_factory.mktemp("keystone")
    with (
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(tmp, sql_url, conductors=(), extra=extra) as dep,
    ):
        yield dep.url


def _get(url, token=None, **headers):
    if token:
        headers["X-Auth-Token"] = token
    return requests.get(
        url, headers={"Version": "2.0.0", **headers}, timeout=30
    )


def test_no_or_bad_token_is_401(api):
    for token in (None, "not-a-token"):
        resp = _get(f"{api}/vnflcm/v2/api_versions", token)
        assert resp.status_code == 401
        assert resp.headers["Content-Type"] == "application/problem+json"
        assert resp.headers["WWW-Authenticate"].startswith("Keystone uri=")
        assert resp.json()["status"] == 401


def test_member_token_is_authorized_by_policy(api, minicloud):
    token = minicloud.project_session().get_token()
    assert _get(f"{api}/vnflcm/v2/api_versions", token).status_code == 200
    resp = _get(f"{api}/vnflcm/v2/vnf_instances", token)
    assert resp.status_code == 200
    assert resp.json() == []
    # Admin-only, and a spoofed role header changes nothing.
    for headers in ({}, {"X-Roles": "admin"}):
        resp = _get(f"{api}/v1/conductors", token, **headers)
        assert resp.status_code == 403
        assert resp.headers["Content-Type"] == "application/problem+json"


def test_admin_token_sees_the_fleet(api, minicloud):
    token = minicloud.admin_session().get_token()
    resp = _get(f"{api}/v1/conductors", token)
    assert resp.status_code == 200
    assert resp.json() == {"conductors": []}
