"""A client set up for Tacker, not tacker-ng, is told what to change.

python-tackerclient without ``--os-tacker-api-version 2`` calls
``/vnflcm/v1``; python-blazarclient given the API root calls ``/leases``.
Their 404s name the option; 404s of served routes stay as they are.
"""

import json

import pytest

from tacker_ng.api import errors

TACKERCLIENT_FIX = ("--os-tacker-api-version 2", "OS_TACKER_API_VERSION=2")


def _problem(resp, status: int = 404) -> dict:
    assert resp.status_int == status
    assert resp.content_type == errors.PROBLEM_JSON
    return json.loads(resp.body)


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", "/vnflcm/v1/vnf_instances"),
        ("POST", "/vnflcm/v1/vnf_instances"),
        ("GET", "/vnflcm/v1/vnf_lcm_op_occs/x"),
        ("POST", "/vnflcm/v1/vnf_instances/x/instantiate"),
        ("GET", "/vnflcm/v1/api_versions"),
        ("DELETE", "/vnflcm/v1/subscriptions/x"),
    ],
)
def test_vnflcm_v1_names_the_tackerclient_option(api, method, path):
    resp = api.request(path, method=method, expect_errors=True)
    body = _problem(resp)
    assert body["title"] == "Not Found"
    assert "/vnflcm/v2" in body["detail"]
    for fix in TACKERCLIENT_FIX:
        assert fix in body["detail"]


def test_unserved_vnfpkgm_v1_route_names_what_is_served(api):
    body = _problem(api.get("/vnfpkgm/v1/vnf_instances", expect_errors=True))
    assert "/vnfpkgm/v1/vnf_instances" in body["detail"]
    assert "vnf_packages" in body["detail"]
    for fix in TACKERCLIENT_FIX:
        assert fix in body["detail"]


def test_served_vnfpkgm_v1_routes_keep_their_answers(api):
    assert api.get("/vnfpkgm/v1/vnf_packages").json == []
    missing = _problem(
        api.get("/vnfpkgm/v1/vnf_packages/nope", expect_errors=True)
    )
    assert missing["detail"] == "VNF package nope does not exist."
    assert api.get("/vnflcm/api_versions").json["uriPrefix"] == "/vnflcm"


def test_other_unknown_paths_stay_plain(api):
    body = _problem(api.get("/vnflcm/v3/vnf_instances", expect_errors=True))
    assert body["detail"] == "The resource could not be found."
    body = _problem(api.get("/v1/nothing", expect_errors=True))
    assert "OS_TACKER_API_VERSION" not in body["detail"]


@pytest.mark.parametrize(
    "path", ["/leases", "/os-hosts", "/v1/leases/x", "/reservation/os-hosts"]
)
def test_misdirected_blazarclient_is_told_the_endpoint(api, conf, path):
    conf.set_override("public_endpoint", "https://vnfm:9890/", group="api")
    resp = api.get(path, expect_errors=True)
    assert resp.status_int == 404
    # python-blazarclient prints error_message, any other body as a dict.
    assert resp.content_type == "application/json"
    message = resp.json["error_message"]
    endpoint = "https://vnfm:9890/reservation/v1"
    assert f"OS_RESERVATION_ENDPOINT_OVERRIDE={endpoint}" in message
    assert f"--os-endpoint {endpoint}" in message
    assert f"not at {path}" in message


def test_blazarclient_at_the_right_endpoint_is_served(api):
    assert api.get("/reservation/v1/leases").json == {"leases": []}
    resp = api.get("/reservation/v1/leases/nope", expect_errors=True)
    assert "OS_RESERVATION" not in resp.json["error_message"]
