"""Make the test drivers discoverable as entry points, tests only.

Writes a minimal ``.dist-info`` that declares them, in a directory the
test puts on ``sys.path`` (unit tests) or ``PYTHONPATH`` (processes).
"""

from pathlib import Path

from tacker_ng.tests.drivers import fake

DIST = "tacker_ng_test_drivers-0.0.dist-info"


def write(directory: Path) -> Path:
    """Create the distribution under ``directory``; return ``directory``."""
    info = directory / DIST
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tacker-ng-test-drivers\nVersion: 0.0\n"
    )
    (info / "entry_points.txt").write_text(
        "[tacker_ng.infra_drivers]\n"
        f"{fake.VIM_TYPE} = tacker_ng.tests.drivers.fake:FakeInfraDriver\n"
        "\n[tacker_ng.mgmt_drivers]\n"
        "fake_mgmt = tacker_ng.tests.drivers.fake:FakeMgmtDriver\n"
    )
    return directory
