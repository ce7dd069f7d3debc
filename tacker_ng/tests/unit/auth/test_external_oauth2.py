"""``auth_strategy = external_oauth2`` in the full WSGI pipeline, the
authorization server played by requests-mock."""

import json
import time

import pytest
import requests
import webtest

from tacker_ng.api import app as api_app
from tacker_ng.api import errors

INTROSPECT = "https://idp.test/introspect"


@pytest.fixture
def ext_conf(conf, db):
    conf.set_override("auth_strategy", "external_oauth2", group="api")
    for name, value in {
        "introspection_endpoint": INTROSPECT,
        "client_id": "vnfm",
        "client_secret": "vnfm-secret",
        "audience": "tacker-ng",
        "scope_roles": ["vnflcm=member", "fleet=admin"],
    }.items():
        conf.set_override(name, value, group="external_oauth2")
    return conf


def _claims(**over):
    claims = {
        "active": True,
        "exp": int(time.time()) + 300,
        "aud": "tacker-ng",
        "sub": "nfvo",
        "project_id": "p1",
        "scope": "vnflcm",
    }
    claims.update(over)
    return claims


def _app(conf):
    return webtest.TestApp(api_app.build_wsgi_app(conf))


def _bearer(token):
    return {"Authorization": f"Bearer {token}", "Version": "2.0.0"}


def test_valid_token_is_introspected_once_then_cached(ext_conf, requests_mock):
    m = requests_mock.post(INTROSPECT, json=_claims())
    app = _app(ext_conf)
    for _ in range(3):
        resp = app.get("/vnflcm/v2/vnf_instances", headers=_bearer("tok-1"))
        assert resp.status_int == 200
    assert m.call_count == 1
    sent = m.last_request
    assert sent.headers["Authorization"].startswith("Basic ")
    assert "token=tok-1" in sent.text


def test_member_is_not_admin_and_spoofed_roles_do_nothing(
    ext_conf, requests_mock
):
    requests_mock.post(INTROSPECT, json=_claims())
    resp = _app(ext_conf).get(
        "/v1/conductors",
        headers={**_bearer("t"), "X-Roles": "admin"},
        expect_errors=True,
    )
    assert resp.status_int == 403


def test_admin_scope_reaches_admin_api(ext_conf, requests_mock):
    requests_mock.post(INTROSPECT, json=_claims(scope="fleet"))
    resp = _app(ext_conf).get("/v1/conductors", headers=_bearer("t"))
    assert resp.json == {"conductors": []}


def test_no_token_gets_a_bare_bearer_challenge(ext_conf, requests_mock):
    m = requests_mock.post(INTROSPECT, json=_claims())
    resp = _app(ext_conf).get("/vnflcm/v2/vnf_instances", expect_errors=True)
    assert resp.status_int == 401
    assert resp.content_type == errors.PROBLEM_JSON
    assert resp.headers["WWW-Authenticate"] == 'Bearer realm="tacker-ng"'
    assert m.call_count == 0


@pytest.mark.parametrize(
    ("claims", "words"),
    [
        ({"active": False}, "not active"),
        (_claims(exp=int(time.time()) - 3600), "expired"),
        (_claims(aud="another-vnfm"), "audience"),
    ],
    ids=["inactive", "expired", "foreign-audience"],
)
def test_bad_tokens_get_401_invalid_token(
    ext_conf, requests_mock, claims, words
):
    requests_mock.post(INTROSPECT, json=claims)
    resp = _app(ext_conf).get(
        "/vnflcm/v2/vnf_instances",
        headers=_bearer("secret-token-value"),
        expect_errors=True,
    )
    assert resp.status_int == 401
    challenge = resp.headers["WWW-Authenticate"]
    assert challenge.startswith(
        'Bearer realm="tacker-ng", error="invalid_token"'
    )
    body = json.loads(resp.body)
    assert words in body["detail"]
    assert "secret-token-value" not in resp.text + challenge


def test_token_without_role_is_403_insufficient_scope(ext_conf, requests_mock):
    requests_mock.post(INTROSPECT, json=_claims(scope="openid"))
    resp = _app(ext_conf).get(
        "/vnflcm/v2/vnf_instances", headers=_bearer("t"), expect_errors=True
    )
    assert resp.status_int == 403
    assert 'error="insufficient_scope"' in resp.headers["WWW-Authenticate"]


@pytest.mark.parametrize(
    "answer",
    [
        {"status_code": 401, "json": {"error": "invalid_client"}},
        {"status_code": 200, "text": "not json"},
        {"exc": requests.ConnectTimeout},
    ],
    ids=["server-refuses-us", "garbage", "timeout"],
)
def test_authorization_server_trouble_is_503_not_500(
    ext_conf, requests_mock, answer
):
    requests_mock.post(INTROSPECT, **answer)
    resp = _app(ext_conf).get(
        "/vnflcm/v2/vnf_instances", headers=_bearer("t"), expect_errors=True
    )
    assert resp.status_int == 503
    assert resp.content_type == errors.PROBLEM_JSON
    assert "idp.test" not in resp.text


def test_client_secret_post_sends_credentials_in_the_body(
    ext_conf, requests_mock
):
    ext_conf.set_override(
        "client_auth_method", "client_secret_post", group="external_oauth2"
    )
    m = requests_mock.post(INTROSPECT, json=_claims())
    _app(ext_conf).get("/vnflcm/v2/vnf_instances", headers=_bearer("t"))
    assert "Authorization" not in m.last_request.headers
    assert "client_secret=vnfm-secret" in m.last_request.text


def test_missing_audience_fails_at_start(ext_conf):
    ext_conf.clear_override("audience", group="external_oauth2")
    with pytest.raises(ValueError, match="audience"):
        api_app.build_wsgi_app(ext_conf)
