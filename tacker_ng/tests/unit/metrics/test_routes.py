"""Request paths become route templates: bounded labels."""

import pytest

from tacker_ng.api import openapi
from tacker_ng.metrics import routes

ID = "5f0c3c1e-8a4e-4a86-9e53-3a9f2bcb0d71"
LCM = "/vnflcm/v2/vnf_instances"
PKG = "/vnfpkgm/v1/vnf_packages"  # served like /vnfpkgm/v2


@pytest.fixture(scope="module")
def templates():
    paths = [*openapi.build_document()["paths"], *routes.EXTRA_TEMPLATES]
    return routes.RouteTemplates(paths)


def test_every_documented_route_is_its_own_label(templates):
    for template in openapi.build_document()["paths"]:
        path = template
        for name in ("vnfInstanceId", "vnfLcmOpOccId", "subscriptionId",
                     "vnfPkgId", "vnfdId", "leaseId", "pmJobId"):  # fmt: skip
            path = path.replace("{" + name + "}", ID)
        path = path.replace("{", "x").replace("}", "")  # other ids
        assert templates.match(path) == template, path
        assert templates.label(path, 404) == template


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/", "/"),
        (f"{LCM}/{ID}/scale", LCM + "/{vnfInstanceId}/scale"),
        (f"{LCM}/{ID}/", LCM + "/{vnfInstanceId}"),
        (f"{PKG}/{ID}/package_content", PKG + "/{vnfPkgId}/package_content"),
        ("/v1.0/vims.json", "/v1.0/vims.json"),
        (f"/v1.0/vims/{ID}.json", "/v1.0/vims/{vimId}.json"),
        (f"/v1.0/vims/{ID}", "/v1.0/vims/{vimId}"),
        ("/metrics", "/metrics"),
    ],
)  # fmt: skip
def test_templates(templates, path, template):
    assert templates.label(path, 200) == template


def test_unknown_paths_cannot_make_series(templates):
    # Failed requests to unknown paths share one label, whoever sends
    # them (an unauthenticated caller gets 401 before any routing).
    for status in (400, 401, 404, 405):
        assert templates.label(f"/{ID}/x/{ID}", status) == routes.UNMATCHED
        assert templates.label("/vnflcm/v3/anything", status) == "unmatched"
    # A served route the document misses keeps its shape, ids replaced.
    assert templates.label(f"/vnflcm/v2/vnf_instances/{ID}/new_task", 202) == (
        "/vnflcm/v2/vnf_instances/{id}/{id}"
    )
    assert templates.label(f"/v1/vnf_instances/{ID}/observe", 202) == (
        "/v1/vnf_instances/{vnfInstanceId}/observe"
    )
