"""``/vnfpkgm/v1/vnf_packages[/{id}]``: create, list, show, PATCH, DELETE."""

import uuid

import pytest
import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm.conftest import PREFIX, V

PKGS = f"{PREFIX}/vnf_packages"
MINIMAL = helpers.make_zip(helpers.minimal_files())


def _problem(resp, status):
    assert resp.status_int == status, resp.text
    assert resp.content_type == "application/problem+json"
    body = resp.json
    assert body["status"] == status
    return body


def test_create_show_defaults(pkgm):
    pkg = pkgm.create({"userDefinedData": {"owner": "ops", "n": 1}})
    assert pkg["onboardingState"] == "CREATED"
    assert pkg["operationalState"] == "DISABLED"
    assert pkg["usageState"] == "NOT_IN_USE"
    assert pkg["userDefinedData"] == {"owner": "ops", "n": 1}
    assert "vnfdId" not in pkg and "vnfd" not in pkg["_links"]
    # Links name the canonical /vnfpkgm/v2 resource, whatever prefix
    # the request used.
    url = f"http://localhost/vnfpkgm/v2/vnf_packages/{pkg['id']}"
    assert pkg["_links"] == {
        "self": {"href": url},
        "packageContent": {"href": f"{url}/package_content"},
    }
    assert pkgm.get(pkg["id"]) == pkg


def test_create_answers_location_and_version(pkgm):
    resp = pkgm.app.post_json(PKGS, {}, headers=V, status=201)
    assert resp.headers["Location"].endswith(resp.json["id"])
    assert resp.headers["Version"] == "2.1.0"
    assert resp.json["userDefinedData"] == {}


def test_version_header_is_optional_but_checked(pkgm):
    # Tacker's /vnfpkgm/v1 clients send no Version header.
    resp = pkgm.app.post_json(PKGS, {}, status=201)
    assert resp.headers["Version"] == "2.1.0"
    bad = pkgm.app.get(PKGS, headers={"Version": "9.9.9"}, status=406)
    _problem(bad, 406)
    info = pkgm.app.get(f"{PREFIX}/api_versions").json
    assert info == {
        "uriPrefix": PREFIX,
        "apiVersions": [{"version": "2.1.0", "isDeprecated": False}],
    }
    root = pkgm.app.get("/").json
    assert {"name": "vnfpkgm", "uriPrefix": PREFIX, "versions": ["2.1.0"]} in (
        root["apis"]
    )


@pytest.mark.parametrize(
    "body",
    [
        {"userDefinedData": "x"},
        {"unknown": 1},
        [],
    ],
)
def test_create_400(pkgm, body):
    resp = pkgm.app.post_json(PKGS, body, headers=V, status=400)
    _problem(resp, 400)


def test_create_malformed_json_400_and_media_type_415(pkgm):
    resp = pkgm.app.post(
        PKGS,
        b"{nope",
        headers={**V, "Content-Type": "application/json"},
        status=400,
    )
    assert "Malformed JSON" in _problem(resp, 400)["detail"]
    resp = pkgm.app.post(
        PKGS, b"{}", headers={**V, "Content-Type": "text/plain"}, status=415
    )
    _problem(resp, 415)


def test_unknown_package_404(pkgm):
    missing = str(uuid.uuid4())
    for path in (
        "",
        "/package_content",
        "/vnfd",
        "/artifacts/Definitions/vnfd.yaml",
    ):
        resp = pkgm.app.get(f"{PKGS}/{missing}{path}", headers=V, status=404)
        assert missing in _problem(resp, 404)["detail"]
    pkgm.delete(missing, status=404)
    pkgm.patch(missing, {"userDefinedData": {}}, status=404)
    pkgm.upload("not-a-uuid", MINIMAL, status=404)


def test_methods_not_allowed_405(pkgm):
    pkg = pkgm.create()
    for method, path in (
        ("put", PKGS),
        ("delete", PKGS),
        ("post", f"{PKGS}/{pkg['id']}"),
        ("put", f"{PKGS}/{pkg['id']}"),
        ("post", f"{PKGS}/{pkg['id']}/package_content"),
        ("delete", f"{PKGS}/{pkg['id']}/package_content"),
        ("get", f"{PKGS}/{pkg['id']}/package_content/upload_from_uri"),
        ("post", f"{PKGS}/{pkg['id']}/vnfd"),
    ):
        resp = getattr(pkgm.app, method)(path, headers=V, status=405)
        _problem(resp, 405)
        assert resp.headers["Allow"]


