"""VnfPkgInfo ``onboardingWarnings``: the deviations a package onboarded
with at ``[vnf_package] compatibility = tacker``, stored with it, shown
by GET, absent for a package without any; ``strict`` ends it ERROR."""

import logging

import yaml

from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm.conftest import PREFIX, V

PKGS = f"{PREFIX}/vnf_packages"
WARNING = (
    "Definitions/vnfd.yaml, group group1: required property description "
    "is missing (descriptive only; accepted)"
)


def tacker_style_csar() -> bytes:
    """Lower-case ``Created-by`` and a PlacementGroup without description."""
    files = helpers.minimal_files()
    vnfd = yaml.safe_load(files["Definitions/vnfd.yaml"])
    vnfd["topology_template"]["groups"] = {
        "group1": {
            "type": "tosca.groups.nfv.PlacementGroup",
            "members": ["VDU1"],
        }
    }
    files["Definitions/vnfd.yaml"] = yaml.safe_dump(vnfd).encode()
    files["TOSCA-Metadata/TOSCA.meta"] = helpers.TOSCA_META.replace(
        "Created-By", "Created-by"
    ).encode()
    return helpers.make_zip(files)


def test_warnings_are_stored_shown_and_logged_once(pkgm, caplog):
    with caplog.at_level(logging.WARNING, logger="tacker_ng"):
        pkg = pkgm.onboard(tacker_style_csar())
    assert pkg["onboardingState"] == "ONBOARDED"
    assert pkg["onboardingWarnings"] == [WARNING]
    shown = pkgm.app.get(f"{PKGS}/{pkg['id']}", headers=V).json
    assert shown["onboardingWarnings"] == [WARNING]
    logged = [r for r in caplog.records if WARNING in r.getMessage()]
    assert len(logged) == 1
    # Excluded from lists by default like the other complex attributes.
    listed = pkgm.app.get(PKGS, headers=V).json
    assert "onboardingWarnings" not in listed[0]
    selected = pkgm.app.get(
        f"{PKGS}?fields=onboardingWarnings", headers=V
    ).json
    assert selected[0]["onboardingWarnings"] == [WARNING]


def test_package_without_deviation_has_no_warnings(pkgm):
    pkg = pkgm.onboard(helpers.make_zip(helpers.minimal_files()))
    assert "onboardingWarnings" not in pkg


def test_strict_refuses_with_the_old_message(pkgm):
    pkgm.conf.set_override("compatibility", "strict", group="vnf_package")
    try:
        created = pkgm.create()
        pkgm.upload(created["id"], tacker_style_csar())
        done = pkgm.wait(created["id"])
    finally:
        pkgm.conf.clear_override("compatibility", group="vnf_package")
    assert done["onboardingState"] == "ERROR"
    assert done["onboardingFailureDetails"]["detail"] == (
        "Invalid VNFD (file Definitions/vnfd.yaml, node group1): "
        "properties.description: required property is missing"
    )
    assert "onboardingWarnings" not in done
