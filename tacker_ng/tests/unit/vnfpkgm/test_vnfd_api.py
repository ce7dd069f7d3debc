"""``.../vnfd`` (Accept negotiation) and ``.../artifacts/{path}``."""

import io
import zipfile

import pytest

from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm.conftest import PREFIX, V, zip_names

PKGS = f"{PREFIX}/vnf_packages"
MINIMAL = helpers.make_zip(helpers.minimal_files())


@pytest.fixture
def single(pkgm):
    """An onboarded package whose VNFD is one file."""
    return pkgm.onboard(MINIMAL)


@pytest.fixture
def multi(pkgm):
    """An onboarded package whose VNFD spans several files."""
    return pkgm.onboard(helpers.sample_csar("heat_vdu_affinity"))


def _vnfd(pkgm, pkg, accept, status=200):
    headers = dict(V)
    if accept is not None:
        headers["Accept"] = accept
    return pkgm.app.get(
        f"{PKGS}/{pkg['id']}/vnfd", headers=headers, status=status
    )


def test_single_file_vnfd_as_text(pkgm, single):
    resp = _vnfd(pkgm, single, "text/plain")
    assert resp.content_type == "text/plain"
    assert resp.text == helpers.MINIMAL_VNFD


@pytest.mark.parametrize(
    "accept",
    [
        "text/plain, application/zip",
        "text/plain;q=0.9, application/zip;q=0.5",
        "*/*",
        None,
    ],
)
def test_single_file_vnfd_prefers_text(pkgm, single, accept):
    assert _vnfd(pkgm, single, accept).content_type == "text/plain"


def test_single_file_vnfd_as_zip(pkgm, single):
    for accept in ("application/zip", "application/zip, text/plain;q=0.1"):
        resp = _vnfd(pkgm, single, accept)
        assert resp.content_type == "application/zip"
        assert zip_names(resp.body) == [
            "Definitions/vnfd.yaml",
            "TOSCA-Metadata/TOSCA.meta",
        ]


def test_multi_file_vnfd_is_a_zip_of_the_definitions(pkgm, multi):
    for accept in ("application/zip", "text/plain, application/zip", "*/*"):
        resp = _vnfd(pkgm, multi, accept)
        assert resp.content_type == "application/zip"
        assert zip_names(resp.body) == [
            "Definitions/heat_vdu_affinity_df_internal_vl.yaml",
            "Definitions/heat_vdu_affinity_df_simple.yaml",
            "Definitions/heat_vdu_affinity_top.vnfd.yaml",
            "Definitions/heat_vdu_affinity_types.yaml",
            "TOSCA-Metadata/TOSCA.meta",
        ]
        archive = zipfile.ZipFile(io.BytesIO(resp.body))
        source = helpers.SAMPLES / "heat_vdu_affinity"
        for name in archive.namelist():
            assert archive.read(name) == (source / name).read_bytes()


def test_multi_file_vnfd_as_text_406(pkgm, multi):
    resp = _vnfd(pkgm, multi, "text/plain", status=406)
    assert resp.content_type == "application/problem+json"
    assert "several files" in resp.json["detail"]


@pytest.mark.parametrize("accept", ["application/json", "text/html"])
def test_vnfd_unsupported_accept_406(pkgm, single, accept):
    resp = _vnfd(pkgm, single, accept, status=406)
    assert resp.json["status"] == 406


def test_artifact_is_served(pkgm, multi):
    path = "BaseHOT/simple/nested/VDU1.yaml"
    resp = pkgm.app.get(f"{PKGS}/{multi['id']}/artifacts/{path}", headers=V)
    source = helpers.SAMPLES / "heat_vdu_affinity" / path
    assert resp.body == source.read_bytes()
    assert resp.content_type == "application/yaml"
    assert {"artifactPath": path}.items() <= next(
        a for a in multi["additionalArtifacts"] if a["artifactPath"] == path
    ).items()


def test_artifact_range_and_type(pkgm, multi):
    path = "UserData/userdata_standard.py"
    data = (helpers.SAMPLES / "heat_vdu_affinity" / path).read_bytes()
    resp = pkgm.app.get(
        f"{PKGS}/{multi['id']}/artifacts/{path}",
        headers={**V, "Range": "bytes=0-9"},
        status=206,
    )
    assert resp.body == data[:10]
    assert resp.content_type == "text/x-python"


@pytest.mark.parametrize(
    "path",
    ["Definitions/nope.yaml", "BaseHOT", "BaseHOT/simple", "nope"],
)
def test_unknown_artifact_404(pkgm, multi, path):
    resp = pkgm.app.get(
        f"{PKGS}/{multi['id']}/artifacts/{path}", headers=V, status=404
    )
    assert resp.json["status"] == 404


def test_artifacts_without_a_path_404(pkgm, multi):
    pkgm.app.get(f"{PKGS}/{multi['id']}/artifacts", headers=V, status=404)


@pytest.mark.parametrize(
    "raw_path",
    [
        "/artifacts/../../../../etc/passwd",
        "/artifacts/%2e%2e/%2e%2e/etc/passwd",
        "/artifacts/..%2f..%2f..%2fetc%2fpasswd",
        "/artifacts//etc/passwd",
        "/artifacts/Definitions/../TOSCA-Metadata/TOSCA.meta",
        "/artifacts/C:%5cevil",
        "/artifacts/%00",
    ],
)
def test_artifact_path_confined_to_the_package(pkgm, multi, raw_path):
    # PATH_INFO as a hostile client could send it, undecoded by webtest.
    prefix = f"{PKGS}/{multi['id']}"
    import urllib.parse

    path = urllib.parse.unquote(prefix + raw_path)
    resp = pkgm.app.get(
        "/", extra_environ={"PATH_INFO": path}, headers=V, status="*"
    )
    assert resp.status_int in (400, 404), (path, resp.status, resp.text)
    assert resp.content_type == "application/problem+json"
    assert b"root:" not in resp.body


def test_onboarded_by_vnfd_id(pkgm, multi):
    base = f"{PREFIX}/onboarded_vnf_packages/{multi['vnfdId']}"
    assert pkgm.app.get(base, headers=V).json == pkgm.get(multi["id"])
    zip_body = pkgm.app.get(
        f"{base}/vnfd", headers={**V, "Accept": "application/zip"}
    ).body
    assert "TOSCA-Metadata/TOSCA.meta" in zip_names(zip_body)
    path = "Definitions/heat_vdu_affinity_types.yaml"
    assert (
        pkgm.app.get(f"{base}/artifacts/{path}", headers=V).body
        == (helpers.SAMPLES / "heat_vdu_affinity" / path).read_bytes()
    )
    pkgm.app.get(
        f"{PREFIX}/onboarded_vnf_packages/no-such-vnfd", headers=V, status=404
    )
    # SOL005 has no collection here: a 404 that says where to look (it
    # was a 405 with an empty Allow header).
    bare = pkgm.app.get(
        f"{PREFIX}/onboarded_vnf_packages", headers=V, status=404
    )
    assert "vnfdId" in bare.json["detail"]
    assert "Allow" not in bare.headers


def test_onboarded_hides_packages_not_onboarded(pkgm):
    pkg = pkgm.create()
    assert pkg["onboardingState"] == "CREATED"
    resp = pkgm.app.get(
        f"{PREFIX}/onboarded_vnf_packages/11111111-2222-3333-4444-555555555555",
        headers=V,
        status=404,
    )
    assert "vnfdId" in resp.json["detail"]
