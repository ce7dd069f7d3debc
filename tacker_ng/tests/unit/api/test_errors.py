"""Every error the API can answer is ProblemDetails, never a traceback."""

import json

import pytest
import webtest

from tacker_ng.api import app as api_app
from tacker_ng.api import errors
from tacker_ng.api.controllers.admin import conductors

V2 = {"Version": "2.0.0"}


def assert_problem(resp, status: int) -> dict:
    assert resp.status_int == status
    assert resp.content_type == errors.PROBLEM_JSON
    body = json.loads(resp.body)
    assert body["status"] == status
    assert body["title"]
    assert body["detail"]
    assert "Traceback" not in resp.text
    return body


def test_unknown_path_is_404(api):
    assert_problem(api.get("/no/such/thing", expect_errors=True), 404)


def test_unknown_versioned_resource_is_404_with_version_echo(api):
    resp = api.get("/vnflcm/v2/nothing_here", headers=V2, expect_errors=True)
    assert_problem(resp, 404)
    assert resp.headers["Version"] == "2.0.0"


def test_wrong_method_is_405_with_allow(api):
    resp = api.delete("/vnflcm/v2/api_versions", expect_errors=True)
    body = assert_problem(resp, 405)
    assert resp.headers["Allow"] == "GET"
    assert "DELETE" in body["detail"]


def test_get_on_post_only_resource_is_405(api):
    resp = api.get("/v1/ping", expect_errors=True)
    assert_problem(resp, 405)
    assert resp.headers["Allow"] == "POST"


def test_malformed_json_is_400(api):
    resp = api.post(
        "/v1/ping",
        "{not json",
        content_type="application/json",
        expect_errors=True,
    )
    body = assert_problem(resp, 400)
    assert body["detail"].startswith("Malformed JSON body")


def test_schema_violation_is_400_naming_the_field(api):
    resp = api.post(
        "/v1/ping",
        '{"payload": 5}',
        content_type="application/json",
        expect_errors=True,
    )
    body = assert_problem(resp, 400)
    assert "'/payload'" in body["detail"]


def test_wrong_media_type_is_415(api):
    resp = api.post(
        "/v1/ping",
        "payload=x",
        content_type="text/plain",
        expect_errors=True,
    )
    assert_problem(resp, 415)


def test_missing_version_header_is_400(api):
    resp = api.get("/vnflcm/v2/vnf_instances", expect_errors=True)
    body = assert_problem(resp, 400)
    assert "Version" in body["detail"]
    assert resp.headers["Version"] == "2.0.0"


def test_unsupported_version_is_406(api):
    resp = api.get(
        "/vnflcm/v2/vnf_instances",
        headers={"Version": "1.3.0"},
        expect_errors=True,
    )
    body = assert_problem(resp, 406)
    assert "1.3.0" in body["detail"]


def test_body_too_large_is_413(api, conf):
    conf.set_override("max_request_body_size", 64, group="oslo_middleware")
    small = webtest.TestApp(api_app.build_wsgi_app(conf))
    resp = small.post(
        "/v1/ping",
        json.dumps({"payload": "x" * 200}),
        content_type="application/json",
        expect_errors=True,
    )
    assert_problem(resp, 413)


def test_unexpected_exception_is_500_without_leaking(api, monkeypatch):
    def explode(*args, **kwargs):
        raise RuntimeError("db password is hunter2")

    monkeypatch.setattr(conductors.conductors_db, "list_all", explode)
    resp = api.get("/v1/conductors", expect_errors=True)
    body = assert_problem(resp, 500)
    assert "hunter2" not in resp.text
    assert "RuntimeError" not in resp.text
    assert (
        body["detail"] == "An unexpected error occurred; see the server log."
    )


@pytest.mark.parametrize(
    "path", ["/vnflcm/api_versions", "/vnflcm/v2/api_versions"]
)
def test_api_versions_need_no_version_header(api, path):
    resp = api.get(path)
    assert resp.status_int == 200
    assert resp.headers["Version"] == "2.0.0"
    assert resp.json["apiVersions"] == [
        {"version": "2.0.0", "isDeprecated": False}
    ]
    prefix = "/vnflcm/v2" if path.startswith("/vnflcm/v2") else "/vnflcm"
    assert resp.json["uriPrefix"] == prefix


def test_request_id_on_every_response(api):
    ok = api.get("/vnflcm/v2/api_versions")
    bad = api.get("/nope", expect_errors=True)
    for resp in (ok, bad):
        assert resp.headers["x-openstack-request-id"].startswith("req-")


def test_root_lists_apis_without_auth(api):
    resp = api.get("/")
    assert resp.json["apis"][0]["uriPrefix"] == "/vnflcm/v2"


def test_healthcheck_answers(api):
    resp = api.get("/healthcheck")
    assert resp.status_int == 200


@pytest.mark.parametrize(
    "content_type",
    [
        "multipart/form-data",
        "multipart/form-data; boundary=zz",
        "application/x-www-form-urlencoded",
    ],
)
def test_form_bodies_are_415_even_when_malformed(api, content_type):
    resp = api.post(
        "/vnflcm/v2/vnf_instances",
        b"--zz\r\nbroken",
        headers={"Version": "2.0.0", "Content-Type": content_type},
        expect_errors=True,
    )
    assert_problem(resp, 415)