def test_patch_user_defined_data_merges(pkgm):
    pkg = pkgm.create({"userDefinedData": {"a": 1, "b": {"c": 2, "d": 3}}})
    resp = pkgm.patch(
        pkg["id"], {"userDefinedData": {"a": None, "b": {"c": 5}, "e": "x"}}
    )
    assert resp.json == {
        "userDefinedData": {"a": None, "b": {"c": 5}, "e": "x"}
    }
    assert pkgm.get(pkg["id"])["userDefinedData"] == {
        "b": {"c": 5, "d": 3},
        "e": "x",
    }


def test_patch_merge_patch_media_type(pkgm):
    pkg = pkgm.create()
    pkgm.app.patch(
        f"{PKGS}/{pkg['id']}",
        b'{"userDefinedData": {"k": "v"}}',
        headers={**V, "Content-Type": "application/merge-patch+json"},
        status=200,
    )
    assert pkgm.get(pkg["id"])["userDefinedData"] == {"k": "v"}
    resp = pkgm.app.patch(
        f"{PKGS}/{pkg['id']}",
        b"{}",
        headers={**V, "Content-Type": "text/plain"},
        status=415,
    )
    _problem(resp, 415)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"operationalState": "BROKEN"},
        {"onboardingState": "ONBOARDED"},
        {"userDefinedData": []},
    ],
)
def test_patch_400(pkgm, body):
    pkg = pkgm.create()
    _problem(pkgm.patch(pkg["id"], body, status=400), 400)


def test_operational_state_needs_onboarded_409(pkgm):
    pkg = pkgm.create()
    body = _problem(
        pkgm.patch(pkg["id"], {"operationalState": "ENABLED"}, status=409),
        409,
    )
    assert "CREATED" in body["detail"]


def test_enable_disable_and_delete_rules(pkgm):
    pkg = pkgm.onboard(MINIMAL)
    assert pkg["operationalState"] == "ENABLED"
    body = _problem(pkgm.delete(pkg["id"], status=409), 409)
    assert "ENABLED" in body["detail"]
    _problem(
        pkgm.patch(pkg["id"], {"operationalState": "ENABLED"}, status=409),
        409,
    )
    resp = pkgm.patch(pkg["id"], {"operationalState": "DISABLED"})
    assert resp.json == {"operationalState": "DISABLED"}
    assert pkgm.get(pkg["id"])["operationalState"] == "DISABLED"
    pkgm.patch(pkg["id"], {"operationalState": "ENABLED"})
    pkgm.patch(pkg["id"], {"operationalState": "DISABLED"})
    pkgm.delete(pkg["id"])
    pkgm.get(pkg["id"], status=404)
    assert pkgm.store_entries() <= {".archives", ".incoming"}


def test_delete_in_use_409(pkgm):
    pkg = pkgm.onboard(MINIMAL)
    pkgm.patch(pkg["id"], {"operationalState": "DISABLED"})
    with db_api.writer() as session:
        session.execute(
            sa.update(models.VnfPackage.__table__)
            .where(models.VnfPackage.__table__.c.id == pkg["id"])
            .values(usage_state="IN_USE")
        )
    body = _problem(pkgm.delete(pkg["id"], status=409), 409)
    assert "IN_USE" in body["detail"]


def test_delete_created_package(pkgm):
    pkg = pkgm.create()
    pkgm.delete(pkg["id"])
    pkgm.get(pkg["id"], status=404)


def _insert(project_id, **values):
    row = {
        "id": str(uuid.uuid4()),
        "onboarding_state": "CREATED",
        "operational_state": "DISABLED",
        "usage_state": "NOT_IN_USE",
        "user_defined_data": {},
        "project_id": project_id,
        **values,
    }
    with db_api.writer() as session:
        session.execute(sa.insert(models.VnfPackage.__table__).values(**row))
    return row["id"]


