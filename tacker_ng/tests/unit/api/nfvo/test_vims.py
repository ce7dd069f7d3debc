"""``/v1.0/vims``: Tacker's VIM registry API as python-tackerclient
uses it; secrets sealed at rest and never shown."""

import json

import pytest
import sqlalchemy as sa
import webtest

from tacker_ng.api import app as api_app
from tacker_ng.db import models_vims

OPENSTACK = {
    "vim": {
        "name": "east",
        "description": "the east region",
        "type": "openstack",
        "auth_url": "https://keystone.east.test/v3",
        "vim_project": {"name": "vnf", "project_domain_name": "Default"},
        "auth_cred": {
            "username": "vnfm",
            "password": "s3cret-pw",
            "user_domain_name": "Default",
            "cert_verify": "True",
        },
        "is_default": True,
    }
}
KUBERNETES = {
    "vim": {
        "name": "k8s",
        "type": "kubernetes",
        "auth_url": "https://k8s.test:6443",
        "vim_project": {"name": "default"},
        "auth_cred": {"bearer_token": "tok-123", "ssl_ca_cert": "PEM"},
    }
}


@pytest.fixture
def app(conf, db):
    return webtest.TestApp(api_app.build_wsgi_app(conf))


@pytest.fixture
def projects(conf, db):
    """Two member apps in projects p1 and p2 (noauth with per-test
    identity), and an admin one."""

    def make(project, roles):
        conf.set_override("noauth_roles", roles, group="api")
        conf.set_override("http_basic_project_id", project, group="api")
        return webtest.TestApp(api_app.build_wsgi_app(conf))

    return {
        "p1": make("p1", ["member", "reader"]),
        "p2": make("p2", ["member", "reader"]),
        "admin": make("p0", ["admin", "member", "reader"]),
    }


def test_register_show_list_and_no_secret_anywhere(projects, db):
    app = projects["p1"]
    resp = app.post_json("/v1.0/vims", OPENSTACK, status=201)
    vim = resp.json["vim"]
    assert vim["name"] == "east"
    assert vim["type"] == "openstack"
    assert vim["tenant_id"] == "p1"
    assert vim["is_default"] is True
    assert vim["status"] == "PENDING"
    assert vim["auth_cred"] == {
        "username": "vnfm",
        "user_domain_name": "Default",
        "cert_verify": "True",
    }
    assert vim["vim_project"] == {
        "name": "vnf",
        "project_domain_name": "Default",
    }
    shown = app.get(f"/v1.0/vims/{vim['id']}").json["vim"]
    listed = app.get("/v1.0/vims").json["vims"]
    assert [v["id"] for v in listed] == [vim["id"]]
    for body in (resp.text, json.dumps(shown), json.dumps(listed)):
        assert "s3cret-pw" not in body
    with db.connect() as conn:
        stored = conn.execute(
            sa.select(models_vims.RegisteredVim.__table__)
        ).one()
    assert "s3cret-pw" not in json.dumps(stored.vim_connection_info)
    assert stored.vim_connection_info["accessInfo"]["project"] == "vnf"


def test_kubernetes_vim_and_name_lookup(projects):
    app = projects["p1"]
    vim = app.post_json("/v1.0/vims", KUBERNETES, status=201).json["vim"]
    assert vim["type"] == "kubernetes"
    assert vim["auth_cred"] == {"ssl_ca_cert": "PEM"}
    assert "tok-123" not in json.dumps(vim)
    # python-tackerclient finds a VIM by name with ?name=&fields=id.
    found = app.get("/v1.0/vims?name=k8s&fields=id").json["vims"]
    assert [v["id"] for v in found] == [vim["id"]]
    assert app.get("/v1.0/vims?name=other").json["vims"] == []


