"""Hostile input on MariaDB and PostgreSQL: the same answers as on SQLite.

A real API process (gunicorn, 2 workers) and conductor on each database;
every case of ``tacker_ng.tests.hostile_cases`` is sent over HTTP and must
get its 4xx, never a 5xx, and leave nothing stored. Free text with tab,
newline and non-ASCII characters is stored and returned unchanged on both.
"""

import http.client
import json
import urllib.parse

import pytest
import requests

from tacker_ng.tests import hostile_cases
from tacker_ng.tests.functional import lcm_fixtures

V = {"Version": "2.0.0"}


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def dep(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"hostile-{request.param}")
    with lcm_fixtures.lcm_deployment(
        tmp, request.param, conductors=("cond-a",)
    ) as deployment:
        yield deployment


def _raw(dep, method: str, path: str, body: bytes | None, content_type):
    """Send exactly these bytes (no client-side re-encoding of the path)."""
    url = urllib.parse.urlsplit(dep.url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    headers = {**dep.auth, **V}
    if body is not None:
        headers["Content-Type"] = content_type
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.getheader("Content-Type"), resp.read()
    finally:
        conn.close()


@pytest.mark.parametrize("case", hostile_cases.CASES, ids=lambda c: c.name)
def test_hostile_request_is_refused(dep, case):
    status, content_type, body = _raw(
        dep, case.method, case.path, case.body, case.content_type
    )
    assert status == case.status, body
    doc = json.loads(body)
    if case.path.startswith("/reservation/"):
        assert doc["error_code"] == case.status
        assert case.detail in doc["error_message"]
    else:
        assert content_type == "application/problem+json"
        assert case.detail in doc["detail"], doc
    listed = requests.get(
        dep.url + hostile_cases.INSTANCES,
        headers={**dep.auth, **V},
        timeout=30,
    ).json()
    assert listed == []


def test_oversize_body_is_413(dep):
    body = b'{"vnfdId":"' + b"x" * 200_000 + b'"}'
    status, content_type, _ = _raw(
        dep, "POST", hostile_cases.INSTANCES, body, "application/json"
    )
    assert status == 413
    assert content_type == "application/problem+json"


def test_free_text_round_trips_identically(dep):
    client = dep.client()
    resp = client.post(
        hostile_cases.INSTANCES,
        {
            "vnfdId": dep.package["vnfd_id"],
            "vnfInstanceName": hostile_cases.ACCEPTED_NAME,
        },
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    got = client.get(f"{hostile_cases.INSTANCES}/{inst_id}").json()
    assert got["vnfInstanceName"] == hostile_cases.ACCEPTED_NAME
    resp = requests.delete(
        f"{dep.url}{hostile_cases.INSTANCES}/{inst_id}",
        headers={**dep.auth, **V},
        timeout=30,
    )
    assert resp.status_code == 204
