"""http_basic is least privilege by default: members of their own
project, admins only by name; the upgrade check warns otherwise."""

import base64

import bcrypt
import pytest
import webtest

from tacker_ng.api import app as api_app
from tacker_ng.auth import privilege


def _basic(user):
    token = base64.b64encode(f"{user}:pw".encode()).decode()
    return {"Authorization": f"Basic {token}"}


@pytest.fixture
def users_conf(conf, db, tmp_path):
    htpasswd = tmp_path / "htpasswd"
    digest = bcrypt.hashpw(b"pw", bcrypt.gensalt(rounds=4)).decode()
    htpasswd.write_text(
        "".join(f"{u}:{digest}\n" for u in ("alice", "bob", "root"))
    )
    conf.set_override("auth_strategy", "http_basic", group="api")
    conf.set_override(
        "http_basic_auth_user_file", str(htpasswd), group="oslo_middleware"
    )
    conf.set_override("http_basic_admin_users", ["root"], group="api")
    conf.set_override(
        "http_basic_user_projects", {"alice": "pa", "bob": "pb"}, group="api"
    )
    return conf


def test_default_users_are_not_admin_and_named_admins_are(users_conf):
    app = webtest.TestApp(api_app.build_wsgi_app(users_conf))
    for user in ("alice", "bob"):
        resp = app.get(
            "/v1/conductors", headers=_basic(user), expect_errors=True
        )
        assert resp.status_int == 403
    assert app.get("/v1/conductors", headers=_basic("root")).status_int == 200


def test_each_user_sees_only_its_project(users_conf):
    app = webtest.TestApp(api_app.build_wsgi_app(users_conf))
    body = {"vnfdId": "no-such-vnfd"}
    # Creating needs an onboarded package; listing shows isolation.
    resp = app.post_json(
        "/vnflcm/v2/vnf_instances",
        body,
        headers={**_basic("alice"), "Version": "2.0.0"},
        expect_errors=True,
    )
    assert resp.status_int in (400, 422)
    for user in ("alice", "bob"):
        resp = app.get(
            "/vnflcm/v2/vnf_instances",
            headers={**_basic(user), "Version": "2.0.0"},
        )
        assert resp.json == []


@pytest.mark.parametrize(
    ("strategy", "section", "option", "value", "warns"),
    [
        ("http_basic", "api", "http_basic_roles", ["member", "reader"], False),
        ("http_basic", "api", "http_basic_roles", ["admin", "member"], True),
        ("noauth", "api", "noauth_roles", ["admin"], True),
        ("noauth", "api", "noauth_roles", ["reader"], False),
        ("external_oauth2", "external_oauth2", "scope_roles", [], True),
        (
            "external_oauth2",
            "external_oauth2",
            "scope_roles",
            ["a=member"],
            False,
        ),
        ("keystone", "api", "noauth_roles", ["admin"], False),
    ],
)
def test_upgrade_check_warns_when_everyone_is_admin(
    conf, strategy, section, option, value, warns
):
    conf.set_override("auth_strategy", strategy, group="api")
    conf.set_override(option, value, group=section)
    assert bool(privilege.everyone_admin(conf)) is warns


def test_default_config_is_least_privilege(conf):
    conf.set_override("auth_strategy", "http_basic", group="api")
    assert privilege.everyone_admin(conf) is None
