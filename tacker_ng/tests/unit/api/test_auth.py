"""Authentication strategies and policy on the API routes."""

import base64
import json

import bcrypt
import pytest
import webtest

from tacker_ng.api import app as api_app
from tacker_ng.api import errors


def basic(user: str, password: str) -> dict:
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


@pytest.fixture
def basic_api(conf, db, tmp_path):
    htpasswd = tmp_path / "htpasswd"
    digest = bcrypt.hashpw(b"s3cret", bcrypt.gensalt(rounds=4)).decode()
    htpasswd.write_text(f"alice:{digest}\n")
    conf.set_override("auth_strategy", "http_basic", group="api")
    conf.set_override(
        "http_basic_auth_user_file", str(htpasswd), group="oslo_middleware"
    )
    return webtest.TestApp(api_app.build_wsgi_app(conf))


def assert_401(resp) -> None:
    assert resp.status_int == 401
    assert resp.content_type == errors.PROBLEM_JSON
    assert json.loads(resp.body)["status"] == 401
    assert "WWW-Authenticate" in resp.headers


@pytest.mark.parametrize(
    "headers",
    [
        {},
        basic("alice", "wrong"),
        basic("mallory", "s3cret"),
        {"Authorization": "Basic !!not-base64!!"},
        {"Authorization": "Bearer abc"},
    ],
    ids=["none", "bad-password", "unknown-user", "garbage", "bearer"],
)
def test_http_basic_rejects(basic_api, headers):
    resp = basic_api.get(
        "/vnflcm/v2/api_versions", headers=headers, expect_errors=True
    )
    assert_401(resp)


def test_http_basic_accepts_valid_user(basic_api):
    resp = basic_api.get(
        "/vnflcm/v2/api_versions", headers=basic("alice", "s3cret")
    )
    assert resp.status_int == 200


def test_http_basic_ignores_spoofed_identity_headers(basic_api, conf):
    conf.set_override("http_basic_roles", ["reader"], group="api")
    spoofed = {**basic("alice", "s3cret"), "X-Roles": "admin"}
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    resp = app.get("/v1/conductors", headers=spoofed, expect_errors=True)
    assert resp.status_int == 403
    assert resp.content_type == errors.PROBLEM_JSON


def test_root_document_needs_no_login(basic_api):
    assert basic_api.get("/").status_int == 200


@pytest.fixture
def keystone_conf(conf, db):
    conf.set_override("auth_strategy", "keystone", group="api")
    api_app.build_wsgi_app(conf)  # registers [keystone_authtoken]
    conf.set_override(
        "www_authenticate_uri",
        "http://127.0.0.1:5000/v3",
        group="keystone_authtoken",
    )
    return conf


def test_keystone_without_token_is_401(keystone_conf):
    app = webtest.TestApp(api_app.build_wsgi_app(keystone_conf))
    resp = app.get("/vnflcm/v2/api_versions", expect_errors=True)
    assert_401(resp)
    assert resp.headers["WWW-Authenticate"].startswith("Keystone")


def test_keystone_ignores_spoofed_roles_without_token(keystone_conf):
    app = webtest.TestApp(api_app.build_wsgi_app(keystone_conf))
    resp = app.get(
        "/v1/conductors",
        headers={"X-Roles": "admin", "X-Identity-Status": "Confirmed"},
        expect_errors=True,
    )
    assert_401(resp)


def test_reader_cannot_list_conductors(conf, db):
    conf.set_override("noauth_roles", ["reader"], group="api")
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    resp = app.get("/v1/conductors", expect_errors=True)
    assert resp.status_int == 403
    assert resp.content_type == errors.PROBLEM_JSON


def test_admin_lists_conductors(api):
    assert api.get("/v1/conductors").json == {"conductors": []}


def test_policy_file_override_is_honoured(conf, db, tmp_path):
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text('"tacker_ng:api_versions:show": "role:nobody"\n')
    conf.set_override("policy_file", str(policy_file), group="oslo_policy")
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    resp = app.get("/vnflcm/v2/api_versions", expect_errors=True)
    assert resp.status_int == 403


def test_policy_file_changes_are_picked_up(conf, db, tmp_path, monkeypatch):
    from tacker_ng import policies

    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text('"tacker_ng:api_versions:show": ""\n')
    conf.set_override("policy_file", str(policy_file), group="oslo_policy")
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    assert app.get("/vnflcm/v2/api_versions").status_int == 200
    policy_file.write_text('"tacker_ng:api_versions:show": "role:nobody"\n')
    import os

    os.utime(policy_file, (1, 2_000_000_000))
    monkeypatch.setattr(policies, "_RELOAD_CHECK_INTERVAL", 0.0)
    resp = app.get("/vnflcm/v2/api_versions", expect_errors=True)
    assert resp.status_int == 403