def test_projects_are_isolated_and_admin_sees_all(projects):
    mine = projects["p1"].post_json("/v1.0/vims", OPENSTACK, status=201)
    vim_id = mine.json["vim"]["id"]
    other = projects["p2"]
    assert other.get("/v1.0/vims").json["vims"] == []
    for call in (
        lambda: other.get(f"/v1.0/vims/{vim_id}", expect_errors=True),
        lambda: other.delete(f"/v1.0/vims/{vim_id}", expect_errors=True),
        lambda: other.put_json(
            f"/v1.0/vims/{vim_id}", {"vim": {"name": "x"}}, expect_errors=True
        ),
    ):
        resp = call()
        assert resp.status_int == 404
        assert resp.json["TackerError"]["type"] == "NotFound"
    admin = projects["admin"]
    assert [v["id"] for v in admin.get("/v1.0/vims").json["vims"]] == [vim_id]


def test_one_default_per_project_and_update(projects):
    app = projects["p1"]
    first = app.post_json("/v1.0/vims", OPENSTACK, status=201).json["vim"]
    second_body = {"vim": {**OPENSTACK["vim"], "name": "west"}}
    second = app.post_json("/v1.0/vims", second_body, status=201).json["vim"]
    assert second["is_default"] is True
    assert (
        app.get(f"/v1.0/vims/{first['id']}").json["vim"]["is_default"] is False
    )
    resp = app.put_json(
        f"/v1.0/vims/{first['id']}",
        {"vim": {"is_default": True, "auth_cred": {"password": "new-pw"}}},
    )
    assert resp.json["vim"]["is_default"] is True
    assert resp.json["vim"]["status"] == "PENDING"
    assert "new-pw" not in resp.text
    assert (
        app.get(f"/v1.0/vims/{second['id']}").json["vim"]["is_default"]
        is False
    )


def test_duplicate_name_is_409_and_delete_is_204(projects):
    app = projects["p1"]
    vim = app.post_json("/v1.0/vims", OPENSTACK, status=201).json["vim"]
    dup = app.post_json("/v1.0/vims", OPENSTACK, expect_errors=True)
    assert dup.status_int == 409
    assert "east" in dup.json["TackerError"]["message"]
    # Another project may use the same name.
    projects["p2"].post_json("/v1.0/vims", OPENSTACK, status=201)
    app.delete(f"/v1.0/vims/{vim['id']}", status=204)
    assert (
        app.get(f"/v1.0/vims/{vim['id']}", expect_errors=True).status_int
        == 404
    )


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"type": "vmware"}, "vmware"),
        ({"auth_url": "ftp://x"}, "auth_url"),
        ({"auth_url": "https://u:p@keystone.test/v3"}, "auth_url"),
        ({"vim_project": {}}, "vim_project.name"),
        ({"auth_cred": {"username": "u"}}, "password"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_bad_bodies_are_400_in_tackers_format(projects, change, words):
    body = {"vim": {**OPENSTACK["vim"], **change}}
    resp = projects["p1"].post_json("/v1.0/vims", body, expect_errors=True)
    assert resp.status_int == 400
    assert words in resp.json["TackerError"]["message"]


def test_k8s_without_token_is_400(projects):
    body = {
        "vim": {
            **KUBERNETES["vim"],
            "auth_cred": {"username": "u", "password": "p"},
        }
    }
    resp = projects["p1"].post_json("/v1.0/vims", body, expect_errors=True)
    assert resp.status_int == 400
    assert "bearer_token" in resp.json["TackerError"]["message"]


def test_member_cannot_register_for_another_project(projects):
    body = {"vim": {**OPENSTACK["vim"], "tenant_id": "p2"}}
    resp = projects["p1"].post_json("/v1.0/vims", body, expect_errors=True)
    assert resp.status_int == 403
    admin = projects["admin"].post_json("/v1.0/vims", body, status=201)
    assert admin.json["vim"]["tenant_id"] == "p2"


def test_reader_cannot_register(conf, db):
    conf.set_override("noauth_roles", ["reader"], group="api")
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    assert (
        app.post_json("/v1.0/vims", OPENSTACK, expect_errors=True).status_int
        == 403
    )
