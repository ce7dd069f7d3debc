"""Onboarding through the API and the conductor: samples, hostile CSARs.

Every sample reaches ONBOARDED and its VNFD is served; every malicious
archive of the phase 1 tests, uploaded through the API, ends ERROR with
the precise refusal reason, leaves nothing behind and nothing outside the
store, and the API keeps serving.
"""

import io
import os

import pytest

from tacker_ng.packages import csar, onboarding, store
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm import malicious
from tacker_ng.tests.unit.vnfpkgm.conftest import PREFIX, V, zip_names

PKGS = f"{PREFIX}/vnf_packages"
SAMPLES = ["heat_vdu_affinity", "k8s_cluster", "cnf_deployment"]
EMPTY_STORE = {".archives", ".incoming"}


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_reaches_onboarded_and_vnfd_is_served(pkgm, tmp_path, name):
    data = helpers.sample_csar(name)
    expected = csar.extract_csar(io.BytesIO(data), tmp_path / "expected")
    vnfd = expected.vnfd
    pkg = pkgm.onboard(data, userDefinedData={"sample": name})
    assert pkg["vnfdId"] == vnfd.descriptor_id
    assert pkg["vnfProvider"] == vnfd.provider
    assert pkg["vnfProductName"] == vnfd.product_name
    assert pkg["vnfSoftwareVersion"] == vnfd.software_version
    assert pkg["vnfdVersion"] == vnfd.descriptor_version
    assert pkg["operationalState"] == "ENABLED"
    assert pkg["usageState"] == "NOT_IN_USE"
    assert pkg["userDefinedData"] == {"sample": name}
    images = {
        node
        for flavour in vnfd.flavours.values()
        for node, vdu in flavour.vdus.items()
        if vdu.sw_image_data
    }
    assert {i["id"] for i in pkg["softwareImages"]} == images
    for image in pkg["softwareImages"]:
        # SOL005 9.5.3.2: imagePath for a shipped image, imageUri for
        # one outside the package (the samples point to their image).
        assert ("imagePath" in image) != ("imageUri" in image), image
        if "imageUri" in image:
            assert image["imageUri"].startswith("https://")
    assert {a["artifactPath"] for a in pkg["additionalArtifacts"]} == set(
        expected.files
    )
    resp = pkgm.app.get(
        f"{PKGS}/{pkg['id']}/vnfd", headers={**V, "Accept": "application/zip"}
    )
    assert set(zip_names(resp.body)) == {
        *vnfd.definitions_files,
        "TOSCA-Metadata/TOSCA.meta",
    }
    content = pkgm.app.get(f"{PKGS}/{pkg['id']}/package_content", headers=V)
    assert content.body == data
    assert pkgm.store_entries() >= {
        pkg["id"],
        f".archives/{pkg['id']}.zip",
    }
    assert not os.listdir(store.root() / ".incoming")


@pytest.mark.parametrize("case", malicious.CASES, ids=lambda c: c.id)
def test_malicious_upload_ends_error_with_the_reason(pkgm, conf, case):
    for name, value in case.overrides.items():
        conf.set_override(name, value, "vnf_package")
    outside = pkgm.outside_store()
    evil = [
        pkgm.tmp_path.parent / "evil.txt",
        store.root().parent / "evil.txt",
        pkgm.tmp_path / "evil.txt",
    ]
    pkg = pkgm.create()
    pkgm.upload(pkg["id"], case.build())
    done = pkgm.wait(pkg["id"])
    assert done["onboardingState"] == "ERROR", done
    assert done["operationalState"] == "DISABLED"
    assert "vnfdId" not in done and "vnfd" not in done["_links"]
    details = done["onboardingFailureDetails"]
    assert details["status"] == 422
    if case.code:
        assert details["title"] == "Invalid VNF package"
        assert details["reasonCode"] == case.code, details
        if case.member:
            # Control characters are stored escaped (see storable()).
            assert details["member"] == onboarding.storable(case.member)
    else:
        assert details["title"] == "Invalid VNFD"
        assert details["file"] == case.vnfd_file, details
        if case.detail:
            assert case.detail in details["detail"]
    # Nothing kept, nothing written elsewhere; the API is still up.
    assert pkgm.store_entries() == EMPTY_STORE
    assert pkgm.outside_store() == outside
    assert not any(path.exists() for path in evil)
    assert pkgm.app.get("/").status_int == 200
    listed = pkgm.app.get(
        PKGS, params={"filter": "(eq,onboardingState,ERROR)"}, headers=V
    ).json
    assert [p["id"] for p in listed] == [pkg["id"]]
    # A refused package can be deleted.
    pkgm.delete(pkg["id"])


def test_archive_over_max_size_is_refused_at_upload(pkgm, conf):
    data = helpers.make_zip(helpers.minimal_files())
    conf.set_override("max_archive_size", len(data) - 1, "vnf_package")
    pkg = pkgm.create()
    resp = pkgm.upload(pkg["id"], data, status=413)
    assert resp.json["status"] == 413
    assert pkgm.get(pkg["id"])["onboardingState"] == "CREATED"


def test_same_vnfd_id_twice_second_ends_error(pkgm):
    data = helpers.make_zip(helpers.minimal_files())
    first = pkgm.onboard(data)
    second = pkgm.create()
    pkgm.upload(second["id"], data)
    done = pkgm.wait(second["id"])
    assert done["onboardingState"] == "ERROR"
    details = done["onboardingFailureDetails"]
    assert details["status"] == 409
    assert details["reasonCode"] == "vnfd_id_in_use"
    assert first["id"] in details["detail"]
    assert not (store.root() / second["id"]).exists()
    assert (store.root() / first["id"]).is_dir()
    assert pkgm.get(first["id"])["onboardingState"] == "ONBOARDED"


def test_many_uploads_in_parallel_api_stays_up(pkgm):
    good = helpers.make_zip(helpers.minimal_files())
    bad = malicious.CASES[0].build()
    ids = []
    for i in range(6):
        pkg = pkgm.create()
        pkgm.upload(pkg["id"], good if i == 0 else bad)
        ids.append(pkg["id"])
    states = [pkgm.wait(i)["onboardingState"] for i in ids]
    assert states == ["ONBOARDED"] + ["ERROR"] * 5


def test_reasons_are_stored_without_control_characters():
    assert onboarding.storable(
        {"detail": "evil\x00txt\x7f", "n": 1, "l": ["\ud800", "ok"]}
    ) == {"detail": "evil\\x00txt\\x7f", "n": 1, "l": ["\\xd800", "ok"]}


def test_reason_the_database_refuses_falls_back(pkgm, monkeypatch):
    from oslo_db import exception as db_exc

    real = onboarding._to_error
    calls = []

    def picky(context, package_id, from_states, details):
        calls.append(details["reasonCode"])
        if len(calls) == 1:
            raise db_exc.DBError("unsupported Unicode escape sequence")
        return real(context, package_id, from_states, details)

    monkeypatch.setattr(onboarding, "_to_error", picky)
    pkg = pkgm.create()
    pkgm.upload(pkg["id"], malicious.CASES[0].build())
    details = pkgm.wait(pkg["id"])["onboardingFailureDetails"]
    assert calls == ["unsafe_path", "internal_error"]
    assert details["reasonCode"] == "internal_error"
