"""The plugin commands the sandbox walkthrough needs: ``vnf package
onboard`` (create + upload + wait) and ``vnflcm op wait --instance``,
and the conductor list's Sandbox column."""

import io
import zipfile

import pytest
from osc_lib import exceptions

from tacker_ng.osc import conductors, op_wait, packages
from tacker_ng.tests.unit.osc import test_commands as base

SAMPLE = packages.Path(__file__).resolve().parents[3].parent / "samples"


class PackageClient:
    def __init__(self, final="ONBOARDED"):
        self.final = final
        self.uploaded: bytes | None = None
        self.polls = 0

    def create_package(self):
        return {"id": "pkg-1", "onboardingState": "CREATED"}

    def upload_package(self, package_id, csar):
        self.uploaded = csar

    def package(self, package_id):
        self.polls += 1
        state = "PROCESSING" if self.polls < 2 else self.final
        pkg = {
            "id": package_id,
            "vnfdId": "vnfd-1",
            "onboardingState": state,
            "operationalState": "DISABLED",
            "usageState": "NOT_IN_USE",
        }
        if state == "ERROR":
            pkg["onboardingFailureDetails"] = {"detail": "bad VNFD"}
        return pkg


def test_onboard_builds_the_csar_of_a_directory_and_waits():
    client = PackageClient()
    path = str(SAMPLE / "vnf_packages" / "cnf_deployment")
    rc, out, _ = base.run(packages.OnboardPackage, ["--path", path], client)
    assert rc == 0
    assert out["Onboarding State"] == "ONBOARDED"
    assert out["VNFD ID"] == "vnfd-1"
    names = zipfile.ZipFile(io.BytesIO(client.uploaded)).namelist()
    assert "TOSCA-Metadata/TOSCA.meta" in names


def test_onboard_failure_exits_1_with_the_reason(tmp_path):
    csar = tmp_path / "p.zip"
    csar.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    client = PackageClient(final="ERROR")
    rc, out, err = base.run(
        packages.OnboardPackage, ["--path", str(csar)], client
    )
    assert rc == 1
    assert out["Onboarding State"] == "ERROR"
    assert "bad VNFD" in err
    assert client.uploaded == csar.read_bytes()


def test_onboard_missing_path_is_a_command_error(tmp_path):
    with pytest.raises(exceptions.CommandError, match="no such file"):
        base.run(
            packages.OnboardPackage,
            ["--path", str(tmp_path / "nope")],
            PackageClient(),
        )


class NewestClient(base.FakeClient):
    def newest_op_occ(self, instance_id):
        return None if instance_id == "empty" else "occ-9"


def test_op_wait_follows_the_newest_op_of_an_instance():
    rc, out, _ = base.run(
        op_wait.WaitOpOcc,
        ["--instance", "inst-1", "--interval", "0"],
        NewestClient(),
    )
    assert rc == 0
    assert out["ID"] == "occ-9"


@pytest.mark.parametrize(
    "argv", [[], ["occ-1", "--instance", "inst-1"], ["--instance", "empty"]]
)
def test_op_wait_needs_exactly_one_target(argv):
    with pytest.raises(exceptions.CommandError):
        base.run(op_wait.WaitOpOcc, [*argv, "--interval", "0"], NewestClient())


def test_conductor_list_shows_the_sandbox_only_in_one():
    class Sandboxed(base.FakeClient):
        def conductors(self):
            return [{**super().conductors()[0], "sandbox": True}]

    _, out, _ = base.run(conductors.ListConductors, [], Sandboxed())
    assert out[0]["Sandbox"] is True
    _, plain, _ = base.run(conductors.ListConductors, [], base.FakeClient())
    assert "Sandbox" not in plain[0]
