"""Hostile input gets a 4xx and stores nothing (SQLite; the functional
tests hold MariaDB and PostgreSQL to the same cases)."""

import json

import pytest

from tacker_ng.tests import hostile_cases

V = {"Version": "2.0.0"}


def _send(api, case):
    headers = dict(V)
    if case.body is not None:
        headers["Content-Type"] = case.content_type
    return api.request(
        case.path,
        method=case.method,
        body=case.body or b"",
        headers=headers,
        expect_errors=True,
    )


@pytest.mark.parametrize("case", hostile_cases.CASES, ids=lambda c: c.name)
def test_hostile_request_is_refused(api, case):
    resp = _send(api, case)
    assert resp.status_int == case.status, resp.text
    if case.path.startswith("/reservation/"):
        body = json.loads(resp.body)
        assert body["error_code"] == case.status
        assert case.detail in body["error_message"]
    else:
        assert resp.content_type == "application/problem+json"
        assert resp.json["status"] == case.status
        assert case.detail in resp.json["detail"], resp.json
    assert api.get(hostile_cases.INSTANCES, headers=V).json == []


def test_oversize_body_is_413(api, conf):
    limit = conf.oslo_middleware.max_request_body_size
    body = b'{"vnfdId":"' + b"x" * limit + b'"}'
    resp = api.post(
        hostile_cases.INSTANCES,
        body,
        headers={**V, "Content-Type": "application/json"},
        expect_errors=True,
    )
    assert resp.status_int == 413
    assert resp.content_type == "application/problem+json"


def test_limits_are_configurable(api, conf):
    conf.set_override("max_json_depth", 3, group="api")
    deep = b'{"vnfdId":"x","metadata":{"a":{"b":{"c":1}}}}'
    resp = api.post(
        hostile_cases.INSTANCES,
        deep,
        headers={**V, "Content-Type": "application/json"},
        expect_errors=True,
    )
    assert resp.status_int == 400
    assert "deeper than 3 levels" in resp.json["detail"]


def test_tab_newline_and_unicode_are_kept(api, lcm_package):
    created = api.post_json(
        hostile_cases.INSTANCES,
        {
            "vnfdId": lcm_package["vnfd_id"],
            "vnfInstanceName": hostile_cases.ACCEPTED_NAME,
        },
        headers=V,
    ).json
    got = api.get(f"{hostile_cases.INSTANCES}/{created['id']}", headers=V)
    assert got.json["vnfInstanceName"] == hostile_cases.ACCEPTED_NAME


@pytest.fixture
def lcm_package(db):
    from tacker_ng import context
    from tacker_ng.tests import lcm_packages

    return lcm_packages.onboard(
        context.get_admin_context(), lcm_packages.build()
    )


def test_patch_with_a_null_vim_is_not_a_server_error(api, lcm_package):
    created = api.post_json(
        hostile_cases.INSTANCES,
        {"vnfdId": lcm_package["vnfd_id"]},
        headers=V,
    ).json
    resp = api.patch(
        f"{hostile_cases.INSTANCES}/{created['id']}",
        b'{"vimConnectionInfo": {"vim1": null}}',
        headers={**V, "Content-Type": "application/merge-patch+json"},
        expect_errors=True,
    )
    assert resp.status_int < 500, resp.text


def test_empty_version_header_is_refused_where_version_is_optional(api):
    resp = api.get(
        "/vnfpkgm/v1/vnf_packages",
        headers={"Version": ""},
        expect_errors=True,
    )
    assert resp.status_int == 400


@pytest.mark.parametrize("host_id", ["\u0663", "99999999999", "0", "-1"])
def test_odd_host_ids_are_unknown_hosts(api, host_id):
    import urllib.parse

    resp = api.get(
        f"/reservation/v1/os-hosts/{urllib.parse.quote(host_id)}",
        expect_errors=True,
    )
    assert resp.status_int == 404, resp.text


def test_deeply_nested_property_query_is_a_400():
    from tacker_ng.reservation import exceptions, properties

    text = "[" * 40 + '"==", "$a", "b"' + "]" * 40
    with pytest.raises(exceptions.InvalidLease):
        properties.parse(text)
