"""``openstack vnf package show`` (python-tackerclient's, unchanged)
prints onboardingWarnings: it shows every attribute of the package body,
SOL005's under their titles and the others under their own names. So
tacker-ng adds no command of the same name (two plugins registering one
name would shadow each other in an order nobody chose)."""

from tackerclient.osc.v1.vnfpkgm import vnf_package


def test_tackerclients_show_prints_onboarding_warnings():
    pkg = {
        "id": "p1",
        "vnfdId": "d1",
        "onboardingState": "ONBOARDED",
        "operationalState": "ENABLED",
        "usageState": "NOT_IN_USE",
        "onboardingWarnings": ["first", "second"],
        "_links": {},
    }
    titles, keys = vnf_package._get_columns(pkg)
    assert "onboardingWarnings" in titles
    assert "onboardingWarnings" in keys
    assert "VNFD ID" in titles


def test_tacker_ng_registers_no_second_package_show():
    import configparser
    from pathlib import Path

    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).resolve().parents[4] / "setup.cfg")
    commands = cfg["entry_points"]["openstack.tacker_ng.v1"]
    assert "vnf_package_show" not in commands
