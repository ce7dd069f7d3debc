"""The cnf_deployment sample, extracted once per session."""

import io
import shutil
from pathlib import Path

import pytest

from tacker_ng.packages import builder, csar

SAMPLE = Path(__file__).resolve().parents[5] / "samples/vnf_packages"


@pytest.fixture(scope="session")
def cnf(tmp_path_factory):
    data = builder.build_csar_bytes(SAMPLE / "cnf_deployment")
    dest = tmp_path_factory.mktemp("cnf") / "pkg"
    return csar.extract_csar(io.BytesIO(data), dest)


@pytest.fixture
def flavour(cnf):
    return cnf.vnfd.flavour("simple")


@pytest.fixture
def root(cnf, tmp_path):
    """A writable copy of the extracted package."""
    dest = tmp_path / "pkg"
    shutil.copytree(cnf.root, dest)
    return dest
