"""List pages through the API on MariaDB and PostgreSQL: every row once,
in one stable order (created_at, then id), across pages (with and without
a filter)."""

import re

import pytest
import requests

from tacker_ng.tests.functional import lcm_fixtures

V = {"Version": "2.0.0"}
INSTANCES = "/vnflcm/v2/vnf_instances"


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def dep(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"paging-{request.param}")
    with lcm_fixtures.lcm_deployment(
        tmp,
        request.param,
        conductors=("cond-a",),
        extra={"api": {"max_page_size": 3}},
    ) as deployment:
        yield deployment


def _all_pages(dep, url: str) -> tuple[list[dict], int]:
    got, pages = [], 0
    while url:
        resp = requests.get(url, headers={**dep.auth, **V}, timeout=30)
        assert resp.status_code == 200, resp.text
        got.extend(resp.json())
        pages += 1
        link = resp.headers.get("Link")
        url = (
            re.fullmatch(r'<(.*)>; rel="next"', link).group(1)
            if link
            else None
        )
    return got, pages


def test_pages_cover_every_row_once_in_order(dep):
    client = dep.client()
    made = []
    for i in range(8):
        resp = client.post(
            INSTANCES,
            {
                "vnfdId": dep.package["vnfd_id"],
                "vnfInstanceName": f"even-{i}" if i % 2 == 0 else f"odd-{i}",
            },
        )
        assert resp.status_code == 201, resp.text
        made.append(resp.json()["id"])
    got, pages = _all_pages(dep, dep.url + INSTANCES)
    order = [g["id"] for g in got]
    assert sorted(order) == sorted(made)  # each exactly once
    assert pages == 3
    assert _all_pages(dep, dep.url + INSTANCES)[0] == got  # stable
    filtered, pages = _all_pages(
        dep,
        dep.url + INSTANCES + "?filter=(cont,vnfInstanceName,even)",
    )
    evens = set(made[::2])
    assert [g["id"] for g in filtered] == [i for i in order if i in evens]
    assert pages == 2
    # Attribute selectors still apply on pages.
    first = requests.get(
        dep.url + INSTANCES + "?fields=vnfInstanceName",
        headers={**dep.auth, **V},
        timeout=30,
    ).json()
    assert [set(item) for item in first] == [
        {
            "id",
            "vnfInstanceName",
            "vnfdId",
            "vnfProvider",
            "vnfProductName",
            "vnfSoftwareVersion",
            "vnfdVersion",
            "instantiationState",
            "_links",
        }
    ] * 3