def test_list_filters_in_sql_and_default_selectors(pkgm):
    onboarded = pkgm.onboard(MINIMAL, userDefinedData={"tier": "gold"})
    created = pkgm.create({"userDefinedData": {"tier": "bronze"}})
    listed = pkgm.app.get(PKGS, headers=V).json
    assert {p["id"] for p in listed} == {onboarded["id"], created["id"]}
    # softwareImages, additionalArtifacts, userDefinedData, checksum and
    # onboardingFailureDetails are left out by default (SOL005 9.4.2.3.2).
    for body in listed:
        assert "userDefinedData" not in body
        assert "checksum" not in body
    only = pkgm.app.get(
        PKGS,
        params={"filter": "(eq,onboardingState,ONBOARDED)"},
        headers=V,
    ).json
    assert [p["id"] for p in only] == [onboarded["id"]]
    bronze = pkgm.app.get(
        PKGS,
        params={
            "filter": "(eq,userDefinedData/tier,bronze)",
            "all_fields": "",
        },
        headers=V,
    ).json
    assert [p["id"] for p in bronze] == [created["id"]]
    assert bronze[0]["userDefinedData"] == {"tier": "bronze"}
    by_vnfd = pkgm.app.get(
        PKGS,
        params={"filter": f"(eq,vnfdId,{onboarded['vnfdId']})"},
        headers=V,
    ).json
    assert [p["id"] for p in by_vnfd] == [onboarded["id"]]


@pytest.mark.parametrize(
    "params",
    [
        {"filter": "(eq,nope,1)"},
        {"filter": "(eq,onboardingState,SOMETIMES)"},
        {"filter": "(eq,onboardingState"},
        {"fields": "nope"},
        {"nextpage_opaque_marker": "forged"},
    ],
)
def test_list_bad_query_400(pkgm, params):
    _problem(pkgm.app.get(PKGS, params=params, headers=V, status=400), 400)


def test_list_paging_with_link_header(pkgm, conf):
    conf.set_override("max_page_size", 2, group="api")
    ids = {pkgm.create()["id"] for _ in range(5)}
    seen = []
    url = PKGS
    while url:
        resp = pkgm.app.get(url, headers=V)
        assert len(resp.json) <= 2
        seen += [p["id"] for p in resp.json]
        link = resp.headers.get("Link")
        url = (
            link[1 : link.index(">")].replace("http://localhost", "")
            if (link)
            else None
        )
    assert sorted(seen) == sorted(ids)


def test_projects_are_isolated(pkgm):
    other = _insert("other-project")
    mine = pkgm.create()["id"]
    pkgm = pkgm.as_roles("member", "reader")
    listed = pkgm.app.get(PKGS, headers=V).json
    assert [p["id"] for p in listed] == [mine]
    pkgm.get(other, status=404)
    pkgm.delete(other, status=404)


def test_policy_forbids_403(pkgm):
    pkg = pkgm.create()
    admin, pkgm = pkgm, pkgm.as_roles("reader")
    assert pkgm.get(pkg["id"])["id"] == pkg["id"]
    for resp in (
        pkgm.app.post_json(PKGS, {}, headers=V, status=403),
        pkgm.patch(pkg["id"], {"userDefinedData": {}}, status=403),
        pkgm.delete(pkg["id"], status=403),
        pkgm.upload(pkg["id"], MINIMAL, status=403),
        pkgm.app.post_json(
            f"{PKGS}/{pkg['id']}/package_content/upload_from_uri",
            {"addressInformation": "http://x/y.zip"},
            headers=V,
            status=403,
        ),
    ):
        _problem(resp, 403)
    assert admin.get(pkg["id"])["onboardingState"] == "CREATED"


def test_served_under_v2_with_version_header_and_v1_alias(pkgm):
    """SOL013: the major version is in the URI, so 2.x is /vnfpkgm/v2
    (Version header required); /vnfpkgm/v1 serves the same resources
    without it, for python-tackerclient."""
    created = pkgm.app.post_json(
        "/vnfpkgm/v2/vnf_packages", {}, headers=V, status=201
    ).json
    assert created["_links"]["self"]["href"].endswith(created["id"])
    missing = pkgm.app.get(
        f"/vnfpkgm/v2/vnf_packages/{created['id']}", status=400
    )
    assert "Version" in missing.json["detail"]
    via_v1 = pkgm.app.get(f"/vnfpkgm/v1/vnf_packages/{created['id']}").json
    assert via_v1["id"] == created["id"]
    versions = pkgm.app.get("/vnfpkgm/v2/api_versions").json
    assert versions["uriPrefix"] == "/vnfpkgm/v2"
    assert [v["version"] for v in versions["apiVersions"]] == ["2.1.0"]
    root = pkgm.app.get("/").json
    prefixes = {api["uriPrefix"] for api in root["apis"]}
    assert {"/vnfpkgm/v2", "/vnfpkgm/v1"} <= prefixes
