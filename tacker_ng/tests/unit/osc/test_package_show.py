"""``openstack vnf package show`` prints onboardingWarnings."""

from tacker_ng.osc import packages
from tacker_ng.tests.unit.osc.test_commands import run


class Client:
    def __init__(self, pkg):
        self.pkg = pkg

    def package(self, package_id):
        assert package_id == self.pkg["id"]
        return self.pkg


def test_show_prints_warnings_one_per_line():
    pkg = {
        "id": "p1",
        "vnfdId": "d1",
        "onboardingState": "ONBOARDED",
        "operationalState": "ENABLED",
        "usageState": "NOT_IN_USE",
        "onboardingWarnings": ["first", "second"],
        "_links": {},
    }
    rc, out, _ = run(packages.ShowPackage, ["p1"], Client(pkg))
    assert rc == 0
    assert out["Onboarding Warnings"] == "first\nsecond"
    assert out["VNFD ID"] == "d1"


def test_show_without_warnings_has_no_such_row():
    pkg = {"id": "p1", "onboardingState": "CREATED"}
    _, out, _ = run(packages.ShowPackage, ["p1"], Client(pkg))
    assert out == {"ID": "p1", "Onboarding State": "CREATED"}
